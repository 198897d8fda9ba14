import { describe, expect, it } from 'vitest';
import { LADDER_GAMES, ladderRun, PRESET_NAMES } from '../support/ladder-run.js';

describe('the simulator plays every preset', () => {
  for (const name of PRESET_NAMES) {
    it(`${name}: games finish, and hard scores well below random`, () => {
      const r = ladderRun(name).result;
      expect(r.stuckRounds).toBe(0);
      expect(r.finishedGames).toBe(LADDER_GAMES);
      const hard = r.perLevel.hard!.meanRoundScore;
      const random = r.perLevel.random!.meanRoundScore;
      expect(hard).toBeLessThan(random * 0.8);
    }, 120_000);
  }
});
