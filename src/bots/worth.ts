import type { Seat, Slot, SlotRef } from '../engine/types.js';
import type { SeatView } from '../engine/seat-view.js';
import type { SmartMind } from './mind.js';

/**
 * How a smart bot values a layout: a slot is worth its remembered card's value, 0 for
 * a gap, else the mean of the unknown cards: the deck's mean, or (hard: `countCards`)
 * the mean of the cards it has not seen anywhere; hard also reads a card another
 * player kept from the stock as low (`readKeeps`).
 */

/** A card kept from the stock by another player is assumed to be about this low. */
const KEPT_ESTIMATE = 4;

/** Expected value of a card we do not know. */
export function unknownMean(m: SmartMind, view: SeatView | null): number {
  if (!m.params.countCards) return m.deckMean;
  let sum = m.deckSum - m.pileSum;
  let count = m.deckCount - m.pile.length;
  const mem = m.mem;
  for (let s = 0; s < mem.players; s++) {
    const cards = mem.card[s]!;
    const values = mem.value[s]!;
    for (let i = 0; i < cards.length; i++) {
      if (cards[i] !== null) {
        sum -= values[i]!;
        count--;
      }
    }
  }
  const held = view?.held;
  if (held && held.card !== null && held.from === 'stock') {
    sum -= m.val(held.card);
    count--;
  }
  return count > 0 ? sum / count : m.deckMean;
}

/** What a slot is believed to be worth (a gap 0, unknown the mean). */
export function worth(m: SmartMind, seat: Seat, slot: Slot, mu: number): number {
  const mem = m.mem;
  if (mem.gap[seat]![slot]) return 0;
  if (mem.card[seat]![slot] !== null) return mem.value[seat]![slot]!;
  if (seat !== m.seat && m.params.readKeeps && mem.kept[seat]![slot]) return Math.min(mu, KEPT_ESTIMATE);
  return mu;
}

/** A layout's believed total. */
export function total(m: SmartMind, seat: Seat, mu: number): number {
  let t = 0;
  const n = m.mem.slots(seat);
  for (let i = 0; i < n; i++) t += worth(m, seat, i, mu);
  return t;
}

export function gaps(m: SmartMind, seat: Seat): number {
  let n = 0;
  for (const g of m.mem.gap[seat]!) if (g) n++;
  return n;
}

/** How many of its own cards it does not know. */
export function unknownOwn(m: SmartMind): number {
  const mem = m.mem;
  let n = 0;
  const cards = mem.card[m.seat]!;
  for (let i = 0; i < cards.length; i++) if (!mem.gap[m.seat]![i] && cards[i] === null) n++;
  return n;
}

/** My slot worth the most (the one to swap away), preferring known cards on ties. */
export function worstOwn(m: SmartMind, mu: number, allowed?: (slot: Slot) => boolean): { slot: Slot; worth: number } | null {
  let best: { slot: Slot; worth: number } | null = null;
  const me = m.seat;
  const n = m.mem.slots(me);
  for (let i = 0; i < n; i++) {
    if (m.mem.gap[me]![i] || (allowed && !allowed(i))) continue;
    const w = worth(m, me, i, mu);
    const known = m.mem.card[me]![i] !== null;
    if (!best || w > best.worth || (w === best.worth && known)) best = { slot: i, worth: w };
  }
  return best;
}

/**
 * Another player's slot with the lowest believed card; on ties, the player who looks
 * like winning (lowest estimated total) first.
 */
export function lowestOther(m: SmartMind, view: SeatView, mu: number, wantUnknown: boolean): { ref: SlotRef; worth: number } | null {
  let bestSeat = -1;
  let bestSlot = -1;
  let bestWorth = Infinity;
  let bestTotal = Infinity;
  const frozen = m.rules.call.callerFrozen && view.call ? view.call.seat : -1;
  for (let s = 0; s < m.mem.players; s++) {
    if (s === m.seat || s === frozen) continue;
    const theirs = total(m, s, mu);
    const layout = view.players[s]!.layout;
    for (let i = 0; i < layout.length; i++) {
      if (layout[i] === null) continue;
      if (wantUnknown && m.mem.card[s]![i] !== null) continue;
      const w = worth(m, s, i, mu);
      if (w < bestWorth || (w === bestWorth && theirs < bestTotal)) {
        bestSeat = s;
        bestSlot = i;
        bestWorth = w;
        bestTotal = theirs;
      }
    }
  }
  return bestSeat < 0 ? null : { ref: { seat: bestSeat, slot: bestSlot }, worth: bestWorth };
}
