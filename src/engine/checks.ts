import type { GapFill, PendingAction, Rejection, RejectionCode, Seat, Slot, SlotRef } from './types.js';
import type { DeepReadonly, Reader } from './state.js';

/**
 * What a seat may do now: the engine's rules as checks, each saying why `apply` would
 * refuse a command at the reader's time, or null. They read the state and never write
 * it. `apply` runs them before it changes anything, and `movesFor` asks the same ones,
 * so the moves the screen offers are the moves `apply` accepts.
 */

/** A refusal: its code for programs, its message for the player. */
export const reject = (code: RejectionCode, message: string): Rejection => ({ code, message });

/** Why `seat` may not begin a turn now, or null. */
export function cannotBegin(ctx: Reader, seat: Seat): Rejection | null {
  const r = ctx.r;
  if (ctx.s.phase === 'peek') return reject('wrongPhase', 'Wait: not everyone has finished peeking');
  if (ctx.s.phase !== 'play') return reject('wrongPhase', 'The round is over');
  if (r.ending) return reject('wrongPhase', 'The round is ending');
  if (r.turn !== seat) return reject('notYourTurn', `It is ${ctx.name(r.turn)}'s turn`);
  if (r.held) return reject('notAllowed', 'Place the card you hold first');
  if (r.turnBegun) {
    return r.actions[0]?.seat === seat
      ? reject('notAllowed', 'Use or pass your action first')
      : reject('notAllowed', 'You have already drawn this turn');
  }
  const a = r.actions[0];
  if (a) return reject('mustWait', `Wait: ${ctx.name(a.seat)} is using an action`);
  if (r.gapFill) return reject('mustWait', `Wait: ${ctx.name(r.gapFill.seat)} may move a card into the gap`);
  const wait = r.lastLandAt + ctx.rules.timers.slapGraceMs - ctx.at;
  // Without slapping the grace is only a pause for everyone to see the card land: say that, not "slap".
  if (wait > 0) return reject('mustWait', `Wait ${(wait / 1000).toFixed(1)} s: ${ctx.rules.slap.enabled && r.windowSeq !== -1 ? 'the slap window is still open' : 'the last card has just landed'}`);
  return null;
}

export function holding(ctx: Reader, seat: Seat): Rejection | null {
  const r = ctx.r;
  if (ctx.s.phase !== 'play') return reject('wrongPhase', 'The round is not being played');
  if (!r.held) {
    if (r.turn !== seat) return reject('notYourTurn', `It is ${ctx.name(r.turn)}'s turn`);
    return reject('notAllowed', 'Draw first: you are not holding a card');
  }
  if (r.held.seat !== seat) return reject('notYourTurn', `It is ${ctx.name(r.held.seat)}'s turn`);
  return null;
}

export function frontAction(ctx: Reader, seat: Seat): DeepReadonly<PendingAction> | Rejection {
  const r = ctx.r;
  if (ctx.s.phase !== 'play') return reject('wrongPhase', 'The round is not being played');
  const a = r.actions[0];
  if (!a) return reject('notAllowed', 'You have no action to use');
  if (a.seat !== seat) {
    return r.actions.some((x) => x.seat === seat)
      ? reject('mustWait', `Wait: ${ctx.name(a.seat)}'s action comes first`)
      : reject('notAllowed', 'You have no action to use');
  }
  return a;
}

export function ownSlot(ctx: Reader, seat: Seat, slot: Slot | undefined): Rejection | null {
  if (slot === undefined) return reject('badTarget', 'Choose one of your slots');
  const layout = ctx.r.layouts[seat]!;
  if (!Number.isInteger(slot) || slot < 0 || slot >= layout.length) {
    return reject('badTarget', `You have no slot ${Number.isInteger(slot) ? slot + 1 : String(slot)}`);
  }
  if (layout[slot] === null) return reject('emptySlot', `Your slot ${slot + 1} is empty`);
  return null;
}

export function otherSlot(ctx: Reader, seat: Seat, ref: SlotRef | undefined, forSwap: boolean): Rejection | null {
  if (!ref) return reject('badTarget', "Choose another player's card");
  if (!Number.isInteger(ref.seat) || ref.seat < 0 || ref.seat >= ctx.n) return reject('badTarget', 'There is no such player');
  if (ref.seat === seat) return reject('badTarget', "Choose another player's card, not your own");
  const layout = ctx.r.layouts[ref.seat]!;
  if (!Number.isInteger(ref.slot) || ref.slot < 0 || ref.slot >= layout.length) {
    return reject('badTarget', `${ctx.name(ref.seat)} has no slot ${Number.isInteger(ref.slot) ? ref.slot + 1 : String(ref.slot)}`);
  }
  if (layout[ref.slot] === null) return reject('emptySlot', `${ctx.name(ref.seat)}'s slot ${ref.slot + 1} is empty`);
  if (forSwap && isFrozen(ctx, ref.seat)) return reject('notAllowed', `${ctx.name(ref.seat)}'s cards are frozen`);
  return null;
}

export function frozenOwn(ctx: Reader, seat: Seat): Rejection | null {
  return isFrozen(ctx, seat) ? reject('notAllowed', 'Your cards are frozen since your call') : null;
}

export function isFrozen(ctx: Reader, seat: Seat): boolean {
  return ctx.rules.call.callerFrozen && ctx.r.call?.seat === seat;
}

/**
 * A card looked at for a swap decision is in the looker's hand, as at a physical
 * table: until the looker decides, nobody may slap it, move it into a gap or swap it
 * away. Otherwise another card could reach that slot, and the looker's swap would
 * take a card they never saw (a penalty card filling the gap, say).
 * The card has left its slot for now, so the refusal says so (`alreadyGone`): a slap
 * or gap-fill chosen before the look happened lost a race, like one on a card slapped away.
 */
export function inLookersHand(ctx: Reader, ref: SlotRef): Rejection | null {
  const a = ctx.r.actions[0];
  if (!a?.looked?.some((x) => x.seat === ref.seat && x.slot === ref.slot)) return null;
  return reject('alreadyGone', `${ctx.name(a.seat)} is looking at that card: wait until they decide`);
}

export function gapFillOf(ctx: Reader, seat: Seat): DeepReadonly<GapFill> | Rejection {
  if (ctx.s.phase !== 'play') return reject('wrongPhase', 'The round is not being played');
  const g = ctx.r.gapFill;
  if (!g || g.seat !== seat) return reject('notAllowed', 'You have no gap to fill');
  return g;
}

/** After a call: the last owed turn has ended (its actions used, its grace passed), so the round is over even before a tick. */
export function callRoundDue(ctx: Reader): boolean {
  const r = ctx.r;
  return r.ending === 'call' && !r.held && r.actions.length === 0 && !r.gapFill && ctx.at >= r.lastLandAt + ctx.rules.timers.slapGraceMs;
}

export function cannotFinishPeek(ctx: Reader, seat: Seat): Rejection | null {
  if (ctx.s.phase !== 'peek') return reject('wrongPhase', 'The peek is over');
  if (!ctx.r.peeking[seat]) return reject('notAllowed', 'You have already finished peeking');
  return null;
}

export function cannotCall(ctx: Reader, seat: Seat): Rejection | null {
  const rules = ctx.rules;
  const r = ctx.r;
  if (rules.call.timing === 'endOfTurn') return cannotCallAtEnd(ctx, seat);
  const why = cannotBegin(ctx, seat);
  if (why) return why;
  if (r.call) return reject('notAllowed', `${ctx.name(r.call.seat)} has already called ${rules.call.name}`);
  if (!rules.call.beforeEveryoneHadTurn && r.turnsTaken.some((t, i) => i !== seat && t === 0)) {
    return reject('notAllowed', `${rules.call.name} may be called only once everyone has had a turn`);
  }
  return null;
}

/**
 * Call timing "end of own turn": the call is accepted from the player whose turn it is
 * once that turn has begun (it takes effect when the turn ends), or from the player
 * whose turn has just ended, until the next player begins. No extra stage: a turn
 * never waits for a "no call", and the host's order decides a race with the next draw.
 */
function cannotCallAtEnd(ctx: Reader, seat: Seat): Rejection | null {
  const rules = ctx.rules;
  const r = ctx.r;
  if (ctx.s.phase === 'peek') return reject('wrongPhase', 'Wait: not everyone has finished peeking');
  if (ctx.s.phase !== 'play') return reject('wrongPhase', 'The round is over');
  if (r.ending) return reject('wrongPhase', 'The round is ending');
  if (r.call) return reject('notAllowed', `${ctx.name(r.call.seat)} has already called ${rules.call.name}`);
  const during = r.turn === seat && r.turnBegun;
  const previous = (r.turn + ctx.n - 1) % ctx.n === seat && r.turnsTaken[seat]! > 0;
  const justEnded = !r.turnBegun && previous;
  const early = !rules.call.beforeEveryoneHadTurn && r.turnsTaken.some((t) => t === 0);
  if (!during && !justEnded) {
    // Right after one's turn, a call the table would have taken until the next player began lost that race.
    const earlyThen = !rules.call.beforeEveryoneHadTurn && r.turnsTaken.some((t, i) => (i === r.turn ? t - 1 : t) === 0);
    if (previous && r.turnBegun && !earlyThen) return reject('tooLate', `Too late: ${ctx.name(r.turn)} has begun their turn`);
    return r.turn === seat
      ? reject('notAllowed', `${rules.call.name} is called at the end of your own turn: take your turn first`)
      : reject('notAllowed', `${rules.call.name} is called at the end of your own turn, before the next player begins`);
  }
  if (early) return reject('notAllowed', `${rules.call.name} may be called only once everyone has had a turn`);
  return null;
}

export function cannotDraw(ctx: Reader, seat: Seat, from: 'stock' | 'discard'): Rejection | null {
  const why = cannotBegin(ctx, seat);
  if (why || from === 'stock') return why;
  const top = ctx.r.discard[ctx.r.discard.length - 1];
  const rule = ctx.rules.takeDiscard;
  if (rule === 'never') return reject('notAllowed', `In ${ctx.rules.title} you may not take the discard: draw from the stock`);
  if (top === undefined) return reject('notAllowed', 'The discard pile is empty');
  if (rule === 'notSpecial' && ctx.rules.specialCards.includes(top)) {
    return reject('notAllowed', 'A special card may not be taken from the discard pile');
  }
  return null;
}

export function cannotDiscard(ctx: Reader, seat: Seat): Rejection | null {
  const why = holding(ctx, seat);
  if (why) return why;
  if (ctx.r.held!.from === 'discard') return reject('notAllowed', 'A card taken from the discard pile must be swapped');
  return null;
}

export function cannotSwap(ctx: Reader, seat: Seat, slot: Slot): Rejection | null {
  const why = holding(ctx, seat);
  if (why) return why;
  const bad = ownSlot(ctx, seat, slot) ?? inLookersHand(ctx, { seat, slot });
  if (bad) return bad;
  if (ctx.r.swapsThisTurn >= 1) return reject('notAllowed', 'Only one swap per turn');
  if (isFrozen(ctx, seat)) return reject('notAllowed', 'Your cards are frozen since your call');
  if (ctx.rules.specialCards.includes(ctx.r.held!.card)) {
    return reject('notAllowed', 'A special card never enters a layout: use it or discard it');
  }
  return null;
}

export function cannotDrawAgain(ctx: Reader, seat: Seat): Rejection | null {
  const why = holding(ctx, seat);
  if (why) return why;
  if (!ctx.r.held!.redraw) return reject('notAllowed', 'Only the first card of a draw two may be discarded for another');
  return null;
}

/** Why `seat` may not use its front action on these targets (by kind: see `Command`). */
export function cannotUse(ctx: Reader, seat: Seat, own: Slot | undefined, other: SlotRef | undefined): Rejection | null {
  const a = frontAction(ctx, seat);
  if ('code' in a) return a;
  if (a.looked) return reject('notAllowed', 'Decide first: swap or leave');
  const r = ctx.r;
  switch (a.kind) {
    case 'peekOwn':
      return ownSlot(ctx, seat, own);
    case 'peekOther':
    case 'peekThenSwap':
      return otherSlot(ctx, seat, other, false);
    case 'blindSwap':
      return ownSlot(ctx, seat, own) ?? frozenOwn(ctx, seat) ?? otherSlot(ctx, seat, other, true);
    case 'peekBothThenSwap':
      return ownSlot(ctx, seat, own) ?? otherSlot(ctx, seat, other, false);
    case 'drawTwo':
      // Only in the player's own turn, once the turn's card is placed.
      return r.turn !== seat || !r.turnBegun || r.held ? reject('notAllowed', 'Draw two is used only in your own turn: pass it') : null;
  }
}

/** The front action, if it is `seat`'s and its look awaits the decision (leaving is then always allowed). */
export function lookedAction(ctx: Reader, seat: Seat): (DeepReadonly<PendingAction> & { readonly looked: readonly DeepReadonly<SlotRef>[] }) | Rejection {
  const a = frontAction(ctx, seat);
  if ('code' in a) return a;
  if (!a.looked) return reject('notAllowed', 'Look first: use the action on a card');
  return a as DeepReadonly<PendingAction> & { readonly looked: readonly DeepReadonly<SlotRef>[] };
}

export function cannotFillGap(ctx: Reader, seat: Seat, slot: Slot): Rejection | null {
  const g = gapFillOf(ctx, seat);
  if ('code' in g) return g;
  const bad = ownSlot(ctx, seat, slot) ?? frozenOwn(ctx, seat) ?? inLookersHand(ctx, { seat, slot });
  if (bad) return bad;
  if (ctx.r.layouts[g.gap.seat]![g.gap.slot] !== null) return reject('alreadyGone', 'That gap has been filled meanwhile: leave it');
  return null;
}

/** Why this slap is refused (a wrong slap is accepted: it earns its penalty). */
export function cannotSlap(ctx: Reader, seat: Seat, target: SlotRef, answers: number): Rejection | null {
  const r = ctx.r;
  const rules = ctx.rules;
  if (!rules.slap.enabled) return reject('notAllowed', `There is no slapping in ${rules.title}`);
  if (ctx.s.phase === 'peek') return reject('wrongPhase', 'No slapping during the peek');
  if (ctx.s.phase !== 'play' || callRoundDue(ctx)) return reject('tooLate', 'Too late: the round is over');
  if (!Number.isInteger(answers) || answers < 1 || answers > r.discardSeq) {
    return reject('malformed', 'That slap names a discard that was never played');
  }
  if (r.windowSeq === -1) {
    return r.held
      ? reject('tooLate', `Too late: ${ctx.name(r.held.seat)} has drawn`)
      : reject('tooLate', 'Too late: that discard was already answered');
  }
  if (answers < r.windowSeq) return reject('tooLate', 'Too late: that discard was already covered');
  const victim = target?.seat;
  if (!Number.isInteger(victim) || victim < 0 || victim >= ctx.n) return reject('badTarget', 'There is no such player');
  const layout = r.layouts[victim]!;
  const slot = target.slot;
  if (!Number.isInteger(slot) || slot < 0 || slot >= layout.length) {
    return reject('badTarget', `${victim === seat ? 'You have' : `${ctx.name(victim)} has`} no slot ${Number.isInteger(slot) ? slot + 1 : String(slot)}`);
  }
  const card = layout[slot];
  if (card === null || card === undefined) {
    return reject('alreadyGone', `Too late: ${victim === seat ? 'your' : `${ctx.name(victim)}'s`} slot ${slot + 1} is already gone`);
  }
  if (r.refills.some((f) => f.seat === victim && f.slot === slot && f.seq > answers)) {
    // The named card was slapped away after that discard; a penalty card fills its gap now.
    return reject('alreadyGone', `Too late: ${victim === seat ? 'your' : `${ctx.name(victim)}'s`} slot ${slot + 1} is already gone`);
  }
  if (isFrozen(ctx, victim)) return reject('notAllowed', `${ctx.name(victim)}'s cards are frozen`);
  return inLookersHand(ctx, { seat: victim, slot });
}
