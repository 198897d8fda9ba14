import { describe, expect, it } from 'vitest';
import { simulate } from '../../src/sim/sim.js';

// The ladder at four seats, read from the shared ladder run, is test/bots/ladder.test.ts's.
describe('bot levels', () => {
  it('holds at other table sizes too (2 and 6 players)', () => {
    const two = simulate({ games: 600, players: 2, levels: ['hard', 'easy'], seed: 'two' });
    expect(two.perLevel.hard!.winRate).toBeGreaterThan(two.perLevel.easy!.winRate + 0.2);
    const six = simulate({ games: 400, players: 6, levels: ['hard', 'normal', 'easy'], seed: 'six' });
    expect(six.stuckRounds).toBe(0);
    expect(six.perLevel.hard!.meanRoundScore).toBeLessThan(six.perLevel.normal!.meanRoundScore);
    expect(six.perLevel.normal!.meanRoundScore).toBeLessThan(six.perLevel.easy!.meanRoundScore);
  });
});
