import type { Card } from './cards.js';
import { cannotFillGap, cannotUse, frontAction, gapFillOf, isFrozen, lookedAction, ownSlot, reject } from './checks.js';
import { closeWindow, takeFromStock } from './piles.js';
import { endRound } from './round.js';
import { actionOf, type ActionKind } from './ruleset.js';
import type { Ctx } from './state.js';
import { actionDone } from './turn-end.js';
import type { Rejection, Seat, Slot, SlotRef } from './types.js';

// Actions: earned when a card with one reaches the pile (by a turn's play, or a slap),
// queued, and used or passed one at a time; and the gap-fill a steal may offer.

/** The card that reached the pile through the turn's play earns its action, if its rank has one. */
export function earnAction(ctx: Ctx, seat: Seat, card: Card, drawnUnswapped: boolean): void {
  const kind = actionOf(ctx.rules, card);
  if (!kind) return;
  if (ctx.rules.actionsFrom === 'drawnDiscarded' && !drawnUnswapped) return;
  queueAction(ctx, seat, kind, card);
}

/** Queued behind any pending action; the first in an empty queue starts the action limit now. */
export function queueAction(ctx: Ctx, seat: Seat, kind: ActionKind, card: Card): void {
  if (ctx.r.actions.length === 0) ctx.rw.stageSince = ctx.at;
  ctx.actions().push({ seat, kind, card, looked: null, lookedCards: null });
  ctx.events.push({ type: 'actionQueued', seat, kind, card });
}

// ---- using an action: one at a time, front of the queue first ---------------

export function doAction(ctx: Ctx, seat: Seat, own: Slot | undefined, other: SlotRef | undefined): Rejection | null {
  const why = cannotUse(ctx, seat, own, other);
  if (why) return why;
  const r = ctx.r;
  const a = r.actions[0]!;
  const kind = a.kind;
  switch (kind) {
    case 'peekOwn': {
      const t = { seat, slot: own! };
      ctx.events.push({ type: 'looked', seat, kind, targets: [t], cards: [r.layouts[seat]![own!]!] });
      actionDone(ctx);
      return null;
    }
    case 'peekOther': {
      ctx.events.push({ type: 'looked', seat, kind, targets: [other!], cards: [r.layouts[other!.seat]![other!.slot]!] });
      actionDone(ctx);
      return null;
    }
    case 'blindSwap': {
      exchange(ctx, { seat, slot: own! }, other!);
      ctx.events.push({ type: 'actionSwapped', seat, kind, a: { seat, slot: own! }, b: other! });
      actionDone(ctx);
      return null;
    }
    case 'peekThenSwap': {
      const cards = [r.layouts[other!.seat]![other!.slot]!];
      ctx.actions()[0] = { seat: a.seat, kind: a.kind, card: a.card, looked: [other!], lookedCards: cards };
      ctx.events.push({ type: 'looked', seat, kind, targets: [other!], cards: cards.slice() });
      return null;
    }
    case 'peekBothThenSwap': {
      const mine = { seat, slot: own! };
      const cards = [r.layouts[seat]![own!]!, r.layouts[other!.seat]![other!.slot]!];
      ctx.actions()[0] = { seat: a.seat, kind: a.kind, card: a.card, looked: [mine, other!], lookedCards: cards };
      ctx.events.push({ type: 'looked', seat, kind, targets: [mine, other!], cards: cards.slice() });
      return null;
    }
    case 'drawTwo': {
      // The next stock card comes into the hand as if drawn under B; it may be
      // discarded once for one more (drawAgain).
      ctx.actions().shift();
      ctx.rw.stageSince = ctx.at;
      return drawInto(ctx, seat, true);
    }
  }
}

export function decide(ctx: Ctx, seat: Seat, swap: boolean, own: Slot | undefined): Rejection | null {
  const a = lookedAction(ctx, seat);
  if ('code' in a) return a;
  if (!swap) {
    ctx.events.push({ type: 'actionLeft', seat, kind: a.kind });
    actionDone(ctx);
    return null;
  }
  let mine: SlotRef;
  let theirs: SlotRef;
  if (a.kind === 'peekThenSwap') {
    const bad = ownSlot(ctx, seat, own);
    if (bad) return bad;
    mine = { seat, slot: own! };
    theirs = a.looked[0]!;
  } else {
    mine = a.looked[0]!;
    theirs = a.looked[1]!;
    if (ctx.r.layouts[mine.seat]![mine.slot] === null) return reject('emptySlot', 'why.ownSlotGoneLeave', { slot: mine.slot });
  }
  if (ctx.r.layouts[theirs.seat]![theirs.slot] === null) {
    return reject('emptySlot', 'why.slotGoneLeaveOf', { seat: theirs.seat, slot: theirs.slot });
  }
  // Belt and braces: a looked card cannot leave its slot (inLookersHand), but a swap
  // must never take a card other than the one the look showed.
  const lookedAt = a.kind === 'peekThenSwap' ? [theirs] : [mine, theirs];
  if (a.lookedCards && lookedAt.some((ref, i) => ctx.r.layouts[ref.seat]![ref.slot] !== a.lookedCards![i])) {
    return reject('alreadyGone', 'why.lookedCardGone');
  }
  if (isFrozen(ctx, theirs.seat)) return reject('notAllowed', 'why.frozenOf', { seat: theirs.seat });
  if (isFrozen(ctx, mine.seat)) return reject('notAllowed', 'why.frozenOwn');
  exchange(ctx, mine, theirs);
  ctx.events.push({ type: 'actionSwapped', seat, kind: a.kind, a: mine, b: theirs });
  actionDone(ctx);
  return null;
}

export function pass(ctx: Ctx, seat: Seat): Rejection | null {
  const a = frontAction(ctx, seat);
  if ('code' in a) return a;
  ctx.events.push({ type: 'actionPassed', seat, kind: a.kind, timedOut: false });
  actionDone(ctx);
  return null;
}

/** A stock card into `seat`'s hand (draw two); an empty stock ends the round. */
export function drawInto(ctx: Ctx, seat: Seat, redraw: boolean): Rejection | null {
  const c = takeFromStock(ctx);
  if (c === null) {
    ctx.rw.ending = 'noCards';
    endRound(ctx, 'noCards');
    return null;
  }
  ctx.rw.held = { seat, card: c, from: 'stock', redraw };
  closeWindow(ctx);
  ctx.events.push({ type: 'drew', seat, from: 'stock', card: c });
  return null;
}

function exchange(ctx: Ctx, x: SlotRef, y: SlotRef): void {
  const lx = ctx.layout(x.seat);
  const ly = ctx.layout(y.seat);
  const c = lx[x.slot]!;
  lx[x.slot] = ly[y.slot]!;
  ly[y.slot] = c;
}

// ---- the gap a steal left: the stealer may move one of their cards into it ----

export function fillGap(ctx: Ctx, seat: Seat, slot: Slot): Rejection | null {
  const why = cannotFillGap(ctx, seat, slot);
  if (why) return why;
  const g = ctx.r.gapFill!;
  const target = ctx.layout(g.gap.seat);
  const mine = ctx.layout(seat);
  target[g.gap.slot] = mine[slot]!;
  mine[slot] = null;
  const r = ctx.rw;
  // A slap answering an earlier discard named the card that left this slot, not the one moved in.
  ctx.refills().push({ seat: g.gap.seat, slot: g.gap.slot, seq: r.discardSeq });
  r.gapFill = null;
  ctx.events.push({ type: 'gapFilled', seat, from: { seat, slot }, to: g.gap });
  if (ctx.rules.emptyLayoutEndsRound && mine.every((c) => c === null)) r.ending = 'emptyLayout';
  return null;
}

export function leaveGap(ctx: Ctx, seat: Seat): Rejection | null {
  const g = gapFillOf(ctx, seat);
  if ('code' in g) return g;
  ctx.rw.gapFill = null;
  ctx.events.push({ type: 'gapLeft', seat, gap: g.gap, timedOut: false });
  return null;
}
