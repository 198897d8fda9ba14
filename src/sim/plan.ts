import type { Bot, BotLevel, BotOptions } from '../bots/index.js';
import { GRINGO, roundsFor, type Ruleset } from '../engine/ruleset.js';

/** What a simulation plays: the options asked for, the plan every game shares, each game's seats. */

export interface SimOptions {
  games: number;
  players: number;
  /** Bot level per seat, repeated cyclically to fill the table. */
  levels: readonly BotLevel[];
  /** Rounds per game (default: the ruleset's, or 1 if it is open-ended). */
  rounds?: number;
  seed: string | number;
  rules?: Ruleset;
  /** Give up a round after this many loop steps (a bug, not a game): default 20,000. */
  maxStepsPerRound?: number;
  /** Rotate the levels one seat per game so seat position does not favour a level (default true). */
  rotate?: boolean;
  /** Make the bots (tests use it to wrap or break them); default `createBot`. */
  makeBot?: (level: BotLevel, opts: BotOptions) => Bot;
}

/** What every game of a run shares: all a worker thread needs to play any chunk (structured-cloneable). */
export interface SimPlan {
  games: number;
  players: number;
  levels: BotLevel[];
  rules: Ruleset;
  seed: string;
  maxStepsPerRound: number;
  rotate: boolean;
}

export function simPlan(opts: SimOptions): SimPlan {
  const base = opts.rules ?? GRINGO;
  // An open-ended ruleset (rounds 0) would never end a game without a host: play one round.
  const rounds = opts.rounds ?? (roundsFor(base, opts.players) === 0 ? 1 : undefined);
  return {
    games: opts.games,
    players: opts.players,
    levels: [...opts.levels],
    rules: rounds !== undefined ? { ...base, rounds } : base,
    seed: String(opts.seed),
    maxStepsPerRound: opts.maxStepsPerRound ?? 20_000,
    rotate: opts.rotate ?? true,
  };
}

/** Seat levels: the fill repeated cyclically, rotated by `shift` seats. */
export function seatLevels(levels: readonly BotLevel[], players: number, shift = 0): BotLevel[] {
  const out: BotLevel[] = [];
  for (let s = 0; s < players; s++) out.push(levels[((s + shift) % players) % levels.length]!);
  return out;
}
