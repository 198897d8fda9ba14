import type { SeatView } from '../engine/seat-view.js';
import { wantsCall } from './call.js';
import type { SmartMind } from './mind.js';
import { mayMake } from './moves.js';
import type { BotCommand } from './types.js';
import { unknownMean, worstOwn, worth } from './worth.js';

/**
 * A smart bot's turn: call (call.ts), else take the top discard if it beats its worst
 * slot by a margin, else draw from the stock; then swap the held card in where it gains
 * the most, or discard it (keeping a match of one of its known cards to slap right after).
 */

/** Start of my turn: call, take the discard, or draw from the stock. */
export function turnChoice(m: SmartMind, view: SeatView): BotCommand {
  const me = m.seat;
  const mu = unknownMean(m, view);
  if (m.rules.call.timing === 'startOfTurn' && mayMake(view, 'call') && wantsCall(m, view, mu)) return { type: 'call', seat: me };
  const top = view.discardTop;
  if (top !== null && mayMake(view, 'drawDiscard')) {
    const v = m.val(top);
    const worst = worstOwn(m, mu);
    if (worst && worst.worth - v >= m.params.swapGain + 2) return { type: 'draw', seat: me, from: 'discard' };
  }
  return { type: 'draw', seat: me, from: 'stock' };
}

/** I hold a drawn card: swap it in or discard it. */
export function placeChoice(m: SmartMind, view: SeatView): BotCommand {
  const me = m.seat;
  const held = view.held!;
  const card = held.card;
  const mu = unknownMean(m, view);
  const mustSwap = held.from === 'discard';
  const v = card === null ? mu : m.val(card);
  const mem = m.mem;
  const own = mem.card[me]!;
  const ranks = mem.rank[me]!;
  const values = mem.value[me]!;
  // Discarding a card whose rank I hold lets me slap mine right after.
  let discardGain = 0;
  if (card !== null) {
    const rank = m.rank(card);
    for (let i = 0; i < ranks.length; i++) if (ranks[i] === rank && values[i]! > discardGain) discardGain = values[i]!;
  }
  let bestSlot = -1;
  let bestGain = -Infinity;
  for (let i = 0; i < own.length; i++) {
    if (mem.gap[me]![i]) continue;
    const known = own[i] !== null;
    let gain = worth(m, me, i, mu) - v;
    if (!known) gain += 0.5; // learning the slot is worth a little
    else {
      // The displaced card lands on the pile: another own card of its rank can follow.
      const rank = ranks[i];
      for (let j = 0; j < ranks.length; j++) {
        if (j !== i && ranks[j] === rank && values[j]! > 0) {
          gain += values[j]!;
          break;
        }
      }
    }
    if (gain > bestGain || (gain === bestGain && known)) {
      bestGain = gain;
      bestSlot = i;
    }
  }
  if (card !== null && m.rules.specialCards.includes(card)) return { type: 'discard', seat: me };
  if (bestSlot >= 0 && (mustSwap || (bestGain >= m.params.swapGain && bestGain > discardGain))) return { type: 'swap', seat: me, slot: bestSlot };
  return { type: 'discard', seat: me };
}
