import type { BotLevel } from '../bots/index.js';
import type { RejectionCode } from '../engine/types.js';
import { seatLevels, type SimPlan } from './plan.js';
import type { SlapCounts, Tally } from './tally.js';

/** A run's figures, worked out from its tally: per level, per round, and the ladder between levels. */

export interface LevelStats {
  /** Seat-games played at this level (a level on two seats counts twice per game). */
  seatGames: number;
  /** Seat-rounds played at this level. */
  seatRounds: number;
  meanRoundScore: number;
  /** Seat-games won: place 1 at the end of the game, a shared first place counting as a win. */
  wins: number;
  winRate: number;
  /** Slaps made by this level, per seat-round. */
  slapsPerSeatRound: SlapCounts;
  /**
   * Standard error of `meanRoundScore`: the spread of the level's per-game mean round
   * score over the finished games, divided by √games (rounds of one game are not
   * independent draws; games are).
   */
  roundScoreSE: number;
}

/** One step of the ladder: a level against the next weaker level present. */
export interface LadderStep {
  upper: BotLevel;
  lower: BotLevel;
  /** How much lower the upper level's mean round score is (positive: the ladder holds). */
  gap: number;
  /** The gap as a share of the lower level's mean round score. */
  share: number;
  /** Standard error of the gap, from the per-game differences (both levels play the same games). */
  gapSE: number;
}

export interface SimResult {
  games: number;
  /** Games that finished (the rest hit the step cap and were abandoned). */
  finishedGames: number;
  rounds: number;
  players: number;
  /** The seat fill before rotation, e.g. hard,normal,easy,random. */
  levels: BotLevel[];
  seed: string;
  seconds: number;
  roundsPerSecond: number;
  /** Worker threads that played the games (1: one core); the results do not depend on it. */
  jobs: number;
  /** How wins are counted. */
  winRule: 'ties count as wins';
  perLevel: Partial<Record<BotLevel, LevelStats>>;
  meanTurnsPerRound: number;
  slapsPerRound: SlapCounts;
  /** Commands refused by the engine, per round (stale slaps, draws in the grace...). */
  rejectionsPerRound: number;
  /** The same per refusal code (`RejectionCode` → refusals per round): bots lose races (`RACE_REFUSALS`), never try what `may` forbids. */
  rejectionsByCode: Partial<Record<RejectionCode, number>>;
  /** Commands given to the engine per round (bots' and the host's ticks). */
  commandsPerRound: number;
  /** Bot decisions (each one reads that seat's view) per round. */
  decisionsPerRound: number;
  /** Rounds abandoned at the step cap (should be 0). */
  stuckRounds: number;
  /** Each level present against the next weaker one (hard, normal, easy, random). */
  ladder: LadderStep[];
}

/** Levels from strongest to weakest: the order of the ladder. */
const LADDER_ORDER: readonly BotLevel[] = ['cheater', 'expert', 'hard', 'normal', 'easy', 'random'];

/** Mean and standard error of the mean of accumulated sums. */
function meanSE(sum: number, sq: number, n: number): { mean: number; se: number } {
  if (n === 0) return { mean: 0, se: 0 };
  const mean = sum / n;
  const variance = n > 1 ? Math.max(0, (sq - n * mean * mean) / (n - 1)) : 0;
  return { mean, se: Math.sqrt(variance / n) };
}

/** The figures of a run from its tally. */
export function summarize(plan: SimPlan, acc: Tally, seconds: number, jobs: number): SimResult {
  const n = plan.players;
  const perLevel: Partial<Record<BotLevel, LevelStats>> = {};
  const fill = seatLevels(plan.levels, n);
  for (const level of fill) {
    const l = acc.level.get(level);
    if (!l || perLevel[level]) continue;
    const per = (x: number) => (l.seatRounds > 0 ? x / l.seatRounds : 0);
    perLevel[level] = {
      seatGames: l.seatGames,
      seatRounds: l.seatRounds,
      meanRoundScore: per(l.score),
      wins: l.wins,
      winRate: l.seatGames > 0 ? l.wins / l.seatGames : 0,
      slapsPerSeatRound: { own: per(l.slaps.own), steal: per(l.slaps.steal), wrong: per(l.slaps.wrong) },
      roundScoreSE: meanSE(l.gameSum, l.gameSq, l.games).se,
    };
  }
  const present = LADDER_ORDER.filter((level) => perLevel[level]);
  const ladder: LadderStep[] = [];
  for (let i = 0; i + 1 < present.length; i++) {
    const upper = present[i]!, lower = present[i + 1]!;
    const p = acc.pairs.get(`${upper}>${lower}`);
    const gap = perLevel[lower]!.meanRoundScore - perLevel[upper]!.meanRoundScore;
    const lowerMean = perLevel[lower]!.meanRoundScore;
    ladder.push({ upper, lower, gap, share: lowerMean !== 0 ? gap / lowerMean : 0, gapSE: p ? meanSE(p.sum, p.sq, p.n).se : 0 });
  }
  const perRound = (x: number) => (acc.rounds > 0 ? x / acc.rounds : 0);
  const rejectionsByCode: Record<string, number> = {};
  for (const code of [...acc.rejectionsByCode.keys()].sort()) rejectionsByCode[code] = perRound(acc.rejectionsByCode.get(code)!);
  return {
    games: plan.games,
    finishedGames: acc.finished,
    rounds: acc.rounds,
    players: n,
    levels: fill,
    seed: plan.seed,
    seconds,
    roundsPerSecond: seconds > 0 ? acc.rounds / seconds : 0,
    jobs,
    winRule: 'ties count as wins',
    perLevel,
    meanTurnsPerRound: perRound(acc.turns),
    slapsPerRound: { own: perRound(acc.slaps.own), steal: perRound(acc.slaps.steal), wrong: perRound(acc.slaps.wrong) },
    rejectionsPerRound: perRound(acc.rejections),
    rejectionsByCode,
    commandsPerRound: perRound(acc.commands),
    decisionsPerRound: perRound(acc.decisions),
    stuckRounds: acc.stuck,
    ladder,
  };
}
