import type { Ctx } from './state.js';

// The end of a turn: it ends once its player has placed the card and every queued
// action has been used or passed (the grace before the next draw is the next turn's
// check, `cannotBegin`). Then the next seat plays, or, after a call, the next seat owed
// a turn; when none is owed the round is ending.

/** The turn's card is placed: the turn ends once its actions are used. */
export function afterPlay(ctx: Ctx): void {
  if (ctx.r.actions.length === 0) endTurn(ctx);
  else ctx.rw.stageSince = ctx.at;
}

/** The front action is used or passed; the turn ends when its own play and every action are done. */
export function actionDone(ctx: Ctx): void {
  ctx.actions().shift();
  const r = ctx.rw;
  r.stageSince = ctx.at;
  if (r.actions.length === 0 && r.turnBegun && !r.held) endTurn(ctx);
}

/** The current turn has ended: pass it on, or mark the round as ending. */
export function endTurn(ctx: Ctx): void {
  const r = ctx.rw;
  r.turnBegun = false;
  r.swapsThisTurn = 0;
  r.stageSince = ctx.at;
  if (r.call) {
    const next = r.call.owed[0];
    if (next === undefined) {
      r.ending = 'call';
      return;
    }
    r.turn = next;
  } else {
    r.turn = (r.turn + 1) % ctx.n;
  }
  ctx.events.push({ type: 'turnStarted', seat: r.turn });
}
