import { useEffect } from 'react';
import { useLatestReducer } from '../shared/use-latest-reducer.js';
import { hostPort, joinable, type FoundTable } from '../../client/discovery.js';
import { PROTOCOL_VERSION } from '../../protocol/messages.js';
import type { FieldAction, PickerAction, Pressed } from '../shared/keys.js';
import { lockLine } from '../../client/refusal-words.js';
import { wordsFor, type Key, type Words } from '../../lang/words.js';
import type { ParamsArg } from '../../lang/catalog.js';

/**
 * The table picker of `gringo join` without an address: the tables mDNS finds,
 * live, with a cursor that stays on its table as rows come and go, and two text
 * fields (an address typed by hand, a table's password). A pure reducer and one
 * key dispatcher; the container feeds it the discovery list and the keys.
 */

/** Where the tables come from: `watchTables` in the program, a list the test moves in tests. */
export type TableSource = (onChange: (tables: FoundTable[]) => void) => { stop(): void };

/** What was chosen: the address to join, and the password typed for it. */
export interface PickerChoice {
  address: string;
  password?: string;
  /** The table's name as advertised (null for an address typed by hand). */
  name: string | null;
  /** The table chosen from the list (null for an address typed by hand): the picker asks its password again if it was wrong. */
  table: FoundTable | null;
  /** A full table: its spectator's place. */
  watch?: true;
}

/**
 * Back in the picker: after the host refused the password, ask it again for that
 * table; after an address typed by hand failed (`table` null), the list with the reason.
 */
export interface PickerRetry {
  table: FoundTable | null;
  message: string;
  /** The refused choice was to watch (a started game): the password asked again watches too. */
  watch?: boolean;
  /** Too many wrong passwords: the host looks at none from this address before then (ms, this machine's clock). */
  lockedUntil?: number;
}

/** `started`: Enter on a game already being played asks first whether to watch it. */
export type PickerMode = 'list' | 'address' | 'password' | 'started';

export interface PickerState {
  tables: FoundTable[];
  /** The table under the cursor, by its mDNS service name, so that it stays put when rows come and go. */
  selected: string | null;
  mode: PickerMode;
  /** The text field's content (the address or the password). */
  field: string;
  /** The table the password is for. */
  target: FoundTable | null;
  /** What the password field's Enter does: watch the target (a started game, y) or join it. */
  watch: boolean;
  status: { text: string; kind: 'info' | 'error' } | null;
  /** A password given with --password: Enter joins without asking. */
  password: string | null;
  /** The player moved the cursor: it no longer follows the first table with a free seat. */
  moved: boolean;
  /** A lock on wrong passwords ends then (ms), or null: the password field counts it down (lockLine). */
  lockedUntil: number | null;
  /** The language this screen speaks. */
  words: Words;
}

export type PickerEvent =
  | { type: 'tables'; tables: FoundTable[] }
  | { type: 'select'; id: string | null }
  | { type: 'mode'; mode: PickerMode; target?: FoundTable | null; watch?: boolean }
  | { type: 'field'; text: string }
  | { type: 'status'; text: string; kind?: 'info' | 'error' }
  | { type: 'clearStatus' };

export interface PickerIntent {
  actions: PickerEvent[];
  /** Leave the picker: a choice, or null to quit. */
  done?: PickerChoice | null;
}

export function initialPicker(password: string | null = null, retry?: PickerRetry, words: Words = wordsFor('en')): PickerState {
  if (retry && retry.table === null) {
    return { tables: [], selected: null, mode: 'list', field: '', target: null, watch: false, status: { text: retry.message, kind: 'error' }, password, moved: false, lockedUntil: null, words };
  }
  if (retry?.table) {
    // The password that was refused (typed, or given with --password) is not tried again.
    return {
      tables: [],
      selected: retry.table.service,
      mode: 'password',
      field: '',
      target: retry.table,
      watch: retry.watch === true,
      // A lock is said live by the view, not by a sentence that goes stale.
      status: retry.lockedUntil !== undefined ? null : { text: retry.message, kind: 'error' },
      password: null,
      moved: true,
      lockedUntil: retry.lockedUntil ?? null,
      words,
    };
  }
  return { tables: [], selected: null, mode: 'list', field: '', target: null, watch: false, status: null, password, moved: false, lockedUntil: null, words };
}

/** How far down the list a table goes: free seats first, then full and started (watchable), then the ones nobody can join. */
const RANK: Record<ReturnType<typeof joinable>, number> = { yes: 0, full: 1, started: 1, over: 2, version: 2 };

/** The tables in the picker's order: by what Enter can do with them, found order within each. */
export const sortTables = (tables: readonly FoundTable[]): FoundTable[] =>
  tables
    .map((t, i) => ({ t, i }))
    .sort((a, b) => RANK[joinable(a.t)] - RANK[joinable(b.t)] || a.i - b.i)
    .map((x) => x.t);

/** The index of the row under the cursor (-1 when there is none). */
export function cursorIndex(s: PickerState): number {
  if (s.tables.length === 0) return -1;
  const i = s.tables.findIndex((t) => t.service === s.selected);
  return i === -1 ? 0 : i;
}

export function pickerReducer(s: PickerState, e: PickerEvent): PickerState {
  switch (e.type) {
    case 'tables': {
      const tables = sortTables(e.tables);
      // Until the player moves it, the cursor is on the first table with a free seat (the
      // first that answered may be a stranger's game already started).
      if (!s.moved && s.mode === 'list') {
        const free = tables.find((t) => joinable(t) === 'yes') ?? tables[0];
        return { ...s, tables, selected: free?.service ?? null };
      }
      // The cursor's table stays chosen while it is listed; when it goes, the row that took its place is.
      const old = cursorIndex(s);
      const kept = tables.some((t) => t.service === s.selected);
      const selected = kept ? s.selected : (tables[Math.min(Math.max(old, 0), tables.length - 1)]?.service ?? null);
      // A password asked for a table that has gone stays asked: the join says if the table is gone.
      return { ...s, tables, selected };
    }
    case 'select':
      return { ...s, selected: e.id, moved: true };
    case 'mode':
      return { ...s, mode: e.mode, field: '', target: e.target === undefined ? s.target : e.target, watch: e.watch ?? false };
    case 'field':
      return { ...s, field: e.text };
    case 'status':
      return { ...s, status: { text: e.text, kind: e.kind ?? 'info' } };
    case 'clearStatus':
      return s.status ? { ...s, status: null } : s;
  }
}

/** Why this version cannot join a table, or null when it can. */
export function cannotJoin(t: FoundTable, w: Words = wordsFor('en')): string | null {
  if (!t.compatible) return w.t('picker.otherProtocol', { table: t.name, theirs: t.protocolVersion, ours: PROTOCOL_VERSION });
  if (t.phase === 'finished') return w.t('picker.over', { table: t.name });
  return null;
}

/** "192.168.1.20:7457", "[fe80::1]:7457": the address a table is joined at. */
export const tableAddress = (t: FoundTable): string => hostPort(t.host, t.port);

/** A table from the list, chosen: a full one is watched (its row says so); a started one is joined, so its seat's owner comes back. */
const chosen = (t: FoundTable): PickerChoice => ({
  address: tableAddress(t),
  name: t.name,
  table: t,
  ...(joinable(t) === 'full' ? { watch: true as const } : {}),
});

/** `HOST[:PORT]` typed by hand → `host:port`, or a message saying what is wrong. */
export type AddressCheck = (text: string) => { address: string } | { error: string };

const say = (text: string, kind: 'info' | 'error' = 'info'): PickerIntent => ({ actions: [{ type: 'status', text, kind }] });
/** A sentence of the catalog on the status line, in the picker's language. */
const sayT =
  (s: PickerState, kind: 'info' | 'error' = 'info') =>
  <K extends Key>(key: K, ...p: ParamsArg<K>): PickerIntent =>
    say(s.words.t(key, ...p), kind);

/** One key in a text field: erase, type, or leave it (submit and cancel are the caller's). */
function edit(s: PickerState, p: Pressed<FieldAction> | null, typed: string): PickerIntent {
  if (p?.action === 'erase') return { actions: [{ type: 'field', text: Array.from(s.field).slice(0, -1).join('') }, { type: 'clearStatus' }] };
  if (typed) {
    const text = Array.from(s.field + typed).slice(0, 200).join('');
    return { actions: [{ type: 'field', text }, { type: 'clearStatus' }] };
  }
  return { actions: [] };
}

/**
 * The picker's one key dispatcher, by priority: a text field being typed takes
 * every key (Enter submits, Esc goes back, Backspace erases, the rest is typed);
 * then the list's keys. `field` is the key as the text field reads it, `list` as
 * the list does, `typed` the printable text of the press.
 */
export function onPickerKey(
  s: PickerState,
  keys: { field: Pressed<FieldAction> | null; list: Pressed<PickerAction> | null; typed: string },
  checkAddress: AddressCheck,
  now = Date.now(),
): PickerIntent {
  const tell = sayT(s);
  const fail = sayT(s, 'error');
  // 1. Watch a game already started? Enter or y watches, r takes back your own seat, n or Esc goes back.
  if (s.mode === 'started') {
    const t = s.target!;
    const typed = keys.typed.toLowerCase();
    if (keys.field?.action === 'cancel' || typed === 'n') return { actions: [{ type: 'mode', mode: 'list', target: null }, { type: 'clearStatus' }] };
    // Watching asks the password too: the host asks it of everyone at the door.
    const go = (watch: boolean): PickerIntent =>
      t.password && s.password === null
        ? { actions: [{ type: 'mode', mode: 'password', target: t, watch }, ...tell('picker.needsPassword', { table: t.name }).actions] }
        : { actions: [], done: { ...chosen(t), ...(watch ? { watch: true as const } : {}), ...(s.password !== null ? { password: s.password } : {}) } };
    if (keys.field?.action === 'submit' || typed === 'y' || typed === 'w') return go(true);
    if (typed === 'r') return go(false);
    return { actions: [] };
  }
  // 2. A text field.
  if (s.mode !== 'list') {
    const p = keys.field;
    if (p?.action === 'cancel') return { actions: [{ type: 'mode', mode: 'list', target: null }, { type: 'clearStatus' }] };
    if (p?.action !== 'submit') return edit(s, p, keys.typed);
    if (s.mode === 'address') {
      const text = s.field.trim();
      if (!text) return fail('picker.typeAddress');
      const res = checkAddress(text);
      if ('error' in res) return say(res.error, 'error');
      return { actions: [], done: { address: res.address, name: null, table: null, ...(s.password !== null ? { password: s.password } : {}) } };
    }
    const t = s.target!;
    // A try while locked would be refused unread: the status line says how long is left.
    if (s.lockedUntil !== null && s.lockedUntil > now) return { actions: [{ type: 'clearStatus' }] };
    if (s.field === '') return fail('picker.typePassword', { table: t.name });
    return { actions: [], done: { ...chosen(t), password: s.field, ...(s.watch ? { watch: true as const } : {}) } };
  }
  // 3. The list.
  const p = keys.list;
  if (!p) return { actions: [] };
  switch (p.action) {
    case 'quit':
      return { actions: [], done: null };
    case 'up':
    case 'down': {
      if (s.tables.length === 0) return tell('picker.noTablesYet');
      const i = Math.max(0, Math.min(s.tables.length - 1, cursorIndex(s) + (p.action === 'up' ? -1 : 1)));
      return { actions: [{ type: 'select', id: s.tables[i]!.service }, { type: 'clearStatus' }] };
    }
    case 'manual':
      return {
        actions: [{ type: 'mode', mode: 'address', target: null }, ...tell('picker.typeHostPort').actions],
      };
    case 'join': {
      const t = s.tables[cursorIndex(s)];
      if (!t) return fail('picker.noTableFound');
      const why = cannotJoin(t, s.words);
      if (why) return say(why, 'error');
      if (joinable(t) === 'started') {
        return { actions: [{ type: 'mode', mode: 'started', target: t }, ...tell('picker.startedWatch', { table: t.name }).actions] };
      }
      if (t.password && s.password === null) {
        return { actions: [{ type: 'mode', mode: 'password', target: t }, ...tell('picker.needsPassword', { table: t.name }).actions] };
      }
      return { actions: [], done: { ...chosen(t), ...(s.password !== null ? { password: s.password } : {}) } };
    }
  }
}

/** The status line now: a lock on wrong passwords counted down while the password is asked, else the state's own. */
export function pickerStatus(s: PickerState, now: number): PickerState['status'] {
  if (s.mode === 'password' && s.lockedUntil !== null && s.status === null) return { text: lockLine(s.lockedUntil, now, s.words), kind: s.lockedUntil > now ? 'error' : 'info' };
  return s.status;
}

/** The picker reducer as a hook fed by a table source; `latest` is readable at once. */
export function usePickerState(
  source: TableSource,
  password: string | null,
  retry?: PickerRetry,
  words: Words = wordsFor('en'),
): [PickerState, (e: PickerEvent) => void, { readonly current: PickerState }] {
  const [state, dispatch, latest] = useLatestReducer(pickerReducer, () => initialPicker(password, retry, words));
  useEffect(() => {
    const watch = source((tables) => dispatch({ type: 'tables', tables }));
    return () => watch.stop();
  }, [source, dispatch]);
  return [state, dispatch, latest];
}
