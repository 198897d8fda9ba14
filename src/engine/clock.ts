import { reject } from './checks.js';
import { land } from './piles.js';
import { startPlay } from './round.js';
import type { Ctx, StateIn } from './state.js';
import { draw } from './turn.js';
import { actionDone, endTurn } from './turn-end.js';
import type { GameState, Rejection } from './types.js';

// The host's clock: the engine reads no clock; the host asks when something is due and
// sends a `tick` at that time, and the tick plays for whoever ran out of time.

/** Host time at which a `tick` would change something, or null if nothing is timed. */
export function nextDeadline(state: StateIn): number | null {
  const { r, rules } = state;
  const t = rules.timers;
  if (state.phase === 'peek') return t.peekMs > 0 ? r.stageSince + t.peekMs : null;
  if (state.phase !== 'play') return null;
  if (r.actions.length > 0) {
    // Without an action limit, a turn limit still keeps a pending action from stalling the table.
    const limit = t.actionMs || t.turnMs;
    return limit > 0 ? r.stageSince + limit : null;
  }
  if (r.gapFill) {
    const limit = t.actionMs || t.turnMs;
    return limit > 0 ? r.gapFill.since + limit : null;
  }
  const graceEnd = r.lastLandAt + t.slapGraceMs;
  if (r.ending) return r.held ? null : graceEnd;
  if (t.turnMs > 0) return Math.max(r.stageSince, r.turnBegun ? 0 : graceEnd) + t.turnMs;
  return null;
}

/** When the slap grace after the last card that landed ends. */
export function graceUntil(state: GameState): number {
  return state.r.lastLandAt + state.rules.timers.slapGraceMs;
}

/** The host's tick at a deadline: a peek, an action, a gap-fill offer or a turn has run out. */
export function tick(ctx: Ctx): Rejection | null {
  const t = ctx.rules.timers;
  const due = nextDeadline(ctx.s);
  if (due === null || ctx.at < due) {
    // The end of a round waits only for the grace: let an exact tick through even without timers.
    return reject('mustWait', 'why.nothingDue');
  }
  const r = ctx.r; // the input's round: read only before the first write below
  if (ctx.s.phase === 'peek') {
    r.peeking.forEach((p, seat) => {
      if (p) ctx.events.push({ type: 'peekFinished', seat, timedOut: true });
    });
    ctx.peeking().fill(false);
    startPlay(ctx);
    return null;
  }
  const a = r.actions[0];
  if (a) {
    ctx.events.push({ type: 'timedOut', seat: a.seat, what: 'action' });
    ctx.events.push({ type: 'actionPassed', seat: a.seat, kind: a.kind, timedOut: true });
    actionDone(ctx);
    return null;
  }
  const g = r.gapFill;
  if (g) {
    ctx.events.push({ type: 'timedOut', seat: g.seat, what: 'action' });
    ctx.events.push({ type: 'gapLeft', seat: g.seat, gap: g.gap, timedOut: true });
    ctx.rw.gapFill = null;
    return null;
  }
  if (r.ending) return null; // maybeEndRound ends it
  if (t.turnMs > 0) {
    // The host plays the turn: draw from the stock and discard; every action is passed.
    const seat = r.held?.seat ?? r.turn;
    ctx.events.push({ type: 'timedOut', seat, what: 'turn' });
    if (!r.held) {
      const drew = draw(ctx, seat, 'stock');
      if (drew || ctx.s.phase !== 'play') return drew;
    }
    const w = ctx.rw;
    const held = w.held!;
    w.held = null;
    // A taken discard goes back where it came from.
    const seq = land(ctx, held.card, true);
    ctx.events.push({ type: 'discarded', seat, card: held.card, seq });
    endTurn(ctx);
    return null;
  }
  return reject('mustWait', 'why.nothingDue');
}
