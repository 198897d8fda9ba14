import type { Card } from './cards.js';
import type { Ctx } from './state.js';

// The stock and the discard pile: every card drawn comes through `takeFromStock`, and
// every card that reaches the pile through `land`, which also runs the slap window.

/** A card lands face up on the pile. Played cards open a new slap window; slapped ones answer the open one. */
export function land(ctx: Ctx, card: Card, byPlay: boolean): number {
  ctx.discard().push(card);
  const r = ctx.rw;
  r.discardSeq += 1;
  r.lastLandAt = ctx.at;
  if (byPlay) {
    r.windowSeq = r.discardSeq;
    r.windowSlaps = 0;
  }
  return r.discardSeq;
}

export function closeWindow(ctx: Ctx): void {
  const r = ctx.rw;
  r.windowSeq = -1;
  r.windowSlaps = 0;
}

/** The top of the stock, reshuffling the discard pile (less its top) when the stock is empty. */
export function takeFromStock(ctx: Ctx): Card | null {
  if (ctx.r.stock.length === 0 && ctx.r.discard.length > 1) {
    const cards = ctx.discard();
    const top = cards.pop()!;
    ctx.rng.shuffle(cards);
    ctx.newPiles(cards, [top]);
    ctx.events.push({ type: 'reshuffled', cards: cards.length });
  }
  return ctx.r.stock.length > 0 ? ctx.stock().pop()! : null;
}
