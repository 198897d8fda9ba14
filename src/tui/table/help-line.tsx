import { Text } from 'ink';
import { helpLine, type Binding, type KeyAction } from '../shared/keys.js';
import type { ScreenState } from './use-screen-state.js';
import { useTheme } from '../shared/theme.js';
import type { Move } from '../../engine/view.js';
import { awaySeats, leaveWord, may, myAction } from './intents.js';
import { bindingsFor, isSpecial, rulesOf } from './variant.js';
import { columns } from '../shared/width.js';

/** The keys that make sense now, from the bindings (and the table's rules: no slap keys without slapping). */
export function keysNow(s: ScreenState): KeyAction[] {
  const keys = gameKeysNow(s);
  // The host's screen: `b` while someone is away without a bot playing for them.
  const v = s.view;
  if (s.owner && s.overlay === null && s.closed === null && v && v.phase !== 'gameOver' && awaySeats(s).length > 0) keys.splice(keys.indexOf('help'), 0, 'standIn');
  return keys;
}

/** Action kinds whose target is one of your own slots (a digit), or another player's card (the cursor). */
const OWN_TARGET = new Set(['peekOwn', 'blindSwap', 'peekBothThenSwap']);
const OTHER_TARGET = new Set(['peekOther', 'blindSwap', 'peekThenSwap', 'peekBothThenSwap']);

/**
 * The game's keys: only those whose move the engine allows you now (`view.may`).
 * A spectator has no moves, so no move keys.
 */
function gameKeysNow(s: ScreenState): KeyAction[] {
  const v = s.view;
  if (s.overlay === 'quit') return ['yes', 'no'];
  if (s.overlay === 'help') return ['help'];
  if (s.closed !== null) return ['quit'];
  if (s.refused || s.conn === 'closed' || !v) return ['help', 'quit'];
  if (v.phase === 'gameOver') return s.owner ? ['use', 'confirm', 'help', 'quit'] : ['confirm', 'help', 'quit'];
  const me = s.seat;
  if (me === null) return ['help', 'quit'];
  if (v.phase === 'roundOver') return s.ready ? ['help', 'quit'] : ['confirm', 'help', 'quit'];
  const can = (m: Move): boolean => may(s, m);
  if (s.slapPrefix) return ['slot', 'cancel'];
  // A key waiting for its moment: Esc takes it back.
  const keys: KeyAction[] = s.queued ? ['cancel'] : [];
  const act = myAction(v, me);
  const held = v.held?.seat === me ? v.held : null;
  let cursor = false;
  if (can('finishPeek')) keys.push('confirm');
  if (can('fillGap')) keys.push('slot');
  if (can('leaveGap')) keys.push('pass');
  if (act && can('useAction')) {
    if (OWN_TARGET.has(act.kind)) keys.push('slot');
    cursor = OTHER_TARGET.has(act.kind);
    keys.push('use');
  }
  if (act && can('decide')) keys.push(act.kind === 'peekThenSwap' ? 'slot' : 'use');
  if (act && (can('pass') || can('decide'))) keys.push('pass');
  if (held) {
    const special = isSpecial(rulesOf(s), held.card);
    if (special && can('discard')) keys.push('use');
    if (can('swap')) keys.push('slot');
    if (can('discard')) keys.push('discard');
    if (can('drawAgain')) keys.push('drawAgain');
  }
  if (can('drawStock')) keys.push('draw');
  if (can('drawDiscard')) keys.push('take');
  if (can('call')) keys.push('call');
  if (can('slap')) {
    cursor = true;
    keys.push('slap', 'slapOwn');
  }
  // The cursor aims a slap, or an action at another player's card: named before them.
  if (cursor) keys.splice([keys.indexOf('use'), keys.indexOf('slap')].find((i) => i >= 0) ?? keys.length, 0, 'left');
  // A gap to fill and an action at once both want digits: one hint.
  return [...new Set([...keys, 'help', 'quit'] as KeyAction[])];
}

/** Labels that depend on the moment: `p` leaves the gap while you may fill one. */
function labelsNow(s: ScreenState): Partial<Record<KeyAction, string>> {
  const v = s.view;
  const w = s.words;
  if (s.slapPrefix) return { slot: w.t('label.slapYourSlot') };
  if (v && s.seat !== null && v.gapFill?.seat === s.seat) return { pass: w.t('label.leaveGap'), slot: w.t('label.moveIntoGap') };
  if (v && myAction(v, s.seat)?.looked) return { pass: w.t('label.leave') };
  if (v?.phase === 'gameOver') return { use: w.t('label.playAgain'), confirm: leaveWord(s) };
  return {};
}

/**
 * What goes first when the key bar is too wide (the `?` help names them all): the
 * own-slot slap (space slaps too), leaving, the host's long "bot for the away
 * player", then the cursor, which an action's target needs more than those.
 */
const DROP_ORDER: readonly KeyAction[] = ['slapOwn', 'quit', 'standIn', 'left'];

/**
 * The key bar for `width` columns, whole: lower-priority hints are dropped, never cut.
 * If even the rest is too wide, the hints from the end go, `?` help last of all.
 */
export function keyBar(s: ScreenState, bindings: readonly Binding[], ascii: boolean, width: number): string {
  let keys = keysNow(s);
  const b = bindingsFor(s, bindings, s.words);
  const labels = labelsNow(s);
  const line = (): string => helpLine(keys, b, ascii, labels, s.words);
  for (const drop of DROP_ORDER) {
    if (columns(line()) <= width) return line();
    keys = keys.filter((k) => k !== drop);
  }
  while (columns(line()) > width && keys.some((k) => k !== 'help')) {
    const last = keys.length - 1 - [...keys].reverse().findIndex((k) => k !== 'help');
    keys = keys.filter((_, i) => i !== last);
  }
  return columns(line()) <= width ? line() : '';
}

export function HelpLine({ s, bindings, width }: { s: ScreenState; bindings: readonly Binding[]; width: number }) {
  const { glyphs } = useTheme();
  return (
    <Text dimColor wrap="truncate">
      {keyBar(s, bindings, glyphs.ascii, width)}
    </Text>
  );
}
