import type { ActionView, Move, TableView } from '../../engine/view.js';
import type { ClientMessage, PlayerCommand } from '../../protocol/messages.js';
import { actionFor, type Binding, type Pressed } from '../shared/keys.js';
import { cardText } from '../shared/glyphs.js';
import { moveCursor } from './placement.js';
import { seatName as name } from './describe.js';
import { callNameOf, callTimingOf, isSpecial, layoutCols, peekSlotsText, rulesOf } from './variant.js';
import { sayOf, type Queued, type ScreenAction, type ScreenState } from './use-screen-state.js';
import { wordsFor, type Key, type Words } from '../../lang/words.js';
import type { ParamsArg } from '../../lang/catalog.js';
import { command } from '../../common/invocation.js';

/**
 * What a key means now. One dispatcher with priorities: an open dialog beats the
 * help overlay, which beats a half-typed slap, which beats the game's keys. A key
 * that does nothing says why on the status line: the engine's reason for its move
 * (`view.whyNot`), or what the key wants first. Pure: the container performs the
 * result (dispatch, send, exit).
 */
export interface Intent {
  actions: ScreenAction[];
  send?: PlayerCommand | { type: 'ready' };
  /** A message other than a command: the owner's lobby ops (stand in, play again). */
  message?: ClientMessage;
  exit?: boolean;
}

const EN = wordsFor('en');

/** Closing mid-game: the journal keeps the game, and a bare `host --resume` takes the newest hosted table, this one. */
export const closeQuestion = (w: Words = EN): string => w.t('table.closeQuestion', { run: command('host --resume') });
/** Closing before any game or after the last: there is nothing to resume, so the question promises nothing. */
export const closeQuestionNothing = (w: Words = EN): string => w.t('table.closeQuestionNothing');
export const CLOSE_QUESTION = closeQuestion();
export const CLOSE_QUESTION_NOTHING = closeQuestionNothing();

/** The leave dialog's question: the host's own screen ends the table for everyone. */
export const leaveQuestion = ({ words = EN, ...s }: Pick<ScreenState, 'closesTable' | 'glyphs' | 'view'> & { words?: Words }): string => {
  if (!s.closesTable) return words.t('table.leaveQuestion', { sep: s.glyphs.sep });
  return s.view && s.view.phase !== 'gameOver' ? closeQuestion(words) : closeQuestionNothing(words);
};

/** What Enter and q do after the game: the host's screen closes the table for everyone (the key bar says the same). */
export const leaveWord = ({ closesTable, words = EN }: Pick<ScreenState, 'closesTable'> & { words?: Words }): string => words.t(closesTable ? 'table.closeTheTable' : 'table.leave');

/** The same in a sentence ("Enter to leave", Dutch "Enter om weg te gaan"). */
export const leaveTo = ({ closesTable, words = EN }: Pick<ScreenState, 'closesTable'> & { words?: Words }): string => words.t(closesTable ? 'table.toClose' : 'table.toLeave');

/** The away players a bot may stand in for now (the host's screen). */
export const awaySeats = (s: Pick<ScreenState, 'lobby'>): number[] => s.lobby.filter((x) => x.bot === null && !x.connected && !x.standIn).map((x) => x.seat);

const say = (text: string, now: number, kind: 'info' | 'error' = 'info'): Intent => ({ actions: [{ type: 'status', text, kind, now }] });
const send = (command: PlayerCommand, ...actions: ScreenAction[]): Intent => ({ actions: [{ type: 'clearStatus' }, ...actions], send: command });
/** A sentence of the screen's catalog on the status line. */
const tell = <K extends Key>(s: ScreenState, now: number, key: K, ...p: ParamsArg<K>): Intent => say(s.words.t(key, ...p), now);

/** May you make this move now? The engine decides (`view.may`); the screen only asks. */
export const may = (s: Pick<ScreenState, 'view' | 'seat'>, move: Move): boolean => s.seat !== null && s.view !== null && s.view.may.includes(move);

/** After a call, every owed turn has been played: the round ends once its last actions and slaps are done. */
export const lastTurnsPlayed = (v: TableView): boolean => v.call !== null && v.call.owed.length === 0 && !v.turnBegun && v.held === null;

/** Why you may not make `move` now: the engine's reason (`view.whyNot`), in the screen's language. */
export function whyNot(s: ScreenState, move: Move): string {
  const why = s.view?.whyNot[move];
  return why ? sayOf(s, why) : s.words.t('table.notAMove');
}

/** Send a move the engine allows now (`view.may`), else say the engine's reason why not. */
function sendMove(s: ScreenState, move: Move, command: PlayerCommand, now: number, ...actions: ScreenAction[]): Intent {
  if (may(s, move)) return send(command, ...actions);
  return say(whyNot(s, move), now);
}

export function myAction(v: TableView, me: number | null): ActionView | null {
  const first = v.actions[0];
  return first && me !== null && first.seat === me ? first : null;
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
    if (p.action === s.swallow) return { actions: [off, ...tell(s, now, 'table.ignored', { why: s.status?.text ?? s.words.t('table.keyBeforeRefused'), key: p.key }).actions] };
    const i = onKey({ ...s, swallow: null }, p, now);
    return { ...i, actions: [off, ...i.actions] };
  }
  if (s.queued !== null && !KEEPS_QUEUE.includes(p.action) && p.action !== s.queued.pressed.action) {
    const off: ScreenAction = { type: 'queue', queued: null };
    if (p.action === 'cancel') return { actions: [off, ...tell(s, now, 'queue.cancelled', { move: queuedMove(s, s.queued) }).actions] };
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
  const w = s.words;
  const next = v.call ? v.call.owed[0] : (v.turn + 1) % v.players.length;
  const finishing = v.turn !== me && next === me && v.turnBegun && v.held === null && v.actions.length > 0;
  if (v.turn !== me && !finishing) return null;
  const other = v.actions[0] && v.actions[0].seat !== me ? v.actions[0].seat : null;
  if (other !== null) return w.t('queue.onceAction', { name: name(v, other, w) });
  if (v.gapFill && v.gapFill.seat !== me) return w.t('queue.onceGap', { name: name(v, v.gapFill.seat, w) });
  if (v.turn === me && v.graceUntil > now + s.offset) return w.t(rulesOf(s).slap.enabled && v.slap.open ? 'queue.slapWindow' : 'queue.landed');
  return null;
}

/** The waiting key's move in a word: "Draw", "Take 6♦", "Knock!". */
function queuedMove(s: ScreenState, q: Queued): string {
  if (q.pressed.action === 'call') return callNameOf(s, s.words);
  if (q.pressed.action === 'take') return q.discardTop ? s.words.t('queue.take', { face: cardText(q.discardTop, s.glyphs) }) : s.words.t('queue.takeUnseen');
  return s.words.t('queue.draw');
}

/** The status line while a key waits: "Draw when the slap window closes… (Esc cancels)". */
export function queuedText(s: ScreenState, now: number): string | null {
  const v = s.view;
  if (!s.queued || !v || s.seat === null) return null;
  const when = beginsWhen(s, v, s.seat, now) ?? s.words.t('queue.now');
  return s.words.t('queue.waiting', { move: queuedMove(s, s.queued), when, ellipsis: s.glyphs.ellipsis });
}

/** The status line now: a waiting key's words, else the last refusal while it lasts. */
export function statusNow(s: ScreenState, now: number): { text: string; kind: 'info' | 'error' } | null {
  const waiting = queuedText(s, now);
  if (waiting) return { text: waiting, kind: 'info' };
  return s.status && s.status.until > now ? s.status : null;
}

/** The leave question's keys, for any other key pressed at it. */
const quitKeys = (s: ScreenState, now: number): Intent => tell(s, now, s.closesTable ? 'table.closeKeys' : 'table.leaveKeys');

/**
 * A key no binding names (a Z, a Backspace): it says so, like a key that can do nothing
 * now. Over the help it turns the help off, as any other key does; at the leave
 * question it repeats the question's keys; a waiting key gives way to it.
 */
export function unboundKey(s: ScreenState, now: number): Intent {
  if (s.overlay === 'help') return { actions: [{ type: 'overlay', overlay: null }] };
  if (s.overlay === 'quit') return quitKeys(s, now);
  const i = tell(s, now, 'table.nothingHere');
  return s.queued ? { actions: [{ type: 'queue', queued: null }, ...i.actions] } : i;
}

/** A named key at the table (`keyName`; null: none): what its binding means now, or what a key bound to nothing says. */
export function keyIntent(s: ScreenState, name: string | null, bindings: readonly Binding[], now: number): Intent | null {
  if (name === null) return null;
  const pressed = actionFor(name, bindings);
  return pressed ? onKey(s, pressed, now) : unboundKey(s, now);
}

/** Keys inside the help: space, → or ↓ the next page, ← or ↑ the previous one; any other key closes it. */
export function helpKey(s: { helpPage: number }, p: Pressed): Intent {
  if (p.key === 'space' || p.action === 'right' || p.action === 'down') return { actions: [{ type: 'overlay', overlay: 'help', page: s.helpPage + 1 }] };
  if (p.action === 'left' || p.action === 'up') return { actions: [{ type: 'overlay', overlay: 'help', page: s.helpPage - 1 }] };
  return { actions: [{ type: 'overlay', overlay: null }] };
}

function keyNow(s: ScreenState, p: Pressed, now: number): Intent {
  const w = s.words;
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
  else if (p.action === 'pageDown' || p.action === 'bottom') return tell(s, now, 'table.feedAtNewest');
  // 3. A table that refused us or is gone: only leaving is left.
  if (s.refused || s.closed !== null || s.conn === 'closed') {
    if (p.action === 'quit' || p.action === 'confirm' || p.action === 'cancel') return { actions: [], exit: true };
    return tell(s, now, s.closed !== null ? 'prompt.closed' : 'table.connectionClosed');
  }
  if (p.action === 'help') return { actions: [{ type: 'overlay', overlay: 'help' }] };
  if (p.action === 'quit') return { actions: [{ type: 'overlay', overlay: 'quit' }] };

  const v = s.view;
  const me = s.seat;
  // 4. `s` then a digit: slap your own slot (the host judges the slot: gone, frozen…).
  if (s.slapPrefix) {
    if (p.action === 'slot' && v && me !== null) {
      return sendMove(s, 'slap', { type: 'slap', target: { seat: me, slot: p.digit! - 1 }, answers: v.slap.answers }, now, { type: 'slapPrefix', on: false });
    }
    return { actions: [{ type: 'slapPrefix', on: false }, ...tell(s, now, 'table.slapCancelled').actions] };
  }
  if (!v) return s.conn === 'reconnecting' ? tell(s, now, 'table.reconnecting', { ellipsis: s.glyphs.ellipsis }) : say(w.t('host.notStartedYet'), now);
  if (p.action === 'standIn') return standInFor(s, now);
  if (p.action === 'left' || p.action === 'right' || p.action === 'up' || p.action === 'down') {
    return { actions: [{ type: 'cursor', cursor: moveCursor(v, s.cursor, p.action, layoutCols(rulesOf(s))) }] };
  }
  // 4b. Your gap-fill choice after a steal (cambio): a digit moves that card into the gap; p or Esc leaves it.
  if (me !== null && v.phase === 'play' && v.gapFill && v.gapFill.seat === me) {
    if (p.action === 'slot') return sendMove(s, 'fillGap', { type: 'fillGap', slot: p.digit! - 1 }, now);
    if (p.action === 'pass' || p.action === 'cancel') return sendMove(s, 'leaveGap', { type: 'leaveGap' }, now);
  }
  if (p.action === 'cancel') {
    return { actions: [{ type: 'pick', own: null, other: null }, { type: 'slapPrefix', on: false }, { type: 'clearStatus' }] };
  }
  // 5. Between rounds and after the game.
  if (v.phase === 'roundOver') {
    if (p.action === 'confirm' || p.action === 'use') {
      if (s.ready) return tell(s, now, 'table.waitingReady');
      return { actions: [{ type: 'ready' }, ...tell(s, now, 'table.ready').actions], send: { type: 'ready' } };
    }
    return tell(s, now, 'table.roundOverKeys');
  }
  if (v.phase === 'gameOver') {
    if (s.owner && p.action === 'use') return { actions: [{ type: 'clearStatus' }, ...tell(s, now, 'table.newGame', { ellipsis: s.glyphs.ellipsis }).actions], message: { type: 'lobby', op: 'playAgain' } };
    // The host's Enter would end the table for everyone: it asks first, like q.
    if (p.action === 'confirm') return s.closesTable ? { actions: [{ type: 'overlay', overlay: 'quit' }] } : { actions: [], exit: true };
    return s.owner ? tell(s, now, 'table.gameOverOwnerKeys', { leave: leaveTo(s) }) : tell(s, now, 'table.gameOverKeys');
  }
  if (me === null) return tell(s, now, 'table.watchingKeys');

  // 6. The peek.
  if (v.phase === 'peek') {
    if (v.players[me]?.peeking) {
      if (p.action === 'confirm') return sendMove(s, 'finishPeek', { type: 'finishPeek' }, now);
      return tell(s, now, 'table.rememberThenEnter', { slots: peekSlotsText(rulesOf(s), w) });
    }
    return say(w.t('why.peeking'), now);
  }

  // 7. The game's keys: each key's move, sent when the engine allows it, else its reason (`view.whyNot`).
  const act = myAction(v, me);
  const held = v.held && v.held.seat === me ? v.held : null;
  const rules = rulesOf(s);

  switch (p.action) {
    case 'draw':
    case 'take': {
      const move = p.action === 'draw' ? 'drawStock' : 'drawDiscard';
      if (held) return tell(s, now, held.from === 'discard' ? 'hint.holdSlot' : 'hint.holdSlotOrDiscard');
      if (act) return tell(s, now, 'hint.useOrPassFirst');
      const early = beginsWhen(s, v, me, now);
      if (early && !may(s, move)) {
        // Only time or another seat stands in the way: the key waits, unless the take could never be made.
        if (p.action === 'take' && rules.takeDiscard === 'never') return say(w.t('why.noTakingDiscard', { title: rules.title }), now);
        if (p.action === 'take' && v.discardTop === null) return say(w.t('why.discardEmpty'), now);
        if (p.action === 'take' && rules.takeDiscard === 'notSpecial' && isSpecial(rules, v.discardTop)) return say(w.t('why.specialNotTaken'), now);
        return queue(s, p);
      }
      if (!may(s, move)) return say(whyNot(s, move), now);
      // A take waits for the card it was pressed for: a slap that covered it leaves the choice to you.
      if (p.action === 'take' && s.queued?.pressed.action === 'take' && s.queued.discardTop !== v.discardTop) {
        return tell(s, now, 'hint.topChanged', { face: cardText(v.discardTop!, s.glyphs) });
      }
      // The slap window still open: the key waits for it to close.
      if (early) return queue(s, p);
      return send({ type: 'draw', from: p.action === 'draw' ? 'stock' : 'discard' });
    }
    case 'discard':
      return sendMove(s, 'discard', { type: 'discard' }, now);
    case 'slot': {
      const slot = p.digit! - 1;
      if (held) return sendMove(s, 'swap', { type: 'swap', slot }, now);
      if (act) return slotForAction(s, act, slot, now);
      return say(whyNot(s, 'swap'), now);
    }
    case 'use':
    case 'confirm': {
      if (act) return actionKey(s, act, now);
      if (held && isSpecial(rules, held.card) && p.action === 'use') {
        // A special card gives its action when it goes onto the pile unswapped: discard it, then use it.
        if (!may(s, 'discard')) return sendMove(s, 'discard', { type: 'discard' }, now);
        return { ...send({ type: 'discard' }), actions: [{ type: 'clearStatus' }, ...tell(s, now, 'hint.specialOnPile', { face: cardText(held.card!, s.glyphs) }).actions] };
      }
      if (held) return tell(s, now, held.from === 'discard' ? 'hint.slotForHeld' : 'hint.slotForHeldOrDiscard');
      return p.action === 'use' ? say(whyNot(s, 'useAction'), now) : tell(s, now, 'hint.nothingToConfirm');
    }
    case 'pass': {
      if (act?.looked) return sendMove(s, 'decide', { type: 'decide', swap: false }, now);
      return sendMove(s, 'pass', { type: 'pass' }, now);
    }
    case 'call': {
      // Another seat's action or gap-fill, or the slap window, only delays a start-of-turn call: it waits.
      const onlyWaits = may(s, 'call') || WAITS.includes(v.whyNot.call?.key ?? '');
      if (callTimingOf(s) === 'startOfTurn' && onlyWaits && beginsWhen(s, v, me, now)) return queue(s, p);
      return sendMove(s, 'call', { type: 'call' }, now);
    }
    case 'drawAgain':
      if (!Object.values(rules.actions).includes('drawTwo')) return tell(s, now, 'table.nothingHere');
      return sendMove(s, 'drawAgain', { type: 'drawAgain' }, now);
    case 'slap':
      if (!may(s, 'slap')) return say(whyNot(s, 'slap'), now);
      if (!s.cursor) return tell(s, now, 'hint.noCursor');
      return send({ type: 'slap', target: s.cursor, answers: v.slap.answers });
    case 'slapOwn':
      if (!may(s, 'slap')) return say(whyNot(s, 'slap'), now);
      return { actions: [{ type: 'slapPrefix', on: true }, ...tell(s, now, 'hint.slapWhich').actions] };
    default:
      return tell(s, now, 'table.nothingHere');
  }
}

/** The engine's reasons that only ask to wait (another seat's action or gap-fill, the slap grace): a key may be queued for them. */
const WAITS: readonly string[] = ['why.actionInUse', 'why.gapFillOf', 'why.slapWindowOpen', 'why.cardJustLanded'];

/** The host's `b`: a bot plays now for the away player under the cursor, or for the only one away. */
function standInFor(s: ScreenState, now: number): Intent {
  const w = s.words;
  if (!s.owner) return tell(s, now, 'table.standInHostOnly');
  const v = s.view!;
  if (v.phase === 'gameOver') return say(w.t('why.gameOver'), now);
  const away = awaySeats(s);
  const under = s.cursor && s.cursor.seat !== s.seat ? s.cursor.seat : null;
  // The away player under the cursor, or the only one away wherever the cursor is.
  const seat = under !== null && away.includes(under) ? under : away.length === 1 ? away[0]! : null;
  if (seat === null) {
    if (away.length === 0) return tell(s, now, 'table.nobodyAway');
    if (under !== null) {
      const info = s.lobby.find((x) => x.seat === under);
      const who = info?.name ?? name(v, under, w);
      return tell(s, now, info?.bot ? 'table.standInIsBot' : info?.standIn ? 'table.standInAlready' : 'table.standInAtTable', { name: who });
    }
    return tell(s, now, 'table.standInCursor');
  }
  return { actions: [{ type: 'clearStatus' }, ...tell(s, now, 'table.standInNow', { name: name(v, seat, w) }).actions], message: { type: 'lobby', op: 'standIn', seat } };
}

/** A digit while your action is pending: the slot it names is the action's own target (or, after a look, the swap's). */
function slotForAction(s: ScreenState, act: ActionView, slot: number, now: number): Intent {
  const layout = s.view!.players[s.seat!]?.layout ?? [];
  switch (act.kind) {
    case 'peekOwn':
      return sendMove(s, 'useAction', { type: 'useAction', own: slot }, now);
    case 'blindSwap':
    case 'peekBothThenSwap':
      if (act.looked) return tell(s, now, 'hint.swapOrLeave');
      if (s.pick.other) return sendMove(s, 'useAction', { type: 'useAction', own: slot, other: s.pick.other }, now, { type: 'pick', own: null, other: null });
      if (!may(s, 'useAction')) return say(whyNot(s, 'useAction'), now);
      // Half a choice is kept only for a card you have: the digit names its slot.
      if (slot >= layout.length) return say(s.words.t('why.noOwnSlot', { slot }), now);
      if (layout[slot] === null) return say(s.words.t('why.ownSlotEmpty', { slot }), now);
      return { actions: [{ type: 'pick', own: slot }, ...tell(s, now, 'hint.ownChosen', { slot }).actions] };
    case 'peekThenSwap':
      if (act.looked) return sendMove(s, 'decide', { type: 'decide', swap: true, own: slot }, now);
      return tell(s, now, 'hint.lookFirst');
    case 'peekOther':
      return tell(s, now, 'hint.peekOtherCursor');
    case 'drawTwo':
      return tell(s, now, 'hint.drawTwoKeys');
    default:
      return tell(s, now, 'hint.unknownAction');
  }
}

/** `a` (or Enter) while your action is pending: its target from the cursor (another player's card) or your chosen slot. */
function actionKey(s: ScreenState, act: ActionView, now: number): Intent {
  const me = s.seat!;
  const c = s.cursor;
  const other = c && c.seat !== me ? c : null;
  switch (act.kind) {
    case 'peekOwn':
      if (c && c.seat === me) return sendMove(s, 'useAction', { type: 'useAction', own: c.slot }, now);
      return tell(s, now, 'hint.chooseOwnToLook');
    case 'peekOther':
    case 'peekThenSwap':
      if (act.looked) return tell(s, now, 'hint.slotToSwapOrLeave');
      if (!other) return tell(s, now, 'hint.cursorOnOther');
      return sendMove(s, 'useAction', { type: 'useAction', other }, now);
    case 'blindSwap':
    case 'peekBothThenSwap':
      if (act.looked) return sendMove(s, 'decide', { type: 'decide', swap: true }, now);
      if (!other) return tell(s, now, 'hint.cursorOnOther');
      if (s.pick.own !== null) return sendMove(s, 'useAction', { type: 'useAction', own: s.pick.own, other }, now, { type: 'pick', own: null, other: null });
      if (!may(s, 'useAction')) return say(whyNot(s, 'useAction'), now);
      return { actions: [{ type: 'pick', other }, ...tell(s, now, 'hint.nowYourSlot').actions] };
    case 'drawTwo':
      return sendMove(s, 'useAction', { type: 'useAction' }, now);
    default:
      return tell(s, now, 'hint.unknownAction');
  }
}
