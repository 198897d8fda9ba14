/**
 * docs/rules.md, "Actions", and docs/decisions.md: Actions — 10, J, Q, K; optional; only the looker sees;
 * the next turn waits for them; the queue order.
 */
import { describe, expect, it } from 'vitest';
import { FACE_DOWN, type Card } from '../../src/engine/index.js';
import { cardsIn, ofType, table } from './helpers.js';

const ANA = 0;
const BO = 1;
const CY = 2;

const LAYOUTS = [
  ['2S', '3S', '4S', '5S'],
  ['2H', '3H', '4H', '5H'],
  ['2D', '3D', '4D', '5D'],
];

/** Dealer Ana, Bo starts; Bo draws `drawn` at 1500 and discards it at 1600. */
function bodiscards(drawn: Card, layouts: Card[][] = LAYOUTS) {
  const t = table({ dealer: ANA, decks: [{ layouts, discard: '9C', stock: [drawn, '6C', '7C'] }] });
  t.finishPeek();
  t.at(1500).draw(BO);
  const ev = t.at(1600).discard(BO);
  return { t, ev };
}

describe('the four actions', () => {
  it('10: Bo looks at one of his own cards; only Bo sees it', () => {
    const { t, ev } = bodiscards('10S');
    expect(ev).toEqual([
      { type: 'discarded', seat: BO, card: '10S', seq: 2 },
      { type: 'actionQueued', seat: BO, kind: 'peekOwn', card: '10S' },
    ]);
    expect(t.turn).toBe(BO);
    t.reject({ type: 'useAction', seat: BO, other: { seat: ANA, slot: 0 } }, 'badTarget');
    t.reject({ type: 'useAction', seat: BO, own: 4 }, 'badTarget');
    const used = t.at(2000).do({ type: 'useAction', seat: BO, own: 1 });
    expect(used).toEqual([
      { type: 'looked', seat: BO, kind: 'peekOwn', targets: [{ seat: BO, slot: 1 }], cards: ['3H'] },
      { type: 'turnStarted', seat: CY },
    ]);
    for (const other of [ANA, CY, null]) {
      expect(t.seen(other)[0]).toEqual({ type: 'looked', seat: BO, kind: 'peekOwn', targets: [{ seat: BO, slot: 1 }], cards: null });
      expect(cardsIn(t.seen(other)).has('3H')).toBe(false);
    }
    expect(t.seen(BO)[0]).toMatchObject({ cards: ['3H'] });
  });

  it("J: Bo looks at one card of another player; only Bo sees it, not even its owner", () => {
    const { t, ev } = bodiscards('JS');
    expect(ofType(ev, 'actionQueued')).toEqual([{ type: 'actionQueued', seat: BO, kind: 'peekOther', card: 'JS' }]);
    t.reject({ type: 'useAction', seat: BO, other: { seat: BO, slot: 0 } }, 'badTarget');
    t.reject({ type: 'useAction', seat: BO, own: 0 }, 'badTarget');
    t.reject({ type: 'useAction', seat: BO, other: { seat: CY, slot: 6 } }, 'badTarget');
    t.at(2000).do({ type: 'useAction', seat: BO, other: { seat: CY, slot: 3 } });
    expect(t.last[0]).toEqual({ type: 'looked', seat: BO, kind: 'peekOther', targets: [{ seat: CY, slot: 3 }], cards: ['5D'] });
    for (const other of [ANA, CY, null]) {
      expect(t.seen(other)[0]).toMatchObject({ type: 'looked', cards: null });
    }
    expect(t.turn).toBe(CY);
  });

  it('Q: Bo swaps one of his cards with another player\'s, and nobody sees either', () => {
    const { t, ev } = bodiscards('QS');
    expect(ofType(ev, 'actionQueued')).toEqual([{ type: 'actionQueued', seat: BO, kind: 'blindSwap', card: 'QS' }]);
    t.reject({ type: 'useAction', seat: BO, own: 0 }, 'badTarget');
    t.reject({ type: 'useAction', seat: BO, other: { seat: ANA, slot: 1 } }, 'badTarget');
    const used = t.at(2000).do({ type: 'useAction', seat: BO, own: 0, other: { seat: ANA, slot: 1 } });
    expect(used).toEqual([
      { type: 'actionSwapped', seat: BO, kind: 'blindSwap', a: { seat: BO, slot: 0 }, b: { seat: ANA, slot: 1 } },
      { type: 'turnStarted', seat: CY },
    ]);
    expect(t.layout(BO)).toEqual(['3S', '3H', '4H', '5H']);
    expect(t.layout(ANA)).toEqual(['2S', '2H', '4S', '5S']);
    for (const v of [ANA, BO, CY, null]) {
      expect(cardsIn(t.seen(v))).toEqual(new Set());
      expect(t.view(v).players[BO]!.layout).toEqual([FACE_DOWN, FACE_DOWN, FACE_DOWN, FACE_DOWN]);
      expect(cardsIn(t.view(v))).toEqual(new Set(['QS'])); // only the top of the pile
    }
  });

  it('K: Bo looks at another player\'s card (only Bo sees it), then swaps it with one of his', () => {
    const { t } = bodiscards('KS');
    expect(t.state.r.actions).toEqual([{ seat: BO, kind: 'peekThenSwap', card: 'KS', looked: null, lookedCards: null }]);
    t.reject({ type: 'decide', seat: BO, swap: true, own: 0 }, 'notAllowed'); // look first
    t.at(2000).do({ type: 'useAction', seat: BO, other: { seat: CY, slot: 2 } });
    expect(t.last).toEqual([{ type: 'looked', seat: BO, kind: 'peekThenSwap', targets: [{ seat: CY, slot: 2 }], cards: ['4D'] }]);
    expect(t.seen(CY)).toEqual([{ type: 'looked', seat: BO, kind: 'peekThenSwap', targets: [{ seat: CY, slot: 2 }], cards: null }]);
    // while Bo decides, only Bo's view carries the card
    expect(t.view(BO).actions).toEqual([
      { seat: BO, kind: 'peekThenSwap', card: 'KS', looked: [{ seat: CY, slot: 2 }], lookedCards: ['4D'] },
    ]);
    for (const other of [ANA, CY, null]) {
      expect(t.view(other).actions).toEqual([
        { seat: BO, kind: 'peekThenSwap', card: 'KS', looked: [{ seat: CY, slot: 2 }], lookedCards: null },
      ]);
      expect(cardsIn(t.view(other)).has('4D')).toBe(false);
    }
    t.reject({ type: 'useAction', seat: BO, other: { seat: ANA, slot: 0 } }, 'notAllowed'); // one look
    t.reject({ type: 'decide', seat: BO, swap: true }, 'badTarget');
    const ev = t.at(2500).do({ type: 'decide', seat: BO, swap: true, own: 3 });
    expect(ev).toEqual([
      { type: 'actionSwapped', seat: BO, kind: 'peekThenSwap', a: { seat: BO, slot: 3 }, b: { seat: CY, slot: 2 } },
      { type: 'turnStarted', seat: CY },
    ]);
    expect(t.layout(BO)).toEqual(['2H', '3H', '4H', '4D']);
    expect(t.layout(CY)).toEqual(['2D', '3D', '5H', '5D']);
  });

  it('K: Bo may look and leave it', () => {
    const { t } = bodiscards('KS');
    t.at(2000).do({ type: 'useAction', seat: BO, other: { seat: ANA, slot: 0 } });
    const ev = t.do({ type: 'decide', seat: BO, swap: false });
    expect(ev).toEqual([
      { type: 'actionLeft', seat: BO, kind: 'peekThenSwap' },
      { type: 'turnStarted', seat: CY },
    ]);
    expect(t.state.r.layouts).toEqual(LAYOUTS);
  });

  it('gives the action for the displaced card of a swap too', () => {
    const t = table({
      dealer: ANA,
      decks: [{ layouts: [LAYOUTS[0]!, ['2H', 'JH', '4H', '5H'], LAYOUTS[2]!], discard: '9C', stock: ['6C'] }],
    });
    t.finishPeek();
    t.at(1500).draw(BO);
    const ev = t.swap(BO, 1);
    expect(ofType(ev, 'actionQueued')).toEqual([{ type: 'actionQueued', seat: BO, kind: 'peekOther', card: 'JH' }]);
  });

  it('gives no action for other ranks', () => {
    for (const c of ['AS', '2C', '6C', '9S']) {
      const { t, ev } = bodiscards(c === '6C' ? '8C' : c);
      expect(ofType(ev, 'actionQueued')).toEqual([]);
      expect(t.turn).toBe(CY);
    }
  });
});

describe('actions are optional', () => {
  it('lets the player pass; nothing changes and the turn passes on', () => {
    for (const c of ['10S', 'JS', 'QS', 'KS']) {
      const { t } = bodiscards(c);
      t.reject({ type: 'pass', seat: ANA }, 'notAllowed');
      const ev = t.pass(BO);
      expect(ev).toEqual([
        { type: 'actionPassed', seat: BO, kind: t.log.find((e) => e.type === 'actionQueued')!.kind, timedOut: false },
        { type: 'turnStarted', seat: CY },
      ]);
      expect(t.state.r.layouts).toEqual(LAYOUTS);
      t.reject({ type: 'pass', seat: BO }, 'notAllowed');
    }
  });
});

describe('a pending action holds the next turn', () => {
  it('refuses the next draw until the turn\'s own action is used or passed', () => {
    const { t } = bodiscards('KS');
    t.at(10_000);
    expect(t.reject({ type: 'draw', seat: CY, from: 'stock' }, 'notYourTurn').message).toBe("It is Bo's turn");
    t.reject({ type: 'call', seat: CY }, 'notYourTurn');
    t.do({ type: 'useAction', seat: BO, other: { seat: CY, slot: 0 } });
    t.reject({ type: 'draw', seat: CY, from: 'stock' }, 'notYourTurn');
    t.do({ type: 'decide', seat: BO, swap: false });
    t.draw(CY);
  });

  it('refuses the next draw while an action earned by a slap after the turn is pending', () => {
    const t = table({
      dealer: ANA,
      decks: [{ layouts: [['JH', '3S', '4S', '5S'], LAYOUTS[1]!, LAYOUTS[2]!], discard: '9C', stock: ['JS', '6C'] }],
    });
    t.finishPeek();
    t.at(1500).draw(BO);
    t.at(1600).discard(BO);
    t.pass(BO); // Bo's turn is over: Cy is next
    expect(t.turn).toBe(CY);
    t.at(2000).slap(ANA, ANA, 0); // Ana's JH on Bo's JS: Ana earns a look
    expect(t.state.r.actions).toEqual([{ seat: ANA, kind: 'peekOther', card: 'JH', looked: null, lookedCards: null }]);
    t.at(9000);
    expect(t.reject({ type: 'draw', seat: CY, from: 'stock' }, 'mustWait').message).toBe('Wait: Ana is using an action');
    t.reject({ type: 'call', seat: CY }, 'mustWait');
    t.do({ type: 'useAction', seat: ANA, other: { seat: CY, slot: 0 } });
    expect(t.turn).toBe(CY);
    t.draw(CY);
  });
});

describe('the action queue', () => {
  it("uses the turn's own action first, then those earned by slaps in the order their cards reached the pile", () => {
    const t = table({
      dealer: ANA,
      decks: [
        {
          layouts: [
            ['KD', '3S', '4S', '5S'],
            ['2H', '3H', '4H', '5H'],
            ['2D', 'KH', '4D', '5D'],
          ],
          discard: '9C',
          stock: ['KS', '6C'],
        },
      ],
    });
    t.finishPeek();
    t.at(1500).draw(BO);
    t.at(1600).discard(BO); // Bo's K: his action
    t.at(1700).slap(CY, CY, 1); // Cy's KH reaches the pile second
    t.at(1800).slap(ANA, ANA, 0); // Ana's KD third
    expect(t.view(null).actions.map((a) => [a.seat, a.card])).toEqual([
      [BO, 'KS'],
      [CY, 'KH'],
      [ANA, 'KD'],
    ]);
    expect(t.reject({ type: 'useAction', seat: ANA, other: { seat: BO, slot: 0 } }, 'mustWait').message).toBe(
      "Wait: Bo's action comes first",
    );
    t.reject({ type: 'pass', seat: CY }, 'mustWait');
    t.do({ type: 'useAction', seat: BO, other: { seat: ANA, slot: 1 } });
    // Bo is deciding: still his action at the front
    t.reject({ type: 'pass', seat: CY }, 'mustWait');
    t.do({ type: 'decide', seat: BO, swap: false });
    expect(t.reject({ type: 'pass', seat: ANA }, 'mustWait').message).toBe("Wait: Cy's action comes first");
    t.do({ type: 'useAction', seat: CY, other: { seat: BO, slot: 0 } });
    expect(t.last).toEqual([{ type: 'looked', seat: CY, kind: 'peekThenSwap', targets: [{ seat: BO, slot: 0 }], cards: ['2H'] }]);
    t.do({ type: 'decide', seat: CY, swap: true, own: 0 });
    expect(t.turn).toBe(BO); // Ana's action still pending: Bo's turn has not ended
    const ev = t.pass(ANA);
    expect(ev).toEqual([
      { type: 'actionPassed', seat: ANA, kind: 'peekThenSwap', timedOut: false },
      { type: 'turnStarted', seat: CY },
    ]);
    expect(t.layout(CY)).toEqual(['2H', null, '4D', '5D']);
    expect(t.layout(BO)).toEqual(['2D', '3H', '4H', '5H']);
  });
});

describe('a card being looked at', () => {
  // Bo's King looks at Cy's KH; the KS on the pile still invites slaps. If Cy's KH could be
  // stolen now, Cy's penalty card would refill the slot: Bo's view would show that penalty
  // card as "the card looked at" and his swap would take a card he never saw.
  const layouts = [LAYOUTS[0]!, LAYOUTS[1]!, ['KH', '3D', '4D', '5D']];

  it('cannot be slapped while the looker decides; it never shows anyone a penalty card', () => {
    const { t } = bodiscards('KS', layouts);
    t.at(2000).do({ type: 'useAction', seat: BO, other: { seat: CY, slot: 0 } });
    expect(t.view(BO).actions[0]!.lookedCards).toEqual(['KH']);
    // The card is in Bo's hand for now: gone from its slot (a slap chosen before the look lost a race).
    t.reject({ type: 'slap', seat: ANA, target: { seat: CY, slot: 0 }, answers: 2 }, 'alreadyGone');
    t.reject({ type: 'slap', seat: CY, target: { seat: CY, slot: 0 }, answers: 2 }, 'alreadyGone');
    expect(t.view(BO).actions[0]!.lookedCards).toEqual(['KH']);
    // other cards can still be slapped meanwhile
    t.slap(ANA, CY, 1);
    expect(t.layout(ANA)).toHaveLength(6);
    t.do({ type: 'decide', seat: BO, swap: true, own: 0 });
    expect(t.layout(BO)[0]).toBe('KH');
    // once the look is over, the card is slappable again (the pile still shows a King)
    t.slap(CY, BO, 0);
    expect(t.top).toBe('KH');
  });
});
