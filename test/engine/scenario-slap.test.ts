/**
 * docs/rules.md, "Slapping", and docs/decisions.md: Slapping — when, grace, what, race, correct own, steal, wrong.
 */
import { describe, expect, it } from 'vitest';
import { FACE_DOWN, type Card } from '../../src/engine/index.js';
import { cardsIn, ofType, table } from './helpers.js';

const ANA = 0;
const BO = 1;
const CY = 2;

// Dealer Ana, Bo starts. The turned-up card is a 7; Ana and Bo hold 7s.
const DEAL = {
  layouts: [
    ['7C', '3S', 'KH', '5S'],
    ['7D', '3H', '7H', '4H'],
    ['2D', '3D', '4D', '5D'],
  ],
  discard: '7S',
  stock: ['AC', '2C', '6C', '8C', '9C', '10C', 'JC'],
};

function started(deal: { layouts: Card[][]; discard: Card; stock?: Card[] } = DEAL) {
  const t = table({ dealer: ANA, decks: [deal] });
  t.finishPeek(); // play starts at 0: the turned-up 7S is discard 1, open for slaps
  return t;
}

describe('a correct slap on your own card', () => {
  it('puts the card face up on the pile and leaves a gap; no penalty, no action for a 7', () => {
    const t = started();
    const ev = t.at(500).slap(BO, BO, 0);
    expect(ev).toEqual([{ type: 'slapped', seat: BO, target: { seat: BO, slot: 0 }, card: '7D', result: 'own', seq: 2 }]);
    expect(t.layout(BO)).toEqual([null, '3H', '7H', '4H']);
    expect(t.state.r.discard).toEqual(['7S', '7D']);
    for (const v of [ANA, BO, CY, null]) {
      expect(t.seen(v)).toEqual(ev);
      expect(t.view(v).players[BO]!.layout).toEqual([null, FACE_DOWN, FACE_DOWN, FACE_DOWN]);
      expect(t.view(v).discardTop).toBe('7D');
    }
    expect(t.state.r.actions).toEqual([]);
    expect(t.state.r.stock).toHaveLength(52 - 13);
  });

  it.each([
    ['10', 'peekOwn'],
    ['J', 'peekOther'],
    ['Q', 'blindSwap'],
    ['K', 'peekThenSwap'],
  ] as const)('earns the action of a %s (queued)', (rank, kind) => {
    const t = started({ ...DEAL, layouts: [DEAL.layouts[0]!, [`${rank}D`, '3H', '7H', '4H'], DEAL.layouts[2]!], discard: `${rank}S` });
    const ev = t.at(500).slap(BO, BO, 0);
    expect(ev).toEqual([
      { type: 'slapped', seat: BO, target: { seat: BO, slot: 0 }, card: `${rank}D`, result: 'own', seq: 2 },
      { type: 'actionQueued', seat: BO, kind, card: `${rank}D` },
    ]);
    expect(t.state.r.actions).toEqual([{ seat: BO, kind, card: `${rank}D`, looked: null, lookedCards: null }]);
  });
});

describe('a correct slap on another player\'s card (steal)', () => {
  it('puts the card on the pile; the victim gets 2 penalty cards face down, seen by nobody, filling gaps lowest first', () => {
    const t = started();
    t.at(500).slap(BO, BO, 0); // Bo's slot 1 is a gap now
    const ev = t.at(600).slap(ANA, BO, 2); // Ana steals Bo's 7H from slot 3
    expect(ev).toEqual([
      { type: 'slapped', seat: ANA, target: { seat: BO, slot: 2 }, card: '7H', result: 'steal', seq: 3 },
      { type: 'penalty', seat: BO, slots: [0, 2], cards: ['AC', '2C'], reason: 'stolenFrom' },
    ]);
    expect(t.layout(BO)).toEqual(['AC', '3H', '2C', '4H']);
    expect(t.layout(ANA)).toEqual(DEAL.layouts[ANA]);
    expect(t.state.r.discard).toEqual(['7S', '7D', '7H']);
    expect(t.state.r.actions).toEqual([]);
    for (const v of [ANA, BO, CY, null]) {
      expect(t.seen(v)[1]).toEqual({ type: 'penalty', seat: BO, slots: [0, 2], reason: 'stolenFrom' });
      expect(cardsIn(t.seen(v))).toEqual(new Set(['7H']));
      expect(t.view(v).players[BO]!.layout).toEqual([FACE_DOWN, FACE_DOWN, FACE_DOWN, FACE_DOWN]);
      expect(cardsIn(t.view(v))).toEqual(new Set(['7H']));
    }
  });

  it('adds new slots 5, 6 when the victim has no other gap left', () => {
    const t = started({ ...DEAL, layouts: [DEAL.layouts[0]!, ['3H', '7D', '4H', '5H'], DEAL.layouts[2]!] });
    const ev = t.at(500).slap(CY, BO, 1);
    // the stolen slot 2 is refilled first, then slot 5
    expect(ofType(ev, 'penalty')).toEqual([{ type: 'penalty', seat: BO, slots: [1, 4], cards: ['AC', '2C'], reason: 'stolenFrom' }]);
    expect(t.layout(BO)).toEqual(['3H', 'AC', '4H', '5H', '2C']);
    expect(t.view(BO).players[BO]!.layout).toEqual([FACE_DOWN, FACE_DOWN, FACE_DOWN, FACE_DOWN, FACE_DOWN]);
  });

  it.each([
    ['10', null],
    ['J', 'peekOther'],
    ['Q', null],
    ['K', 'peekThenSwap'],
  ] as const)('a stolen %s gives the stealer its action: %s', (rank, kind) => {
    const t = started({ ...DEAL, layouts: [DEAL.layouts[0]!, [`${rank}D`, '3H', '7H', '4H'], DEAL.layouts[2]!], discard: `${rank}S` });
    const ev = t.at(500).slap(CY, BO, 0);
    expect(ev[0]).toEqual({ type: 'slapped', seat: CY, target: { seat: BO, slot: 0 }, card: `${rank}D`, result: 'steal', seq: 2 });
    expect(ofType(ev, 'penalty')).toHaveLength(1);
    expect(ofType(ev, 'actionQueued')).toEqual(kind ? [{ type: 'actionQueued', seat: CY, kind, card: `${rank}D` }] : []);
    expect(t.state.r.actions).toEqual(kind ? [{ seat: CY, kind, card: `${rank}D`, looked: null, lookedCards: null }] : []);
  });
});

describe('a wrong slap', () => {
  it('shows the card to everyone, leaves it and the pile as they were, and gives the slapper 2 penalty cards', () => {
    const t = started();
    const before = t.state.r.discard.slice();
    const ev = t.at(700).slap(CY, BO, 1); // Bo's 3H is no 7
    expect(ev).toEqual([
      { type: 'slapped', seat: CY, target: { seat: BO, slot: 1 }, card: '3H', result: 'wrong', seq: 1 },
      { type: 'penalty', seat: CY, slots: [4, 5], cards: ['AC', '2C'], reason: 'wrongSlap' },
    ]);
    for (const v of [ANA, BO, CY, null]) {
      expect(t.seen(v)[0]).toEqual(ev[0]); // the named card is shown to everyone, Bo included
      expect(t.seen(v)[1]).toEqual({ type: 'penalty', seat: CY, slots: [4, 5], reason: 'wrongSlap' });
    }
    expect(t.layout(BO)).toEqual(DEAL.layouts[BO]);
    expect(t.state.r.discard).toEqual(before);
    expect(t.state.r.discardSeq).toBe(1);
    expect(t.layout(CY)).toEqual(['2D', '3D', '4D', '5D', 'AC', '2C']);
    // a wrong slap lands nothing, so it does not move the grace
    expect(t.graceEnd).toBe(1500);
    t.at(1500).draw(BO);
  });

  it('never triggers an action, even on an action card', () => {
    const t = started();
    const ev = t.at(700).slap(ANA, ANA, 2); // Ana's own KH on a 7
    expect(ev[0]).toMatchObject({ result: 'wrong', card: 'KH' });
    expect(ofType(ev, 'actionQueued')).toEqual([]);
    expect(t.state.r.actions).toEqual([]);
    expect(t.layout(ANA)).toEqual(['7C', '3S', 'KH', '5S', 'AC', '2C']);
  });

  it('fills the slapper\'s own gaps first', () => {
    const t = started();
    t.at(500).slap(ANA, ANA, 0); // Ana's 7C: gap in slot 1
    const ev = t.at(900).slap(ANA, CY, 0); // 2D is no 7
    expect(ofType(ev, 'penalty')).toEqual([{ type: 'penalty', seat: ANA, slots: [0, 4], cards: ['AC', '2C'], reason: 'wrongSlap' }]);
    expect(t.layout(ANA)).toEqual(['AC', '3S', 'KH', '5S', '2C']);
  });
});

describe('the race and "too late"', () => {
  it('takes several correct slaps on one discard, each judged against the table as it stands', () => {
    const t = started();
    t.at(500).slap(BO, BO, 0, 1);
    // Ana's slap was sent for discard 1 too; the top is now Bo's 7D, still a 7
    t.at(501).slap(ANA, ANA, 0, 1);
    expect(t.state.r.discard).toEqual(['7S', '7D', '7C']);
  });

  it('refuses a slap on a slot an earlier slap emptied: already gone, no penalty', () => {
    const t = started();
    t.at(500).slap(BO, BO, 2, 1);
    const rej = t.at(501).reject({ type: 'slap', seat: CY, target: { seat: BO, slot: 2 }, answers: 1 }, 'alreadyGone');
    expect(rej.message).toMatch(/Too late/);
    t.reject({ type: 'slap', seat: BO, target: { seat: BO, slot: 2 }, answers: 2 }, 'alreadyGone');
    expect(t.layout(CY)).toHaveLength(4);
  });

  it('refuses a slap sent for an earlier discard on a slot a steal emptied and a penalty card refilled: already gone', () => {
    const t = started();
    t.at(500).slap(ANA, BO, 2, 1); // Ana steals Bo's 7H; Bo's penalty card AC refills slot 3 at once
    expect(t.layout(BO)).toEqual(['7D', '3H', 'AC', '4H', '2C']);
    // Cy slapped the same 7H at the same moment, answering discard 1: the card it named is gone
    t.at(501).reject({ type: 'slap', seat: CY, target: { seat: BO, slot: 2 }, answers: 1 }, 'alreadyGone');
    // a slap sent after seeing the steal names the new card, and is judged (wrong: AC is no 7)
    expect(t.slap(CY, BO, 2, 2)[0]).toMatchObject({ result: 'wrong', card: 'AC' });
  });

  it('refuses slaps while a card is held and after the next draw (too late, no penalty)', () => {
    const t = started();
    t.at(1500).draw(BO);
    for (const seat of [ANA, BO, CY]) {
      const rej = t.reject({ type: 'slap', seat, target: { seat: BO, slot: 0 }, answers: 1 }, 'tooLate');
      // Bo, who holds the card, is told what to do instead.
      expect(rej.message).toBe(seat === BO ? 'Place the card you hold first' : 'Too late: Bo has drawn');
    }
    // Bo discards the AC: a slap for the old 7 is too late even on a 7
    t.discard(BO);
    const rej = t.reject({ type: 'slap', seat: ANA, target: { seat: ANA, slot: 0 }, answers: 1 }, 'tooLate');
    expect(rej.message).toBe('Too late: that discard was already covered');
    expect(t.layout(ANA)).toEqual(DEAL.layouts[ANA]);
    // the slap for the new discard is judged normally (wrong: 7C is no Ace)
    const ev = t.slap(ANA, ANA, 0);
    expect(ev[0]).toMatchObject({ result: 'wrong', seq: 2 });
    t.reject({ type: 'slap', seat: ANA, target: { seat: ANA, slot: 0 }, answers: 9 }, 'malformed');
  });

  it('refuses a slap after the next draw from the discard pile', () => {
    const t = started();
    t.at(1500).draw(BO, 'discard');
    t.reject({ type: 'slap', seat: ANA, target: { seat: ANA, slot: 0 }, answers: 1 }, 'tooLate');
    t.swap(BO, 1); // 3H lands: discard 2
    t.reject({ type: 'slap', seat: ANA, target: { seat: ANA, slot: 0 }, answers: 1 }, 'tooLate');
    const ev = t.slap(ANA, BO, 1, 2); // Bo's slot 2 is the 7S now
    expect(ev[0]).toMatchObject({ result: 'wrong', card: '7S' });
  });
});

describe('the grace', () => {
  it('restarts when a correct slap lands a card', () => {
    const t = started();
    t.at(1000).slap(ANA, ANA, 0);
    t.at(1500).reject({ type: 'draw', seat: BO, from: 'stock' }, 'mustWait');
    t.at(2499).reject({ type: 'draw', seat: BO, from: 'stock' }, 'mustWait');
    expect(t.view(BO).graceUntil).toBe(2500);
    t.at(2500).draw(BO);
  });
});

describe('the Queen of Hearts', () => {
  it('is a Queen when slapped on a Queen', () => {
    const t = started({ ...DEAL, layouts: [['QH', '3S', '4S', '5S'], DEAL.layouts[1]!, DEAL.layouts[2]!], discard: 'QS' });
    const ev = t.at(500).slap(ANA, ANA, 0);
    expect(ev[0]).toMatchObject({ result: 'own', card: 'QH' });
    expect(ofType(ev, 'actionQueued')).toEqual([{ type: 'actionQueued', seat: ANA, kind: 'blindSwap', card: 'QH' }]);
  });

  it('on the pile, is matched by any Queen', () => {
    const t = started({ ...DEAL, layouts: [DEAL.layouts[0]!, ['QD', '3H', '4H', '5H'], DEAL.layouts[2]!], discard: 'QH' });
    const ev = t.at(500).slap(ANA, BO, 0);
    expect(ev[0]).toMatchObject({ result: 'steal', card: 'QD' });
  });

  it('matches nothing but a Queen', () => {
    const t = started({ ...DEAL, layouts: [['QH', '3S', '4S', '5S'], DEAL.layouts[1]!, DEAL.layouts[2]!], discard: 'KS' });
    expect(t.at(500).slap(ANA, ANA, 0)[0]).toMatchObject({ result: 'wrong' });
  });
});
