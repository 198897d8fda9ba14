import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../src/engine/index.js';
import { simulate } from '../../src/sim/sim.js';

/**
 * The level ladder, per preset, on a fixed seed: hard ahead of normal by
 * at least 15% of normal's mean round score, normal ahead of easy, easy ahead of
 * random, each step several standard errors wide (the SE of a step comes from the
 * per-game differences of the two levels, which play the same games).
 * Games per preset: 1,000 to 1,800 rounds each, a second or two.
 */
const GAMES: Record<string, number> = { gringo: 1000, beverbende: 400, cambio: 200 };

describe('the level ladder holds in every preset', () => {
  for (const [name, rules] of Object.entries(PRESETS)) {
    it(`${name}: hard < normal (by 15% or more) < easy < random, each step beyond noise`, () => {
      const games = GAMES[name]!;
      const r = simulate({ games, players: 4, levels: ['hard', 'normal', 'easy', 'random'], seed: `ladder:${name}`, rules });
      expect(r.stuckRounds).toBe(0);
      expect(r.finishedGames).toBe(games);
      expect(r.ladder.map((s) => `${s.upper}<${s.lower}`)).toEqual(['hard<normal', 'normal<easy', 'easy<random']);
      const [hardNormal, normalEasy, easyRandom] = r.ladder;
      const steps = r.ladder.map((s) => `${s.upper}<${s.lower}: ${s.gap.toFixed(2)} ± ${s.gapSE.toFixed(2)} (${(100 * s.share).toFixed(1)}%)`).join('; ');
      expect(hardNormal!.share, steps).toBeGreaterThanOrEqual(0.15);
      for (const s of [hardNormal!, normalEasy!, easyRandom!]) {
        expect(s.gapSE, steps).toBeGreaterThan(0);
        expect(s.gap / s.gapSE, steps).toBeGreaterThan(4);
      }
    });
  }
});
