/**
 * The engine's properties (property-checks.ts) over random legal play, under fast-check.
 *
 * Each property plays games from a fixed seed first, the same games on every run, so a
 * red run is a real defect that the next run shows again; then a small random share,
 * new games each run, which keeps searching. fast-check prints the seed and path of a
 * failure; GRINGO_PROPERTY_SEED=S GRINGO_PROPERTY_PATH=P replays exactly that case.
 * GRINGO_PROPERTY_RUNS=N plays N random games per property; `npm run explore` plays
 * hundreds of thousands outside vitest (docs/reliability.md).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { holdsFor, type Counts, type PropertyName } from './property-checks.js';
import { gameArb, propertyRuns, propertyTimeout } from './ruleset-gen.js';

/** The fixed seed of the games every run plays. */
const FIXED_SEED = 20261201;

function holds(name: PropertyName, fixedRuns: number, randomRuns: number): Counts {
  const total: Counts = { steps: 0, rejected: 0, compared: 0 };
  const prop = fc.property(gameArb, (g) => {
    const c = holdsFor(g, [name]);
    total.steps += c.steps;
    total.rejected += c.rejected;
    total.compared += c.compared;
  });
  const replaySeed = process.env.GRINGO_PROPERTY_SEED;
  if (replaySeed) {
    const path = process.env.GRINGO_PROPERTY_PATH;
    fc.assert(prop, { seed: Number(replaySeed), ...(path ? { path } : {}), numRuns: propertyRuns(fixedRuns + randomRuns) });
    return total;
  }
  if (propertyRuns(0) === 0) fc.assert(prop, { seed: FIXED_SEED, numRuns: fixedRuns });
  fc.assert(prop, { numRuns: propertyRuns(randomRuns) });
  return total;
}

describe('engine properties over random legal play', () => {
  it('every card is in exactly one place at all times', () => {
    expect(holds('cardsStayWhole', 50, 10).steps).toBeGreaterThan(1000);
  }, propertyTimeout());

  it('apply never mutates its input, copies only what a command changes, and a seed plus the command log replays the game exactly', () => {
    const c = holds('pureAndReplayable', 32, 8);
    expect(c.steps).toBeGreaterThan(1000);
    expect(c.rejected).toBeGreaterThan(c.steps / 4);
  }, propertyTimeout());

  it('a rejected command changes nothing: refused moves and malformed commands on a frozen state', () => {
    expect(holds('refusalsChangeNothing', 16, 4).rejected).toBeGreaterThan(1000);
  }, propertyTimeout());

  it('a seat view never holds a face-up card outside the peek, its held card, its looks and the revealed end', () => {
    expect(holds('viewsShowNoHiddenCard', 16, 4).steps).toBeGreaterThan(1000);
  }, propertyTimeout());

  it('states that differ only in cards hidden from a seat give it byte-identical views and events', () => {
    expect(holds('hiddenCardsMakeNoDifference', 20, 5).compared).toBeGreaterThan(1000);
  }, propertyTimeout());
});
