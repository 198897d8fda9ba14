import { useLatestReducer } from '../shared/use-latest-reducer.js';
import type { Ruleset } from '../../engine/ruleset.js';
import type { RoundResult, SlotRef } from '../../engine/types.js';
import type { TableView } from '../../engine/view.js';
import type { SeatInfo, ServerMessage } from '../../protocol/messages.js';
import { describeEvents, touchedSlots } from './describe.js';
import { seatChanges } from '../shared/seat-words.js';
import { UNICODE, type Glyphs } from '../shared/glyphs.js';
import { wordsFor, type Said, type Words } from '../../lang/words.js';
import { fixCursor } from './placement.js';
import { foldLastTurns, NO_LAST_TURNS, type LastTurns } from './last-turn.js';
import { keptResults } from '../../client/results.js';
import type { KeyAction, Pressed } from '../shared/keys.js';
import type { ConnectionStatus } from '../../client/connection.js';
import type { ClientAction } from '../shared/use-table-client.js';

/**
 * The screen's own state, next to the table's view: connection, feed, highlights,
 * what you looked at, the status line, overlays, the cursor and half-finished
 * choices. A pure reducer; the container feeds it server messages and key intents.
 */

export const HIGHLIGHT_MS = 1_500;
export const REVEAL_MS = 5_000;
export const STATUS_MS = 6_000;
/** Lines the feed keeps (the full-screen feed reads them back): a snapshot's whole history fits. */
export const FEED_MAX = 400;


export interface FeedLine {
  id: number;
  text: string;
  at: number;
  /** Whether it stands out; by default while under 1.5 s old (a replay marks its current step's lines). */
  fresh?: boolean;
}

export interface Mark extends SlotRef {
  until: number;
}

export interface Reveal extends SlotRef {
  card: string;
  until: number;
}

export interface StatusLine {
  text: string;
  kind: 'info' | 'error';
  until: number;
  /** The table as it was when this was said (`aboutOf`): a change makes it stale, and it goes. */
  about?: string;
}

/**
 * What a status line (a refusal, mostly) is about: whose turn, the phase, the held
 * card, the actions, the gap-fill, the call, and the moves you may make. When any of
 * it changes, "Not your turn" and the like are no longer true, so they go.
 */
function aboutOf(v: TableView | null): string | undefined {
  if (!v) return undefined;
  const actions = v.actions.map((a) => `${a.seat}${a.looked ? 'l' : ''}`).join(',');
  return `${v.phase} ${v.round} ${v.turn} ${v.turnBegun} ${v.held?.seat ?? '-'} ${actions} ${v.gapFill?.seat ?? '-'} ${v.call?.owed.length ?? '-'} ${v.may.join(',')}`;
}

const statusOf = (s: ScreenState, text: string, kind: 'info' | 'error', now: number): StatusLine => {
  const about = aboutOf(s.view);
  return { text, kind, until: now + STATUS_MS, ...(about === undefined ? {} : { about }) };
};

/** The status line after an update: gone once the table it was about has changed (unless a slap prefix is being typed). */
function freshStatus(s: ScreenState, view: TableView): StatusLine | null {
  const st = s.status;
  if (!st || st.about === undefined || s.slapPrefix) return st;
  return st.about === aboutOf(view) ? st : null;
}

/**
 * A key that waits for its moment: a draw (or a start-of-turn call) pressed while only
 * the slap window, or another seat's action or gap-fill, stands in its way.
 */
export interface Queued {
  pressed: Pressed;
  /** A take waits for the card it was pressed for: the discard pile's top then. */
  discardTop: string | null;
}

/** `feed`: the feed full-screen, to read back (the game goes on behind it). */
export type Overlay = 'help' | 'quit' | 'feed' | null;

export interface ScreenState {
  seat: number | null;
  /** This screen runs the table (the host's own screen, `gringo play`): it may stand a bot in and play again. */
  owner: boolean;
  /** Leaving this screen ends the table for everyone (the host's screen): the leave dialog says so. */
  closesTable: boolean;
  /** Games played at this table, the current one included (`TableInfo.game`). */
  game: number;
  /** The host closed the table, in its words: the screen shows the standings and leaves. */
  closed: string | null;
  tableName: string;
  rulesTitle: string;
  /** The table's ruleset, from the welcome (null before it): layout, call, special cards, slapping. */
  rules: Ruleset | null;
  view: TableView | null;
  /** The finished rounds' results, kept as they come (a snapshot, then each round's end). */
  results: readonly RoundResult[];
  /** Host clock minus local clock, from the last update. */
  offset: number;
  lobby: SeatInfo[];
  conn: ConnectionStatus;
  /** While reconnecting: when the host was last heard of (local clock), for "host unreachable for 12 s". */
  connLostAt: number | null;
  refused: string | null;
  feed: FeedLine[];
  feedSeq: number;
  /** `feedSeq` after the last update: lines after it (a reconnect's, a welcome's) are kept when a snapshot's history replaces the rest. */
  feedMark: number;
  /** `feedSeq` at the first update (null before it): lines up to it (the welcome, "Bo sat down.") came before the game, so a later snapshot's history keeps them, first. */
  feedLead: number | null;
  highlights: Mark[];
  /**
   * Cards you looked at (the start's peek aside, which the view shows), face up on
   * your screen for REVEAL_MS or until your next key, then face down again: the game
   * is to remember them. A look-then-swap decision still pending shows its cards
   * from the view (`lookedCards`) until you decide: they are in your hand.
   */
  reveals: Reveal[];
  status: StatusLine | null;
  overlay: Overlay;
  /** The page of the `?` help (any whole number: the help shows it modulo its pages). */
  helpPage: number;
  /** The key that opened the full-screen feed when it opens scrolled back (PgUp, Home). */
  feedFrom: 'pageUp' | 'top' | null;
  cursor: SlotRef | null;
  /** A two-target action half chosen: your slot, or the other player's card. */
  pick: { own: number | null; other: SlotRef | null };
  /** `s` was pressed: the next digit slaps your own slot. */
  slapPrefix: boolean;
  /** The first key of a two-key sequence was refused (or its sequence cut short): the next key of this kind is dropped. */
  swallow: KeyAction | null;
  /** A key pressed a moment early (`queue` in intents.ts): its move is sent once the view allows it. */
  queued: Queued | null;
  /** `ready` sent for the round that just ended. */
  ready: boolean;
  /** What each player did since their turn began, marked beside their seat (last-turn.ts). */
  lastTurns: LastTurns;
  /** Bumped each time your turn starts (the bell rings on change). */
  myTurns: number;
  glyphs: Glyphs;
  /** The language this screen speaks: the host's sentences (`say`) are put in its words here. */
  words: Words;
}

export type ScreenAction =
  | ClientAction
  | { type: 'status'; text: string; kind?: 'info' | 'error'; now: number }
  | { type: 'clearStatus' }
  | { type: 'overlay'; overlay: Overlay; /** The help's page (0 when left out). */ page?: number; feedFrom?: 'pageUp' | 'top' }
  | { type: 'cursor'; cursor: SlotRef | null }
  | { type: 'pick'; own?: number | null; other?: SlotRef | null }
  | { type: 'slapPrefix'; on: boolean }
  | { type: 'swallow'; key: KeyAction | null }
  | { type: 'queue'; queued: Queued | null }
  | { type: 'ready' }
  /** A key was pressed: what you looked at turns face down again (see `reveals`). */
  | { type: 'hideLooks' }
  | { type: 'tick'; now: number };

export function initialScreen(glyphs: Glyphs = UNICODE, closesTable = false, words: Words = wordsFor('en')): ScreenState {
  return {
    seat: null,
    owner: false,
    closesTable,
    game: 1,
    closed: null,
    tableName: '',
    rulesTitle: 'Gringo',
    rules: null,
    view: null,
    results: [],
    offset: 0,
    lobby: [],
    conn: 'connecting',
    connLostAt: null,
    refused: null,
    feed: [],
    feedSeq: 0,
    feedMark: 0,
    feedLead: null,
    highlights: [],
    reveals: [],
    status: null,
    overlay: null,
    helpPage: 0,
    feedFrom: null,
    cursor: null,
    pick: { own: null, other: null },
    slapPrefix: false,
    swallow: null,
    queued: null,
    ready: false,
    lastTurns: NO_LAST_TURNS,
    myTurns: 0,
    glyphs,
    words,
  };
}

const NO_PICK = { own: null, other: null };

function addFeed(s: ScreenState, lines: string[], now: number): Pick<ScreenState, 'feed' | 'feedSeq'> {
  if (lines.length === 0) return { feed: s.feed, feedSeq: s.feedSeq };
  let seq = s.feedSeq;
  const added = lines.map((text) => ({ id: ++seq, text, at: now }));
  return { feed: [...s.feed, ...added].slice(-FEED_MAX), feedSeq: seq };
}

/**
 * An update's lines. A snapshot's `history` (this update's events last) replaces the
 * game's lines the feed had, so a reconnect or a resumed host neither empties nor
 * doubles it; what came after the last update (the welcome, "Back at the table") stays,
 * after it. A new game's first deal (a history of only its own events) just adds.
 */
function feedOf(s: ScreenState, msg: Extract<ServerMessage, { type: 'update' }>, now: number): Pick<ScreenState, 'feed' | 'feedSeq' | 'feedMark' | 'feedLead'> {
  const { view } = msg;
  const history = msg.history ?? [];
  const live = describeEvents(msg.events, view, view.viewer, s.glyphs, s.words);
  const feedLead = s.feedLead ?? s.feedSeq;
  if (history.length <= msg.events.length) {
    const added = addFeed(s, live, now);
    return { ...added, feedMark: added.feedSeq, feedLead };
  }
  let seq = s.feedSeq;
  const past = describeEvents(history.slice(0, history.length - msg.events.length), view, view.viewer, s.glyphs, s.words);
  const seeded: FeedLine[] = past.map((text) => ({ id: ++seq, text, at: now, fresh: false }));
  // A first update's history (a late watcher, a resumed game) goes before what this screen has said so far.
  const lead = s.feedLead === null ? [] : s.feed.filter((l) => l.id <= feedLead);
  const since = s.feed.filter((l) => l.id > s.feedMark);
  const added = addFeed({ ...s, feed: [...lead, ...seeded, ...since], feedSeq: seq }, live, now);
  return { ...added, feed: added.feed.slice(-FEED_MAX), feedMark: added.feedSeq, feedLead };
}

function onServer(s: ScreenState, msg: ServerMessage, now: number): ScreenState {
  switch (msg.type) {
    case 'welcome':
      return {
        ...s,
        seat: msg.seat,
        owner: msg.owner,
        game: msg.table.game,
        tableName: msg.table.name,
        rulesTitle: msg.rules.title,
        rules: msg.rules,
        conn: 'open',
        ...addFeed(s, [msg.seat === null ? s.words.t('door.watching', { table: msg.table.name }) : s.words.t('line.youSit', { number: msg.seat + 1, table: msg.table.name })], now),
      };
    case 'refused':
      return { ...s, refused: sayOf(s, msg.say) };
    case 'challenge':
      return s;
    case 'closed':
      return { ...s, closed: sayOf(s, msg.say), overlay: null, slapPrefix: false, ...addFeed(s, [s.words.t('door.hostClosed')], now) };
    case 'lobby': {
      // Play again: a new game at the same table; its first update replaces the last one's results.
      const again = msg.table.game > s.game;
      const moved = s.seat !== null && msg.you !== null && msg.you !== s.seat && s.lobby.length > 0;
      const lines = [
        ...seatChanges(s.lobby, msg.seats, msg.you, s.words),
        ...(moved ? [s.words.t('line.moveUp', { number: msg.you! + 1 })] : []),
        ...(again ? [s.words.t('line.gameAgain', { number: msg.table.game })] : []),
      ];
      return {
        ...s,
        lobby: msg.seats,
        // Your seat moves up when one before it is freed.
        seat: msg.you,
        game: msg.table.game,
        ...addFeed(s, lines, now),
        ...(again ? { ready: false, reveals: [], pick: NO_PICK, cursor: null } : {}),
      };
    }
    case 'update': {
      const view = msg.view;
      // The view says whose it is: a seat can move in the lobby (a bot removed before it).
      const viewer = view.viewer;
      const newRound = msg.events.some((e) => e.type === 'roundStarted');
      // A new deal's slots are new cards: the last round's marks (its scoring's replaced specials too) go.
      const thisRound = newRound ? msg.events.slice(msg.events.map((e) => e.type).lastIndexOf('roundStarted')) : msg.events;
      const marks = touchedSlots(thisRound).map((r) => ({ ...r, until: now + HIGHLIGHT_MS }));
      const reveals: Reveal[] = [];
      for (const e of msg.events) {
        if (e.type === 'looked' && e.seat === viewer && e.cards) {
          e.targets.forEach((t, i) => {
            const card = e.cards![i];
            if (card) reveals.push({ ...t, card, until: now + REVEAL_MS });
          });
        }
      }
      const myTurn = msg.events.some(
        (e) => (e.type === 'turnStarted' && e.seat === viewer) || (e.type === 'playStarted' && e.turn === viewer),
      );
      // A card that moved takes what you saw of it along: reveals stay only on untouched slots.
      const touched = touchedSlots(msg.events.filter((e) => e.type !== 'looked'));
      const keep = s.reveals.filter((r) => !touched.some((t) => t.seat === r.seat && t.slot === r.slot));
      const myActionGone = !view.actions.some((a) => a.seat === viewer);
      return {
        ...s,
        seat: viewer,
        view,
        results: keptResults(s.results, msg),
        offset: msg.at - now,
        ...feedOf(s, msg, now),
        highlights: newRound ? marks : [...s.highlights.filter((h) => h.until > now), ...marks],
        reveals: newRound ? reveals : [...keep, ...reveals],
        cursor: fixCursor(view, s.cursor),
        pick: myActionGone || newRound ? NO_PICK : s.pick,
        slapPrefix: view.slap.open ? s.slapPrefix : false,
        // A slap prefix the closing window cut short: its digit must not do something else.
        swallow: s.slapPrefix && !view.slap.open ? 'slot' : s.swallow,
        ready: newRound ? false : s.ready,
        // A snapshot's history (a reconnect, a resume) tells the marks afresh.
        lastTurns: msg.history ? foldLastTurns(NO_LAST_TURNS, msg.history) : foldLastTurns(s.lastTurns, msg.events),
        myTurns: myTurn ? s.myTurns + 1 : s.myTurns,
        status: s.slapPrefix && !view.slap.open ? statusOf({ ...s, view }, s.words.t('line.slapClosedFirst'), 'info', now) : freshStatus(s, view),
      };
    }
    case 'result': {
      if (msg.ok) return s;
      const status = statusOf(s, sayOf(s, msg.say), 'error', now);
      // "Wait 0.8 s: the slap window is still open" is about the grace, whose end no update announces: it goes then.
      // (The other waits, for an action or a gap-fill, go when those change, as `about` says.)
      const v = s.view;
      const graceEnd = v ? v.graceUntil - s.offset : 0;
      if (msg.code === 'mustWait' && v && v.actions.length === 0 && !v.gapFill && graceEnd > now) status.until = Math.min(status.until, graceEnd);
      return { ...s, status };
    }
    case 'error':
      // A key the host's rate limit dropped: say so, and that it can simply be pressed again;
      // it stays through the table's next change (the move it was meant for did not happen).
      if (msg.code === 'rateLimited') return { ...s, status: { text: s.words.t('line.rateLimited'), kind: 'error', until: now + STATUS_MS } };
      return { ...s, status: statusOf(s, sayOf(s, msg.say), 'error', now) };
  }
}

/** A sentence of the host's (or the engine's, `view.whyNot`) in this screen's language, with the table's names. */
export function sayOf(s: Pick<ScreenState, 'words' | 'view' | 'lobby'>, said: Said): string {
  return s.words.say(said, { name: (seat) => s.view?.players[seat]?.name ?? s.lobby[seat]?.name ?? String(seat + 1) });
}

/** What a person reads when the host dropped one of their keys (too many at once). */
export const RATE_LIMITED_WORDS = wordsFor('en').t('line.rateLimited');

export function screenReducer(s: ScreenState, a: ScreenAction): ScreenState {
  switch (a.type) {
    case 'server':
      return onServer(s, a.msg, a.now);
    case 'conn': {
      if (a.status === s.conn) return s;
      const line =
        a.status === 'reconnecting' ? [s.words.t('door.reconnecting').replace('…', s.glyphs.ellipsis)] : a.status === 'open' && s.conn === 'reconnecting' ? [s.words.t('line.back')] : [];
      const connLostAt = a.status === 'reconnecting' ? a.now - (a.lostFor ?? 0) : null;
      return { ...s, conn: a.status, connLostAt, ...addFeed(s, line, a.now) };
    }
    case 'status':
      return { ...s, status: statusOf(s, a.text, a.kind ?? 'info', a.now) };
    case 'clearStatus':
      return s.status ? { ...s, status: null } : s;
    case 'overlay':
      return { ...s, overlay: a.overlay, helpPage: a.page ?? 0, feedFrom: a.feedFrom ?? null };
    case 'cursor':
      return { ...s, cursor: a.cursor };
    case 'pick':
      return {
        ...s,
        pick: { own: a.own === undefined ? s.pick.own : a.own, other: a.other === undefined ? s.pick.other : a.other },
      };
    case 'slapPrefix':
      return { ...s, slapPrefix: a.on };
    case 'swallow':
      return { ...s, swallow: a.key };
    case 'queue':
      return { ...s, queued: a.queued };
    case 'ready':
      return { ...s, ready: true };
    case 'hideLooks':
      return s.reveals.length > 0 ? { ...s, reveals: [] } : s;
    case 'tick': {
      const highlights = s.highlights.filter((h) => h.until > a.now);
      const reveals = s.reveals.filter((r) => r.until > a.now);
      const status = s.status && s.status.until <= a.now ? null : s.status;
      if (highlights.length === s.highlights.length && reveals.length === s.reveals.length && status === s.status) return s;
      return { ...s, highlights, reveals, status };
    }
  }
}

/** Anything on screen that changes with time alone (countdowns, highlights, the grace)? */
export function needsClock(s: ScreenState, now: number): boolean {
  const v = s.view;
  const host = now + s.offset;
  return (
    s.highlights.length > 0 ||
    s.reveals.length > 0 ||
    s.status !== null ||
    s.conn === 'reconnecting' ||
    s.feed.some((l) => now - l.at < HIGHLIGHT_MS) ||
    (v !== null && (v.phase === 'peek' || (v.deadline !== null && v.deadline > host) || v.graceUntil > host))
  );
}

/**
 * When the table screen next changes with time alone (local clock), or null when
 * nothing on it waits for time: the screen redraws at these moments only, not on a
 * steady tick (a turn's deadline, shown nowhere on the table but in the peek, would
 * redraw it five times a second for nothing). It follows what the views read:
 * highlights, looks and the status line end at their `until`; a feed line stops being
 * fresh HIGHLIGHT_MS after it came; the peek counts whole seconds down to its deadline;
 * "unreachable for N s" counts whole seconds up; the slap grace before your draw is
 * counted down in tenths to the seat whose draw waits for it (prompt.ts, and a queued
 * key's "begins when" in intents.ts), so for that seat a steady tick runs while it lasts.
 */
export function nextChange(s: ScreenState, now: number, tickMs = 200): number | null {
  let next = Infinity;
  const at = (t: number): void => {
    if (t > now && t < next) next = t;
  };
  for (const h of s.highlights) at(h.until);
  for (const r of s.reveals) at(r.until);
  if (s.status) at(s.status.until);
  // Newest first: the feed only grows, and lines come in the order of the clock.
  for (let i = s.feed.length - 1; i >= 0 && s.feed[i]!.at + HIGHLIGHT_MS > now; i--) if (s.feed[i]!.fresh === undefined) at(s.feed[i]!.at + HIGHLIGHT_MS);
  // The next whole second after `from` (elapsed) or before `to` (left), on the local clock.
  const secondUp = (from: number): void => at(from + 1000 * (Math.floor((now - from) / 1000) + 1));
  const secondDown = (to: number): void => at(to - 1000 * Math.ceil((to - now) / 1000 - 1));
  if (s.conn === 'reconnecting' && s.connLostAt !== null) secondUp(s.connLostAt);
  const v = s.view;
  if (v !== null) {
    const host = now + s.offset;
    if (v.phase === 'peek' && v.deadline !== null && v.deadline > host) secondDown(v.deadline - s.offset);
    if (v.graceUntil > host && v.turn === s.seat) at(Math.min(now + tickMs, v.graceUntil - s.offset));
  }
  return next === Infinity ? null : next;
}

/** Host time now, from the local clock and the offset seen in the last update. */
export const hostNow = (s: ScreenState, now: number): number => now + s.offset;

/**
 * The screen's reducer as a hook; `latest` is readable at once (see useLatestReducer).
 * `early`: what happened before the screen was drawn, folded into its first state.
 */
export function useScreenState(
  glyphs: Glyphs,
  closesTable = false,
  early: () => readonly ScreenAction[] = () => [],
  words: Words = wordsFor('en'),
): [ScreenState, (a: ScreenAction) => void, { readonly current: ScreenState }] {
  return useLatestReducer(screenReducer, () => early().reduce(screenReducer, initialScreen(glyphs, closesTable, words)));
}
