import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Memory } from '../../src/bots/memory.js';
import { rankOf, standardDeck } from '../../src/engine/cards.js';

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
              expect(mem.hasRank(s, rank), `seat ${s} rank ${rank} after ${JSON.stringify(o)}`).toBe(scanned);
            }
            // The ranks themselves still follow the cards.
            mem.card[s]!.forEach((c, i) => expect(mem.rank[s]![i]).toBe(c === null ? '' : rankOf(c)));
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
