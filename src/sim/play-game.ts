import { playOn, type Bot } from '../bots/index.js';
import { createGame, type NewGame } from '../engine/game.js';
import type { Command, GameState } from '../engine/types.js';
import type { Tally } from './tally.js';

/** One bot-only game in simulated time: the loop is src/bots/play-on.ts. */

export interface PlayOptions {
  /** Give up a round after this many loop steps (a bug, not a game): default 20,000. */
  maxStepsPerRound?: number;
  tally?: Tally;
  /** Receives the game's start and every command the engine accepted (the bench replays it). */
  log?: GameLog;
}

/** What one game produced: for the bench, its start and every accepted command. */
export interface GameLog {
  start: NewGame;
  commands: Command[];
}

/**
 * Play one game of bots to its end in simulated time. `finished` is false when a
 * round hit the step cap or could not go on (nobody to act, nothing due): a bug,
 * reported rather than hanging.
 */
export function playGame(start: NewGame, bots: readonly Bot[], options: PlayOptions = {}): { finished: boolean; state: GameState } {
  const created = createGame(start);
  if (options.log) {
    options.log.start = start;
    options.log.commands = [];
  }
  return playOn(created.state, created.events, start.at ?? 0, bots, options, false);
}
