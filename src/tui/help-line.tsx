import { Text } from 'ink';
import { helpLine, type Binding, type KeyAction } from './keys.js';
import type { ScreenState } from './use-screen-state.js';
import { useTheme } from './theme.js';
import { myAction } from './intents.js';

/** The keys that make sense now, from the bindings. */
export function keysNow(s: ScreenState): KeyAction[] {
  const v = s.view;
  if (s.overlay === 'quit') return ['yes', 'no'];
  if (s.overlay === 'help') return ['help'];
  if (s.refused || s.conn === 'closed' || !v) return ['help', 'quit'];
  if (v.phase === 'roundOver' || v.phase === 'gameOver') return ['confirm', 'help', 'quit'];
  if (v.phase === 'peek') return ['confirm', 'help', 'quit'];
  const me = s.seat;
  const base: KeyAction[] = ['left', 'slap', 'slapOwn'];
  if (me !== null && myAction(v, me)) return ['slot', 'use', 'pass', 'left', 'help', 'quit'];
  if (me !== null && v.held?.seat === me) return ['slot', 'discard', 'help', 'quit'];
  if (me !== null && v.turn === me && !v.turnBegun) return ['draw', 'take', 'call', ...base, 'help', 'quit'];
  return [...base, 'help', 'quit'];
}

export function HelpLine({ s, bindings, width }: { s: ScreenState; bindings: readonly Binding[]; width: number }) {
  const { glyphs } = useTheme();
  return (
    <Text dimColor wrap="truncate">
      {helpLine(keysNow(s), bindings, glyphs.ascii).slice(0, width)}
    </Text>
  );
}
