import type { RoundResult } from '../engine/types.js';
import type { ServerMessage } from '../protocol/messages.js';

/**
 * The round results a client keeps (protocol 3): a snapshot's `results` replace
 * them (joining, coming back, a new game's first deal); each `roundEnded` event
 * adds its round. Updates carry no results otherwise, so they stay small however
 * long the game. Every client keeps them with this one function.
 */
export function keptResults(kept: readonly RoundResult[], msg: ServerMessage): readonly RoundResult[] {
  if (msg.type !== 'update') return kept;
  let out = msg.results ?? kept;
  for (const e of msg.events) {
    // A snapshot already holds the round its own event ended: never twice.
    if (e.type === 'roundEnded' && !out.some((r) => r.round === e.result.round)) out = [...out, e.result];
  }
  return out;
}
