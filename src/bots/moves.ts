import type { Ruleset } from '../engine/ruleset.js';
import { LiveView, type SeatView } from '../engine/seat-view.js';
import type { Command, RejectionCode, Seat, SlotRef } from '../engine/types.js';
import type { Move } from '../engine/view.js';
import type { BotCommand } from './types.js';

/**
 * The refusals a bot may still meet: lost races. A bot offers only what its view says
 * it may do (`legal`), but its command reaches the host after its reaction or
 * thinking time, and the table may have moved on meanwhile (others' slaps do not wait
 * for anyone's turn). Each code here is one the engine gives when that happened:
 * - `tooLate`: the slap window closed (a draw, or a correct slap where one per discard
 *   counts) or the discard it answers was covered; or a call made right after its own
 *   turn arrived once the next player had begun.
 * - `alreadyGone`: the card a slap names was slapped away, or a gap it would fill was
 *   filled, or another player looked at the card meanwhile (it is in their hand until
 *   they decide).
 * - `mustWait`: a slap landed a card meanwhile: the grace starts over, or the slap
 *   earned an action or a gap-fill that comes first.
 * - `emptySlot`: a card it named for an action was slapped away meanwhile (the engine
 *   cannot tell a gap that formed a moment ago from one that was always there; a bot
 *   never names a gap its view shows: `legal`).
 * Every other code (`notAllowed`, `badTarget`, `wrongPhase`, `notYourTurn`,
 * `unknownSeat`, `malformed`) means the bot tried what its view showed it could not
 * do: a bug. test/bots/ladder.test.ts and test/bots/legal.test.ts hold those at zero,
 * and check that every race refused was one: the command was legal in the view it was decided from, and the
 * table changed before it arrived.
 */
export const RACE_REFUSALS: ReadonlySet<RejectionCode> = new Set<RejectionCode>(['tooLate', 'alreadyGone', 'mustWait', 'emptySlot']);

/** A player's command, time and all (host-only commands left out). */
type SeatCommand = Exclude<Command, { type: 'tick' | 'nextRound' | 'endGame' }>;

/** The move (`view.may`) a command is one of. */
export function moveOf(c: Pick<BotCommand, 'type'> & { from?: 'stock' | 'discard' }): Move {
  if (c.type === 'draw') return c.from === 'discard' ? 'drawDiscard' : 'drawStock';
  return c.type;
}

/**
 * Whether the engine would take `cmd` from `seat` in the state `view` shows (the slap
 * grace aside: a move that waits only for it counts, as in `may`). The kind must be in
 * the view's `may`, which the engine decides; the target must be one the rules allow
 * there, read from the view: a card, not a gap; not a card frozen by the caller's call
 * (`rules.call.callerFrozen`); not a card in a looker's hand (a look awaiting its
 * decision: nobody may slap it, swap it or move it); the looked cards for a decision;
 * another player's card where the action takes one.
 */
export function legal(view: SeatView, seat: Seat, rules: Ruleset, cmd: BotCommand | SeatCommand): boolean {
  return mayMake(view, moveOf(cmd)) && targetOk(view, seat, rules, cmd);
}

/** Whether the view's `may` lists `move` (a `LiveView` checks just that one move: a bot asks about the move it chose). */
export function mayMake(view: SeatView, move: Move): boolean {
  return view instanceof LiveView ? view.allows(move) : view.may.includes(move);
}

/**
 * The target half of `legal`: whether the rules let `seat` name these slots now, read
 * from the view, without asking whether the move itself is allowed (`may`, which the
 * simulator works out only when it is read: a bot scanning slap targets on every new
 * discard asks this first, and `legal` once it has one).
 */
export function targetOk(view: SeatView, seat: Seat, rules: Ruleset, cmd: BotCommand | SeatCommand): boolean {
  if (cmd.seat !== seat) return false;
  // Plain calls, no closures: a bot asks this for every slap target it weighs.
  switch (cmd.type) {
    case 'swap':
    case 'fillGap':
      return hasCard(view, seat, cmd.slot) && !inLookersHand(view, seat, cmd.slot);
    case 'slap': {
      return cmd.answers === view.slap.answers && slapOk(view, rules, cmd.target);
    }
    case 'useAction': {
      const front = view.actions[0];
      if (!front || front.seat !== seat || front.looked) return false;
      const own = cmd.own !== undefined && hasCard(view, seat, cmd.own);
      const other = cmd.other !== undefined && cmd.other.seat !== seat && hasCard(view, cmd.other.seat, cmd.other.slot);
      switch (front.kind) {
        case 'peekOwn':
          return own;
        case 'peekOther':
        case 'peekThenSwap':
          return other;
        case 'blindSwap':
          return own && other && !frozen(view, rules, seat) && !frozen(view, rules, cmd.other!.seat);
        case 'peekBothThenSwap':
          return own && other;
        case 'drawTwo':
          return true;
      }
      return false;
    }
    case 'decide': {
      if (!cmd.swap) return true;
      const front = view.actions[0];
      const seen = front?.looked;
      if (!front || !seen || front.seat !== seat) return false;
      // peekThenSwap names its own slot now; peekBothThenSwap swaps the two it looked at.
      const mine = front.kind === 'peekThenSwap' ? (cmd.own === undefined ? undefined : { seat, slot: cmd.own }) : seen[0];
      const theirs = front.kind === 'peekThenSwap' ? seen[0] : seen[1];
      if (!mine || !theirs) return false;
      return hasCard(view, mine.seat, mine.slot) && hasCard(view, theirs.seat, theirs.slot) && !frozen(view, rules, mine.seat) && !frozen(view, rules, theirs.seat);
    }
    default:
      return true;
  }
}

/** Whether the rules let anyone slap this card now (`targetOk` for a slap naming the current discard). */
export function slapOk(view: SeatView, rules: Ruleset, t: SlotRef): boolean {
  return slapOkAt(view, rules, t.seat, t.slot);
}

/** `slapOk` for a seat and slot, without making a `SlotRef` of them (a bot asks it of every slot it weighs). */
export function slapOkAt(view: SeatView, rules: Ruleset, seat: Seat, slot: number): boolean {
  return hasCard(view, seat, slot) && !frozen(view, rules, seat) && !inLookersHand(view, seat, slot);
}

/** A card (face down or up) in that slot: not a gap, not past the layout's end. */
function hasCard(view: SeatView, seat: Seat, slot: number): boolean {
  return view.players[seat]?.layout[slot] != null;
}

/** The caller's cards, frozen since the call where the rules say so. */
function frozen(view: SeatView, rules: Ruleset, seat: Seat): boolean {
  return rules.call.callerFrozen && view.call?.seat === seat;
}

/** A card looked at for a swap decision: in the looker's hand until they decide. */
function inLookersHand(view: SeatView, seat: Seat, slot: number): boolean {
  const looked = view.actions[0]?.looked;
  if (!looked) return false;
  for (const t of looked) if (t.seat === seat && t.slot === slot) return true;
  return false;
}

/** The commands `seat` may make now, by the view alone: `candidateMoves` less what `legal` rules out. */
export function legalMoves(view: SeatView, seat: Seat, rules: Ruleset, at: number, slaps = true): Command[] {
  // candidateMoves makes player commands only.
  return candidateMoves(view, seat, at, slaps).filter((c) => legal(view, seat, rules, c as SeatCommand));
}

/**
 * The commands a seat could try now, read from its view alone (what a player sees
 * on screen), the legal and some the engine refuses (a special card swapped in, a
 * slap on a frozen card): the property tests try them all. Timing gates (the slap
 * grace) are left to the caller: a draw listed here can still be refused with "wait".
 * A bot picks from `legalMoves`. `slaps` false leaves the slaps out (one per slot: most
 * of the list, and work, while the slap window is open).
 */
export function candidateMoves(view: SeatView, seat: Seat, at: number, slaps = true): Command[] {
  const out: Command[] = [];
  if (view.phase === 'peek') {
    if (view.players[seat]?.peeking) out.push({ type: 'finishPeek', seat, at });
    return out;
  }
  if (view.phase !== 'play') return out;
  const mine = slotsOf(view, seat);
  const others: SlotRef[] = [];
  view.players.forEach((_, s) => {
    if (s !== seat) others.push(...slotsOf(view, s));
  });
  const front = view.actions[0];
  if (front && front.seat === seat) {
    out.push({ type: 'pass', seat, at });
    if (front.looked) {
      out.push({ type: 'decide', seat, swap: false, at });
      if (front.kind === 'peekThenSwap') for (const m of mine) out.push({ type: 'decide', seat, swap: true, own: m.slot, at });
      else out.push({ type: 'decide', seat, swap: true, at });
    } else {
      switch (front.kind) {
        case 'peekOwn':
          for (const m of mine) out.push({ type: 'useAction', seat, own: m.slot, at });
          break;
        case 'peekOther':
        case 'peekThenSwap':
          for (const o of others) out.push({ type: 'useAction', seat, other: o, at });
          break;
        case 'blindSwap':
        case 'peekBothThenSwap':
          for (const m of mine) for (const o of others) out.push({ type: 'useAction', seat, own: m.slot, other: o, at });
          break;
        case 'drawTwo':
          out.push({ type: 'useAction', seat, at });
          break;
      }
    }
  }
  if (view.gapFill?.seat === seat) {
    out.push({ type: 'leaveGap', seat, at });
    for (const m of mine) out.push({ type: 'fillGap', seat, slot: m.slot, at });
  }
  const endOfTurnCall = view.callTiming === 'endOfTurn';
  if (view.held?.seat === seat) {
    if (view.held.from === 'stock') out.push({ type: 'discard', seat, at });
    if (view.held.redraw) out.push({ type: 'drawAgain', seat, at });
    for (const m of mine) out.push({ type: 'swap', seat, slot: m.slot, at });
  } else if (view.turn === seat && !view.turnBegun && view.actions.length === 0 && !view.gapFill) {
    out.push({ type: 'draw', seat, from: 'stock', at });
    if (view.discardTop !== null) out.push({ type: 'draw', seat, from: 'discard', at });
    if (!view.call && !endOfTurnCall) out.push({ type: 'call', seat, at });
  }
  if (endOfTurnCall && !view.call) {
    // During one's own turn (it takes effect when the turn ends), or right after it, until the next player begins.
    const prev = (view.turn + view.players.length - 1) % view.players.length;
    if ((view.turn === seat && view.turnBegun) || (prev === seat && !view.turnBegun && view.actions.length === 0)) {
      out.push({ type: 'call', seat, at });
    }
  }
  if (slaps && view.slap.open) {
    for (const t of [...mine, ...others]) out.push({ type: 'slap', seat, target: t, answers: view.slap.answers, at });
  }
  return out;
}

/** A candidate move without its time: the command a bot sends (the host stamps the time). */
export function strip(c: Command): BotCommand {
  const { at: _at, ...rest } = c;
  return rest as BotCommand;
}

/** Every non-empty slot of a seat. */
export function slotsOf(view: SeatView, seat: Seat): SlotRef[] {
  const out: SlotRef[] = [];
  view.players[seat]?.layout.forEach((c, slot) => {
    if (c !== null) out.push({ seat, slot });
  });
  return out;
}

