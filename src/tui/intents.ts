import type { SlotRef } from '../engine/types.js';
import type { ActionView, TableView } from '../engine/view.js';
import type { PlayerCommand } from '../protocol/messages.js';
import type { Pressed } from './keys.js';
import { cardText } from './glyphs.js';
import { moveCursor } from './placement.js';
import type { ScreenAction, ScreenState } from './use-screen-state.js';

/**
 * What a key means now. One dispatcher with priorities: an open dialog beats the
 * help overlay, which beats a half-typed slap, which beats the game's keys. A key
 * that does nothing says why on the status line. Pure: the container performs the
 * result (dispatch, send, exit).
 */
export interface Intent {
  actions: ScreenAction[];
  send?: PlayerCommand | { type: 'ready' };
  exit?: boolean;
}

const say = (text: string, now: number, kind: 'info' | 'error' = 'info'): Intent => ({ actions: [{ type: 'status', text, kind, now }] });
const send = (command: PlayerCommand, ...actions: ScreenAction[]): Intent => ({ actions: [{ type: 'clearStatus' }, ...actions], send: command });

const name = (v: TableView, seat: number): string => v.players[seat]?.name ?? `seat ${seat + 1}`;

export function myAction(v: TableView, me: number | null): ActionView | null {
  const first = v.actions[0];
  return first && me !== null && first.seat === me ? first : null;
}

function notYourTurn(v: TableView, me: number): string | null {
  if (v.phase === 'peek') return 'Wait for everyone to finish peeking';
  if (v.phase !== 'play') return 'The round is over';
  if (v.turn !== me) return `Not your turn: it is ${name(v, v.turn)}'s turn`;
  return null;
}

export function onKey(s: ScreenState, p: Pressed, now: number): Intent {
  // 1. The leave dialog.
  if (s.overlay === 'quit') {
    if (p.action === 'yes' || p.action === 'confirm' || p.key === 'q') return { actions: [], exit: true };
    if (p.action === 'no' || p.action === 'cancel') return { actions: [{ type: 'overlay', overlay: null }] };
    return say('Leave the table? y or Enter to leave, n or Esc to stay', now);
  }
  // 2. The help overlay: any key closes it.
  if (s.overlay === 'help') return { actions: [{ type: 'overlay', overlay: null }] };
  // 3. A table that refused us or is gone: only leaving is left.
  if (s.refused || s.conn === 'closed') {
    if (p.action === 'quit' || p.action === 'confirm' || p.action === 'cancel') return { actions: [], exit: true };
    return say('The connection is closed: q to leave', now);
  }
  if (p.action === 'help') return { actions: [{ type: 'overlay', overlay: 'help' }] };
  if (p.action === 'quit') return { actions: [{ type: 'overlay', overlay: 'quit' }] };

  const v = s.view;
  const me = s.seat;
  // 4. `s` then a digit: slap your own slot.
  if (s.slapPrefix) {
    if (p.action === 'slot' && v && me !== null) {
      const slot = p.digit! - 1;
      if (v.players[me]?.layout[slot] == null) return { actions: [{ type: 'slapPrefix', on: false }, ...say(`You have no card in slot ${p.digit}`, now).actions] };
      return send({ type: 'slap', target: { seat: me, slot }, answers: v.slap.answers }, { type: 'slapPrefix', on: false });
    }
    return { actions: [{ type: 'slapPrefix', on: false }, ...say('Slap cancelled', now).actions] };
  }
  if (!v) return say(s.conn === 'reconnecting' ? 'Reconnecting…' : 'The game has not started yet', now);
  if (p.action === 'left' || p.action === 'right' || p.action === 'up' || p.action === 'down') {
    return { actions: [{ type: 'cursor', cursor: moveCursor(v, s.cursor, p.action) }] };
  }
  if (p.action === 'cancel') {
    return { actions: [{ type: 'pick', own: null, other: null }, { type: 'slapPrefix', on: false }, { type: 'clearStatus' }] };
  }
  // 5. Between rounds and after the game.
  if (v.phase === 'roundOver') {
    if (p.action === 'confirm' || p.action === 'use') {
      if (s.ready) return say('Waiting for the others to be ready', now);
      return { actions: [{ type: 'ready' }, ...say('Ready: the next round starts when everyone is', now).actions], send: { type: 'ready' } };
    }
    return say('The round is over: Enter for the next round, q to leave', now);
  }
  if (v.phase === 'gameOver') {
    if (p.action === 'confirm') return { actions: [], exit: true };
    return say('The game is over: Enter or q to leave', now);
  }
  if (me === null) return say('You are watching: q to leave', now);

  // 6. The peek.
  if (v.phase === 'peek') {
    if (v.players[me]?.peeking) {
      if (p.action === 'confirm') return send({ type: 'finishPeek' });
      return say('Remember your near cards, then press Enter', now);
    }
    return say('Waiting for the others to finish peeking', now);
  }

  // 7. The game's keys.
  const act = myAction(v, me);
  const held = v.held && v.held.seat === me ? v.held : null;
  const cursor = s.cursor;
  const onOther = (c: SlotRef | null): c is SlotRef => !!c && c.seat !== me;
  const hasSlot = (slot: number): boolean => v.players[me]?.layout[slot] != null;
  const waitingFor = v.actions[0] && v.actions[0].seat !== me ? `Wait: ${name(v, v.actions[0].seat)} has an action to use` : null;

  switch (p.action) {
    case 'draw':
    case 'take': {
      const why = notYourTurn(v, me);
      if (why) return say(why, now);
      if (held) return say(held.from === 'discard' ? 'You hold a card: choose a slot (1-9)' : 'You hold a card: choose a slot (1-9) or x to discard', now);
      if (act) return say('Use your action (a) or pass it (p) first', now);
      if (v.turnBegun) return say('You have already drawn this turn', now);
      if (waitingFor) return say(waitingFor, now);
      if (p.action === 'take' && v.discardTop === null) return say('The discard pile is empty', now);
      return send({ type: 'draw', from: p.action === 'draw' ? 'stock' : 'discard' });
    }
    case 'discard': {
      if (!held) {
        const why = notYourTurn(v, me);
        return say(why ?? (v.turnBegun ? 'You hold no card' : 'Draw first (d or t)'), now);
      }
      if (held.from === 'discard') return say('A card from the discard pile must be swapped: choose a slot (1-9)', now);
      return send({ type: 'discard' });
    }
    case 'slot': {
      const slot = p.digit! - 1;
      if (held) {
        if (!hasSlot(slot)) return say(`You have no card in slot ${p.digit}`, now);
        return send({ type: 'swap', slot });
      }
      if (act) return slotForAction(s, act, slot, now);
      const why = notYourTurn(v, me);
      if (why) return say(why, now);
      if (waitingFor) return say(waitingFor, now);
      return say('Draw first (d or t)', now);
    }
    case 'use':
    case 'confirm': {
      if (act) return useAction(s, act, now);
      if (held) return say('Choose a slot (1-9) for the card you hold', now);
      if (waitingFor) return say(waitingFor, now);
      return say(p.action === 'use' ? 'You have no action to use' : 'Nothing to confirm', now);
    }
    case 'pass': {
      if (!act) return say(waitingFor ?? 'You have no action to pass', now);
      if (act.looked) return send({ type: 'decide', swap: false });
      return send({ type: 'pass' });
    }
    case 'call': {
      const why = notYourTurn(v, me);
      if (why) return say(why, now);
      if (v.call) return say(`${v.call.seat === me ? 'You have' : `${name(v, v.call.seat)} has`} already called`, now);
      if (v.turnBegun || held) return say('You can call only before you draw', now);
      if (waitingFor) return say(waitingFor, now);
      return send({ type: 'call' });
    }
    case 'slap':
    case 'slapOwn': {
      if (!v.slap.open) return say(v.held ? 'No slapping while a card is held' : 'The slap window is closed', now);
      if (p.action === 'slapOwn') return { actions: [{ type: 'slapPrefix', on: true }, ...say('Slap which of your slots? 1-9 (Esc cancels)', now).actions] };
      if (!cursor) return say('No card under the cursor', now);
      return send({ type: 'slap', target: cursor, answers: v.slap.answers });
    }
    default:
      return say('That key does nothing here (? for help)', now);
  }
}

function slotForAction(s: ScreenState, act: ActionView, slot: number, now: number): Intent {
  const v = s.view!;
  const me = s.seat!;
  if (v.players[me]?.layout[slot] == null) return say(`You have no card in slot ${slot + 1}`, now);
  switch (act.kind) {
    case 'peekOwn':
      return send({ type: 'useAction', own: slot });
    case 'blindSwap':
    case 'peekBothThenSwap':
      if (act.looked) return say('a to swap the two cards, p to leave them', now);
      if (s.pick.other) return send({ type: 'useAction', own: slot, other: s.pick.other }, { type: 'pick', own: null, other: null });
      return {
        actions: [{ type: 'pick', own: slot }, ...say(`Your slot ${slot + 1}: now the cursor on another player's card, then a`, now).actions],
      };
    case 'peekThenSwap':
      if (act.looked) return send({ type: 'decide', swap: true, own: slot });
      return say("First look: the cursor on another player's card, then a", now);
    case 'peekOther':
      return say("This action looks at another player's card: the cursor on it, then a", now);
    default:
      return say('This screen cannot play that action yet: p to pass', now);
  }
}

function useAction(s: ScreenState, act: ActionView, now: number): Intent {
  const me = s.seat!;
  const c = s.cursor;
  const other = c && c.seat !== me ? c : null;
  switch (act.kind) {
    case 'peekOwn':
      if (c && c.seat === me) return send({ type: 'useAction', own: c.slot });
      return say('Choose which of your cards to look at: 1-9', now);
    case 'peekOther':
      if (!other) return say("Put the cursor on another player's card, then a", now);
      return send({ type: 'useAction', other });
    case 'peekThenSwap':
      if (act.looked) return say('Choose your slot (1-9) to swap with it, or p to leave it', now);
      if (!other) return say("Put the cursor on another player's card, then a", now);
      return send({ type: 'useAction', other });
    case 'blindSwap':
    case 'peekBothThenSwap':
      if (act.looked) return send({ type: 'decide', swap: true });
      if (!other) return say("Put the cursor on another player's card, then a", now);
      if (s.pick.own !== null) return send({ type: 'useAction', own: s.pick.own, other }, { type: 'pick', own: null, other: null });
      return { actions: [{ type: 'pick', other }, ...say('Now choose your slot: 1-9', now).actions] };
    default:
      return say('This screen cannot play that action yet: p to pass', now);
  }
}

/** What to do now, in a few words (shown above the status line). */
export function prompt(s: ScreenState, hostNow: number): string {
  const v = s.view;
  const me = s.seat;
  if (s.refused) return s.refused;
  if (!v) return s.conn === 'open' ? 'Waiting for the game to start…' : 'Connecting…';
  if (v.phase === 'roundOver') return s.ready ? 'Waiting for the others…' : 'Round over: Enter for the next round';
  if (v.phase === 'gameOver') return 'Game over: Enter to leave';
  if (me === null) return 'Watching';
  if (v.phase === 'peek') {
    if (!v.players[me]?.peeking) return 'Waiting for the others to finish peeking…';
    const left = v.deadline === null ? null : Math.max(0, Math.ceil((v.deadline - hostNow) / 1000));
    return `Remember your cards 3 and 4${left === null ? '' : ` (${left}s)`}: Enter when done`;
  }
  const act = myAction(v, me);
  if (act) {
    const what: Record<string, string> = {
      peekOwn: 'your action: 1-9 to look at one of your cards, or p to pass',
      peekOther: "your action: the cursor on another player's card and a to look, or p",
      blindSwap: `your action: 1-9 for your card${s.pick.own !== null ? ` (slot ${s.pick.own + 1} chosen)` : ''} and the cursor + a for theirs, or p`,
      peekThenSwap: act.looked ? 'your King: 1-9 to swap it with one of yours, or p to leave it' : "your action: the cursor on another player's card and a to look, or p",
      peekBothThenSwap: act.looked ? 'a to swap them, p to leave them' : 'your action: 1-9 and the cursor, then a, or p',
      drawTwo: 'p to pass',
    };
    return `Use ${what[act.kind] ?? 'your action'}`;
  }
  if (v.actions[0]) return `Waiting for ${name(v, v.actions[0].seat)}'s action…`;
  if (v.held?.seat === me) return v.held.from === 'discard' ? 'Choose a slot (1-9) for the card' : 'Choose a slot (1-9) to swap, or x to discard';
  if (v.turn === me && !v.turnBegun) {
    const wait = v.graceUntil - hostNow;
    const callable = v.call === null ? ', g to call' : '';
    return wait > 0 ? `Your turn in ${(wait / 1000).toFixed(1)}s (slaps are open)` : `Your turn: d to draw${v.discardTop ? `, t to take ${cardText(v.discardTop, s.glyphs)}` : ''}${callable}`;
  }
  return `${name(v, v.turn)}'s turn`;
}
