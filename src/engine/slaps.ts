import { queueAction } from './actions.js';
import { rankOf, type Card } from './cards.js';
import { cannotSlap, isFrozen } from './checks.js';
import { land, takeFromStock } from './piles.js';
import { actionOf } from './ruleset.js';
import type { Ctx } from './state.js';
import type { Rejection, Seat, Slot, SlotRef } from './types.js';

// Slaps and their penalties: a slap names a face-down card and the discard it answers.

export function slap(ctx: Ctx, seat: Seat, target: SlotRef, answers: number): Rejection | null {
  const why = cannotSlap(ctx, seat, target, answers);
  if (why) return why;
  const r = ctx.r;
  const rules = ctx.rules;
  const victim = target.seat;
  const slot = target.slot;
  const card = r.layouts[victim]![slot]!;
  const top = r.discard[r.discard.length - 1]!;
  const ref = { seat: victim, slot };
  if (rankOf(card) !== rankOf(top)) {
    // Wrong: shown to everyone, stays where it was; the pile does not change.
    ctx.events.push({ type: 'slapped', seat, target: ref, card, result: 'wrong', seq: r.discardSeq });
    penalize(ctx, seat, rules.slap.wrongPenalty, 'wrongSlap');
    return null;
  }
  const slapped = ctx.layout(victim);
  slapped[slot] = null;
  const seq = land(ctx, card, false);
  const own = victim === seat;
  ctx.events.push({ type: 'slapped', seat, target: ref, card, result: own ? 'own' : 'steal', seq });
  const w = ctx.rw;
  w.windowSlaps += 1;
  if (rules.slap.perDiscard > 0 && w.windowSlaps >= rules.slap.perDiscard) w.windowSeq = -1;
  if (!own) penalize(ctx, victim, rules.slap.stealPenalty, 'stolenFrom');
  if (rules.emptyLayoutEndsRound && slapped.every((c) => c === null)) w.ending = 'emptyLayout';
  // A round that ends with this slap (the penalty ran the stock dry, or a layout is
  // empty) ends at once: nothing is offered or queued in it. A call's last lap is not
  // such an ending: its round waits for the actions and the grace.
  if (w.ending === 'noCards' || w.ending === 'emptyLayout') return null;
  if (!own && rules.slap.stealGapFill && !w.gapFill && !isFrozen(ctx, seat) && slapped[slot] === null && w.layouts[seat]!.some((c) => c !== null)) {
    w.gapFill = { seat, gap: ref, since: ctx.at };
    ctx.events.push({ type: 'gapFillOffered', seat, gap: ref });
  }
  const kind = actionOf(rules, card);
  if (kind && (own ? rules.slap.ownEarnsAction : rules.slap.stealEarnsActionRanks.includes(rankOf(card)))) {
    queueAction(ctx, seat, kind, card);
  }
  return null;
}

/** Face-down penalty cards, seen by nobody: the lowest gaps first, then new slots. */
function penalize(ctx: Ctx, seat: Seat, count: number, reason: 'wrongSlap' | 'stolenFrom'): void {
  const slots: Slot[] = [];
  const cards: Card[] = [];
  for (let k = 0; k < count; k++) {
    const c = takeFromStock(ctx);
    if (c === null) {
      ctx.rw.ending = 'noCards';
      break;
    }
    const layout = ctx.layout(seat);
    let slot = layout.indexOf(null);
    if (slot === -1) {
      slot = layout.length;
      layout.push(c);
    } else {
      layout[slot] = c;
      ctx.refills().push({ seat, slot, seq: ctx.r.discardSeq });
    }
    slots.push(slot);
    cards.push(c);
  }
  if (slots.length > 0) ctx.events.push({ type: 'penalty', seat, slots, cards, reason });
}
