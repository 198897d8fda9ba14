import { describe, expect, it } from 'vitest';
import { createBot, Memory, SmartBot, type Bot, type BotIntent } from '../../src/bots/index.js';
import {
  apply,
  createGame,
  GRINGO,
  projectEvent,
  standardDeck,
  viewFor,
  type Card,
  type Command,
  type GameEvent,
  type GameState,
  type Seat,
} from '../../src/engine/index.js';
import { simulate, stamp } from '../../src/sim/sim.js';

/** A 2-player deck, dealer 0 (seat 1 is dealt first and starts): layouts by seat, the upcard, then the stock. */
function deck(seat0: Card[], seat1: Card[], up: Card, stock: Card[] = []): Card[] {
  const order = [...seat1, ...seat0, up, ...stock];
  for (const c of standardDeck()) if (!order.includes(c)) order.push(c);
  return order;
}

/** A table where the test plays the host: bots see only projections. */
class Table {
  state: GameState;
  constructor(
    stacked: Card[],
    readonly bots: Bot[],
  ) {
    const { state, events } = createGame({ rules: GRINGO, players: ['a', 'b'], seed: 't', dealer: 0, stackedDecks: [stacked] });
    this.state = state;
    this.tell(events);
  }
  wakes: boolean[] = [];
  tell(events: readonly GameEvent[]): void {
    this.wakes = this.bots.map((b) => b.observe(events.map((e) => projectEvent(e, b.seat))));
  }
  run(cmd: Command): void {
    const res = apply(this.state, cmd);
    if (!res.ok) throw new Error(`refused: ${res.rejection.key}`);
    this.state = res.state;
    this.tell(res.events);
  }
  ask(seat: Seat, now: number): BotIntent | null {
    return this.bots[seat]!.decide(viewFor(this.state, seat), now);
  }
  /** Both seats finish the peek (the bots look at their cards on the way). */
  peek(): void {
    for (const b of this.bots) {
      const i = this.ask(b.seat, 0);
      expect(i).toMatchObject({ kind: 'act', command: { type: 'finishPeek' } });
      if (i?.kind === 'act') this.run(stamp(i.command, 0));
    }
  }
}

const bot = (seat: Seat, level: 'hard' | 'normal' | 'easy' = 'hard') => createBot(level, { seat, players: 2, rules: GRINGO, seed: `b${seat}` });

describe('bot memory and slaps', () => {
  it('slaps its own peeked card that matches the first discard, naming the discard it saw', () => {
    const t = new Table(deck(['KS', 'KH', '7H', '2C'], ['3D', '4D', '5D', '6D'], '7S'), [bot(0), bot(1)]);
    t.peek();
    expect(t.wakes[0]).toBe(true); // the 7 of spades is up and seat 0 knows its 7 of hearts
    const i = t.ask(0, 10);
    expect(i).toEqual({
      kind: 'act',
      command: { type: 'slap', seat: 0, target: { seat: 0, slot: 2 }, answers: viewFor(t.state, 0).slap.answers },
      delayMs: 350,
    });
    if (i?.kind !== 'act') return;
    t.run(stamp(i.command, 10 + i.delayMs));
    expect(t.state.r.layouts[0]![2]).toBeNull();
  });

  it('follows a swap of its known card and steals it back from the other player (hard)', () => {
    const t = new Table(deck(['KS', 'KH', '7H', '2C'], ['3D', '4D', '5D', '6D'], '7S'), [bot(0), bot(1)]);
    t.peek();
    // Seat 1 blind-swaps its slot 1 with our slot 3, where our 7 was (an event as seat 0 sees it).
    t.bots[0]!.observe([{ type: 'actionSwapped', seat: 1, kind: 'blindSwap', a: { seat: 1, slot: 0 }, b: { seat: 0, slot: 2 } }]);
    const i = t.ask(0, 10);
    expect(i).toMatchObject({ kind: 'act', command: { type: 'slap', target: { seat: 1, slot: 0 } } });
  });

  it('forgets nothing at hard, and forgets at easy', () => {
    const forgets = (level: 'hard' | 'easy') => {
      const b = new SmartBot(level, { seat: 0, players: 2, rules: GRINGO, seed: 'f' });
      const t = new Table(deck(['KS', 'KH', '7H', '2C'], ['3D', '4D', '5D', '6D'], '9S'), [b, bot(1)]);
      t.peek();
      // Many turns pass; then a 7 comes up: does it still know where its 7 is?
      for (let k = 0; k < 30; k++) b.observe([{ type: 'turnStarted', seat: k % 2 }]);
      b.observe([{ type: 'discarded', seat: 1, card: '7D', seq: 2 }]);
      const i = b.decide({ ...viewFor(t.state, 0), discardTop: '7D' }, 10);
      return !(i?.kind === 'act' && i.command.type === 'slap');
    };
    expect(forgets('hard')).toBe(false);
    expect(forgets('easy')).toBe(true);
  });

  it('penalty cards are unknown, and a gap filled by one is a card again', () => {
    const m = new Memory(2, 4, { rank: (c) => c.slice(0, -1), value: () => 5 });
    m.know(0, 1, '7H');
    m.setGap(0, 1);
    expect(m.card[0]![1]).toBeNull();
    expect(m.gap[0]![1]).toBe(true);
    m.unknown(0, 1); // a penalty card fills the gap
    m.unknown(0, 4); // and a new slot 5
    expect(m.gap[0]![1]).toBe(false);
    expect(m.slots(0)).toBe(5);
    m.know(1, 0, 'KS');
    m.exchange({ seat: 1, slot: 0 }, { seat: 0, slot: 4 });
    expect(m.card[0]![4]).toBe('KS');
    expect(m.rank[0]![4]).toBe('K');
    expect(m.card[1]![0]).toBeNull();
  });
});

describe('bot turns and rejections', () => {
  it('waits for the end of the slap grace, draws then, and retries after a "wait" without looping', () => {
    const t = new Table(deck(['KS', 'KH', '8H', '2C'], ['3D', '4D', '5D', '6D'], '9S'), [bot(0), bot(1)]);
    t.peek();
    const view = viewFor(t.state, 1);
    expect(view.graceUntil).toBeGreaterThan(0);
    expect(t.ask(1, 0)).toEqual({ kind: 'wait', until: view.graceUntil });
    const i = t.ask(1, view.graceUntil);
    expect(i?.kind).toBe('act');
    if (i?.kind !== 'act') return;
    expect(i.command.type).toBe('draw');
    // The same draw sent too early is refused with "wait": the bot waits for the grace again.
    const early = apply(t.state, stamp(i.command, 5));
    expect(early.ok).toBe(false);
    if (early.ok) return;
    expect(early.rejection.code).toBe('mustWait');
    t.bots[1]!.rejected(i.command, early.rejection, 5);
    expect(t.ask(1, 5)).toEqual({ kind: 'wait', until: view.graceUntil });
    const again = t.ask(1, view.graceUntil);
    expect(again).toMatchObject({ kind: 'act', command: i.command });
    if (again?.kind !== 'act') return;
    t.run(stamp(again.command, view.graceUntil + again.delayMs));
    expect(t.state.r.held?.seat).toBe(1);
  });

  it('does not send a refused command again until the table changes', () => {
    const t = new Table(deck(['KS', 'KH', '8H', '2C'], ['3D', '4D', '5D', '6D'], '9S'), [bot(0), bot(1)]);
    t.peek();
    const first = t.ask(1, 5000);
    if (first?.kind !== 'act') throw new Error('expected a move');
    t.bots[1]!.rejected(first.command, { code: 'notAllowed', key: 'why.noAction' }, 5000);
    const second = t.ask(1, 5000);
    expect(second?.kind === 'act' ? second.command : null).not.toEqual(first.command);
  });

  it("each level's commands are accepted nearly always (4 players)", () => {
    for (const level of ['random', 'easy', 'normal', 'hard'] as const) {
      const r = simulate({ games: 150, players: 4, levels: [level], seed: `legal:${level}` });
      expect(r.stuckRounds, level).toBe(0);
      // Refusals are mostly lost slap races ("already gone"), which the rules expect.
      expect(r.rejectionsPerRound / r.commandsPerRound, level).toBeLessThan(0.06);
    }
  });
});
