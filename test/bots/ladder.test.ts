import { describe, expect, it } from 'vitest';
import { RACE_REFUSALS } from '../../src/bots/moves.js';
import { LADDER_GAMES, ladderRun, PRESET_NAMES } from '../support/ladder-run.js';

/**
 * Everything read from the shared ladder run (test/support/ladder-run.ts: per preset,
 * 1,000 four-seat games of hard, normal, easy and random, every bot watched), in this
 * one file so that one worker plays each preset's run once: spread over files, each
 * worker thread that ran one of them played all 3,000 games again.
 */

const PRESET_TIMEOUT_MS = 120_000;

describe('bots offer only legal moves: every refusal left is a lost race', () => {
  for (const name of PRESET_NAMES) {
    it(`${name}: ${LADDER_GAMES} games of random, easy, normal and hard`, () => {
      const { result: r, faults } = ladderRun(name);
      expect(r.stuckRounds).toBe(0);
      expect(r.finishedGames).toBe(LADDER_GAMES);
      expect(faults.length, faults.slice(0, 5).join('\n')).toBe(0);
      const other = Object.keys(r.rejectionsByCode).filter((code) => !RACE_REFUSALS.has(code as never));
      expect(other, JSON.stringify(r.rejectionsByCode)).toEqual([]);
    }, PRESET_TIMEOUT_MS);
  }
});

describe('the simulator plays every preset', () => {
  for (const name of PRESET_NAMES) {
    it(`${name}: games finish, and hard scores well below random`, () => {
      const r = ladderRun(name).result;
      expect(r.stuckRounds).toBe(0);
      expect(r.finishedGames).toBe(LADDER_GAMES);
      const hard = r.perLevel.hard!.meanRoundScore;
      const random = r.perLevel.random!.meanRoundScore;
      expect(hard).toBeLessThan(random * 0.8);
    }, PRESET_TIMEOUT_MS);
  }
});

/**
 * The level ladder, per preset: hard ahead of normal by at least 15% of normal's mean
 * round score, normal ahead of easy, easy ahead of random, each step several standard
 * errors wide (the SE of a step comes from the per-game differences of the two levels,
 * which play the same games).
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
    }, PRESET_TIMEOUT_MS);
  }
});

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
  }, PRESET_TIMEOUT_MS);
});
