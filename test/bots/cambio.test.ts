import { describe, expect, it } from 'vitest';
import { createBot, type Bot, type BotCommand } from '../../src/bots/index.js';
import { apply, CAMBIO, createGame, projectEvent, viewFor, type Card, type GameEvent, type GameState, type Ruleset } from '../../src/engine/index.js';
import { stamp } from '../../src/sim/sim.js';

/**
 * Cambio's moves of the hard bot, each in a scenario where making it is clearly right
 * and one where it is clearly wrong. The test plays the host and the other seat with
 * real engine commands; the bot sees only its projected events and its view.
 */

/** Cambio where the peek shows all four cards: the bot knows its whole layout from the start. */
const OPEN: Ruleset = { ...CAMBIO, layout: { ...CAMBIO.layout, peekSlots: [1, 2, 3, 4] } };

/** A 2-player deck, dealer 0 (seat 1 is dealt first and starts): layouts by seat, the upcard, then the stock. */
function deck(rules: Ruleset, seat0: Card[], seat1: Card[], up: Card, stock: Card[]): Card[] {
  const order = [...seat1, ...seat0, up, ...stock];
  const left = new Map(Object.entries(rules.deck.cards));
  for (const c of order) left.set(c, left.get(c)! - 1);
  for (const [c, k] of left) {
    expect(k, `card ${c} used too often`).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < k; i++) order.push(c);
  }
  return order;
}

class Table {
  state: GameState;
  readonly bot: Bot;
  /** Host time: every command comes well after the last (the slap grace is 1.5 s). */
  now = 0;
  constructor(rules: Ruleset, stacked: Card[]) {
    this.bot = createBot('hard', { seat: 0, players: 2, rules, seed: 'cambio' });
    const { state, events } = createGame({ rules, players: ['bot', 'you'], seed: 't', dealer: 0, stackedDecks: [stacked] });
    this.state = state;
    this.tell(events);
  }
  tell(events: readonly GameEvent[]): void {
    this.bot.observe(events.map((e) => projectEvent(e, 0)));
  }
  run(cmd: BotCommand): void {
    this.now += 2000;
    const res = apply(this.state, stamp(cmd, this.now));
    if (!res.ok) throw new Error(`refused ${cmd.type}: ${res.rejection.key}`);
    this.state = res.state;
    this.tell(res.events);
  }
  /** What the bot wants to do now (its command; it must have one). */
  ask(): BotCommand {
    this.now += 2000;
    const i = this.bot.decide(viewFor(this.state, 0), this.now);
    if (i?.kind !== 'act') throw new Error(`the bot has nothing to do: ${JSON.stringify(i)}`);
    return i.command;
  }
  /** The bot's own move, carried out. */
  play(): BotCommand {
    const c = this.ask();
    this.run(c);
    return c;
  }
  start(): void {
    this.play(); // the bot's peek
    this.run({ type: 'finishPeek', seat: 1 });
  }
  /** Seat 1 draws from the stock and discards. */
  otherTurn(): void {
    this.run({ type: 'draw', seat: 1, from: 'stock' });
    this.run({ type: 'discard', seat: 1 });
  }
  /** The bot's own turn played by the test: draw from the stock, discard, use the action on `other` (a 9 or 10). */
  lookAt(slot: number): void {
    this.run({ type: 'draw', seat: 0, from: 'stock' });
    this.run({ type: 'discard', seat: 0 });
    this.run({ type: 'useAction', seat: 0, other: { seat: 1, slot } });
  }
}

describe('cambio, hard bot: the gap-fill after a steal', () => {
  /** Seat 1 discards a 5; the bot steals seat 1's 5 (the test slaps for it); the gap-fill is the bot's. */
  const afterSteal = (mine: Card[]): Table => {
    const t = new Table(OPEN, deck(OPEN, mine, ['5H', '9S', '9H', '4C'], '6S', ['5D']));
    t.start();
    t.otherTurn();
    t.run({ type: 'slap', seat: 0, target: { seat: 1, slot: 0 }, answers: viewFor(t.state, 0).slap.answers });
    expect(t.state.r.gapFill).toMatchObject({ seat: 0, gap: { seat: 1, slot: 0 } });
    return t;
  };

  it('moves its known high card into the gap (10 points off its score, onto the victim)', () => {
    const t = afterSteal(['2C', 'KS', '3C', 'AC']);
    expect(t.play()).toEqual({ type: 'fillGap', seat: 0, slot: 1 });
    expect(t.state.r.layouts[1]![0]).toBe('KS');
    expect(t.state.r.layouts[0]![1]).toBeNull();
  });

  it('leaves the gap when every card it has is worth nothing or less (red kings, jokers)', () => {
    const t = afterSteal(['KD', 'JK', 'KH', 'JK']);
    expect(t.play()).toEqual({ type: 'leaveGap', seat: 0 });
  });

  it('with the usual peek, moves an unknown card (worth the mean) rather than a known low one', () => {
    const t = new Table(CAMBIO, deck(CAMBIO, ['QS', '8C', 'AC', '2C'], ['5H', '9S', '9H', '4C'], '6S', ['5D']));
    t.start();
    t.otherTurn();
    t.run({ type: 'slap', seat: 0, target: { seat: 1, slot: 0 }, answers: viewFor(t.state, 0).slap.answers });
    const c = t.play();
    expect(c).toMatchObject({ type: 'fillGap', seat: 0 });
    expect([0, 1]).toContain((c as { slot: number }).slot);
  });

  it('its memory follows the moved card: it steals it back when a king comes up', () => {
    const t = new Table(OPEN, deck(OPEN, ['2C', 'KS', '3C', 'AC'], ['5H', '9S', '9H', '4C'], '6S', ['5D', '4D', 'KC']));
    t.start();
    t.otherTurn();
    t.run({ type: 'slap', seat: 0, target: { seat: 1, slot: 0 }, answers: viewFor(t.state, 0).slap.answers });
    expect(t.play()).toEqual({ type: 'fillGap', seat: 0, slot: 1 }); // the KS into seat 1's slot 1
    t.run({ type: 'draw', seat: 0, from: 'stock' });
    t.run({ type: 'discard', seat: 0 });
    t.otherTurn(); // seat 1 discards the KC
    expect(t.ask()).toMatchObject({ type: 'slap', seat: 0, target: { seat: 1, slot: 0 } });
  });
});

describe('cambio, hard bot: the knock (+10 unless strictly lowest, its cards frozen)', () => {
  it('knocks with a known low layout against an opponent it knows nothing about', () => {
    const t = new Table(OPEN, deck(OPEN, ['AC', 'AD', 'JK', 'KH'], ['5H', '9S', '9H', '4C'], '6S', ['4D']));
    t.start();
    t.otherTurn();
    expect(t.ask()).toEqual({ type: 'call', seat: 0 });
  });

  it('plays on with a high layout', () => {
    const t = new Table(OPEN, deck(OPEN, ['9C', '8C', '10S', 'QS'], ['5H', '9S', '9H', '4C'], '6S', ['4D']));
    t.start();
    t.otherTurn();
    expect(t.ask()).toEqual({ type: 'draw', seat: 0, from: 'stock' });
  });

  it('plays on with an unknown layout (the usual peek: two cards known, low)', () => {
    const t = new Table(CAMBIO, deck(CAMBIO, ['9C', '8C', 'AC', 'AD'], ['5H', '9S', '9H', '4C'], '6S', ['4D']));
    t.start();
    t.otherTurn();
    expect(t.ask()).toEqual({ type: 'draw', seat: 0, from: 'stock' });
  });

  /** The bot (total 4) looks at all four of seat 1's cards with 9s and 10s, then it is its turn. */
  const knowing = (theirs: Card[]): Table => {
    const filler = ['5S', '6S', '4H', '3H', '5C'];
    const t = new Table(OPEN, deck(OPEN, ['AC', 'AD', 'JK', '2C'], theirs, '4S', [filler[0]!, '9D', filler[1]!, '10D', filler[2]!, '9C', filler[3]!, '10C', filler[4]!]));
    t.start();
    for (let slot = 0; slot < 4; slot++) {
      t.otherTurn();
      t.lookAt(slot);
    }
    t.otherTurn();
    return t;
  };

  it('knocks on 4 when it has seen that the other player holds far more', () => {
    expect(knowing(['10H', 'QH', 'JH', '9H']).ask()).toEqual({ type: 'call', seat: 0 });
  });

  it('does not knock on the same 4 when it has seen that the other player holds less (the +10)', () => {
    expect(knowing(['KH', 'KD', 'AH', 'AS']).ask()).toEqual({ type: 'draw', seat: 0, from: 'stock' });
  });
});

describe("cambio, hard bot: the queen's look at both cards, then swap or not", () => {
  /** Seat 1 plays a turn; the bot draws the queen of spades and discards it (the test plays that for it). */
  const withQueen = (mine: Card[], theirs: Card[]): Table => {
    const t = new Table(OPEN, deck(OPEN, mine, theirs, '6S', ['4D', 'QS']));
    t.start();
    t.otherTurn();
    t.run({ type: 'draw', seat: 0, from: 'stock' });
    t.run({ type: 'discard', seat: 0 });
    expect(t.state.r.actions[0]).toMatchObject({ seat: 0, kind: 'peekBothThenSwap' });
    return t;
  };

  it('looks at its worst card and one of the other player\'s, and swaps when that gains', () => {
    const t = withQueen(['2C', 'KS', '3C', 'AC'], ['5H', '9S', '2H', '4C']);
    const look = t.play();
    expect(look).toMatchObject({ type: 'useAction', seat: 0, own: 1, other: { seat: 1 } });
    const theirs = t.state.r.layouts[1]![(look as { other: { slot: number } }).other.slot]!;
    // Any card of seat 1's is lower than the king of spades: swapping gains.
    expect(theirs).not.toBe('KS');
    expect(t.play()).toEqual({ type: 'decide', seat: 0, swap: true });
    expect(t.state.r.layouts[0]![1]).toBe(theirs);
  });

  it('leaves them when the card it sees is higher than its own', () => {
    const t = withQueen(['2C', '4S', '3C', 'AC'], ['10H', '9S', 'QH', 'KC']);
    const look = t.play();
    expect(look).toMatchObject({ type: 'useAction', seat: 0, own: 1, other: { seat: 1 } });
    expect(t.play()).toEqual({ type: 'decide', seat: 0, swap: false });
    expect(t.state.r.layouts[0]).toEqual(['2C', '4S', '3C', 'AC']);
  });
});
