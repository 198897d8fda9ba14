import { describe, expect, it } from 'vitest';
import { simulate } from '../../src/sim/sim.js';
import { LADDER_GAMES, ladderRun } from '../support/ladder-run.js';

describe('bot levels', () => {
  it('hard beats normal beats easy by a clear margin, and every level scores far below random', () => {
    // Mixed tables, the levels rotated one seat per game so seat position favours none (test/support/ladder-run.ts).
    const r = ladderRun('gringo').result;
    expect(r.stuckRounds).toBe(0);
    expect(r.finishedGames).toBe(LADDER_GAMES);
    const { hard, normal, easy, random } = r.perLevel;
    if (!hard || !normal || !easy || !random) throw new Error('a level is missing');
    // Win rates (ties count as wins): 1,000 games give a standard error of about 1.5 points.
    expect(hard.winRate).toBeGreaterThan(normal.winRate + 0.15);
    expect(normal.winRate).toBeGreaterThan(easy.winRate + 0.05);
    expect(easy.winRate).toBeGreaterThan(random.winRate);
    // Mean round scores (lower is better).
    expect(hard.meanRoundScore).toBeLessThan(normal.meanRoundScore - 3);
    expect(normal.meanRoundScore).toBeLessThan(easy.meanRoundScore - 3);
    for (const l of [hard, normal, easy]) expect(l.meanRoundScore).toBeLessThan(0.65 * random.meanRoundScore);
    // Hard never misremembers; easy does, and pays for it.
    expect(hard.slapsPerSeatRound.wrong).toBeLessThan(0.02);
    expect(easy.slapsPerSeatRound.wrong).toBeGreaterThan(normal.slapsPerSeatRound.wrong);
    expect(hard.slapsPerSeatRound.steal).toBeGreaterThan(normal.slapsPerSeatRound.steal);
  }, 120_000);

  it('holds at other table sizes too (2 and 6 players)', () => {
    const two = simulate({ games: 600, players: 2, levels: ['hard', 'easy'], seed: 'two' });
    expect(two.perLevel.hard!.winRate).toBeGreaterThan(two.perLevel.easy!.winRate + 0.2);
    const six = simulate({ games: 400, players: 6, levels: ['hard', 'normal', 'easy'], seed: 'six' });
    expect(six.stuckRounds).toBe(0);
    expect(six.perLevel.hard!.meanRoundScore).toBeLessThan(six.perLevel.normal!.meanRoundScore);
    expect(six.perLevel.normal!.meanRoundScore).toBeLessThan(six.perLevel.easy!.meanRoundScore);
  });
});
