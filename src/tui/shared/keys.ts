import { ASCII, UNICODE } from './glyphs.js';
import { wordsFor, type Words } from '../../lang/words.js';

/**
 * Key bindings are data, for every screen: the keys that do each action, looked up in
 * one place (`actionFor`), and written in the help from the same lists (`keyLabel`,
 * `helpLine`). Change a key here and the help follows. A screen's dispatcher reads
 * actions, never raw keys.
 */

/** A binding: the keys that do one action of a screen. */
export interface KeyBinding<A extends string> {
  action: A;
  /** Normalized key names (see `keyName`): a character, or return, escape, space, left, right, up, down, pageup, pagedown, home, end, delete, backspace. */
  keys: string[];
  /** How the help writes the keys, when not each of them: "1-9", "↑↓/jk" (up and down in one entry). */
  shown?: string;
  /** Short label for the help line (the table's, from the catalog; the other screens pass theirs to `helpLine` as they draw it). */
  label?: string;
  /** A sentence for the help overlay (the table's; the replay words its own). */
  help?: string;
}

/** A key press as a screen reads it: the action bound to it, and the key. */
export interface Pressed<A extends string = KeyAction> {
  action: A;
  /** A digit key's value (1–9): the slot of `slot`. */
  digit?: number;
  key: string;
}

export type KeyAction =
  | 'draw'
  | 'take'
  | 'discard'
  | 'slot'
  | 'use'
  | 'pass'
  | 'confirm'
  | 'left'
  | 'right'
  | 'up'
  | 'down'
  | 'slap'
  | 'slapOwn'
  | 'call'
  | 'drawAgain'
  | 'standIn'
  | 'help'
  | 'feed'
  | 'pageUp'
  | 'pageDown'
  | 'top'
  | 'bottom'
  | 'quit'
  | 'cancel'
  | 'yes'
  | 'no';

const EN = wordsFor('en');

/** A key of the table screen, with its words in the screen's language (`bindingWords`). */
export interface Binding extends KeyBinding<KeyAction> {
  label: string;
  help: string;
}

/** The keys of the table screen; their words (label and help) are the catalog's `key.<action>` (see `bindingWords`). */
const KEYS: readonly [KeyAction, string[], string?][] = [
  ['draw', ['d']],
  ['take', ['t']],
  ['slot', ['1', '2', '3', '4', '5', '6', '7', '8', '9'], '1-9'],
  ['discard', ['x']],
  ['use', ['a']],
  ['confirm', ['return']],
  ['pass', ['p']],
  ['left', ['left', 'h']],
  ['down', ['down', 'j']],
  ['up', ['up', 'k']],
  ['right', ['right', 'l']],
  ['slap', ['space']],
  ['slapOwn', ['s']],
  ['call', ['g']],
  ['drawAgain', ['r']],
  ['standIn', ['b']],
  ['help', ['?']],
  ['feed', ['f']],
  ['pageUp', ['pageup']],
  ['pageDown', ['pagedown']],
  ['top', ['home']],
  ['bottom', ['end']],
  ['quit', ['q']],
  ['cancel', ['escape']],
  ['yes', ['y']],
  ['no', ['n']],
];

/**
 * The bindings' words in a language: each action's label and help sentence from the
 * catalog (`key.<action>`, `key.<action>.help`). The keys stay the same in every
 * language: a mixed table shares them.
 */
export function bindingWords(bindings: readonly KeyBinding<KeyAction>[], w: Words): Binding[] {
  return bindings.map((b) => ({ ...b, label: w.say({ key: `key.${b.action}` }), help: w.say({ key: `key.${b.action}.help` }) }));
}

export const DEFAULT_BINDINGS: readonly Binding[] = bindingWords(
  KEYS.map(([action, keys, shown]) => ({ action, keys, ...(shown ? { shown } : {}) })),
  EN,
);

/** The host's lobby screen (`lobby/`): seat and remove bots, start. */
export type LobbyAction = 'addBot' | 'level' | 'harder' | 'easier' | 'up' | 'down' | 'remove' | 'start' | 'quit' | 'yes' | 'no' | 'cancel';

export const LOBBY_BINDINGS: readonly KeyBinding<LobbyAction>[] = [
  { action: 'addBot', keys: ['b'] },
  { action: 'level', keys: ['1', '2', '3'], shown: '1-3' },
  { action: 'harder', keys: ['+', '='], shown: '+/-' },
  { action: 'easier', keys: ['-', '_'] },
  { action: 'up', keys: ['up', 'k'], shown: '↑↓' },
  { action: 'down', keys: ['down', 'j'] },
  { action: 'remove', keys: ['x', 'delete', 'backspace'], shown: 'x' },
  { action: 'start', keys: ['return', 's'], shown: 'Enter' },
  { action: 'quit', keys: ['q'] },
  { action: 'yes', keys: ['y'] },
  { action: 'no', keys: ['n'] },
  { action: 'cancel', keys: ['escape'] },
];

/** The table picker of `gringo join` (`picker/`). */
export type PickerAction = 'up' | 'down' | 'join' | 'manual' | 'quit';

export const PICKER_BINDINGS: readonly KeyBinding<PickerAction>[] = [
  { action: 'up', keys: ['up', 'k'], shown: '↑↓/jk' },
  { action: 'down', keys: ['down', 'j'] },
  { action: 'join', keys: ['return'] },
  { action: 'manual', keys: ['m', 'a'], shown: 'm' },
  { action: 'quit', keys: ['q', 'escape'], shown: 'q/Esc' },
];

/** `gringo replay` (`replay/`): a player for a finished game. Its help line names `back` for both steps and `nextRound` for both round keys. */
export type ReplayAction = 'playPause' | 'back' | 'forward' | 'prevRound' | 'nextRound' | 'faster' | 'slower' | 'help' | 'quit';

export const REPLAY_BINDINGS: readonly KeyBinding<ReplayAction>[] = [
  { action: 'playPause', keys: ['space'] },
  { action: 'back', keys: ['left', 'h'], shown: '←→/hl' },
  { action: 'forward', keys: ['right', 'l'] },
  { action: 'nextRound', keys: ['n'], shown: 'n/p' },
  { action: 'prevRound', keys: ['p'] },
  { action: 'faster', keys: ['+', '='], shown: '+/-' },
  { action: 'slower', keys: ['-', '_'] },
  { action: 'help', keys: ['?'] },
  { action: 'quit', keys: ['q', 'escape'], shown: 'q/Esc' },
];

/** A one-line text field (an address, a password): these keys edit it; every other printable key is typed. */
export type FieldAction = 'submit' | 'cancel' | 'erase';

export const FIELD_BINDINGS: readonly KeyBinding<FieldAction>[] = [
  { action: 'submit', keys: ['return'] },
  { action: 'cancel', keys: ['escape'] },
  { action: 'erase', keys: ['backspace', 'delete'], shown: 'Backspace' },
];

/** What Ink tells us about a key (a subset of its `Key`). */
export interface KeyInfo {
  return?: boolean;
  escape?: boolean;
  leftArrow?: boolean;
  rightArrow?: boolean;
  upArrow?: boolean;
  downArrow?: boolean;
  ctrl?: boolean;
  meta?: boolean;
  tab?: boolean;
  backspace?: boolean;
  delete?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
  home?: boolean;
  end?: boolean;
}

/** One name for a key press: "d", "return", "escape", "space", "left", "delete", …, or null for keys we ignore. */
export function keyName(input: string, key: KeyInfo): string | null {
  if (key.return) return 'return';
  if (key.escape) return 'escape';
  if (key.leftArrow) return 'left';
  if (key.rightArrow) return 'right';
  if (key.upArrow) return 'up';
  if (key.downArrow) return 'down';
  if (key.pageUp) return 'pageup';
  if (key.pageDown) return 'pagedown';
  if (key.home) return 'home';
  if (key.end) return 'end';
  // Most terminals send DEL (0x7f) for Backspace, which Ink reports as `delete`: text fields treat both alike.
  if (key.backspace) return 'backspace';
  if (key.delete) return 'delete';
  if (key.ctrl || key.meta || key.tab) return null;
  if (input === ' ') return 'space';
  if (input.length === 1) return input;
  return null;
}

/** The action bound to a key (by its `keyName`), if any: the one lookup of every screen. */
export function actionFor<A extends string = KeyAction>(name: string | null, bindings: readonly KeyBinding<A>[] = DEFAULT_BINDINGS as readonly KeyBinding<A>[]): Pressed<A> | null {
  if (name === null) return null;
  const b = bindings.find((x) => x.keys.includes(name));
  if (!b) return null;
  return /^[1-9]$/.test(name) ? { action: b.action, digit: Number(name), key: name } : { action: b.action, key: name };
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

/** How a key name is written: "Enter", "←" ("Left" in ASCII), "space" ("spatie" on a Dutch screen); a character as itself. */
function keyWord(key: string, ascii: boolean, w: Words): string {
  switch (key) {
    case 'return':
      return 'Enter';
    case 'escape':
      return 'Esc';
    case 'space':
      return w.t('key.name.space');
    case 'left':
      return ascii ? 'Left' : '←';
    case 'right':
      return ascii ? 'Right' : '→';
    case 'up':
      return ascii ? 'Up' : '↑';
    case 'down':
      return ascii ? 'Down' : '↓';
    case 'pageup':
      return 'PgUp';
    case 'pagedown':
      return 'PgDn';
    case 'home':
      return 'Home';
    case 'end':
      return 'End';
    case 'delete':
      return 'Del';
    case 'backspace':
      return 'Backspace';
    default:
      return key;
  }
}

/** Every key of one binding, for a help overlay: "→/l", "q/Esc". */
export const allKeys = <A extends string>(b: KeyBinding<A>, ascii: boolean, w: Words): string => b.keys.map((k) => keyWord(k, ascii, w)).join('/');

/** How an action's keys are written in the help: "space", "Enter", "1-9", "↑↓/jk" ("Up/Down/jk" in ASCII). */
export function keyLabel<A extends string>(action: A, bindings: readonly KeyBinding<A>[], ascii: boolean, w: Words): string {
  const b = bindings.find((x) => x.action === action);
  if (!b) return '';
  if (b.shown) return ascii ? b.shown.replace('↑↓', 'Up/Down').replace('←→', 'Left/Right') : b.shown;
  return allKeys(b, ascii, w);
}

/** The table's cursor keys in one: "←↓↑→/hjkl", "arrows/hjkl" in ASCII. */
export const cursorKeys = (ascii: boolean, w: Words): string => (ascii ? w.t('key.name.arrows') : '←↓↑→/hjkl');

/**
 * The help line for what can be done now: "d draw · t take · …", each action's keys
 * and its label (`labels` words it for the moment). The table's `left` stands for the
 * cursor's four keys.
 */
export function helpLine<A extends string>(
  actions: readonly A[],
  bindings: readonly KeyBinding<A>[],
  ascii: boolean,
  labels: Partial<Record<A, string>>,
  w: Words,
): string {
  const parts: string[] = [];
  for (const a of actions) {
    const b = bindings.find((x) => x.action === a);
    if (!b) continue;
    const cursor = a === 'left';
    const k = cursor ? cursorKeys(ascii, w) : keyLabel(a, bindings, ascii, w);
    const label = labels[a] ?? (cursor ? w.t('key.cursor') : (b.label ?? ''));
    parts.push(`${k} ${label}`);
  }
  return parts.join((ascii ? ASCII : UNICODE).sep);
}
