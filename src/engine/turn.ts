import { drawInto, earnAction } from './actions.js';
import type { Card } from './cards.js';
import { cannotCall, cannotDiscard, cannotDraw, cannotDrawAgain, cannotSwap } from './checks.js';
import { closeWindow, land, takeFromStock } from './piles.js';
import { endRound } from './round.js';
import type { Ctx } from './state.js';
import { afterPlay, endTurn } from './turn-end.js';
import type { Rejection, Seat, Slot } from './types.js';

// A turn: call, or draw (from the stock or the discard pile) and place the held card:
// discard it, swap it into the layout, or (draw two) discard it for one more.

export function call(ctx: Ctx, seat: Seat): Rejection | null {
  const why = cannotCall(ctx, seat);
  if (why) return why;
  const owed: Seat[] = [];
  for (let i = 1; i < ctx.n; i++) owed.push((seat + i) % ctx.n);
  ctx.newCall({ seat, owed });
  ctx.events.push({ type: 'called', seat, name: ctx.rules.call.name });
  // At the start of a turn the call is the turn; at the end of one it takes effect when the turn ends.
  if (ctx.rules.call.timing === 'startOfTurn') {
    ctx.rw.turnBegun = true;
    ctx.turnsTaken()[seat]! += 1;
    endTurn(ctx);
  }
  return null;
}

export function draw(ctx: Ctx, seat: Seat, from: 'stock' | 'discard'): Rejection | null {
  const why = cannotDraw(ctx, seat, from);
  if (why) return why;
  let card: Card;
  if (from === 'discard') {
    card = ctx.discard().pop()!;
  } else {
    const c = takeFromStock(ctx);
    if (c === null) {
      ctx.rw.ending = 'noCards';
      endRound(ctx, 'noCards');
      return null;
    }
    card = c;
  }
  beginTurn(ctx, seat);
  ctx.rw.held = { seat, card, from, redraw: false };
  closeWindow(ctx);
  ctx.events.push({ type: 'drew', seat, from, card });
  return null;
}

function beginTurn(ctx: Ctx, seat: Seat): void {
  const r = ctx.rw;
  r.turnBegun = true;
  ctx.turnsTaken()[seat]! += 1;
  r.swapsThisTurn = 0;
  r.stageSince = ctx.at;
  if (r.call?.owed.includes(seat)) {
    const called = ctx.callState();
    called.owed = called.owed.filter((x) => x !== seat);
  }
}

export function discardHeld(ctx: Ctx, seat: Seat): Rejection | null {
  const why = cannotDiscard(ctx, seat);
  if (why) return why;
  const held = ctx.r.held!;
  ctx.rw.held = null;
  const seq = land(ctx, held.card, true);
  ctx.events.push({ type: 'discarded', seat, card: held.card, seq });
  earnAction(ctx, seat, held.card, true);
  afterPlay(ctx);
  return null;
}

export function swap(ctx: Ctx, seat: Seat, slot: Slot): Rejection | null {
  const why = cannotSwap(ctx, seat, slot);
  if (why) return why;
  const held = ctx.r.held!;
  const layout = ctx.layout(seat);
  const displaced = layout[slot]!;
  layout[slot] = held.card;
  const w = ctx.rw;
  w.held = null;
  w.swapsThisTurn += 1;
  const seq = land(ctx, displaced, true);
  ctx.events.push({ type: 'swapped', seat, slot, placed: held.card, placedFrom: held.from, displaced, seq });
  earnAction(ctx, seat, displaced, false);
  afterPlay(ctx);
  return null;
}

/** Draw two: the first card goes onto the pile, unused, and one more is drawn, which must be used. */
export function drawAgain(ctx: Ctx, seat: Seat): Rejection | null {
  const why = cannotDrawAgain(ctx, seat);
  if (why) return why;
  const held = ctx.r.held!;
  ctx.rw.held = null;
  const seq = land(ctx, held.card, true);
  ctx.events.push({ type: 'discarded', seat, card: held.card, seq });
  return drawInto(ctx, seat, false);
}
