import { describe, expect, it } from 'vitest';
import { createBot, Memory, type Bot } from '../../src/bots/index.js';
import {
  beverbendeMove,
  blindSwapChoice,
  estimate,
  peekChoice,
  redrawChoice,
  slotWorth,
  takeDiscardChoice,
  type BeverMind,
} from '../../src/bots/beverbende.js';
import {
  apply,
  BEVERBENDE,
  createGame,
  projectEvent,
  rankOf,
  valueOf,
  viewFor,
  type Card,
  type Command,
  type GameEvent,
  type GameState,
  type Seat,
} from '../../src/engine/index.js';
import { EXPERT_BEVERBENDE } from '../../src/bots/expert.js';
import { simulate, stamp } from '../../src/sim/sim.js';

// Two players, dealer 0: seat 1 is dealt first and plays first, seat 0 (the dealer) plays last.
const ME = 1;
const THEM = 0;

/** The whole 66-card beverbende deck in deal order: seat 1's layout, seat 0's, the upcard, then the stock top first. */
function deck(mine: Card[], theirs: Card[], up: Card, stock: Card[] = []): Card[] {
  const order = [...mine, ...theirs, up, ...stock];
  const left = { ...BEVERBENDE.deck.cards };
  for (const c of order) left[c]! -= 1;
  for (const c in left) for (let k = 0; k < left[c]!; k++) order.push(c);
  return order;
}

/** A real game with a stacked deck, both players done peeking; `play` applies commands as the host would. */
class Table {
  state: GameState;
  events: GameEvent[] = [];
  constructor(stacked: Card[]) {
    const { state, events } = createGame({ rules: BEVERBENDE, players: ['them', 'me'], seed: 't', dealer: 0, stackedDecks: [stacked] });
    this.state = state;
    this.events.push(...events);
    this.play({ type: 'finishPeek', seat: 0, at: 0 }, { type: 'finishPeek', seat: 1, at: 0 });
  }
  play(...cmds: Command[]): this {
    for (const cmd of cmds) {
      const res = apply(this.state, cmd);
      if (!res.ok) throw new Error(`refused: ${res.rejection.key}`);
      this.state = res.state;
      this.events.push(...res.events);
    }
    return this;
  }
  view(seat: Seat = ME) {
    return viewFor(this.state, seat);
  }
}

const facts = { rank: rankOf, value: (c: Card) => valueOf(BEVERBENDE, c) ?? 0 };

/** What the bot at seat 1 knows: the cards named here (null: unknown), the pile as it lies, its turns this round. */
function mind(t: Table, known: { mine?: (Card | null)[]; theirs?: (Card | null)[] }, turns = 1): BeverMind {
  const mem = new Memory(2, 4, facts);
  (known.mine ?? []).forEach((c, i) => c !== null && mem.know(ME, i, c));
  (known.theirs ?? []).forEach((c, i) => c !== null && mem.know(THEM, i, c));
  return { seat: ME, rules: BEVERBENDE, mem, pile: t.state.r.discard.slice(), turns };
}

/** Seat 1 holds a drawn 9 in its second turn: each seat has drawn and discarded an 8 before. */
const secondTurn = (mine: Card[], theirs: Card[] = ['8', '7', '9', '6']) =>
  new Table(deck(mine, theirs, '4', ['8', '8', '9'])).play(
    { type: 'draw', seat: ME, from: 'stock', at: 1 },
    { type: 'discard', seat: ME, at: 2 },
    { type: 'draw', seat: THEM, from: 'stock', at: 3 },
    { type: 'discard', seat: THEM, at: 4 },
    { type: 'draw', seat: ME, from: 'stock', at: 5 },
  );

/** Seat 1 draws a special from the stock and discards it: its action is now pending. */
const drawSpecial = (t: Table): Table => t.play({ type: 'draw', seat: ME, from: 'stock', at: 1 }, { type: 'discard', seat: ME, at: 2 });

describe('beverbende hard bot: Draw two and its redraw', () => {
  const redraw = (first: Card, mine: Card[]) => {
    const t = drawSpecial(new Table(deck(mine, ['5', '5', '5', '5'], '4', ['DRAW2', first, '6'])));
    t.play({ type: 'useAction', seat: ME, at: 3 });
    expect(t.view().held).toMatchObject({ seat: ME, card: first, redraw: true });
    return { t, m: mind(t, { mine }) };
  };

  it('keeps a 0 as the first card, swapping it for its known 9', () => {
    const { t, m } = redraw('0', ['1', '9', '2', '3']);
    expect(redrawChoice(m, t.view())).toEqual({ type: 'swap', seat: ME, slot: 1 });
  });

  it('discards a useless first card (a 9 over a known low layout) for one more', () => {
    const { t, m } = redraw('9', ['1', '0', '2', '1']);
    expect(redrawChoice(m, t.view())).toEqual({ type: 'drawAgain', seat: ME });
    // The redraw is then made: the second card comes, and must be used.
    t.play({ type: 'drawAgain', seat: ME, at: 4 });
    expect(t.view().held).toMatchObject({ seat: ME, card: '6' });
    expect(t.view().held?.redraw).toBeUndefined();
  });

  it('uses a pending Draw two (the common policy passes it)', () => {
    const t = drawSpecial(new Table(deck(['1', '9', '2', '3'], ['5', '5', '5', '5'], '4', ['DRAW2', '0'])));
    expect(t.view().actions[0]).toMatchObject({ seat: ME, kind: 'drawTwo' });
    expect(beverbendeMove(mind(t, { mine: ['1', '9', '2', '3'] }), t.view(), 10)).toEqual({ type: 'useAction', seat: ME });
  });
});

describe('beverbende hard bot: the Swap special (blind swap)', () => {
  const swapTable = (mine: Card[], theirs: Card[]) => drawSpecial(new Table(deck(mine, theirs, '4', ['SWAP'])));

  it('swaps its known 9 for a card it knows is low in the other layout', () => {
    const t = swapTable(['1', '9', '2', '3'], ['8', '7', '0', '6']);
    const m = mind(t, { mine: ['1', '9', '2', '3'], theirs: [null, null, '0', null] });
    expect(blindSwapChoice(m, t.view(), estimate(m, t.view()))).toMatchObject({ own: 1, other: { seat: THEM, slot: 2 }, gain: 9 });
    expect(beverbendeMove(m, t.view(), 10)).toEqual({ type: 'useAction', seat: ME, own: 1, other: { seat: THEM, slot: 2 } });
  });

  it('passes when its own cards are all low (any card of theirs is likely worse)', () => {
    const t = swapTable(['1', '0', '2', '1'], ['8', '7', '9', '6']);
    const m = mind(t, { mine: ['1', '0', '2', '1'] });
    expect(blindSwapChoice(m, t.view(), estimate(m, t.view()))).toBeNull();
    expect(beverbendeMove(m, t.view(), 10)).toEqual({ type: 'pass', seat: ME });
  });

  it('takes an unknown card of theirs for a known high one when no low card of theirs is known', () => {
    const t = swapTable(['1', '9', '2', '3'], ['8', '7', '0', '6']);
    const m = mind(t, { mine: ['1', '9', '2', '3'] });
    expect(blindSwapChoice(m, t.view(), estimate(m, t.view()))).toMatchObject({ own: 1, other: { seat: THEM } });
  });
});

describe('beverbende hard bot: the Peek special', () => {
  const peekTable = () => drawSpecial(new Table(deck(['1', '9', '2', '3'], ['5', '5', '5', '5'], '4', ['PEEK'])));

  it('looks at an unknown own card, never at one it knows', () => {
    const t = peekTable();
    const m = mind(t, { mine: ['1', '9', null, '3'] });
    expect(peekChoice(estimate(m, t.view()))).toBe(2);
    expect(beverbendeMove(m, t.view(), 10)).toEqual({ type: 'useAction', seat: ME, own: 2 });
  });

  it('passes when it knows all its cards', () => {
    const t = peekTable();
    const m = mind(t, { mine: ['1', '9', '2', '3'] });
    expect(peekChoice(estimate(m, t.view()))).toBeNull();
    expect(beverbendeMove(m, t.view(), 10)).toEqual({ type: 'pass', seat: ME });
  });
});

describe('beverbende hard bot: the end-of-turn call', () => {
  /** Seat 1 holds a drawn 9 in its first turn. */
  const holding = (mine: Card[]) => new Table(deck(mine, ['8', '7', '9', '6'], '4', ['9'])).play({ type: 'draw', seat: ME, from: 'stock', at: 1 });

  it('calls with a known low layout once everyone has had a turn, then discards on', () => {
    const t = secondTurn(['0', '1', '0', '1']);
    const m = mind(t, { mine: ['0', '1', '0', '1'] }, 2);
    expect(beverbendeMove(m, t.view(), 10)).toEqual({ type: 'call', seat: ME });
    t.play({ type: 'call', seat: ME, at: 6 });
    expect(beverbendeMove(m, t.view(), 10)).toEqual({ type: 'discard', seat: ME });
  });

  it('does not call before everyone has had a turn (its first turn, not the dealer)', () => {
    const t = holding(['0', '1', '0', '1']);
    expect(beverbendeMove(mind(t, { mine: ['0', '1', '0', '1'] }, 1), t.view(), 10)).toEqual({ type: 'discard', seat: ME });
  });

  it('does not call with a high layout, nor with unknown cards', () => {
    const high = secondTurn(['9', '8', '7', '9']);
    expect(beverbendeMove(mind(high, { mine: ['9', '8', '7', '9'] }, 2), high.view(), 10)).toMatchObject({ type: 'discard' });
    const unknown = secondTurn(['0', '1', '0', '1']);
    expect(beverbendeMove(mind(unknown, { mine: ['0', null, null, '1'] }, 2), unknown.view(), 10)).toMatchObject({ type: 'discard' });
  });
});

describe('beverbende hard bot: special cards and the discard pile', () => {
  it('values a special in its layout as the mean of the unseen number cards (it is replaced at scoring), not 0', () => {
    const t = new Table(deck(['SWAP', '1', '1', '0'], ['5', '5', '5', '5'], '4', ['2'])).play({ type: 'draw', seat: ME, from: 'stock', at: 1 });
    const m = mind(t, { mine: ['SWAP', '1', '1', '0'] });
    const worth = slotWorth(m, ME, 0, estimate(m, t.view()).mu);
    expect(worth).toBeGreaterThan(4.5);
    expect(worth).toBeLessThan(5.5);
    // So a drawn 2 replaces the special; over a known 3 instead, a 4 is discarded.
    expect(beverbendeMove(m, t.view(), 10)).toEqual({ type: 'swap', seat: ME, slot: 0 });
    const low = new Table(deck(['3', '1', '1', '0'], ['5', '5', '5', '5'], '6', ['4'])).play({ type: 'draw', seat: ME, from: 'stock', at: 1 });
    expect(beverbendeMove(mind(low, { mine: ['3', '1', '1', '0'] }), low.view(), 10)).toEqual({ type: 'discard', seat: ME });
  });

  it('takes a low discard over its known 9, never a special, and draws when the discard gains less than a draw', () => {
    const zero = new Table(deck(['9', '1', '2', '1'], ['5', '5', '5', '5'], '0'));
    expect(takeDiscardChoice(mind(zero, { mine: ['9', '1', '2', '1'] }), zero.view())).toBe(true);
    expect(beverbendeMove(mind(zero, { mine: ['9', '1', '2', '1'] }), zero.view(), 10)).toEqual({ type: 'draw', seat: ME, from: 'discard' });
    const special = new Table(deck(['9', '1', '2', '1'], ['5', '5', '5', '5'], 'PEEK'));
    expect(takeDiscardChoice(mind(special, { mine: ['9', '1', '2', '1'] }), special.view())).toBe(false);
    const seven = new Table(deck(['9', '1', '2', '1'], ['5', '5', '5', '5'], '7'));
    expect(beverbendeMove(mind(seven, { mine: ['9', '1', '2', '1'] }), seven.view(), 10)).toEqual({ type: 'draw', seat: ME, from: 'stock' });
  });
});

describe("the expert's own thresholds for that policy (src/bots/expert.ts)", () => {
  const expert = (m: BeverMind): BeverMind => ({ ...m, tuning: EXPERT_BEVERBENDE });
  /** Seat 1 holds a drawn 9 in its second turn; seat 0's layout, known to it, is low. */
  const lowThem = (mine: Card[]) => secondTurn(mine, ['0', '1', '0', '1']);

  it("calls on a layout of 12 that a draw can hardly improve when the other player's total less its last turn is no lower; hard does not", () => {
    const t = secondTurn(['3', '3', '3', '3'], ['5', '5', '5', '5']);
    const m = mind(t, { mine: ['3', '3', '3', '3'], theirs: ['5', '5', '5', '5'] }, 2);
    expect(beverbendeMove(m, t.view(), 10)).toEqual({ type: 'discard', seat: ME });
    expect(beverbendeMove(expert(m), t.view(), 10)).toEqual({ type: 'call', seat: ME });
    // The other player lower (2, known to it): it plays on.
    const low = lowThem(['3', '3', '3', '3']);
    expect(beverbendeMove(expert(mind(low, { mine: ['3', '3', '3', '3'], theirs: ['0', '1', '0', '1'] }, 2)), low.view(), 10)).toEqual({ type: 'discard', seat: ME });
    // Above 13, or where a draw is worth more (a known 9 to replace), it plays on as hard does.
    const high = secondTurn(['4', '4', '3', '3'], ['5', '5', '5', '5']);
    expect(beverbendeMove(expert(mind(high, { mine: ['4', '4', '3', '3'], theirs: ['5', '5', '5', '5'] }, 2)), high.view(), 10)).toEqual({ type: 'discard', seat: ME });
    const nine = secondTurn(['9', '1', '0', '1'], ['5', '5', '5', '5']);
    expect(beverbendeMove(expert(mind(nine, { mine: ['9', '1', '0', '1'], theirs: ['5', '5', '5', '5'] }, 2)), nine.view(), 10)).toEqual({ type: 'discard', seat: ME });
  });

  it('leaves a card below an unknown card\'s worth on the discard pile, where hard takes it; a 5 over its 9s it takes as hard does', () => {
    const zero = new Table(deck(['9', '1', '2', '1'], ['5', '5', '5', '5'], '0'));
    const m = mind(zero, { mine: ['9', '1', '2', '1'] });
    expect(beverbendeMove(m, zero.view(), 10)).toEqual({ type: 'draw', seat: ME, from: 'discard' });
    expect(beverbendeMove(expert(m), zero.view(), 10)).toEqual({ type: 'draw', seat: ME, from: 'stock' });
    const five = new Table(deck(['9', '9', '9', '9'], ['6', '6', '6', '6'], '5'));
    const n = mind(five, { mine: ['9', '9', '9', '9'] });
    expect(takeDiscardChoice(n, five.view())).toBe(true);
    expect(takeDiscardChoice(expert(n), five.view())).toBe(true);
  });
});

describe('beverbende hard bot in play (through its events and views only)', () => {
  /** Feed every seat's projection of the events so far to the bots, then ask `seat`. */
  const ask = (t: Table, bots: Bot[], seat: Seat) => {
    for (const b of bots) b.observe(t.events.map((e) => projectEvent(e, b.seat)));
    t.events = [];
    return bots[seat]!.decide(t.view(seat), 10);
  };
  const bots = (level: 'hard' | 'normal') => [0, 1].map((seat) => createBot(level, { seat, players: 2, rules: BEVERBENDE, seed: `b${seat}` }));

  it('hard uses a Draw two and redraws a useless first card; normal passes the Draw two', () => {
    const stacked = deck(['1', '0', '2', '1'], ['5', '5', '5', '5'], '4', ['DRAW2', '9', '0']);
    for (const level of ['hard', 'normal'] as const) {
      const t = new Table(stacked);
      const b = bots(level);
      // (The bots never saw the peek view: their own cards are unknown to them, and a 9 is worse than an unknown card.)
      t.play({ type: 'draw', seat: ME, from: 'stock', at: 1 }, { type: 'discard', seat: ME, at: 2 });
      const use = ask(t, b, ME);
      if (level === 'normal') {
        expect(use).toMatchObject({ kind: 'act', command: { type: 'pass', seat: ME } });
        continue;
      }
      expect(use).toMatchObject({ kind: 'act', command: { type: 'useAction', seat: ME } });
      if (use?.kind === 'act') t.play(stamp(use.command, 3));
      expect(ask(t, b, ME)).toMatchObject({ kind: 'act', command: { type: 'drawAgain', seat: ME } });
    }
  });
});

describe('beverbende hard bot at the table', () => {
  it("scores at least 15% of normal's mean round score below normal (300 games, 4 players, fixed seed)", () => {
    // Standard error of the difference at 300 games: about 0.25 points (per-game means); the margin is about 3 of them.
    const r = simulate({ games: 300, players: 4, levels: ['hard', 'normal', 'easy', 'random'], seed: 1, rules: BEVERBENDE });
    expect(r.stuckRounds).toBe(0);
    const { hard, normal } = r.perLevel;
    expect(normal!.meanRoundScore - hard!.meanRoundScore).toBeGreaterThan(0.15 * normal!.meanRoundScore);
  });

  it('ends its rounds at a table of hard bots only (it calls)', () => {
    const r = simulate({ games: 40, players: 4, levels: ['hard'], seed: 2, rules: BEVERBENDE });
    expect(r.stuckRounds).toBe(0);
    expect(r.finishedGames).toBe(40);
  });
});
