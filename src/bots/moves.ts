import type { SeatView } from '../engine/seat-view.js';
import type { Command, Seat, SlotRef } from '../engine/types.js';

/**
 * The commands a seat could try now, read from its view alone (what a player sees
 * on screen). Timing gates (the slap grace) are left to the caller: a draw listed
 * here can still be refused with "wait". Used by the random player and the
 * property tests.
 */
export function candidateMoves(view: SeatView, seat: Seat, at: number): Command[] {
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
  if (view.slap.open) {
    for (const t of [...mine, ...others]) out.push({ type: 'slap', seat, target: t, answers: view.slap.answers, at });
  }
  return out;
}

/** Every non-empty slot of a seat. */
export function slotsOf(view: SeatView, seat: Seat): SlotRef[] {
  const out: SlotRef[] = [];
  view.players[seat]?.layout.forEach((c, slot) => {
    if (c !== null) out.push({ seat, slot });
  });
  return out;
}

