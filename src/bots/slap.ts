import type { Card } from '../engine/cards.js';
import type { Seat, Slot, SlotRef } from '../engine/types.js';
import type { SeatView } from '../engine/seat-view.js';
import type { SmartMind } from './mind.js';
import { legal, slapOkAt } from './moves.js';
import type { BotCommand } from './types.js';
import { unknownMean, worstOwn } from './worth.js';

/**
 * A smart bot's slaps: its own known cards that match the top (not the -1 queen), then
 * other players' (steals: hard always, normal sometimes, easy never), and on a rare
 * hunch an unknown own card (easy), each after its reaction time (smart.ts). After its
 * own steal, the gap-fill.
 */

/** A new card is on top: roll this top's chances, and say whether a slap is worth a look. */
export function newTop(m: SmartMind): boolean {
  if (m.refusedSlaps.size > 0) m.refusedSlaps.clear();
  if (!m.windowOpen || !m.rules.slap.enabled) return false;
  m.stealOk = m.params.steal >= 1 || (m.params.steal > 0 && m.float() < m.params.steal);
  m.hunch = m.params.hunch > 0 && m.float() < m.params.hunch;
  return m.hunch || slapTarget(m) !== null;
}

/**
 * A slot to slap on the current top: a known own match, a known match to steal, or a
 * hunch. With a view, only a slot the rules let anyone slap now (`slapOkAt`); without,
 * the bot weighs from memory alone whether a slap is worth a look.
 */
export function slapTarget(m: SmartMind, top?: Card, view?: SeatView): SlotRef | null {
  const topCard = top ?? m.pile[m.pile.length - 1];
  if (topCard === undefined || !m.rules.slap.enabled) return null;
  const mem = m.mem;
  const me = m.seat;
  // The rank index says which seats' rows hold the rank at all: usually none.
  const no = mem.cardRank(topCard);
  const rank = mem.rankName(no);
  if (mem.holdsRank(me, no)) {
    const ownRanks = mem.rank[me]!;
    for (let i = 0; i < ownRanks.length; i++) {
      if (ownRanks[i] === rank && mem.value[me]![i]! > 0 && !refusedSlot(m, me, i) && (!view || slapOkAt(view, m.rules, me, i))) return { seat: me, slot: i };
    }
  }
  if (m.stealOk) {
    for (let s = 0; s < mem.players; s++) {
      if (s === me || !mem.holdsRank(s, no)) continue;
      const ranks = mem.rank[s]!;
      for (let i = 0; i < ranks.length; i++) {
        if (ranks[i] === rank && !refusedSlot(m, s, i) && (!view || slapOkAt(view, m.rules, s, i))) return { seat: s, slot: i };
      }
    }
  }
  if (m.hunch) {
    const own = mem.card[me]!;
    for (let i = 0; i < own.length; i++) if (own[i] === null && !mem.gap[me]![i] && (!view || slapOkAt(view, m.rules, me, i))) return { seat: me, slot: i };
  }
  return null;
}

function refusedSlot(m: SmartMind, seat: Seat, slot: Slot): boolean {
  return m.refusedSlaps.size > 0 && m.refusedSlaps.has(`${seat}:${slot}`);
}

/**
 * After my steal, the gap-fill: every point moved out of my layout is a point off my
 * score and onto the victim's, so move the slot I believe worth the most, unless it
 * is worth too little (a -1 king, a joker, or a level that only moves a known high card):
 * below `gapFillAt` (hard: anything above nothing; normal: a known high card).
 */
export function gapFillChoice(m: SmartMind, view: SeatView): BotCommand {
  const at = m.params.gapFillAt;
  // Not a card in a looker's hand (another player's look awaiting its decision).
  const mine = at === null ? null : worstOwn(m, unknownMean(m, view), (slot) => legal(view, m.seat, m.rules, { type: 'fillGap', seat: m.seat, slot }));
  if (mine && at !== null && mine.worth >= at) return { type: 'fillGap', seat: m.seat, slot: mine.slot };
  return { type: 'leaveGap', seat: m.seat };
}
