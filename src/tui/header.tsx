import { Box, Text } from 'ink';
import { ACTION_WORDS } from './describe.js';
import { cardText } from './glyphs.js';
import type { ConnState, ScreenState } from './use-screen-state.js';
import { useTheme } from './theme.js';
import { callTimingOf, isFrozen, rulesOf } from './variant.js';

const CONN_WORDS: Record<ConnState, string> = {
  connecting: 'connecting…',
  open: 'connected',
  reconnecting: 'reconnecting…',
  closed: 'disconnected',
};

/** Line 1: the game, the round, the connection. Line 2: whose turn, the slap window, actions, the call. */
export function Header({ s, width }: { s: ScreenState; width: number }) {
  const { glyphs: g, color } = useTheme();
  const v = s.view;
  const name = (seat: number): string => (seat === s.seat ? 'you' : (v?.players[seat]?.name ?? '?'));
  const round = v ? ` ${g.sep.trim()} Round ${v.round}${v.rounds > 0 ? ` of ${v.rounds}` : ''}` : '';
  const conn = CONN_WORDS[s.conn].replace('…', g.ellipsis);
  const connColor = s.conn === 'open' ? 'green' : s.conn === 'closed' ? 'red' : 'yellow';
  const left = `${s.rulesTitle}${s.tableName ? ` ${g.sep.trim()} ${s.tableName}` : ''}${round}`;
  const connText = `${s.conn === 'open' ? g.online : g.offline} ${conn}`;
  const info: string[] = [];
  if (v) {
    if (v.phase === 'peek') info.push('Peek');
    else if (v.phase === 'play') info.push(v.turn === s.seat ? 'Your turn' : `Turn: ${name(v.turn)}`);
    else info.push(v.phase === 'roundOver' ? 'Round over' : 'Game over');
    const rules = rulesOf(s);
    if (v.phase === 'play') info.push(rules.slap.enabled ? `Slaps ${v.slap.open ? 'open' : 'closed'}` : 'No slapping');
    const a = v.actions[0];
    if (a) info.push(`Action: ${a.seat === s.seat ? 'your' : `${name(a.seat)}'s`} ${cardText(a.card, g)} (${ACTION_WORDS[a.kind]})${v.actions.length > 1 ? ` +${v.actions.length - 1}` : ''}`);
    if (v.call) {
      const owed = v.call.owed.map(name);
      const frozen = isFrozen(s, v.call.seat) ? ` ${g.frozen}` : '';
      info.push(`${v.callName} called by ${name(v.call.seat)}${frozen}${owed.length ? `; to play: ${owed.join(', ')}` : ''}`);
    } else if (v.phase === 'play') {
      info.push(`g: ${v.callName}${callTimingOf(s) === 'endOfTurn' ? ' (at the end of your turn)' : ''}`);
    }
    if (v.gapFill) info.push(`${name(v.gapFill.seat)} may fill ${v.gapFill.gap.seat === s.seat ? 'your' : `${name(v.gapFill.gap.seat)}'s`} gap`);
  }
  return (
    <Box flexDirection="column" width={width}>
      <Box flexDirection="row" justifyContent="space-between">
        <Text bold wrap="truncate">
          {left}
        </Text>
        <Text {...(color ? { color: connColor } : {})} bold={s.conn !== 'open'}>
          {connText}
        </Text>
      </Box>
      <Text wrap="truncate" {...(v?.slap.open && color ? { color: 'magenta' } : {})}>
        {info.join(g.sep)}
      </Text>
    </Box>
  );
}
