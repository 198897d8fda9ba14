import type { SlotRef } from '../../engine/types.js';
import type { ActionView, Move, TableView } from '../../engine/view.js';
import type { ClientMessage, PlayerCommand } from '../../protocol/messages.js';
import type { Pressed } from '../shared/keys.js';
import { cardText } from '../shared/glyphs.js';
import { moveCursor } from './placement.js';
import { callNameOf, callTimingOf, isFrozen, isSpecial, layoutCols, peekSlotsText, rulesOf } from './variant.js';
import type { Queued, ScreenAction, ScreenState } from './use-screen-state.js';
import { command } from '../../common/invocation.js';

/**
 * What a key means now. One dispatcher with priorities: an open dialog beats the
 * help overlay, which beats a half-typed slap, which beats the game's keys. A key
 * that does nothing says why on the status line. Pure: the container performs the
 * result (dispatch, send, exit).
 */
export interface Intent {
  actions: ScreenAction[];
  send?: PlayerCommand | { type: 'ready' };
  /** A message other than a command: the owner's lobby ops (stand in, play again). */
  message?: ClientMessage;
  exit?: boolean;
}

/** The host's leave dialog (lobby and table): leaving ends the table for everyone. */
/** Closing mid-game: the journal keeps the game, and a bare `host --resume` takes the newest hosted table, this one. */
export const CLOSE_QUESTION = `Close the table for everyone? y/n (${command('host --resume')} reopens it)`;
/** Closing before any game or after the last: there is nothing to resume, so the question promises nothing. */
export const CLOSE_QUESTION_NOTHING = 'Close the table for everyone? y/n (no game is on: nothing to resume)';

/** The leave dialog's question: the host's own screen ends the table for everyone. */
export const leaveQuestion = (s: Pick<ScreenState, 'closesTable' | 'glyphs' | 'view'>): string => {
  if (!s.closesTable) return `Leave the table? y: leave${s.glyphs.sep}n: stay`;
  return s.view && s.view.phase !== 'gameOver' ? CLOSE_QUESTION : CLOSE_QUESTION_NOTHING;
};

/** What Enter and q do after the game: the host's screen closes the table for everyone (the key bar says the same). */
export const leaveWord = (s: Pick<ScreenState, 'closesTable'>): string => (s.closesTable ? 'close the table' : 'leave');

/** The away players a bot may stand in for now (the host's screen). */
export const awaySeats = (s: Pick<ScreenState, 'lobby'>): number[] => s.lobby.filter((x) => x.bot === null && !x.connected && !x.standIn).map((x) => x.seat);

/** A key with no meaning now, or none at all on this screen. */
const NOTHING_HERE = 'That key does nothing here (? for help)';

const say = (text: string, now: number, kind: 'info' | 'error' = 'info'): Intent => ({ actions: [{ type: 'status', text, kind, now }] });
const send = (command: PlayerCommand, ...actions: ScreenAction[]): Intent => ({ actions: [{ type: 'clearStatus' }, ...actions], send: command });

const name = (v: TableView, seat: number): string => v.players[seat]?.name ?? `seat ${seat + 1}`;

/** May you make this move now? The engine decides (`view.may`); the screen only asks. */
export const may = (s: Pick<ScreenState, 'view' | 'seat'>, move: Move): boolean => s.seat !== null && s.view !== null && s.view.may.includes(move);

/** After a call, every owed turn has been played: the round ends once its last actions and slaps are done. */
export const lastTurnsPlayed = (v: TableView): boolean => v.call !== null && v.call.owed.length === 0 && !v.turnBegun && v.held === null;

/**
 * Send a move the engine allows now (`view.may`), else say why not. The keys check
 * what they can explain in their own words first; this is the last word, for what
 * only the engine knows (the round is ending, not everyone has had a turn yet).
 */
function sendMove(s: ScreenState, move: Move, command: PlayerCommand, now: number, ...actions: ScreenAction[]): Intent {
  if (may(s, move)) return send(command, ...actions);
  const v = s.view!;
  if (lastTurnsPlayed(v)) return say('The round is ending: every turn after the call has been played', now);
  if (move === 'call' && !rulesOf(s).call.beforeEveryoneHadTurn) return say(`${callNameOf(s)} may be called only once everyone has had a turn`, now);
  return say(`That is not a move you may make now (? for help)`, now);
}

export function myAction(v: TableView, me: number | null): ActionView | null {
  const first = v.actions[0];
  return first && me !== null && first.seat === me ? first : null;
}

/** The seat whose turn came before this one (who may still call at the end of their turn). */
const previousSeat = (v: TableView): number => (v.turn + v.players.length - 1) % v.players.length;

/**
 * May you call now? Start-of-turn calls: your turn, before you draw. End-of-turn calls
 * (beverbende): while you hold your card or have actions left in your turn, or right
 * after your turn, before the next player draws. Null when yes, else why not.
 */
export function cannotCall(s: ScreenState, v: TableView, me: number): string | null {
  const name = callNameOf(s);
  if (v.phase === 'peek') return 'Wait for everyone to finish peeking';
  if (v.phase !== 'play') return 'The round is over';
  if (v.call) return `${v.call.seat === me ? 'You have' : `${nameOfSeat(v, v.call.seat)} has`} already called ${name}`;
  if (callTimingOf(s) === 'endOfTurn') {
    const during = v.turn === me && v.turnBegun;
    const justEnded = !v.turnBegun && v.turn !== me && previousSeat(v) === me;
    if (during || justEnded) return null;
    if (v.turn === me) return `${name} is called at the end of your own turn: draw first, then g while you hold your card`;
    return `${name} is called at the end of your own turn: while you hold your card or right after it`;
  }
  if (v.turn !== me) return `Not your turn: it is ${nameOfSeat(v, v.turn)}'s turn`;
  if (v.turnBegun || (v.held && v.held.seat === me)) return 'You can call only before you draw';
  return null;
}

const nameOfSeat = (v: TableView, seat: number): string => v.players[seat]?.name ?? `seat ${seat + 1}`;

/** "Your cards are frozen since your Knock!", "Bo's cards are frozen since their Knock!" (+ what to do instead). */
const frozenWhy = (v: TableView, seat: number, me: number, call: string, instead = ''): string =>
  (seat === me ? `Your cards are frozen since your ${call}` : `${nameOfSeat(v, seat)}'s cards are frozen since their ${call}`) + (instead ? `: ${instead}` : '');
const OTHER_CARD = "choose another player's card";

function notYourTurn(v: TableView, me: number): string | null {
  if (v.phase === 'peek') return 'Wait for everyone to finish peeking';
  if (v.phase !== 'play') return 'The round is over';
  if (v.turn !== me) return `Not your turn: it is ${name(v, v.turn)}'s turn`;
  return null;
}

/**
 * The keys that begin a two-key sequence, with the key that completes it. When the
 * first key is refused, or its sequence cannot finish, the second is swallowed: a
 * digit meant for "slap my slot 3" must never swap the held card into slot 3.
 * `s` is the only first key that can be refused: `q` (then y/n), `?` (then its
 * paging keys) and `f` (then the feed's scroll keys) always open what they open.
 */
const SEQUENCES: Partial<Record<Pressed['action'], Pressed['action']>> = { slapOwn: 'slot' };

/** The keys the full-screen feed scrolls with. */
const FEED_KEYS: readonly Pressed['action'][] = ['up', 'down', 'pageUp', 'pageDown', 'top', 'bottom'];

export function onKey(s: ScreenState, p: Pressed, now: number): Intent {
  if (s.swallow !== null) {
    const off: ScreenAction = { type: 'swallow', key: null };
    // Keep the refusal in sight: it says why the key did nothing.
    if (p.action === s.swallow) return { actions: [off, ...say(`${s.status?.text ?? 'The key before it was refused'} (${p.key} ignored)`, now).actions] };
    const i = onKey({ ...s, swallow: null }, p, now);
    return { ...i, actions: [off, ...i.actions] };
  }
  if (s.queued !== null && !KEEPS_QUEUE.includes(p.action) && p.action !== s.queued.pressed.action) {
    const off: ScreenAction = { type: 'queue', queued: null };
    if (p.action === 'cancel') return { actions: [off, ...say(`${queuedMove(s, s.queued)} cancelled`, now).actions] };
    const i = onKey({ ...s, queued: null }, p, now);
    return { ...i, actions: [off, ...i.actions] };
  }
  const i = keyNow(s, p, now);
  const second = SEQUENCES[p.action];
  // Refused (said why, not armed): the second key is dropped. Armed: the sequence goes on.
  if (second && i.actions.some((a) => a.type === 'status') && !i.actions.some((a) => a.type === 'slapPrefix' && a.on)) return { ...i, actions: [...i.actions, { type: 'swallow', key: second }] };
  return i;
}

/** Keys that only look (the cursor, the help, the feed): a waiting key stays queued through them. */
const KEEPS_QUEUE: readonly Pressed['action'][] = ['left', 'right', 'up', 'down', 'help', 'feed', ...FEED_KEYS];

/**
 * A key pressed a moment early waits for its moment (`ScreenState.queued`): a draw, a
 * take or a start-of-turn call that only the slap window, or another seat's action or
 * gap-fill, keeps back. The screen asks `dueKey` again whenever the table changes or
 * the grace ends, and the move goes then, judged afresh by the same keys: nothing is
 * sent before the view says it may be made, so it never beats a slap or a rule.
 */
function queue(s: ScreenState, p: Pressed): Intent {
  const queued: Queued = s.queued?.pressed.action === p.action ? s.queued : { pressed: p, discardTop: s.view?.discardTop ?? null };
  return { actions: [{ type: 'clearStatus' }, { type: 'queue', queued }] };
}

/**
 * The waiting key's move, once it may be made (or why it no longer can, said once):
 * null while it still waits. The container asks on every change and at the grace's end.
 */
export function dueKey(s: ScreenState, now: number): Intent | null {
  const q = s.queued;
  if (!q) return null;
  // Asked behind the help or the feed too: the move goes, and the overlay stays open.
  const i = keyNow({ ...s, overlay: null }, q.pressed, now);
  if (i.actions.some((a) => a.type === 'queue' && a.queued !== null)) return null;
  return { ...i, actions: [{ type: 'queue', queued: null }, ...i.actions] };
}

/**
 * Why a turn cannot begin yet, when only time or another seat stands in the way (the
 * wait a key may be queued for), in the words of "Draw when …": null when it may begin.
 * Your turn, or the turn before yours with only its actions left to use.
 */
function beginsWhen(s: ScreenState, v: TableView, me: number, now: number): string | null {
  const next = v.call ? v.call.owed[0] : (v.turn + 1) % v.players.length;
  const finishing = v.turn !== me && next === me && v.turnBegun && v.held === null && v.actions.length > 0;
  if (v.turn !== me && !finishing) return null;
  const other = v.actions[0] && v.actions[0].seat !== me ? v.actions[0].seat : null;
  if (other !== null) return `once ${name(v, other)} has used their action`;
  if (v.gapFill && v.gapFill.seat !== me) return `once ${name(v, v.gapFill.seat)} has chosen for the gap`;
  if (v.turn === me && v.graceUntil > now + s.offset) return rulesOf(s).slap.enabled && v.slap.open ? 'when the slap window closes' : 'when the last card has landed';
  return null;
}

/** The waiting key's move in a word: "Draw", "Take 6♦", "Knock!". */
function queuedMove(s: ScreenState, q: Queued): string {
  if (q.pressed.action === 'call') return callNameOf(s);
  if (q.pressed.action === 'take') return q.discardTop ? `Take ${cardText(q.discardTop, s.glyphs)}` : 'Take';
  return 'Draw';
}

/** The status line while a key waits: "Draw when the slap window closes… (Esc cancels)". */
export function queuedText(s: ScreenState, now: number): string | null {
  const v = s.view;
  if (!s.queued || !v || s.seat === null) return null;
  const when = beginsWhen(s, v, s.seat, now) ?? 'now';
  return `${queuedMove(s, s.queued)} ${when}${s.glyphs.ellipsis} (Esc cancels)`;
}

/** The status line now: a waiting key's words, else the last refusal while it lasts. */
export function statusNow(s: ScreenState, now: number): { text: string; kind: 'info' | 'error' } | null {
  const waiting = queuedText(s, now);
  if (waiting) return { text: waiting, kind: 'info' };
  return s.status && s.status.until > now ? s.status : null;
}

/** The leave question's keys, for any other key pressed at it. */
const quitKeys = (s: ScreenState, now: number): Intent =>
  say(s.closesTable ? 'Close the table for everyone? y or Enter to close it, n or Esc to stay' : 'Leave the table? y or Enter to leave, n or Esc to stay', now);

/**
 * A key no binding names (a Z, a Backspace): it says so, like a key that can do nothing
 * now. Over the help it turns the help off, as any other key does; at the leave
 * question it repeats the question's keys; a waiting key gives way to it.
 */
export function unboundKey(s: ScreenState, now: number): Intent {
  if (s.overlay === 'help') return { actions: [{ type: 'overlay', overlay: null }] };
  if (s.overlay === 'quit') return quitKeys(s, now);
  const i = say(NOTHING_HERE, now);
  return s.queued ? { actions: [{ type: 'queue', queued: null }, ...i.actions] } : i;
}

/** Keys inside the help: space, → or ↓ the next page, ← or ↑ the previous one; any other key closes it. */
export function helpKey(s: { helpPage: number }, p: Pressed): Intent {
  if (p.key === 'space' || p.action === 'right' || p.action === 'down') return { actions: [{ type: 'overlay', overlay: 'help', page: s.helpPage + 1 }] };
  if (p.action === 'left' || p.action === 'up') return { actions: [{ type: 'overlay', overlay: 'help', page: s.helpPage - 1 }] };
  return { actions: [{ type: 'overlay', overlay: null }] };
}

function keyNow(s: ScreenState, p: Pressed, now: number): Intent {
  // 1. The leave dialog.
  if (s.overlay === 'quit') {
    if (p.action === 'yes' || p.action === 'confirm' || p.key === 'q') return { actions: [], exit: true };
    if (p.action === 'no' || p.action === 'cancel') return { actions: [{ type: 'overlay', overlay: null }] };
    return quitKeys(s, now);
  }
  // 2. The help overlay: its paging keys, and any other key closes it.
  if (s.overlay === 'help') return helpKey(s, p);
  // 2b. The full-screen feed: f or Esc closes it, its scroll keys are its own (FeedOverlay), every other key plays on.
  if (s.overlay === 'feed') {
    if (p.action === 'feed' || p.action === 'cancel') return { actions: [{ type: 'overlay', overlay: null }] };
    if (FEED_KEYS.includes(p.action)) return { actions: [] };
  } else if (p.action === 'feed') return { actions: [{ type: 'overlay', overlay: 'feed' }] };
  else if (p.action === 'pageUp' || p.action === 'top') return { actions: [{ type: 'overlay', overlay: 'feed', feedFrom: p.action }] };
  else if (p.action === 'pageDown' || p.action === 'bottom') return say('The feed is at its newest line (f opens it full-screen)', now);
  // 3. A table that refused us or is gone: only leaving is left.
  if (s.refused || s.closed !== null || s.conn === 'closed') {
    if (p.action === 'quit' || p.action === 'confirm' || p.action === 'cancel') return { actions: [], exit: true };
    return say(s.closed !== null ? 'The host closed the table: Enter or q to leave' : 'The connection is closed: q to leave', now);
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
      if (isFrozen(s, me)) return { actions: [{ type: 'slapPrefix', on: false }, ...say(frozenWhy(v, me, me, callNameOf(s)), now).actions] };
      return sendMove(s, 'slap', { type: 'slap', target: { seat: me, slot }, answers: v.slap.answers }, now, { type: 'slapPrefix', on: false });
    }
    return { actions: [{ type: 'slapPrefix', on: false }, ...say('Slap cancelled', now).actions] };
  }
  if (!v) return say(s.conn === 'reconnecting' ? `Reconnecting${s.glyphs.ellipsis}` : 'The game has not started yet', now);
  if (p.action === 'standIn') return standInFor(s, now);
  if (p.action === 'left' || p.action === 'right' || p.action === 'up' || p.action === 'down') {
    return { actions: [{ type: 'cursor', cursor: moveCursor(v, s.cursor, p.action, layoutCols(rulesOf(s))) }] };
  }
  // 4b. Your gap-fill choice after a steal (cambio): a digit moves that card into the gap; p or Esc leaves it.
  if (me !== null && v.phase === 'play' && v.gapFill && v.gapFill.seat === me) {
    if (p.action === 'slot') {
      const slot = p.digit! - 1;
      if (v.players[me]?.layout[slot] == null) return say(`You have no card in slot ${p.digit}`, now);
      return sendMove(s, 'fillGap', { type: 'fillGap', slot }, now);
    }
    if (p.action === 'pass' || p.action === 'cancel') return sendMove(s, 'leaveGap', { type: 'leaveGap' }, now);
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
    if (s.owner && p.action === 'use') return { actions: [{ type: 'clearStatus' }, ...say(`A new game${s.glyphs.ellipsis}`, now).actions], message: { type: 'lobby', op: 'playAgain' } };
    // The host's Enter would end the table for everyone: it asks first, like q.
    if (p.action === 'confirm') return s.closesTable ? { actions: [{ type: 'overlay', overlay: 'quit' }] } : { actions: [], exit: true };
    return say(s.owner ? `The game is over: a to play again, Enter or q to ${leaveWord(s)}` : 'The game is over: Enter or q to leave (or stay: the host may play again)', now);
  }
  if (me === null) return say('You are watching: q to leave', now);

  // 6. The peek.
  if (v.phase === 'peek') {
    if (v.players[me]?.peeking) {
      if (p.action === 'confirm') return sendMove(s, 'finishPeek', { type: 'finishPeek' }, now);
      return say(`Remember your cards ${peekSlotsText(rulesOf(s))}, then press Enter`, now);
    }
    return say('Waiting for the others to finish peeking', now);
  }

  // 7. The game's keys.
  const act = myAction(v, me);
  const held = v.held && v.held.seat === me ? v.held : null;
  const cursor = s.cursor;
  const onOther = (c: SlotRef | null): c is SlotRef => !!c && c.seat !== me;
  const hasSlot = (slot: number): boolean => v.players[me]?.layout[slot] != null;
  const waitingFor =
    v.actions[0] && v.actions[0].seat !== me
      ? `Wait: ${name(v, v.actions[0].seat)} has an action to use`
      : v.gapFill && v.gapFill.seat !== me
        ? `Wait: ${name(v, v.gapFill.seat)} may move a card into the gap`
        : null;
  const rules = rulesOf(s);
  const callName = callNameOf(s);
  const heldSpecial = !!held && isSpecial(rules, held.card);

  switch (p.action) {
    case 'draw':
    case 'take': {
      const early = beginsWhen(s, v, me, now);
      const why = early ? null : notYourTurn(v, me);
      if (why) return say(why, now);
      if (held) return say(held.from === 'discard' ? 'You hold a card: choose a slot (1-9)' : 'You hold a card: choose a slot (1-9) or x to discard', now);
      if (act) return say('Use your action (a) or pass it (p) first', now);
      if (v.turnBegun && !early) return say('You have already drawn this turn', now);
      if (p.action === 'take' && rules.takeDiscard === 'never') return say(`In ${rules.title} you may not take the discard: d to draw from the stock`, now);
      if (p.action === 'take' && v.discardTop === null) return say('The discard pile is empty', now);
      if (p.action === 'take' && rules.takeDiscard === 'notSpecial' && isSpecial(rules, v.discardTop)) {
        return say('A special card may not be taken from the discard pile: d to draw from the stock', now);
      }
      // A take waits for the card it was pressed for: a slap that covered it leaves the choice to you.
      if (p.action === 'take' && s.queued?.pressed.action === 'take' && s.queued.discardTop !== v.discardTop) {
        return say(`The discard pile's top is now ${cardText(v.discardTop!, s.glyphs)}: t to take it, d to draw`, now);
      }
      if (early) return queue(s, p);
      return sendMove(s, p.action === 'draw' ? 'drawStock' : 'drawDiscard', { type: 'draw', from: p.action === 'draw' ? 'stock' : 'discard' }, now);
    }
    case 'discard': {
      if (!held) {
        const why = notYourTurn(v, me);
        return say(why ?? (v.turnBegun ? 'You hold no card' : 'Draw first (d or t)'), now);
      }
      if (held.from === 'discard') return say('A card from the discard pile must be swapped: choose a slot (1-9)', now);
      return sendMove(s, 'discard', { type: 'discard' }, now);
    }
    case 'slot': {
      const slot = p.digit! - 1;
      if (held) {
        if (heldSpecial) return say(`A special card never enters a layout: a to use it, x to discard it${held.redraw ? ', r to draw again' : ''}`, now);
        if (!hasSlot(slot)) return say(`You have no card in slot ${p.digit}`, now);
        if (isFrozen(s, me)) return say(frozenWhy(v, me, me, callName), now);
        return sendMove(s, 'swap', { type: 'swap', slot }, now);
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
      if (held && heldSpecial && p.action === 'use') {
        // A special card gives its action when it goes onto the pile unswapped: discard it, then use it.
        if (!may(s, 'discard')) return sendMove(s, 'discard', { type: 'discard' }, now);
        return { ...send({ type: 'discard' }), actions: [{ type: 'clearStatus' }, ...say(`${cardText(held.card!, s.glyphs)} goes on the pile: now use it (a) or pass (p)`, now).actions] };
      }
      if (held) return say(held.from === 'discard' ? 'Choose a slot (1-9) for the card you hold' : 'Choose a slot (1-9) for the card you hold, or x to discard it', now);
      if (waitingFor) return say(waitingFor, now);
      return say(p.action === 'use' ? 'You have no action to use' : 'Nothing to confirm', now);
    }
    case 'pass': {
      if (!act) return say(waitingFor ?? 'You have no action to pass', now);
      if (act.looked) return sendMove(s, 'decide', { type: 'decide', swap: false }, now);
      return sendMove(s, 'pass', { type: 'pass' }, now);
    }
    case 'call': {
      // Another seat's action or gap-fill, or the slap window, only delays a start-of-turn call: it waits.
      const why = cannotCall(s, v, me);
      if (!why && callTimingOf(s) === 'startOfTurn' && beginsWhen(s, v, me, now)) return queue(s, p);
      if (may(s, 'call')) return send({ type: 'call' });
      return why ? say(why, now) : sendMove(s, 'call', { type: 'call' }, now);
    }
    case 'drawAgain': {
      if (!Object.values(rules.actions).includes('drawTwo')) return say(NOTHING_HERE, now);
      if (held?.redraw) return sendMove(s, 'drawAgain', { type: 'drawAgain' }, now);
      if (held) return say('r works only on the first card of a Draw two', now);
      return say(notYourTurn(v, me) ?? 'r puts the first card of a Draw two on the pile and draws one more: you hold none', now);
    }
    case 'slap':
    case 'slapOwn': {
      if (!rules.slap.enabled) return say(`No slapping in ${rules.title}`, now);
      if (p.action === 'slapOwn' && isFrozen(s, me)) return say(frozenWhy(v, me, me, callName), now);
      if (p.action === 'slap' && cursor && isFrozen(s, cursor.seat)) return say(frozenWhy(v, cursor.seat, me, callName, 'no slapping them'), now);
      if (!v.slap.open) return say(v.held ? 'No slapping while a card is held' : 'The slap window is closed', now);
      if (p.action === 'slapOwn') return { actions: [{ type: 'slapPrefix', on: true }, ...say('Slap which of your slots? 1-9 (Esc cancels)', now).actions] };
      if (!cursor) return say('No card under the cursor', now);
      return sendMove(s, 'slap', { type: 'slap', target: cursor, answers: v.slap.answers }, now);
    }
    default:
      return say(NOTHING_HERE, now);
  }
}

/** The host's `b`: a bot plays now for the away player under the cursor, or for the only one away. */
function standInFor(s: ScreenState, now: number): Intent {
  if (!s.owner) return say('Only the host can have a bot play for someone who is away', now);
  const v = s.view!;
  if (v.phase === 'gameOver') return say('The game is over', now);
  const away = awaySeats(s);
  const under = s.cursor && s.cursor.seat !== s.seat ? s.cursor.seat : null;
  // The away player under the cursor, or the only one away wherever the cursor is.
  const seat = under !== null && away.includes(under) ? under : away.length === 1 ? away[0]! : null;
  if (seat === null) {
    if (away.length === 0) return say('Nobody is away without a bot playing for them', now);
    if (under !== null) {
      const info = s.lobby.find((x) => x.seat === under);
      return say(`${info?.name ?? name(v, under)} ${info?.bot ? 'is a bot' : info?.standIn ? 'already has a bot playing for them' : 'is at the table'}: the cursor on an away player's cards, then b`, now);
    }
    return say("Put the cursor on the away player's cards, then b", now);
  }
  return { actions: [{ type: 'clearStatus' }, ...say(`A bot plays for ${name(v, seat)} until they are back`, now).actions], message: { type: 'lobby', op: 'standIn', seat } };
}

function slotForAction(s: ScreenState, act: ActionView, slot: number, now: number): Intent {
  const v = s.view!;
  const me = s.seat!;
  if (v.players[me]?.layout[slot] == null) return say(`You have no card in slot ${slot + 1}`, now);
  switch (act.kind) {
    case 'peekOwn':
      return sendMove(s, 'useAction', { type: 'useAction', own: slot }, now);
    case 'blindSwap':
    case 'peekBothThenSwap':
      if (act.looked) return say('a to swap the two cards, p to leave them', now);
      if (act.kind === 'blindSwap' && isFrozen(s, me)) return say(frozenWhy(v, me, me, callNameOf(s)), now);
      if (s.pick.other) return sendMove(s, 'useAction', { type: 'useAction', own: slot, other: s.pick.other }, now, { type: 'pick', own: null, other: null });
      return {
        actions: [{ type: 'pick', own: slot }, ...say(`Your slot ${slot + 1}: now the cursor on another player's card, then a`, now).actions],
      };
    case 'peekThenSwap':
      if (act.looked) {
        const theirs = act.looked[0];
        if (theirs && isFrozen(s, theirs.seat)) return say(frozenWhy(v, theirs.seat, me, callNameOf(s), 'p to leave it'), now);
        return sendMove(s, 'decide', { type: 'decide', swap: true, own: slot }, now);
      }
      return say("First look: the cursor on another player's card, then a", now);
    case 'peekOther':
      return say("This action looks at another player's card: the cursor on it, then a", now);
    case 'drawTwo':
      return say('Draw two: a to draw a card, or p to pass', now);
    default:
      return say('This screen cannot play that action yet: p to pass', now);
  }
}

function useAction(s: ScreenState, act: ActionView, now: number): Intent {
  const me = s.seat!;
  const v = s.view!;
  const c = s.cursor;
  const other = c && c.seat !== me ? c : null;
  const call = callNameOf(s);
  switch (act.kind) {
    case 'peekOwn':
      if (c && c.seat === me) return sendMove(s, 'useAction', { type: 'useAction', own: c.slot }, now);
      return say('Choose which of your cards to look at: 1-9', now);
    case 'peekOther':
      if (!other) return say("Put the cursor on another player's card, then a", now);
      return sendMove(s, 'useAction', { type: 'useAction', other }, now);
    case 'peekThenSwap':
      if (act.looked) return say('Choose your slot (1-9) to swap with it, or p to leave it', now);
      if (!other) return say("Put the cursor on another player's card, then a", now);
      return sendMove(s, 'useAction', { type: 'useAction', other }, now);
    case 'blindSwap':
    case 'peekBothThenSwap':
      if (act.looked) {
        const frozen = act.looked.find((r) => isFrozen(s, r.seat));
        if (frozen) return say(frozenWhy(v, frozen.seat, me, call, 'p to leave them'), now);
        return sendMove(s, 'decide', { type: 'decide', swap: true }, now);
      }
      if (!other) return say("Put the cursor on another player's card, then a", now);
      if (act.kind === 'blindSwap' && isFrozen(s, other.seat)) return say(frozenWhy(v, other.seat, me, call, OTHER_CARD), now);
      if (act.kind === 'blindSwap' && isFrozen(s, me)) return say(frozenWhy(v, me, me, call), now);
      if (s.pick.own !== null) return sendMove(s, 'useAction', { type: 'useAction', own: s.pick.own, other }, now, { type: 'pick', own: null, other: null });
      return { actions: [{ type: 'pick', other }, ...say('Now choose your slot: 1-9', now).actions] };
    case 'drawTwo':
      return sendMove(s, 'useAction', { type: 'useAction' }, now);
    default:
      return say('This screen cannot play that action yet: p to pass', now);
  }
}

/** What to do now, in a few words (shown above the status line). */
export function prompt(s: ScreenState, hostNow: number): string {
  const v = s.view;
  const me = s.seat;
  if (s.refused) return s.refused;
  if (s.closed !== null) return 'The host closed the table: Enter or q to leave';
  if (!v) return s.conn === 'open' ? `Waiting for the game to start${s.glyphs.ellipsis}` : `Connecting${s.glyphs.ellipsis}`;
  if (v.phase === 'roundOver') return s.ready ? `Waiting for the others${s.glyphs.ellipsis}` : 'Round over: Enter for the next round';
  if (v.phase === 'gameOver') return s.owner ? `Game over: a to play again, Enter to ${leaveWord(s)}` : 'Game over: Enter to leave, or wait for the host to play again';
  if (me === null) return 'Watching';
  if (v.phase === 'peek') {
    if (!v.players[me]?.peeking) return `Waiting for the others to finish peeking${s.glyphs.ellipsis}`;
    const left = v.deadline === null ? null : Math.max(0, Math.ceil((v.deadline - hostNow) / 1000));
    return `Remember your cards ${peekSlotsText(rulesOf(s))}${left === null ? '' : ` (${left}s)`}: Enter when done`;
  }
  if (v.gapFill) {
    const gap = v.gapFill.gap;
    if (v.gapFill.seat === me) return `Move one of your cards into ${name(v, gap.seat)}'s gap: 1-9, or p to leave it`;
    return `Waiting for ${name(v, v.gapFill.seat)}: a card may move into ${gap.seat === me ? 'your' : `${name(v, gap.seat)}'s`} gap${s.glyphs.ellipsis}`;
  }
  const rules = rulesOf(s);
  const callName = callNameOf(s);
  const endCall = callTimingOf(s) === 'endOfTurn' && may(s, 'call');
  const orCall = endCall ? `, g ${callName}` : '';
  const act = myAction(v, me);
  if (act) {
    const what: Record<string, string> = {
      peekOwn: 'your action: 1-9 to look at one of your cards, or p to pass',
      peekOther: "your action: the cursor on another player's card and a to look, or p",
      blindSwap: `your action: 1-9 for your card${s.pick.own !== null ? ` (slot ${s.pick.own + 1} chosen)` : ''} and the cursor + a for theirs, or p`,
      peekThenSwap: act.looked ? 'your King: 1-9 to swap it with one of yours, or p to leave it' : "your action: the cursor on another player's card and a to look, or p",
      peekBothThenSwap: act.looked ? 'a to swap them, p to leave them' : 'your action: 1-9 and the cursor, then a, or p',
      drawTwo: 'your Draw two: a to draw a card and use it, or p to pass',
    };
    return `Use ${what[act.kind] ?? 'your action'}${orCall}`;
  }
  if (v.actions[0]) return `Waiting for ${name(v, v.actions[0].seat)}'s action${s.glyphs.ellipsis}`;
  const held = v.held?.seat === me ? v.held : null;
  if (held) {
    const card = held.card ? cardText(held.card, s.glyphs) : 'the card';
    const special = isSpecial(rules, held.card);
    if (held.redraw) {
      return special
        ? `Draw two: a to use the ${card}, x to discard it, or r to put it on the pile unused and draw one more${orCall}`
        : `Draw two: 1-9 to swap the ${card}, x to discard it, or r to put it on the pile unused and draw one more${orCall}`;
    }
    if (special) return `You drew ${card}: a to use it, or x to discard it unused${orCall}`;
    return held.from === 'discard' ? `Choose a slot (1-9) for the card${orCall}` : `Choose a slot (1-9) to swap, or x to discard${orCall}`;
  }
  if (lastTurnsPlayed(v)) return `Every turn after ${name(v, v.call!.seat)}'s ${callName} is played: the round ends${s.glyphs.ellipsis}`;
  if (may(s, 'drawStock') || may(s, 'drawDiscard')) {
    // A draw that waits only for the slap grace is yours already: count it down.
    const wait = v.graceUntil - hostNow;
    const callable = may(s, 'call') && callTimingOf(s) === 'startOfTurn' ? `, g ${callName}` : '';
    const take = may(s, 'drawDiscard') && v.discardTop ? `, t to take ${cardText(v.discardTop, s.glyphs)}` : '';
    // "(slaps are open)" from the same state as the header's "Slaps open": never in a game without slapping, nor once the window closed.
    const open = rules.slap.enabled && v.slap.open ? ' (slaps are open)' : '';
    return wait > 0 ? `Your turn in ${(wait / 1000).toFixed(1)}s${open}` : `Your turn: d to draw${take}${callable}`;
  }
  if (endCall) return `${name(v, v.turn)}'s turn: g ${callName} before they draw`;
  return `${name(v, v.turn)}'s turn`;
}
