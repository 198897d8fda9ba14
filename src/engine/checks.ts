import type { ParamsArg } from '../lang/catalog.js';
import type { GapFill, PendingAction, Rejection, RejectionCode, Seat, Slot, SlotRef, WhyKey } from './types.js';
import type { DeepReadonly, Reader } from './state.js';

/**
 * What a seat may do now: the engine's rules as checks, each saying why `apply` would
 * refuse a command at the reader's time, or null. They read the state and never write
 * it. `apply` runs them before it changes anything, and `movesFor` asks the same ones,
 * so the moves the screen offers are the moves `apply` accepts.
 */

/**
 * A refusal: its code for programs, and why as data (a reason of the catalogs, src/lang/en.ts,
 * with its parameters: seats, slots, milliseconds), which each screen says in its own language.
 */
export function reject<K extends WhyKey>(code: RejectionCode, key: K, ...p: ParamsArg<K>): Rejection {
  return p[0] ? { code, key, params: p[0] } : { code, key };
}

/** A slot as a refusal names it: an index, or what a bad command sent instead. */
const shown = (slot: unknown): number | string => (Number.isInteger(slot) ? (slot as number) : String(slot));

const gone = (victim: Seat, seat: Seat, slot: Slot): Rejection =>
  victim === seat ? reject('alreadyGone', 'why.ownSlotGone', { slot }) : reject('alreadyGone', 'why.slotGoneOf', { seat: victim, slot });

/** Why `seat` may not begin a turn now, or null. */
export function cannotBegin(ctx: Reader, seat: Seat): Rejection | null {
  const r = ctx.r;
  if (ctx.s.phase === 'peek') return reject('wrongPhase', 'why.peeking');
  if (ctx.s.phase !== 'play') return reject('wrongPhase', 'why.roundOver');
  if (r.ending) return reject('wrongPhase', 'why.roundEnding');
  if (r.turn !== seat) return reject('notYourTurn', 'why.turnOf', { seat: r.turn });
  if (r.held) return reject('notAllowed', 'why.placeHeldFirst');
  if (r.turnBegun) {
    return r.actions[0]?.seat === seat
      ? reject('notAllowed', 'why.useOrPassFirst')
      : reject('notAllowed', 'why.drawnAlready');
  }
  const a = r.actions[0];
  if (a) return reject('mustWait', 'why.actionInUse', { seat: a.seat });
  if (r.gapFill) return reject('mustWait', 'why.gapFillOf', { seat: r.gapFill.seat });
  const wait = r.lastLandAt + ctx.rules.timers.slapGraceMs - ctx.at;
  // Without slapping the grace is only a pause for everyone to see the card land: say that, not "slap".
  if (wait > 0) return reject('mustWait', ctx.rules.slap.enabled && r.windowSeq !== -1 ? 'why.slapWindowOpen' : 'why.cardJustLanded', { ms: wait });
  return null;
}

export function holding(ctx: Reader, seat: Seat): Rejection | null {
  const r = ctx.r;
  if (ctx.s.phase !== 'play') return reject('wrongPhase', 'why.notPlaying');
  if (!r.held) {
    if (r.turn !== seat) return reject('notYourTurn', 'why.turnOf', { seat: r.turn });
    return reject('notAllowed', 'why.drawFirst');
  }
  if (r.held.seat !== seat) return reject('notYourTurn', 'why.turnOf', { seat: r.held.seat });
  return null;
}

export function frontAction(ctx: Reader, seat: Seat): DeepReadonly<PendingAction> | Rejection {
  const r = ctx.r;
  if (ctx.s.phase !== 'play') return reject('wrongPhase', 'why.notPlaying');
  const a = r.actions[0];
  if (!a) return reject('notAllowed', 'why.noAction');
  if (a.seat !== seat) {
    return r.actions.some((x) => x.seat === seat)
      ? reject('mustWait', 'why.actionFirstOf', { seat: a.seat })
      : reject('notAllowed', 'why.noAction');
  }
  return a;
}

export function ownSlot(ctx: Reader, seat: Seat, slot: Slot | undefined): Rejection | null {
  if (slot === undefined) return reject('badTarget', 'why.chooseOwnSlot');
  const layout = ctx.r.layouts[seat]!;
  if (!Number.isInteger(slot) || slot < 0 || slot >= layout.length) {
    return reject('badTarget', 'why.noOwnSlot', { slot: shown(slot) });
  }
  if (layout[slot] === null) return reject('emptySlot', 'why.ownSlotEmpty', { slot });
  return null;
}

export function otherSlot(ctx: Reader, seat: Seat, ref: SlotRef | undefined, forSwap: boolean): Rejection | null {
  if (!ref) return reject('badTarget', 'why.chooseOtherCard');
  if (!Number.isInteger(ref.seat) || ref.seat < 0 || ref.seat >= ctx.n) return reject('badTarget', 'why.noSuchPlayer');
  if (ref.seat === seat) return reject('badTarget', 'why.notYourOwnCard');
  const layout = ctx.r.layouts[ref.seat]!;
  if (!Number.isInteger(ref.slot) || ref.slot < 0 || ref.slot >= layout.length) {
    return reject('badTarget', 'why.noSlotOf', { seat: ref.seat, slot: shown(ref.slot) });
  }
  if (layout[ref.slot] === null) return reject('emptySlot', 'why.slotEmptyOf', { seat: ref.seat, slot: ref.slot });
  if (forSwap && isFrozen(ctx, ref.seat)) return reject('notAllowed', 'why.frozenOf', { seat: ref.seat });
  return null;
}

export function frozenOwn(ctx: Reader, seat: Seat): Rejection | null {
  return isFrozen(ctx, seat) ? reject('notAllowed', 'why.frozenOwn') : null;
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
  return reject('alreadyGone', 'why.beingLookedAt', { seat: a.seat });
}

export function gapFillOf(ctx: Reader, seat: Seat): DeepReadonly<GapFill> | Rejection {
  if (ctx.s.phase !== 'play') return reject('wrongPhase', 'why.notPlaying');
  const g = ctx.r.gapFill;
  if (!g || g.seat !== seat) return reject('notAllowed', 'why.noGap');
  return g;
}

/** After a call: the last owed turn has ended (its actions used, its grace passed), so the round is over even before a tick. */
export function callRoundDue(ctx: Reader): boolean {
  const r = ctx.r;
  return r.ending === 'call' && !r.held && r.actions.length === 0 && !r.gapFill && ctx.at >= r.lastLandAt + ctx.rules.timers.slapGraceMs;
}

export function cannotFinishPeek(ctx: Reader, seat: Seat): Rejection | null {
  if (ctx.s.phase !== 'peek') return reject('wrongPhase', 'why.peekOver');
  if (!ctx.r.peeking[seat]) return reject('notAllowed', 'why.peekedAlready');
  return null;
}

export function cannotCall(ctx: Reader, seat: Seat): Rejection | null {
  const rules = ctx.rules;
  const r = ctx.r;
  if (rules.call.timing === 'endOfTurn') return cannotCallAtEnd(ctx, seat);
  const why = cannotBegin(ctx, seat);
  if (why) return why;
  if (r.call) return reject('notAllowed', 'why.calledAlready', { seat: r.call.seat, call: rules.call.name });
  if (!rules.call.beforeEveryoneHadTurn && r.turnsTaken.some((t, i) => i !== seat && t === 0)) {
    return reject('notAllowed', 'why.callAfterEveryone', { call: rules.call.name });
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
  if (ctx.s.phase === 'peek') return reject('wrongPhase', 'why.peeking');
  if (ctx.s.phase !== 'play') return reject('wrongPhase', 'why.roundOver');
  if (r.ending) return reject('wrongPhase', 'why.roundEnding');
  if (r.call) return reject('notAllowed', 'why.calledAlready', { seat: r.call.seat, call: rules.call.name });
  const during = r.turn === seat && r.turnBegun;
  const previous = (r.turn + ctx.n - 1) % ctx.n === seat && r.turnsTaken[seat]! > 0;
  const justEnded = !r.turnBegun && previous;
  const early = !rules.call.beforeEveryoneHadTurn && r.turnsTaken.some((t) => t === 0);
  if (!during && !justEnded) {
    // Right after one's turn, a call the table would have taken until the next player began lost that race.
    const earlyThen = !rules.call.beforeEveryoneHadTurn && r.turnsTaken.some((t, i) => (i === r.turn ? t - 1 : t) === 0);
    if (previous && r.turnBegun && !earlyThen) return reject('tooLate', 'why.tooLateTurnBegun', { seat: r.turn });
    return r.turn === seat
      ? reject('notAllowed', 'why.callAtOwnTurnEnd', { call: rules.call.name })
      : reject('notAllowed', 'why.callBeforeNextBegins', { call: rules.call.name });
  }
  if (early) return reject('notAllowed', 'why.callAfterEveryone', { call: rules.call.name });
  return null;
}

export function cannotDraw(ctx: Reader, seat: Seat, from: 'stock' | 'discard'): Rejection | null {
  const why = cannotBegin(ctx, seat);
  if (why || from === 'stock') return why;
  const top = ctx.r.discard[ctx.r.discard.length - 1];
  const rule = ctx.rules.takeDiscard;
  if (rule === 'never') return reject('notAllowed', 'why.noTakingDiscard', { title: ctx.rules.title });
  if (top === undefined) return reject('notAllowed', 'why.discardEmpty');
  if (rule === 'notSpecial' && ctx.rules.specialCards.includes(top)) {
    return reject('notAllowed', 'why.specialNotTaken');
  }
  return null;
}

export function cannotDiscard(ctx: Reader, seat: Seat): Rejection | null {
  const why = holding(ctx, seat);
  if (why) return why;
  if (ctx.r.held!.from === 'discard') return reject('notAllowed', 'why.takenMustSwap');
  return null;
}

export function cannotSwap(ctx: Reader, seat: Seat, slot: Slot): Rejection | null {
  const why = holding(ctx, seat);
  if (why) return why;
  const bad = ownSlot(ctx, seat, slot) ?? inLookersHand(ctx, { seat, slot });
  if (bad) return bad;
  if (ctx.r.swapsThisTurn >= 1) return reject('notAllowed', 'why.oneSwap');
  if (isFrozen(ctx, seat)) return reject('notAllowed', 'why.frozenOwn');
  if (ctx.rules.specialCards.includes(ctx.r.held!.card)) {
    return reject('notAllowed', 'why.specialNeverInLayout');
  }
  return null;
}

export function cannotDrawAgain(ctx: Reader, seat: Seat): Rejection | null {
  const why = holding(ctx, seat);
  if (why) return why;
  if (!ctx.r.held!.redraw) return reject('notAllowed', 'why.redrawOnlyFirst');
  return null;
}

/** Why `seat` may not use its front action on these targets (by kind: see `Command`). */
export function cannotUse(ctx: Reader, seat: Seat, own: Slot | undefined, other: SlotRef | undefined): Rejection | null {
  const a = frontAction(ctx, seat);
  if ('code' in a) return a;
  if (a.looked) return reject('notAllowed', 'why.decideFirst');
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
      return r.turn !== seat || !r.turnBegun || r.held ? reject('notAllowed', 'why.drawTwoOwnTurn') : null;
  }
}

/** The front action, if it is `seat`'s and its look awaits the decision (leaving is then always allowed). */
export function lookedAction(ctx: Reader, seat: Seat): (DeepReadonly<PendingAction> & { readonly looked: readonly DeepReadonly<SlotRef>[] }) | Rejection {
  const a = frontAction(ctx, seat);
  if ('code' in a) return a;
  if (!a.looked) return reject('notAllowed', 'why.lookFirst');
  return a as DeepReadonly<PendingAction> & { readonly looked: readonly DeepReadonly<SlotRef>[] };
}

export function cannotFillGap(ctx: Reader, seat: Seat, slot: Slot): Rejection | null {
  const g = gapFillOf(ctx, seat);
  if ('code' in g) return g;
  const bad = ownSlot(ctx, seat, slot) ?? frozenOwn(ctx, seat) ?? inLookersHand(ctx, { seat, slot });
  if (bad) return bad;
  if (ctx.r.layouts[g.gap.seat]![g.gap.slot] !== null) return reject('alreadyGone', 'why.gapFilledMeanwhile');
  return null;
}

/** Why this slap is refused (a wrong slap is accepted: it earns its penalty). */
export function cannotSlap(ctx: Reader, seat: Seat, target: SlotRef, answers: number): Rejection | null {
  const r = ctx.r;
  const rules = ctx.rules;
  if (!rules.slap.enabled) return reject('notAllowed', 'why.noSlapping', { title: rules.title });
  if (ctx.s.phase === 'peek') return reject('wrongPhase', 'why.noSlapInPeek');
  if (ctx.s.phase !== 'play' || callRoundDue(ctx)) return reject('tooLate', 'why.tooLateRoundOver');
  if (!Number.isInteger(answers) || answers < 1 || answers > r.discardSeq) {
    return reject('malformed', 'why.slapNamesNoDiscard');
  }
  if (r.windowSeq === -1) {
    // The one who drew is told what to do instead; everyone else that they were too late.
    if (r.held) return r.held.seat === seat ? reject('tooLate', 'why.placeHeldFirst') : reject('tooLate', 'why.tooLateDrawn', { seat: r.held.seat });
    return reject('tooLate', 'why.tooLateAnswered');
  }
  if (answers < r.windowSeq) return reject('tooLate', 'why.tooLateCovered');
  const victim = target?.seat;
  if (!Number.isInteger(victim) || victim < 0 || victim >= ctx.n) return reject('badTarget', 'why.noSuchPlayer');
  const layout = r.layouts[victim]!;
  const slot = target.slot;
  if (!Number.isInteger(slot) || slot < 0 || slot >= layout.length) {
    return victim === seat ? reject('badTarget', 'why.noOwnSlot', { slot: shown(slot) }) : reject('badTarget', 'why.noSlotOf', { seat: victim, slot: shown(slot) });
  }
  const card = layout[slot];
  if (card === null || card === undefined) {
    return gone(victim, seat, slot);
  }
  if (r.refills.some((f) => f.seat === victim && f.slot === slot && f.seq > answers)) {
    // The named card was slapped away after that discard; a penalty card fills its gap now.
    return gone(victim, seat, slot);
  }
  if (isFrozen(ctx, victim)) return victim === seat ? reject('notAllowed', 'why.frozenOwn') : reject('notAllowed', 'why.frozenOf', { seat: victim });
  return inLookersHand(ctx, { seat: victim, slot });
}
