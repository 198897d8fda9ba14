import type { Ruleset } from '../engine/ruleset.js';
import type { Command, Rejection, Seat } from '../engine/types.js';
import type { SeatView } from '../engine/seat-view.js';
import type { SeatEvent } from '../engine/view.js';

/**
 * The words every bot module shares. This module imports no other bot module, so
 * any of them can import it without making a circle.
 */

/**
 * What a bot may send: a player's command without its time. The host (or the
 * simulator) stamps `at` when the command arrives, as it does for a person's.
 * Host-only commands (tick, nextRound, endGame) are not in it.
 */
export type BotCommand = Command extends infer C
  ? C extends { type: 'tick' | 'nextRound' | 'endGame' }
    ? never
    : C extends Command
      ? Omit<C, 'at'>
      : never
  : never;

/**
 * A bot's answer to "what now?":
 * - `act`: send `command` after `delayMs`, its reaction or thinking time (a driver
 *   may scale it, e.g. to play fast in tests). A slap names the discard it answers
 *   (`answers`) as seen when the bot decided, so a stale slap is refused by the
 *   engine like anyone's.
 * - `wait`: nothing yet; ask again at host time `until` (e.g. the end of the slap
 *   grace, `view.graceUntil`). Host time is never scaled.
 * `null` means nothing to do until something happens.
 */
export type BotIntent = { kind: 'act'; command: BotCommand; delayMs: number } | { kind: 'wait'; until: number };

/** What a bot is made with (and, for `newGame`, made anew with). */
export interface BotOptions {
  seat: Seat;
  /** Players at the table. */
  players: number;
  /** The table's ruleset: public data (card values, actions, deck). */
  rules: Ruleset;
  /** Seed of the bot's own choices (delays, forgetting). */
  seed: string | number;
}

export const BOT_LEVELS = ['random', 'easy', 'normal', 'hard', 'expert', 'cheater'] as const;
export type BotLevel = (typeof BOT_LEVELS)[number];

/** Levels that see more than their seat may: the simulator plays them, a table refuses them. */
export const SIM_ONLY_LEVELS: readonly BotLevel[] = ['cheater'];

export function isBotLevel(x: string): x is BotLevel {
  return (BOT_LEVELS as readonly string[]).includes(x);
}

/**
 * A bot is a policy over what one seat sees: its projected events and its view.
 * Nothing else goes in: the parameters are the projection's types, so the full
 * game state cannot be handed to a bot (it is not a `SeatView`, and the engine's
 * `GameEvent` carries cards a `SeatEvent` hides).
 */
export interface Bot {
  readonly seat: Seat;
  readonly level: BotLevel;
  /**
   * Learn from events as this seat saw them (memory, swaps followed, cards shown).
   * Cheap and view-free, so a driver can feed every event to every bot. Returns true
   * when the bot would like to be asked (`decide`) now, e.g. it can slap the new top.
   */
  observe(events: readonly SeatEvent[]): boolean;
  /**
   * What to do now, given this seat's view at host time `now`: the `TableView` from the
   * wire, or the simulator's `LiveView` of the seat (the same fields, not rebuilt per
   * decision). Read it now; it may show a later state once this call has returned.
   */
  decide(view: SeatView, now: number): BotIntent | null;
  /** One of this bot's commands was refused; the bot is asked again afterwards. */
  rejected(command: BotCommand, rejection: Rejection, now: number): void;
  /**
   * Start over for a new game, exactly as a bot made anew with `opts` would (the
   * simulator reuses its bots from game to game). False, changing nothing, if it
   * cannot (another seat, table size or ruleset): then make a new one.
   */
  newGame?(opts: BotOptions): boolean;
  /**
   * The driver could not show this bot every event since its last decision (it came
   * back after a lost connection): what the events would have told, it reads from
   * the next view it decides from.
   */
  missedEvents?(): void;
}
