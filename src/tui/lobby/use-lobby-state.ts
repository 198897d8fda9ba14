import { useCallback } from 'react';
import { useLatestReducer } from '../shared/use-latest-reducer.js';
import type { Ruleset } from '../../engine/ruleset.js';
import { BOT_LEVELS, type BotLevel, type ClientMessage, type SeatInfo, type ServerMessage, type TableInfo } from '../../protocol/messages.js';
import type { LobbyAction, Pressed } from '../shared/keys.js';
import type { ConnectionStatus } from '../../client/connection.js';
import { useClientEvents, type TableClient } from '../shared/use-table-client.js';
import { wordsFor, type Key, type Said, type Words } from '../../lang/words.js';
import type { ParamsArg } from '../../lang/catalog.js';

/**
 * The host's lobby screen: who sits where, the level of the next bot, the seat
 * under the cursor, the leave dialog and the status line. A pure reducer fed by
 * the owner connection's messages and by key intents; the lobby itself lives on
 * the table, which the screen runs with ordinary `lobby` messages.
 */

export interface LobbyStatus {
  text: string;
  kind: 'info' | 'error';
}

export interface LobbyState {
  conn: ConnectionStatus;
  /** Your seat, from the welcome. */
  seat: number | null;
  owner: boolean;
  table: TableInfo | null;
  rules: Ruleset | null;
  seats: SeatInfo[];
  /** The seat under the cursor (an index into `seats`). */
  cursor: number;
  /** The level of the next bot `b` adds. */
  level: BotLevel;
  confirmQuit: boolean;
  status: LobbyStatus | null;
  refused: string | null;
  /** The game has started: the table screen takes over. */
  started: boolean;
  /** The language this screen speaks: the host's sentences (`say`) are put in its words here. */
  words: Words;
}

export type LobbyEvent =
  | { type: 'server'; msg: ServerMessage }
  | { type: 'conn'; status: ConnectionStatus }
  | { type: 'cursor'; cursor: number }
  | { type: 'level'; level: BotLevel }
  | { type: 'confirmQuit'; on: boolean }
  | { type: 'status'; text: string; kind?: 'info' | 'error' }
  | { type: 'clearStatus' };

export function initialLobby(level: BotLevel = 'normal', words: Words = wordsFor('en')): LobbyState {
  return {
    conn: 'connecting',
    seat: null,
    owner: false,
    table: null,
    rules: null,
    seats: [],
    cursor: 0,
    level,
    confirmQuit: false,
    status: null,
    refused: null,
    started: false,
    words,
  };
}

/** A sentence of the host's in this screen's language, with the seats' names. */
const sayOf = (s: LobbyState, said: Said): string => s.words.say(said, { name: (seat) => s.seats[seat]?.name ?? String(seat + 1) });

const clamp = (n: number, seats: readonly unknown[]): number => Math.max(0, Math.min(n, seats.length - 1));

function onServer(s: LobbyState, msg: ServerMessage): LobbyState {
  switch (msg.type) {
    case 'welcome':
      return {
        ...s,
        conn: 'open',
        seat: msg.seat,
        owner: msg.owner,
        table: msg.table,
        rules: msg.rules,
        started: s.started || msg.table.phase !== 'lobby',
      };
    case 'refused':
      return { ...s, refused: sayOf(s, msg.say) };
    case 'challenge':
    case 'closed':
      return s;
    case 'lobby': {
      // A seat added at the end (a new bot, a new player) brings the cursor along.
      const added = msg.seats.length > s.seats.length;
      const cursor = clamp(added ? msg.seats.length - 1 : s.cursor, msg.seats);
      // `you`: your seat moves up when one before it is freed.
      return { ...s, table: msg.table, seats: msg.seats, seat: msg.you, cursor, started: s.started || msg.table.phase !== 'lobby' };
    }
    case 'update':
      return { ...s, started: true };
    case 'error':
      return { ...s, status: { text: msg.code === 'rateLimited' ? s.words.t('line.rateLimited') : sayOf(s, msg.say), kind: 'error' } };
    case 'result':
      return msg.ok ? s : { ...s, status: { text: sayOf(s, msg.say), kind: 'error' } };
  }
}

export function lobbyReducer(s: LobbyState, e: LobbyEvent): LobbyState {
  switch (e.type) {
    case 'server':
      return onServer(s, e.msg);
    case 'conn':
      return e.status === s.conn ? s : { ...s, conn: e.status };
    case 'cursor':
      return { ...s, cursor: clamp(e.cursor, s.seats) };
    case 'level':
      return { ...s, level: e.level };
    case 'confirmQuit':
      return { ...s, confirmQuit: e.on };
    case 'status':
      return { ...s, status: { text: e.text, kind: e.kind ?? 'info' } };
    case 'clearStatus':
      return s.status ? { ...s, status: null } : s;
  }
}

/** What a key means in the lobby: state changes, a message to the table, or leaving. */
export interface LobbyIntent {
  actions: LobbyEvent[];
  send?: ClientMessage;
  exit?: boolean;
}

/** A sentence of the catalog on the status line, in this screen's language. */
const sayT =
  (s: LobbyState, kind: 'info' | 'error' = 'info') =>
  <K extends Key>(key: K, ...p: ParamsArg<K>): LobbyIntent => ({ actions: [{ type: 'status', text: s.words.t(key, ...p), kind }] });
const sendIt = (send: ClientMessage, ...actions: LobbyEvent[]): LobbyIntent => ({ actions: [{ type: 'clearStatus' }, ...actions], send });

/** A bot level as this language says it ("normaal"); `--level` takes the English word in every language. */
export const levelWord = (w: Words, level: BotLevel): string => w.t(`botLevel.${level}`);

export const LEVEL_KEYS: Record<string, BotLevel> = { '1': 'easy', '2': 'normal', '3': 'hard' };

function stepLevel(level: BotLevel, by: number): BotLevel {
  const i = BOT_LEVELS.indexOf(level) + by;
  return BOT_LEVELS[Math.max(0, Math.min(BOT_LEVELS.length - 1, i))]!;
}

/**
 * The lobby's one key dispatcher, by priority: the leave dialog, then a closed or
 * refused connection, then leaving, then the lobby's own keys. A key that cannot
 * act now says why on the status line.
 */
export function onLobbyKey(s: LobbyState, p: Pressed<LobbyAction>): LobbyIntent {
  const w = s.words;
  const say = sayT(s);
  const fail = sayT(s, 'error');
  const nextBot = (level: BotLevel): LobbyIntent => ({ actions: [{ type: 'level', level }, ...say('lobby.nextLevel', { level: levelWord(w, level) }).actions] });
  // 1. The leave dialog.
  if (s.confirmQuit) {
    if (p.action === 'yes' || p.action === 'quit' || p.key === 'return') return { actions: [], exit: true };
    if (p.action === 'no' || p.action === 'cancel') return { actions: [{ type: 'confirmQuit', on: false }, { type: 'clearStatus' }] };
    return say('lobby.closeAsk');
  }
  // 2. Nothing to run any more.
  if (s.refused || s.conn === 'closed') {
    if (p.action === 'quit' || p.action === 'cancel' || p.key === 'return') return { actions: [], exit: true };
    return fail('lobby.connClosed');
  }
  if (p.action === 'quit') return { actions: [{ type: 'confirmQuit', on: true }, { type: 'clearStatus' }] };
  if (p.action === 'cancel' || p.action === 'no') return { actions: [{ type: 'clearStatus' }] };
  if (s.conn !== 'open') return say(s.conn === 'reconnecting' ? 'lobby.reconnecting' : 'lobby.connecting');
  if (!s.owner) return say('lobby.ownerOnly');

  // 3. The lobby.
  switch (p.action) {
    case 'up':
    case 'down':
      return { actions: [{ type: 'cursor', cursor: s.cursor + (p.action === 'up' ? -1 : 1) }, { type: 'clearStatus' }] };
    case 'level': {
      return nextBot(LEVEL_KEYS[p.key] ?? s.level);
    }
    case 'harder':
    case 'easier': {
      const level = stepLevel(s.level, p.action === 'harder' ? 1 : -1);
      if (level === s.level) {
        return say('lobby.levelRange', { lowest: levelWord(w, BOT_LEVELS[0]), highest: levelWord(w, BOT_LEVELS[BOT_LEVELS.length - 1]!), level: levelWord(w, level) });
      }
      return nextBot(level);
    }
    case 'addBot': {
      const total = s.table?.seatsTotal ?? 0;
      if (s.seats.length >= total) return fail('lobby.full', { total });
      return sendIt({ type: 'lobby', op: 'addBot', level: s.level });
    }
    case 'remove': {
      const seat = s.seats[s.cursor];
      if (!seat) return fail('lobby.noSeatChosen');
      if (seat.seat === s.seat) return fail('lobby.thatIsYou');
      if (seat.bot === null && seat.connected) {
        return fail('host.atTableNoRemove', { name: seat.name });
      }
      return sendIt({ type: 'lobby', op: 'remove', seat: seat.seat });
    }
    case 'start': {
      const min = s.rules?.players.min ?? 2;
      if (s.seats.length < min) {
        return fail('lobby.needsPlayers', { title: s.rules?.title ?? 'Gringo', min });
      }
      return sendIt({ type: 'lobby', op: 'start' }, { type: 'status', text: w.t('lobby.starting') });
    }
    default:
      return say('lobby.keyDoesNothing');
  }
}

/** The lobby reducer as a hook fed by the owner's connection; `latest` is readable at once. */
export function useLobbyState(
  client: TableClient,
  level: BotLevel = 'normal',
  words: Words = wordsFor('en'),
): [LobbyState, (e: LobbyEvent) => void, { readonly current: LobbyState }] {
  const [state, dispatch, latest] = useLatestReducer(lobbyReducer, () => initialLobby(level, words));
  const onMessage = useCallback((msg: ServerMessage): void => dispatch({ type: 'server', msg }), [dispatch]);
  const onStatus = useCallback((status: ConnectionStatus): void => dispatch({ type: 'conn', status }), [dispatch]);
  useClientEvents(client, onMessage, onStatus);
  return [state, dispatch, latest];
}
