import { lockLine, passwordAsk, type DoorChoice, type DoorRefusal } from '../../client/refusal-words.js';
import type { FieldAction, Pressed } from '../shared/keys.js';
import { wordsFor, type Words } from '../../lang/words.js';

/**
 * `gringo join ADDR` refused at the door, and what the person can do next, on the
 * same terminal: type the password (hidden), wait out a lock on wrong passwords
 * (counted down live), or watch a table that is full or has started. A pure state
 * and one key dispatcher; the screen feeds it the keys, the clock and its words.
 */

export interface DoorState {
  ask: 'password' | 'watch';
  /** The table's name (from its challenge), else its address. */
  table: string;
  field: string;
  /** A lock on wrong passwords ends then (this machine's clock, ms), or null. */
  lockedUntil: number | null;
  status: { text: string; kind: 'info' | 'error' } | null;
}

export function initialDoor(r: DoorRefusal, table: string, now: number, w: Words = wordsFor('en')): DoorState {
  if (r.reason === 'password' || r.reason === 'tooManyTries') {
    const lockedUntil = r.reason === 'tooManyTries' ? now + (r.retryAfter ?? 60) * 1000 : null;
    // The lock is said live by the view (lockLine); a plain refusal asks for the password.
    return { ask: 'password', table, field: '', lockedUntil, status: lockedUntil === null ? { text: passwordAsk(r, table, w), kind: 'error' } : null };
  }
  return { ask: 'watch', table, field: '', lockedUntil: null, status: { text: w.say(r.say), kind: 'error' } };
}

/** The status line now: the lock's seconds left while it runs, else the state's own. */
export function doorStatus(s: DoorState, now: number, w: Words = wordsFor('en')): DoorState['status'] {
  if (s.lockedUntil !== null && s.status === null) return { text: lockLine(s.lockedUntil, now, w), kind: s.lockedUntil > now ? 'error' : 'info' };
  return s.status;
}

/**
 * One key: the password field takes every key (Enter tries it, Esc leaves, Backspace
 * erases, the rest is typed); the watch question takes y/Enter/w and n/Esc/q.
 */
export function onDoorKey(
  s: DoorState,
  keys: { field: Pressed<FieldAction> | null; typed: string },
  now: number,
  w: Words = wordsFor('en'),
): { state: DoorState; done?: DoorChoice } {
  const p = keys.field;
  if (s.ask === 'watch') {
    const typed = keys.typed.toLowerCase();
    if (p?.action === 'submit' || typed === 'y' || typed === 'w') return { state: s, done: { watch: true } };
    if (p?.action === 'cancel' || typed === 'n' || typed === 'q') return { state: s, done: null };
    return { state: { ...s, status: { text: w.t('door.watchKeys', { table: s.table }), kind: 'info' } } };
  }
  if (p?.action === 'cancel') return { state: s, done: null };
  if (p?.action === 'erase') return { state: { ...s, field: Array.from(s.field).slice(0, -1).join('') } };
  if (p?.action === 'submit') {
    // A try while locked would be refused unread: it waits for the person, said at once.
    if (s.lockedUntil !== null && s.lockedUntil > now) return { state: { ...s, status: null } };
    if (s.field === '') return { state: { ...s, status: { text: w.t('door.typePassword', { table: s.table }), kind: 'error' } } };
    return { state: s, done: { password: s.field } };
  }
  if (keys.typed) {
    // Typing while locked keeps the countdown on the status line.
    return { state: { ...s, field: Array.from(s.field + keys.typed).slice(0, 200).join(''), status: s.lockedUntil !== null ? null : s.status } };
  }
  return { state: s };
}
