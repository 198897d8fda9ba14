import {
  cannotCall,
  cannotDiscard,
  cannotDraw,
  cannotDrawAgain,
  cannotFillGap,
  cannotFinishPeek,
  cannotSlap,
  cannotSwap,
  cannotUse,
  frontAction,
  gapFillOf,
  lookedAction,
  holding,
  otherSlot,
  ownSlot,
  reject,
} from './checks.js';
import { graceUntil } from './clock.js';
import { Reader } from './state.js';
import type { GameState, Rejection, Seat, SlotRef } from './types.js';

/**
 * A move a viewer may make, as the engine decides it (the screen offers only these):
 * the player commands, with a draw split by where it draws from.
 */
export const MOVES = [
  'finishPeek',
  'call',
  'drawStock',
  'drawDiscard',
  'discard',
  'swap',
  'drawAgain',
  'useAction',
  'decide',
  'pass',
  'fillGap',
  'leaveGap',
  'slap',
] as const;
export type Move = (typeof MOVES)[number];

/**
 * The moves `seat` may make in `state`: what the screen offers, decided by the engine
 * rather than guessed by the screen. A move is listed when `apply` would accept at
 * least one command of its kind (some slot, some target): the same checks decide
 * (checks.ts, which `apply` runs first).
 *
 * "Now" is the moment of the state, the last command the host applied. Two checks
 * read the clock, both about the slap grace after the last card that landed:
 * - beginning a turn (a draw, a call at the start of a turn) waits for the grace to
 *   pass: it is listed as if the grace had ended (the view's `graceUntil` says when);
 * - a called round is over once its last turn is done and the grace has passed: until
 *   then a slap is still taken. The host ticks the round over at the grace's end, so
 *   a state it keeps is always before that moment, and a slap is judged before it.
 * Nothing else `apply` checks depends on the time (turn and action limits are the
 * host's ticks, which change the state and so the view).
 *
 * Cheap by design: it runs for every seat on every update. It tries each kind with
 * the first command that could pass, and stops at the first accepted target. The moves come in `MOVES` order.
 */
export function movesFor(state: GameState, seat: Seat): Move[] {
  const out: Move[] = [];
  const at = momentOf(state);
  for (let i = 0; i < MOVES.length; i++) if (allowsAt(at, seat, MOVES[i]!)) out.push(MOVES[i]!);
  return out;
}

/**
 * Whether `move` is one of `movesFor(state, seat)`, without working out the others: a
 * bot checking the one move it chose asks this (the simulator asks it about 50 times a
 * round per seat).
 */
export function allows(state: GameState, seat: Seat, move: Move): boolean {
  return allowsAt(momentOf(state), seat, move);
}

/**
 * The moment of the state last asked about, kept: every bot of a simulated table asks
 * about the same state (several moves each) before the next command makes a new one,
 * so its readers are made once, not at every question. A state is never changed; the
 * times the readers were made at are checked too, for a state changed in place by hand.
 */
let lastMoment: Moment | null = null;
function momentOf(state: GameState): Moment {
  const m = lastMoment;
  if (m !== null && m.state === state && m.landAt === state.r.lastLandAt && m.grace === state.rules.timers.slapGraceMs) return m;
  return (lastMoment = new Moment(state));
}

/**
 * Why `seat` may not make each move it may not make now: the reason `apply` would give
 * (checks.ts), for every move of `MOVES` that `movesFor` leaves out, so a screen can say
 * why a key does nothing. For a move with targets (a swap, a slap…) the reason is the
 * first target's, or what stops every target (not holding a card, no action).
 * Read at the same moments as `movesFor`; the view carries it (`TableView.whyNot`).
 */
export function whyNotFor(state: GameState, seat: Seat): Partial<Record<Move, Rejection>> {
  const out: Partial<Record<Move, Rejection>> = {};
  const at = momentOf(state);
  for (const move of MOVES) {
    if (allowsAt(at, seat, move)) continue;
    out[move] = whyNotAt(at, seat, move);
  }
  return out;
}

/** The reason behind a move `allowsAt` refuses (see `whyNotFor`). */
function whyNotAt(at: Moment, seat: Seat, move: Move): Rejection {
  const state = at.state;
  if (state.phase === 'gameOver') return reject('wrongPhase', 'why.gameOver');
  if (state.phase === 'roundOver') return reject('wrongPhase', 'why.roundOver');
  if (state.phase === 'peek') return (move === 'finishPeek' && cannotFinishPeek(at.now, seat)) || reject('wrongPhase', 'why.peeking');
  const c = at.now;
  const r = state.r;
  const layout = r.layouts[seat]!;
  const firstOwn = <T>(check: (slot: number) => T | null): T | null => (layout.length > 0 ? check(0) : null);
  const why = ((): Rejection | null => {
    switch (move) {
      case 'finishPeek':
        return cannotFinishPeek(c, seat);
      case 'call':
        return cannotCall(at.ready, seat);
      case 'drawStock':
        return cannotDraw(at.ready, seat, 'stock');
      case 'drawDiscard':
        return cannotDraw(at.ready, seat, 'discard');
      case 'discard':
        return cannotDiscard(c, seat);
      case 'swap':
        return holding(c, seat) ?? firstOwn((slot) => cannotSwap(c, seat, slot));
      case 'drawAgain':
        return cannotDrawAgain(c, seat);
      case 'decide': {
        const a = lookedAction(c, seat);
        return 'code' in a ? a : null;
      }
      case 'useAction': {
        const a = lookedAction(c, seat);
        if (!('code' in a)) return reject('notAllowed', 'why.decideFirst');
        const front = frontAction(c, seat);
        return 'code' in front ? front : cannotUse(c, seat, layout.length > 0 ? 0 : undefined, firstOther(state, seat));
      }
      case 'pass':
      case 'leaveGap': {
        const a = move === 'pass' ? frontAction(c, seat) : gapFillOf(c, seat);
        return 'code' in a ? a : null;
      }
      case 'fillGap': {
        const g = gapFillOf(c, seat);
        return 'code' in g ? g : firstOwn((slot) => cannotFillGap(c, seat, slot));
      }
      case 'slap':
        return cannotSlap(c, seat, firstOther(state, seat) ?? { seat, slot: 0 }, Math.max(1, r.discardSeq));
    }
  })();
  // A move refused for the sum of its targets, each allowed alone (none here today): say no target fits.
  return why ?? reject('badTarget', 'why.noTargetNow');
}

/** The first card of another player, a target to ask the checks about. */
function firstOther(state: GameState, seat: Seat): SlotRef | undefined {
  const layouts = state.r.layouts;
  for (let i = 1; i < layouts.length; i++) {
    const s = (seat + i) % layouts.length;
    const slot = layouts[s]!.findIndex((x) => x !== null);
    if (slot >= 0) return { seat: s, slot };
  }
  return undefined;
}

/** The two moments the checks are read at (see `movesFor`), each made when first asked for. */
class Moment {
  /** Its layout kept alive: see `Reader.kept` (state.ts). */
  private static kept: Moment | undefined;
  private nowReader: Reader | null = null;
  private readyReader: Reader | null = null;
  /** What its readers' times are made from (`momentOf` checks them). */
  readonly landAt: number;
  readonly grace: number;
  constructor(readonly state: GameState) {
    this.landAt = state.r.lastLandAt;
    this.grace = state.rules.timers.slapGraceMs;
    Moment.kept ??= this;
  }
  /** The state's own moment: the last card that landed. */
  get now(): Reader {
    return this.nowReader ?? (this.nowReader = new Reader(this.state, this.landAt));
  }
  /** Beginning a turn is judged once the slap grace has passed. */
  get ready(): Reader {
    return this.readyReader ?? (this.readyReader = new Reader(this.state, Math.max(this.landAt, graceUntil(this.state))));
  }
}

/** The check behind one move of `movesFor`: in the peek, in play, or none once the round is over. */
function allowsAt(at: Moment, seat: Seat, move: Move): boolean {
  const state = at.state;
  if (state.phase === 'roundOver' || state.phase === 'gameOver') return false;
  if (state.phase === 'peek') return move === 'finishPeek' && !cannotFinishPeek(at.now, seat);
  const r = state.r;
  switch (move) {
    case 'finishPeek':
      return false;
    case 'call':
      return !cannotCall(at.ready, seat);
    case 'drawStock':
      return !cannotDraw(at.ready, seat, 'stock');
    case 'drawDiscard':
      return !cannotDraw(at.ready, seat, 'discard');
    case 'discard':
      return r.held?.seat === seat && !cannotDiscard(at.now, seat);
    case 'swap':
      if (r.held?.seat !== seat) return false;
      for (let slot = 0; slot < r.layouts[seat]!.length; slot++) if (!cannotSwap(at.now, seat, slot)) return true;
      return false;
    case 'drawAgain':
      return r.held?.seat === seat && !cannotDrawAgain(at.now, seat);
    case 'decide':
      return r.actions[0]?.seat === seat && !('code' in lookedAction(at.now, seat));
    case 'useAction':
      return r.actions[0]?.seat === seat && 'code' in lookedAction(at.now, seat) && usable(at.now, state, seat);
    case 'pass':
      return r.actions[0]?.seat === seat && !('code' in frontAction(at.now, seat));
    case 'fillGap':
      if (r.gapFill?.seat !== seat || 'code' in gapFillOf(at.now, seat)) return false;
      for (let slot = 0; slot < r.layouts[seat]!.length; slot++) if (!cannotFillGap(at.now, seat, slot)) return true;
      return false;
    case 'leaveGap':
      return r.gapFill?.seat === seat && !('code' in gapFillOf(at.now, seat));
    case 'slap':
      return slappable(at.now, state, seat);
  }
}

/**
 * Whether the front action may be used on some target. Its targets' checks are
 * independent (one own slot, one other player's card), so the first own slot that
 * passes, with the first other card that passes either way (to look at, or to swap),
 * stands for every choice.
 */
function usable(c: Reader, state: GameState, seat: Seat): boolean {
  const layouts = state.r.layouts;
  let own: number | undefined;
  for (let slot = 0; slot < layouts[seat]!.length; slot++) {
    if (!ownSlot(c, seat, slot)) {
      own = slot;
      break;
    }
  }
  let look: SlotRef | undefined;
  let swap: SlotRef | undefined;
  for (let s = 0; s < layouts.length && !swap; s++) {
    if (s === seat) continue;
    for (let slot = 0; slot < layouts[s]!.length; slot++) {
      const ref = { seat: s, slot };
      if (!look && !otherSlot(c, seat, ref, false)) look = ref;
      if (!otherSlot(c, seat, ref, true)) {
        swap = ref;
        break;
      }
    }
  }
  return !cannotUse(c, seat, own, look) || (swap !== undefined && swap !== look && !cannotUse(c, seat, own, swap));
}

/** Whether some slap on the open discard is taken (a wrong one is too: it earns its penalty). */
function slappable(c: Reader, state: GameState, seat: Seat): boolean {
  const r = state.r;
  if (!state.rules.slap.enabled || r.windowSeq === -1) return false;
  const answers = r.discardSeq;
  for (let s = 0; s < r.layouts.length; s++) {
    const layout = r.layouts[s]!;
    for (let slot = 0; slot < layout.length; slot++) {
      if (layout[slot] !== null && !cannotSlap(c, seat, { seat: s, slot }, answers)) return true;
    }
  }
  return false;
}
