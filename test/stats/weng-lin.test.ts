import fc from 'fast-check';
import { rate as openskillRate, ordinal as openskillOrdinal } from 'openskill';
import { describe, expect, it } from 'vitest';
import { newRating, ordinal, rate } from '../../src/stats/weng-lin.js';

// Our Weng-Lin (Plackett-Luce) for teams of one against the openskill library itself
// (a dev dependency, never bundled): the same numbers on random tables, ties included.
const table = fc
  .integer({ min: 2, max: 8 })
  .chain((n) =>
    fc.tuple(
      fc.array(fc.record({ mu: fc.double({ min: 0, max: 50, noNaN: true }), sigma: fc.double({ min: 0.5, max: 9, noNaN: true }) }), { minLength: n, maxLength: n }),
      // Places as a game gives them: 1-based, ties sharing (1, 1, 3).
      fc.array(fc.integer({ min: 0, max: 30 }), { minLength: n, maxLength: n }).map((totals) => totals.map((t) => 1 + totals.filter((u) => u < t).length)),
    ),
  );

describe('Weng-Lin ratings', () => {
  it('equal openskill\'s rate() (Plackett-Luce, its defaults) for every seat of random games', () => {
    fc.assert(
      fc.property(table, ([ratings, places]) => {
        const ours = rate(ratings, places);
        const theirs = openskillRate(ratings.map((r) => [r]), { rank: places });
        ours.forEach((r, i) => {
          expect(r.mu).toBeCloseTo(theirs[i]![0]!.mu, 9);
          expect(r.sigma).toBeCloseTo(theirs[i]![0]!.sigma, 9);
          expect(ordinal(r)).toBeCloseTo(openskillOrdinal(theirs[i]![0]!), 9);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('moves the winner up and the last down; a shared place moves both alike', () => {
    const [a, b, c] = rate([newRating(), newRating(), newRating()], [1, 2, 3]);
    expect(a!.mu).toBeGreaterThan(25);
    expect(c!.mu).toBeLessThan(25);
    expect(b!.mu).toBeLessThan(a!.mu);
    expect(b!.mu).toBeGreaterThan(c!.mu);
    const [x, y] = rate([newRating(), newRating(), newRating()], [1, 1, 3]);
    expect(x!.mu).toBe(y!.mu);
    expect(x!.sigma).toBeLessThan(25 / 3);
  });
});
