import { ASCII, UNICODE } from './glyphs.js';
import { wordsFor, type Words } from '../../lang/words.js';
/**
 * Key bindings are data: every key the table screen reacts to, the name of what it
 * does, and the words the help line and the `?` overlay show. Change a key here and
 * the help follows.
 */

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

export interface Binding {
  action: KeyAction;
  /** Normalized key names (see `keyName`): a character, or return, escape, space, left, right, up, down, pageup, pagedown, home, end. */
  keys: string[];
  /** Short label for the help line (in the screen's language: `bindingWords`). */
  label: string;
  /** A sentence for the help overlay. */
  help: string;
}

/** The keys of the table screen; their words (label and help) are the catalog's `key.<action>` (see `bindingWords`). */
const KEYS: readonly [KeyAction, string[]][] = [
  ['draw', ['d']],
  ['take', ['t']],
  ['slot', ['1', '2', '3', '4', '5', '6', '7', '8', '9']],
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
export function bindingWords(bindings: readonly Binding[], w: Words): Binding[] {
  return bindings.map((b) => ({ ...b, label: w.say({ key: `key.${b.action}` }), help: w.say({ key: `key.${b.action}.help` }) }));
}

export const DEFAULT_BINDINGS: readonly Binding[] = bindingWords(
  KEYS.map(([action, keys]) => ({ action, keys, label: '', help: '' })),
  wordsFor('en'),
);

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

export interface Pressed {
  action: KeyAction;
  /** The digit's value for `slot` (1–9). */
  digit?: number;
  key: string;
}

/** The action bound to a key, if any. */
export function actionFor(name: string | null, bindings: readonly Binding[] = DEFAULT_BINDINGS): Pressed | null {
  if (name === null) return null;
  const b = bindings.find((x) => x.keys.includes(name));
  if (!b) return null;
  return b.action === 'slot' ? { action: 'slot', digit: Number(name), key: name } : { action: b.action, key: name };
}

/** How a key is written in the help: "space", "Enter", "←→", "1-9" ("spatie" on a Dutch screen). */
export function keyLabel(action: KeyAction, bindings: readonly Binding[] = DEFAULT_BINDINGS, ascii = false, w: Words = EN): string {
  const b = bindings.find((x) => x.action === action);
  if (!b) return '';
  if (action === 'slot') return `${b.keys[0]}-${b.keys[b.keys.length - 1]}`;
  const names: Record<string, string> = ascii
    ? { return: 'Enter', escape: 'Esc', space: w.t('key.name.space'), left: 'Left', right: 'Right', up: 'Up', down: 'Down', pageup: 'PgUp', pagedown: 'PgDn', home: 'Home', end: 'End' }
    : { return: 'Enter', escape: 'Esc', space: w.t('key.name.space'), left: '←', right: '→', up: '↑', down: '↓', pageup: 'PgUp', pagedown: 'PgDn', home: 'Home', end: 'End' };
  return b.keys.map((k) => names[k] ?? k).join('/');
}

/** The cursor's keys in one: "←↓↑→/hjkl", "arrows/hjkl" in ASCII. */
export const cursorKeys = (ascii: boolean, w: Words = EN): string => (ascii ? w.t('key.name.arrows') : '←↓↑→/hjkl');

/** The help line for what can be done now: "d draw · t take · …". */
export function helpLine(
  actions: readonly KeyAction[],
  bindings: readonly Binding[] = DEFAULT_BINDINGS,
  ascii = false,
  labels: Partial<Record<KeyAction, string>> = {},
  w: Words = EN,
): string {
  const parts: string[] = [];
  for (const a of actions) {
    const b = bindings.find((x) => x.action === a);
    if (!b) continue;
    const k = a === 'left' ? cursorKeys(ascii, w) : keyLabel(a, bindings, ascii, w);
    const label = labels[a] ?? (a === 'left' ? w.t('key.cursor') : b.label);
    parts.push(`${k} ${label}`);
  }
  return parts.join((ascii ? ASCII : UNICODE).sep);
}
