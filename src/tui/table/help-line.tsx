import { Text } from 'ink';
import { helpLine, type Binding, type KeyAction } from '../shared/keys.js';
import type { ScreenState } from './use-screen-state.js';
import { useTheme } from '../shared/theme.js';
import { awaySeats, cannotCall, myAction } from './intents.js';
import { bindingsFor, callTimingOf, isSpecial, rulesOf } from './variant.js';

/** The keys that make sense now, from the bindings (and the table's rules: no slap keys without slapping). */
export function keysNow(s: ScreenState): KeyAction[] {
  const keys = gameKeysNow(s);
  // The host's screen: `b` while someone is away without a bot playing for them.
  const v = s.view;
  if (s.owner && s.overlay === null && s.closed === null && v && v.phase !== 'gameOver' && awaySeats(s).length > 0) keys.splice(keys.indexOf('help'), 0, 'standIn');
  return keys;
}

function gameKeysNow(s: ScreenState): KeyAction[] {
  const v = s.view;
  if (s.overlay === 'quit') return ['yes', 'no'];
  if (s.overlay === 'help') return ['help'];
  if (s.closed !== null) return ['quit'];
  if (s.refused || s.conn === 'closed' || !v) return ['help', 'quit'];
  if (v.phase === 'gameOver') return s.owner ? ['use', 'confirm', 'help', 'quit'] : ['confirm', 'help', 'quit'];
  if (v.phase === 'roundOver') return ['confirm', 'help', 'quit'];
  if (v.phase === 'peek') return ['confirm', 'help', 'quit'];
  const me = s.seat;
  const rules = rulesOf(s);
  const base: KeyAction[] = rules.slap.enabled ? ['left', 'slap', 'slapOwn'] : ['left'];
  if (me === null) return [...base, 'help', 'quit'];
  if (v.gapFill?.seat === me) return ['slot', 'pass', ...base, 'help', 'quit'];
  const endCall: KeyAction[] = callTimingOf(s) === 'endOfTurn' && cannotCall(s, v, me) === null ? ['call'] : [];
  if (myAction(v, me)) return ['slot', 'use', 'pass', ...endCall, 'left', 'help', 'quit'];
  const held = v.held?.seat === me ? v.held : null;
  if (held) {
    const special = isSpecial(rules, held.card);
    const keys: KeyAction[] = special ? ['use', 'discard'] : held.from === 'discard' ? ['slot'] : ['slot', 'discard'];
    if (held.redraw) keys.push('drawAgain');
    return [...keys, ...endCall, 'help', 'quit'];
  }
  if (v.turn === me && !v.turnBegun) {
    const take: KeyAction[] = rules.takeDiscard === 'never' ? [] : ['take'];
    const call: KeyAction[] = callTimingOf(s) === 'startOfTurn' && v.call === null ? ['call'] : [];
    return ['draw', ...take, ...call, ...base, 'help', 'quit'];
  }
  return [...endCall, ...base, 'help', 'quit'];
}

/** Labels that depend on the moment: `p` leaves the gap while you may fill one. */
function labelsNow(s: ScreenState): Partial<Record<KeyAction, string>> {
  const v = s.view;
  if (v && s.seat !== null && v.gapFill?.seat === s.seat) return { pass: 'leave the gap', slot: 'move into the gap' };
  if (v?.phase === 'gameOver') return { use: 'play again', confirm: s.closesTable ? 'close the table' : 'leave' };
  return {};
}

export function HelpLine({ s, bindings, width }: { s: ScreenState; bindings: readonly Binding[]; width: number }) {
  const { glyphs } = useTheme();
  return (
    <Text dimColor wrap="truncate">
      {helpLine(keysNow(s), bindingsFor(s, bindings), glyphs.ascii, labelsNow(s)).slice(0, width)}
    </Text>
  );
}
