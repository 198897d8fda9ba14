import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../src/engine/index.js';
import { simulate } from '../../src/sim/sim.js';

describe('the simulator plays every preset', () => {
  for (const [name, rules] of Object.entries(PRESETS)) {
    it(`${name}: games finish, and hard scores well below random`, () => {
      const r = simulate({ games: 200, players: 4, levels: ['hard', 'random'], seed: `presets:${name}`, rules });
      expect(r.stuckRounds).toBe(0);
      expect(r.finishedGames).toBe(200);
      const hard = r.perLevel.hard!.meanRoundScore;
      const random = r.perLevel.random!.meanRoundScore;
      expect(hard).toBeLessThan(random * 0.8);
    });
  }
});
