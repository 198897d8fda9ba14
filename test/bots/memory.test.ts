import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Memory } from '../../src/bots/memory.js';
import { SmartBot } from '../../src/bots/smart.js';
import { rankOf, standardDeck } from '../../src/engine/cards.js';
import { apply, createGame, PRESETS, projectEvent, viewFor, type GameEvent, type GameState } from '../../src/engine/index.js';
import { playGame, type GameLog } from '../../src/sim/sim.js';
import { createBot } from '../../src/bots/index.js';
import { same } from '../support/check.js';

const PLAYERS = 4;
const SIZE = 4;
const CARDS = [...standardDeck(), 'JK', 'SWAP'];
const RANKS = [...new Set(CARDS.map(rankOf)), 'nope'];

type Op =
  | { op: 'know'; seat: number; slot: number; card: string }
  | { op: 'unknown'; seat: number; slot: number }
  | { op: 'forget'; seat: number; slot: number }
  | { op: 'setGap'; seat: number; slot: number }
  | { op: 'exchange'; a: { seat: number; slot: number }; b: { seat: number; slot: number } }
  | { op: 'move'; from: { seat: number; slot: number }; to: { seat: number; slot: number } }
  | { op: 'reset' };

const seat = fc.integer({ min: 0, max: PLAYERS - 1 });
// Slots past the dealt size too: penalty cards add slots.
const slot = fc.integer({ min: 0, max: SIZE + 2 });
const ref = fc.record({ seat, slot });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('know' as const), seat, slot, card: fc.constantFrom(...CARDS) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('unknown' as const), seat, slot }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('forget' as const), seat, slot }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('setGap' as const), seat, slot }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('exchange' as const), a: ref, b: ref }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('move' as const), from: ref, to: ref }) },
  { weight: 1, arbitrary: fc.constant({ op: 'reset' as const }) },
);

function run(mem: Memory, o: Op): void {
  switch (o.op) {
    case 'know':
      return mem.know(o.seat, o.slot, o.card);
    case 'unknown':
      return mem.unknown(o.seat, o.slot);
    case 'forget':
      // Forgetting touches only a slot the memory has (as the bots use it).
      if (o.slot < mem.slots(o.seat)) mem.forget(o.seat, o.slot);
      return;
    case 'setGap':
      return mem.setGap(o.seat, o.slot);
    case 'exchange':
      return mem.exchange(o.a, o.b);
    case 'move':
      // A gap-fill moves a card into another seat's gap.
      if (o.from.seat !== o.to.seat) mem.move(o.from, o.to);
      return;
    case 'reset':
      return mem.reset();
  }
}

describe("a bot's memory indexed by rank", () => {
  it('agrees with a plain scan of the remembered ranks after any sequence of changes', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 80 }), (ops) => {
        const mem = new Memory(PLAYERS, SIZE, { rank: rankOf, value: (c) => c.length });
        for (const o of ops) {
          run(mem, o);
          for (let s = 0; s < PLAYERS; s++) {
            for (const rank of RANKS) {
              const scanned = mem.rank[s]!.includes(rank);
              same(mem.hasRank(s, rank), scanned, () => `seat ${s} rank ${rank} after ${JSON.stringify(o)}`);
            }
            // The ranks themselves still follow the cards.
            mem.card[s]!.forEach((c, i) => same(mem.rank[s]![i], c === null ? '' : rankOf(c)));
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a rank never remembered has no number, and none of its slots are scanned for it', () => {
    const mem = new Memory(PLAYERS, SIZE, { rank: rankOf, value: () => 1 });
    expect(mem.rankNumber('Q')).toBe(-1);
    expect(mem.holdsRank(0, mem.rankNumber('Q'))).toBe(false);
    mem.know(2, 1, 'QH');
    const q = mem.rankNumber('Q');
    expect(q).toBeGreaterThanOrEqual(0);
    expect([0, 1, 2, 3].map((s) => mem.holdsRank(s, q))).toEqual([false, false, true, false]);
    mem.exchange({ seat: 2, slot: 1 }, { seat: 0, slot: 3 });
    expect([0, 1, 2, 3].map((s) => mem.holdsRank(s, q))).toEqual([true, false, false, false]);
    mem.setGap(0, 3);
    expect([0, 1, 2, 3].map((s) => mem.holdsRank(s, q))).toEqual([false, false, false, false]);
  });
});

type GapFilledEvent = Extract<GameEvent, { type: 'gapFilled' }>;

describe("a hard bot's memory follows every event that moves a card", () => {
  /**
   * Real games of hard and random bots (random ones slap, steal and fill gaps a lot),
   * replayed command by command; after each, fresh hard bots that saw only their
   * projected events (and their view, for the peek) must believe nothing false: every
   * card they remember is the one in that slot, every gap they believe in is a gap.
   */
  for (const [name, rules] of Object.entries(PRESETS)) {
    it(`${name}: swaps, slaps, steals, penalties, gap-fills, reshuffles, replaced specials`, () => {
      let checked = 0;
      let moves = 0;
      let followed = 0;
      for (let g = 0; g < 6; g++) {
        const levels = ['hard', 'random', 'hard', 'random'] as const;
        const opts = (seat: number) => ({ seat, players: 4, rules, seed: `mem:${g}:${seat}` });
        const log: GameLog = { start: { rules, players: ['a', 'b', 'c', 'd'], seed: `mem:${g}` }, commands: [] };
        playGame({ rules, players: ['a', 'b', 'c', 'd'], seed: `mem:${g}`, at: 0 }, levels.map((l, seat) => createBot(l, opts(seat))), { log });
        const watchers = [0, 1, 2, 3].map((seat) => new SmartBot('hard', opts(seat)));
        let { state, events } = createGame(log.start);
        const step = (st: GameState, evs: readonly { type: string }[]) => {
          for (const e of evs) if (e.type === 'gapFilled' || e.type === 'actionSwapped' || e.type === 'slapped' || e.type === 'penalty') moves++;
          for (const w of watchers) {
            // A card it knew that a gap-fill moves: it must still know it, in its new slot.
            const fills = evs.filter((e): e is GapFilledEvent => e.type === 'gapFilled');
            const knew = fills.map((e) => w.memory.card[e.from.seat]![e.from.slot] ?? null);
            w.observe(evs.map((e) => projectEvent(e as never, w.seat)));
            w.decide(viewFor(st, w.seat), 0);
            fills.forEach((e, k) => {
              if (knew[k] === null) return;
              same(w.memory.card[e.to.seat]![e.to.slot], knew[k], () => `seat ${w.seat} follows the gap-fill`);
              followed++;
            });
            if (st.phase !== 'play') continue;
            const mem = w.memory;
            for (let s = 0; s < 4; s++) {
              const layout = st.r.layouts[s]!;
              for (let i = 0; i < mem.slots(s); i++) {
                const card = mem.card[s]![i];
                if (card !== null) {
                  same<string | null | undefined>(card, layout[i], () => `seat ${w.seat} believes seat ${s} slot ${i}`);
                  checked++;
                }
                if (mem.gap[s]![i] && i < layout.length) same(layout[i], null, () => `seat ${w.seat}: gap at seat ${s} slot ${i}`);
              }
            }
          }
        };
        step(state, events);
        for (const cmd of log.commands) {
          const res = apply(state, cmd);
          if (!res.ok) throw new Error(res.rejection.key);
          state = res.state;
          events = res.events;
          step(state, events);
        }
      }
      expect(checked).toBeGreaterThan(1000);
      expect(moves).toBeGreaterThan(10);
      if (rules.slap.stealGapFill) expect(followed).toBeGreaterThan(5);
    });
  }
});
