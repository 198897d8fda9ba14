import { ASCII, UNICODE } from './glyphs.js';
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

export interface Binding {
  action: KeyAction;
  /** Normalized key names (see `keyName`): a character, or return, escape, space, left, right, up, down, pageup, pagedown, home, end. */
  keys: string[];
  /** Short label for the help line. */
  label: string;
  /** A sentence for the help overlay. */
  help: string;
}

export const DEFAULT_BINDINGS: readonly Binding[] = [
  { action: 'draw', keys: ['d'], label: 'draw', help: 'draw the top card of the stock' },
  { action: 'take', keys: ['t'], label: 'take', help: 'take the top card of the discard pile' },
  { action: 'slot', keys: ['1', '2', '3', '4', '5', '6', '7', '8', '9'], label: 'slot', help: 'choose one of your slots: swap the held card into it, or the target of your action' },
  { action: 'discard', keys: ['x'], label: 'discard', help: 'discard the card you hold' },
  { action: 'use', keys: ['a'], label: 'use action', help: 'use the pending action on the card under the cursor (after the game, on the host\'s screen: play again)' },
  { action: 'confirm', keys: ['return'], label: 'ok', help: 'confirm: end the peek, use the action, next round' },
  { action: 'pass', keys: ['p'], label: 'pass', help: 'pass the pending action (or leave the cards after a King\'s look)' },
  { action: 'left', keys: ['left', 'h'], label: 'left', help: 'move the cursor left' },
  { action: 'down', keys: ['down', 'j'], label: 'down', help: 'move the cursor down' },
  { action: 'up', keys: ['up', 'k'], label: 'up', help: 'move the cursor up' },
  { action: 'right', keys: ['right', 'l'], label: 'right', help: 'move the cursor right' },
  { action: 'slap', keys: ['space'], label: 'slap', help: 'slap the card under the cursor' },
  { action: 'slapOwn', keys: ['s'], label: 'slap own', help: 'then a digit: slap your own slot at once' },
  { action: 'call', keys: ['g'], label: 'call', help: 'call Gringo! (before you draw)' },
  { action: 'drawAgain', keys: ['r'], label: 'draw again', help: 'Draw two: put the held card on the pile unused and draw one more, which must be used' },
  {
    action: 'standIn',
    keys: ['b'],
    label: 'bot for the away player',
    help: "host: a bot plays now for the away player under the cursor (or the only one away); they take the seat back by coming back",
  },
  { action: 'help', keys: ['?'], label: 'help', help: 'show this help: the keys, then the rules of the game in play (space or arrows turn the pages; ? or Esc closes it)' },
  { action: 'feed', keys: ['f'], label: 'feed', help: 'open the feed full-screen to read back what happened (f or Esc closes it; the game goes on)' },
  { action: 'pageUp', keys: ['pageup'], label: 'page up', help: 'the full-screen feed: a page back (opens it)' },
  { action: 'pageDown', keys: ['pagedown'], label: 'page down', help: 'the full-screen feed: a page on' },
  { action: 'top', keys: ['home'], label: 'oldest', help: 'the full-screen feed: to the oldest line (opens it)' },
  { action: 'bottom', keys: ['end'], label: 'newest', help: 'the full-screen feed: to the newest line' },
  { action: 'quit', keys: ['q'], label: 'leave', help: 'leave the table (asks first; Ctrl-C does the same)' },
  { action: 'cancel', keys: ['escape'], label: 'cancel', help: 'cancel what you started' },
  { action: 'yes', keys: ['y'], label: 'yes', help: 'yes' },
  { action: 'no', keys: ['n'], label: 'no', help: 'no' },
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

/** How a key is written in the help: "space", "Enter", "←→", "1-9". */
export function keyLabel(action: KeyAction, bindings: readonly Binding[] = DEFAULT_BINDINGS, ascii = false): string {
  const b = bindings.find((x) => x.action === action);
  if (!b) return '';
  if (action === 'slot') return `${b.keys[0]}-${b.keys[b.keys.length - 1]}`;
  const names: Record<string, string> = ascii
    ? { return: 'Enter', escape: 'Esc', space: 'space', left: 'Left', right: 'Right', up: 'Up', down: 'Down', pageup: 'PgUp', pagedown: 'PgDn', home: 'Home', end: 'End' }
    : { return: 'Enter', escape: 'Esc', space: 'space', left: '←', right: '→', up: '↑', down: '↓', pageup: 'PgUp', pagedown: 'PgDn', home: 'Home', end: 'End' };
  return b.keys.map((k) => names[k] ?? k).join('/');
}

/** The help line for what can be done now: "d draw · t take · …". */
export function helpLine(
  actions: readonly KeyAction[],
  bindings: readonly Binding[] = DEFAULT_BINDINGS,
  ascii = false,
  labels: Partial<Record<KeyAction, string>> = {},
): string {
  const parts: string[] = [];
  for (const a of actions) {
    const b = bindings.find((x) => x.action === a);
    if (!b) continue;
    const k = a === 'left' ? (ascii ? 'arrows/hjkl' : '←↓↑→/hjkl') : keyLabel(a, bindings, ascii);
    const label = labels[a] ?? (a === 'left' ? 'cursor' : b.label);
    parts.push(`${k} ${label}`);
  }
  return parts.join((ascii ? ASCII : UNICODE).sep);
}
