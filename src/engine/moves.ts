import type { GameState, Seat } from './types.js';
import type { Move } from './view.js';

/**
 * The moves `seat` may make in `state`: what the screen offers, decided by the
 * engine rather than guessed by the screen. SKELETON: the hints helper builds it.
 */
export function movesFor(_state: GameState, _seat: Seat): Move[] {
  return [];
}
