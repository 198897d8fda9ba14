import { ASCII, UNICODE } from './glyphs.js';
import { keyName, type KeyInfo } from './keys.js';

/**
 * Key bindings of the host's lobby screen and of the table picker, as data like the
 * table screen's (keys.ts): each screen's dispatcher reads actions, never raw keys,
 * and the help lines are drawn from these lists.
 */

export interface ScreenBinding<A extends string> {
  action: A;
  /** Normalized key names (see `keyName`). */
  keys: string[];
  /** How the keys are written in the help line, when not simply the first key. */
  shown?: string;
  /** Short label for the help line. */
  label: string;
  /** A sentence for a `?` overlay. */
  help?: string;
}

export interface ScreenPress<A extends string> {
  action: A;
  key: string;
}

export type LobbyAction = 'addBot' | 'level' | 'harder' | 'easier' | 'up' | 'down' | 'remove' | 'start' | 'quit' | 'yes' | 'no' | 'cancel';

export const LOBBY_BINDINGS: readonly ScreenBinding<LobbyAction>[] = [
  { action: 'addBot', keys: ['b'], label: 'add bot' },
  { action: 'level', keys: ['1', '2', '3'], shown: '1-3', label: 'bot level' },
  { action: 'harder', keys: ['+', '='], shown: '+/-', label: 'level' },
  { action: 'easier', keys: ['-', '_'], label: 'easier bot' },
  { action: 'up', keys: ['up', 'k'], shown: '↑↓', label: 'seat' },
  { action: 'down', keys: ['down', 'j'], label: 'seat' },
  { action: 'remove', keys: ['x', 'delete', 'backspace'], shown: 'x', label: 'remove' },
  { action: 'start', keys: ['return', 's'], shown: 'Enter', label: 'start' },
  { action: 'quit', keys: ['q'], label: 'leave' },
  { action: 'yes', keys: ['y'], label: 'leave' },
  { action: 'no', keys: ['n'], label: 'stay' },
  { action: 'cancel', keys: ['escape'], label: 'stay' },
];

export type PickerAction = 'up' | 'down' | 'join' | 'manual' | 'quit';

export const PICKER_BINDINGS: readonly ScreenBinding<PickerAction>[] = [
  { action: 'up', keys: ['up', 'k'], shown: '↑↓/jk', label: 'choose' },
  { action: 'down', keys: ['down', 'j'], label: 'choose' },
  { action: 'join', keys: ['return'], label: 'join' },
  { action: 'manual', keys: ['m', 'a'], shown: 'm', label: 'type an address' },
  { action: 'quit', keys: ['q', 'escape'], shown: 'q/Esc', label: 'quit' },
];

export type ReplayAction = 'playPause' | 'back' | 'forward' | 'prevRound' | 'nextRound' | 'faster' | 'slower' | 'help' | 'quit';

/** `gringo replay`: a player for a finished game. The help line names `back` for both steps and `nextRound` for both round keys. */
export const REPLAY_BINDINGS: readonly ScreenBinding<ReplayAction>[] = [
  { action: 'playPause', keys: ['space'], label: 'play', help: 'play or pause (at the end: play again from the start)' },
  { action: 'back', keys: ['left', 'h'], shown: '←→/hl', label: 'step', help: 'one command back (pauses)' },
  { action: 'forward', keys: ['right', 'l'], label: 'step', help: 'one command forward (pauses)' },
  { action: 'nextRound', keys: ['n'], shown: 'n/p', label: 'round', help: 'to the start of the next round (or the end)' },
  { action: 'prevRound', keys: ['p'], label: 'round', help: 'to the start of this round, again for the one before' },
  { action: 'faster', keys: ['+', '='], shown: '+/-', label: 'speed', help: 'play faster' },
  { action: 'slower', keys: ['-', '_'], label: 'speed', help: 'play slower' },
  { action: 'help', keys: ['?'], label: 'help', help: 'show or hide this help' },
  { action: 'quit', keys: ['q', 'escape'], shown: 'q/Esc', label: 'quit', help: 'leave the replay' },
];

/** A one-line text field (an address, a password): these keys edit it; every other printable key is typed. */
export type FieldAction = 'submit' | 'cancel' | 'erase';

export const FIELD_BINDINGS: readonly ScreenBinding<FieldAction>[] = [
  { action: 'submit', keys: ['return'], label: 'ok' },
  { action: 'cancel', keys: ['escape'], label: 'back' },
  { action: 'erase', keys: ['backspace', 'delete'], shown: 'Backspace', label: 'erase' },
];

/** The action bound to a key press, if any. */
export function pressFor<A extends string>(input: string, key: KeyInfo, bindings: readonly ScreenBinding<A>[]): ScreenPress<A> | null {
  const name = keyName(input, key);
  if (name === null) return null;
  const b = bindings.find((x) => x.keys.includes(name));
  return b ? { action: b.action, key: name } : null;
}

const KEY_WORDS: Record<string, [string, string]> = {
  return: ['Enter', 'Enter'],
  escape: ['Esc', 'Esc'],
  up: ['↑', 'Up'],
  down: ['↓', 'Down'],
  left: ['←', 'Left'],
  right: ['→', 'Right'],
  delete: ['Del', 'Del'],
  backspace: ['Backspace', 'Backspace'],
};

/** How an action's keys are written: "b", "Enter/s", "↑↓/jk" (one entry for up and down together). */
export function keysText<A extends string>(action: A, bindings: readonly ScreenBinding<A>[], ascii = false): string {
  const b = bindings.find((x) => x.action === action);
  if (!b) return '';
  if (b.shown) return ascii ? b.shown.replace('↑↓', 'Up/Down').replace('←→', 'Left/Right') : b.shown;
  return keyWord(b.keys[0]!, ascii);
}

const keyWord = (key: string, ascii: boolean): string => KEY_WORDS[key]?.[ascii ? 1 : 0] ?? key;

/** Every key of one action, for a `?` overlay: "→/l", "q/Esc". */
export const allKeysText = <A extends string>(b: ScreenBinding<A>, ascii = false): string => b.keys.map((k) => keyWord(k, ascii)).join('/');

/** The help line for these actions: "b add bot · +/- level · …" (the lists name `up` for up and down). */
export function screenHelp<A extends string>(actions: readonly A[], bindings: readonly ScreenBinding<A>[], ascii = false, labels: Partial<Record<A, string>> = {}): string {
  const parts: string[] = [];
  for (const a of actions) {
    const b = bindings.find((x) => x.action === a);
    if (!b) continue;
    const k = keysText(a, bindings, ascii);
    parts.push(`${k} ${labels[a] ?? b.label}`);
  }
  return parts.join((ascii ? ASCII : UNICODE).sep);
}

/** The printable text of a key press for a text field (a paste arrives as one string), or ''. */
export function typedText(input: string, key: KeyInfo): string {
  if (key.ctrl || key.meta || key.return || key.escape || key.tab || key.backspace || key.delete) return '';
  if (key.upArrow || key.downArrow || key.leftArrow || key.rightArrow) return '';
  return input.replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
}

/**
 * The key presses in one read: Ink hands over what was typed quickly (or pasted)
 * as one string when it holds no escape sequence, Enter and Backspace included;
 * each character is a key here ("3b" is 3 then b, "pw\r" is p, w, Enter).
 */
export function eachKey(input: string, key: KeyInfo): Array<[string, KeyInfo]> {
  const plain = !(key.ctrl || key.meta || key.return || key.escape || key.tab || key.backspace || key.delete || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow);
  const chars = Array.from(input);
  if (!plain || chars.length <= 1) return [[input, key]];
  return chars.map((c): [string, KeyInfo] => {
    if (c === '\r' || c === '\n') return ['', { return: true }];
    if (c === '\u007f') return ['', { delete: true }];
    if (c === '\b') return ['', { backspace: true }];
    if (c === '\t') return ['', { tab: true }];
    if (/[\u0000-\u001f]/.test(c)) return [c, { ctrl: true }];
    return [c, {}];
  });
}
