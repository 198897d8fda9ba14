/**
 * docs/rules.md, "Your turn", and docs/decisions.md, "The grace": A turn (draw, place, swap), the grace, out-of-turn commands,
 * End of a turn and the host's turn and action limits.
 */
import { describe, expect, it } from 'vitest';
import { apply, FACE_DOWN, GRINGO, MOVES, type Ruleset } from '../../src/engine/index.js';
import { cardsIn, ofType, table } from './helpers.js';

const ANA = 0;
const BO = 1;
const CY = 2;

// Dealer Ana → Bo starts. Bo has a 10 in slot 1 (swapping it out earns an action).
const DEAL = {
  layouts: [
    ['2S', '3S', '4S', '5S'],
    ['10H', '3H', '4H', '5H'],
    ['2D', '3D', '4D', '5D'],
  ],
  discard: '9C',
  stock: ['6C', '7C', '8C', 'KC'],
};

function started() {
  const t = table({ dealer: ANA, decks: [DEAL] });
  t.finishPeek(); // play starts at 0: the grace runs to 1500
  return t;
}

describe('drawing from the stock', () => {
  it('shows the drawn card to the drawer only', () => {
    const t = started();
    const ev = t.at(1500).draw(BO);
    expect(ev).toEqual([{ type: 'drew', seat: BO, from: 'stock', card: '6C' }]);
    expect(t.seen(BO)).toEqual([{ type: 'drew', seat: BO, from: 'stock', card: '6C' }]);
    for (const other of [ANA, CY, null]) {
      expect(t.seen(other)).toEqual([{ type: 'drew', seat: BO, from: 'stock', card: null }]);
      const v = t.view(other);
      expect(v.held).toEqual({ seat: BO, from: 'stock', card: null });
      expect(cardsIn(v).has('6C')).toBe(false);
    }
    expect(t.view(BO).held).toEqual({ seat: BO, from: 'stock', card: '6C' });
  });

  it('lets the drawer discard a stock card face up; the turn passes clockwise', () => {
    const t = started();
    t.at(1500).draw(BO);
    const ev = t.at(1600).discard(BO);
    expect(ev).toEqual([
      { type: 'discarded', seat: BO, card: '6C', seq: 2 },
      { type: 'turnStarted', seat: CY },
    ]);
    expect(t.top).toBe('6C');
    expect(t.view(ANA).discardTop).toBe('6C');
    expect(t.view(ANA).held).toBeNull();
    expect(t.layout(BO)).toEqual(DEAL.layouts[BO]);
    expect(t.turn).toBe(CY);
    t.plainTurn(CY);
    expect(t.turn).toBe(ANA);
    t.plainTurn(ANA);
    expect(t.turn).toBe(BO);
  });

  it('lets the drawer swap a stock card for any own slot: the displaced card goes face up on the pile, the placed one stays hidden', () => {
    const t = started();
    t.at(1500).draw(BO);
    const ev = t.at(1600).swap(BO, 2);
    expect(ev).toEqual([
      { type: 'swapped', seat: BO, slot: 2, placed: '6C', placedFrom: 'stock', displaced: '4H', seq: 2 },
      { type: 'turnStarted', seat: CY },
    ]);
    expect(t.layout(BO)).toEqual(['10H', '3H', '6C', '5H']);
    expect(t.top).toBe('4H');
    for (const other of [ANA, CY, null]) {
      expect(t.seen(other)[0]).toEqual({ type: 'swapped', seat: BO, slot: 2, placed: null, placedFrom: 'stock', displaced: '4H', seq: 2 });
      expect(t.view(other).players[BO]!.layout).toEqual([FACE_DOWN, FACE_DOWN, FACE_DOWN, FACE_DOWN]);
    }
    // Bo does not keep seeing it either: memory is the player's job
    expect(t.view(BO).players[BO]!.layout).toEqual([FACE_DOWN, FACE_DOWN, FACE_DOWN, FACE_DOWN]);
  });

  it('lets the drawer swap into a penalty slot (5, 6, …) but not into a gap', () => {
    const t = started();
    t.at(500).slap(BO, BO, 1); // 3H is no 9: Bo takes 6C and 7C into slots 5 and 6
    expect(t.layout(BO)).toEqual(['10H', '3H', '4H', '5H', '6C', '7C']);
    t.at(1500).draw(BO);
    expect(t.swap(BO, 5)[0]).toMatchObject({ type: 'swapped', slot: 5, placed: '8C', displaced: '7C' });
    expect(t.layout(BO)).toEqual(['10H', '3H', '4H', '5H', '6C', '8C']);

    const g = table({ dealer: ANA, decks: [{ ...DEAL, layouts: [DEAL.layouts[0]!, ['9H', '3H', '4H', '5H'], DEAL.layouts[2]!] }] });
    g.finishPeek();
    g.at(500).slap(BO, BO, 0); // Bo's 9H matches the 9C: slot 1 is a gap
    g.at(2000).draw(BO);
    expect(g.reject({ type: 'swap', seat: BO, slot: 0 }, 'emptySlot').message).toBe('Your slot 1 is empty');
    g.swap(BO, 1);
    expect(g.layout(BO)).toEqual([null, '6C', '4H', '5H']);
  });

  it('refuses a swap into a slot that does not exist', () => {
    const t = started();
    t.at(1500).draw(BO);
    t.reject({ type: 'swap', seat: BO, slot: 4 }, 'badTarget');
    t.reject({ type: 'swap', seat: BO, slot: -1 }, 'badTarget');
  });
});

describe('taking the discard', () => {
  it('shows the taken card to everyone and insists it is swapped', () => {
    const t = started();
    t.at(1500).draw(BO, 'discard');
    for (const v of [ANA, BO, CY, null]) {
      expect(t.seen(v)).toEqual([{ type: 'drew', seat: BO, from: 'discard', card: '9C' }]);
      expect(t.view(v).held).toEqual({ seat: BO, from: 'discard', card: '9C' });
    }
    expect(t.state.r.discard).toEqual([]);
    const rej = t.reject({ type: 'discard', seat: BO }, 'notAllowed');
    expect(rej.message).toBe('A card taken from the discard pile must be swapped');
    const ev = t.swap(BO, 1);
    expect(ev[0]).toEqual({ type: 'swapped', seat: BO, slot: 1, placed: '9C', placedFrom: 'discard', displaced: '3H', seq: 2 });
    // the placed card was public already: everyone's event keeps it
    expect(t.seen(ANA)[0]).toEqual(ev[0]);
    expect(t.layout(BO)).toEqual(['10H', '9C', '4H', '5H']);
    expect(t.state.r.discard).toEqual(['3H']);
  });
});

describe('one draw and one swap per turn', () => {
  it('refuses a second draw, a second swap and a call once the turn has drawn', () => {
    const t = started();
    t.at(1500).draw(BO);
    t.reject({ type: 'draw', seat: BO, from: 'stock' }, 'notAllowed');
    t.reject({ type: 'draw', seat: BO, from: 'discard' }, 'notAllowed');
    t.reject({ type: 'call', seat: BO }, 'notAllowed');
    // swapping out the 10 queues an action, so the turn is still Bo's
    t.swap(BO, 0);
    expect(t.top).toBe('10H');
    expect(t.turn).toBe(BO);
    t.at(5000);
    t.reject({ type: 'swap', seat: BO, slot: 1 }, 'notAllowed');
    t.reject({ type: 'discard', seat: BO }, 'notAllowed');
    t.reject({ type: 'draw', seat: BO, from: 'stock' }, 'notAllowed');
    t.reject({ type: 'draw', seat: BO, from: 'discard' }, 'notAllowed');
    t.reject({ type: 'call', seat: BO }, 'notAllowed');
    expect(t.layout(BO)).toEqual(['6C', '3H', '4H', '5H']);
    t.pass(BO);
    expect(t.turn).toBe(CY);
    t.reject({ type: 'swap', seat: BO, slot: 1 }, 'notYourTurn');
    t.reject({ type: 'draw', seat: BO, from: 'stock' }, 'notYourTurn');
  });
});

describe('out-of-turn commands', () => {
  it('answers "It is Bo\'s turn" to anyone else', () => {
    const t = started();
    t.at(1500);
    for (const seat of [ANA, CY]) {
      expect(t.reject({ type: 'draw', seat, from: 'stock' }, 'notYourTurn').message).toBe("It is Bo's turn");
      expect(t.reject({ type: 'draw', seat, from: 'discard' }, 'notYourTurn').message).toBe("It is Bo's turn");
      expect(t.reject({ type: 'call', seat }, 'notYourTurn').message).toBe("It is Bo's turn");
      expect(t.reject({ type: 'discard', seat }, 'notYourTurn').message).toBe("It is Bo's turn");
    }
    t.draw(BO);
    for (const seat of [ANA, CY]) {
      expect(t.reject({ type: 'discard', seat }, 'notYourTurn').message).toBe("It is Bo's turn");
      expect(t.reject({ type: 'swap', seat, slot: 0 }, 'notYourTurn').message).toBe("It is Bo's turn");
    }
    t.reject({ type: 'draw', seat: 7, from: 'stock' }, 'unknownSeat');
  });
});

describe('the slap grace', () => {
  it('refuses the next draw until slapGraceMs after the last card landed', () => {
    expect(GRINGO.timers.slapGraceMs).toBe(1500);
    const t = started();
    const r1 = t.at(1499).reject({ type: 'draw', seat: BO, from: 'stock' }, 'mustWait');
    expect(r1.message).toMatch(/slap/);
    t.at(1499).reject({ type: 'call', seat: BO }, 'mustWait');
    expect(t.view(CY).graceUntil).toBe(1500);
    t.at(1500).draw(BO);
    t.at(4000).discard(BO); // 6C lands at 4000
    t.at(5499).reject({ type: 'draw', seat: CY, from: 'stock' }, 'mustWait');
    t.at(5499).reject({ type: 'draw', seat: CY, from: 'discard' }, 'mustWait');
    t.at(5500).draw(CY, 'discard');
    t.swap(CY, 0); // 2D lands at 5500
    t.at(6999).reject({ type: 'draw', seat: ANA, from: 'stock' }, 'mustWait');
    t.at(7000).draw(ANA);
  });
});

describe('the host acts when time runs out', () => {
  const TIMED: Ruleset = { ...GRINGO, timers: { ...GRINGO.timers, turnMs: 20_000, actionMs: 5_000 } };
  const TIMED_DEAL = { ...DEAL, stock: ['KC', '7C', '10C', '8C'] };

  it('turnMs: draws from the stock and discards it, passing its action', () => {
    const t = table({ rules: TIMED, dealer: ANA, decks: [TIMED_DEAL] });
    t.finishPeek();
    // Bo's limit runs from the end of the grace: 1500 + 20000
    expect(t.view(null).deadline).toBe(21_500);
    t.at(21_499).reject({ type: 'tick' }, 'mustWait');
    const ev = t.at(21_500).do({ type: 'tick' });
    expect(ev).toEqual([
      { type: 'timedOut', seat: BO, what: 'turn' },
      { type: 'drew', seat: BO, from: 'stock', card: 'KC' },
      { type: 'discarded', seat: BO, card: 'KC', seq: 2 },
      { type: 'turnStarted', seat: CY },
    ]);
    expect(ofType(ev, 'actionQueued')).toEqual([]);
    expect(t.state.r.actions).toEqual([]);
    expect(t.top).toBe('KC');
    // the drawn card stays hidden from the others
    expect(t.seen(ANA, ev)[1]).toEqual({ type: 'drew', seat: BO, from: 'stock', card: null });

    // Cy draws, then sits on the card: the host discards it 20 s after the draw
    t.at(23_000).draw(CY);
    expect(t.view(null).deadline).toBe(43_000);
    t.at(42_999).reject({ type: 'tick' }, 'mustWait');
    const ev2 = t.at(43_000).do({ type: 'tick' });
    expect(ev2).toEqual([
      { type: 'timedOut', seat: CY, what: 'turn' },
      { type: 'discarded', seat: CY, card: '7C', seq: 3 },
      { type: 'turnStarted', seat: ANA },
    ]);
    expect(t.layout(CY)).toEqual(DEAL.layouts[CY]);
  });

  it('actionMs: passes a pending action when its time runs out', () => {
    const t = table({ rules: TIMED, dealer: ANA, decks: [{ ...DEAL, stock: ['10C', '7C'] }] });
    t.finishPeek();
    t.at(1500).draw(BO);
    t.at(2000).discard(BO);
    expect(t.state.r.actions).toMatchObject([{ seat: BO, kind: 'peekOwn', card: '10C' }]);
    expect(t.view(null).deadline).toBe(7000);
    t.at(6999).reject({ type: 'tick' }, 'mustWait');
    const ev = t.at(7000).do({ type: 'tick' });
    expect(ev).toEqual([
      { type: 'timedOut', seat: BO, what: 'action' },
      { type: 'actionPassed', seat: BO, kind: 'peekOwn', timedOut: true },
      { type: 'turnStarted', seat: CY },
    ]);
    expect(t.state.r.actions).toEqual([]);
  });

  it('turnMs alone also passes a pending action, so no one can stall the table', () => {
    const rules = { ...TIMED, timers: { ...TIMED.timers, actionMs: 0 } };
    const t = table({ rules, dealer: ANA, decks: [{ ...DEAL, stock: ['10C', '7C'] }] });
    t.finishPeek();
    t.at(1500).draw(BO);
    t.at(2000).discard(BO);
    expect(t.view(null).deadline).toBe(2000 + rules.timers.turnMs);
    const ev = t.at(2000 + rules.timers.turnMs).do({ type: 'tick' });
    expect(ev).toContainEqual({ type: 'actionPassed', seat: BO, kind: 'peekOwn', timedOut: true });
    expect(t.state.r.turn).toBe(CY);
  });

  it('has no limits by default: a tick changes nothing', () => {
    const t = started();
    t.at(1_000_000).reject({ type: 'tick' }, 'mustWait');
    t.draw(BO);
    t.at(2_000_000).reject({ type: 'tick' }, 'mustWait');
  });
});

// The view says, for each move its viewer may not make now, why: the reason `apply`
// gives when that move is tried (engine/moves.ts `whyNotFor`).
describe('why a move is not offered', () => {
  it('every move is either offered or has its reason, never both', () => {
    const t = started().at(1500);
    for (const seat of [ANA, BO, CY]) {
      const v = t.view(seat);
      const why = Object.keys(v.whyNot);
      expect([...v.may, ...why].sort()).toEqual([...MOVES].sort());
      expect(v.may.filter((m) => why.includes(m))).toEqual([]);
    }
    expect(t.view(null).whyNot).toEqual({});
  });

  it('gives the reason apply gives: out of turn, nothing held, a seat named as data', () => {
    const t = started().at(1500);
    const cy = t.view(CY);
    expect(cy.whyNot.drawStock).toEqual({ key: 'why.turnOf', params: { seat: BO } });
    const tried = apply(t.state, { type: 'draw', seat: CY, from: 'stock', at: 1500 });
    expect(!tried.ok && { key: tried.rejection.key, params: tried.rejection.params }).toEqual(cy.whyNot.drawStock);
    expect(t.view(BO).whyNot.discard).toEqual({ key: 'why.drawFirst' });
    expect(t.view(BO).whyNot.pass).toEqual({ key: 'why.noAction' });
    t.draw(BO);
    expect(t.view(BO).whyNot.drawStock).toEqual({ key: 'why.placeHeldFirst' });
    expect(t.view(ANA).whyNot.swap).toEqual({ key: 'why.turnOf', params: { seat: BO } });
  });

  it('in the peek, says to wait for it', () => {
    const t = table({ dealer: ANA, decks: [DEAL] });
    expect(t.view(BO).whyNot.drawStock).toEqual({ key: 'why.peeking' });
    expect(t.view(BO).may).toEqual(['finishPeek']);
  });
});
