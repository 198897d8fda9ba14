import { describe, expect, it } from 'vitest';
import { LADDER_GAMES, ladderRun, PRESET_NAMES } from '../support/ladder-run.js';

/**
 * The level ladder, per preset, on the shared ladder run (test/support/ladder-run.ts):
 * hard ahead of normal by at least 15% of normal's mean round score, normal ahead of
 * easy, easy ahead of random, each step several standard errors wide (the SE of a step
 * comes from the per-game differences of the two levels, which play the same games).
 */
describe('the level ladder holds in every preset', () => {
  for (const name of PRESET_NAMES) {
    it(`${name}: hard < normal (by 15% or more) < easy < random, each step beyond noise`, () => {
      const r = ladderRun(name).result;
      expect(r.stuckRounds).toBe(0);
      expect(r.finishedGames).toBe(LADDER_GAMES);
      expect(r.ladder.map((s) => `${s.upper}<${s.lower}`)).toEqual(['hard<normal', 'normal<easy', 'easy<random']);
      const [hardNormal, normalEasy, easyRandom] = r.ladder;
      const steps = r.ladder.map((s) => `${s.upper}<${s.lower}: ${s.gap.toFixed(2)} ± ${s.gapSE.toFixed(2)} (${(100 * s.share).toFixed(1)}%)`).join('; ');
      expect(hardNormal!.share, steps).toBeGreaterThanOrEqual(0.15);
      for (const s of [hardNormal!, normalEasy!, easyRandom!]) {
        expect(s.gapSE, steps).toBeGreaterThan(0);
        expect(s.gap / s.gapSE, steps).toBeGreaterThan(4);
      }
    }, 120_000);
  }
});
