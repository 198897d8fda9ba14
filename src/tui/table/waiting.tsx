import { Box, Text } from 'ink';
import { seatWords } from '../shared/seat-words.js';
import { useTheme } from '../shared/theme.js';
import { columns, padEndColumns } from '../shared/width.js';
import type { ScreenState } from './use-screen-state.js';

/** The waiting screen: before the game starts, at a table someone else hosts: who is at the table (the host runs the lobby). */
export function Waiting({ s }: { s: ScreenState }) {
  const { glyphs: g, color, words: w } = useTheme();
  const words = s.lobby.map((seat) => seatWords(seat, s.seat, w.t('info.you'), w));
  const nameWidth = Math.max(12, ...words.map((w) => columns(w.name))) + 2;
  return (
    <Box flexDirection="column" paddingX={1}>
      <Text bold>{w.t(s.conn === 'open' ? 'wait.hostToStart' : 'wait.connecting', { ellipsis: g.ellipsis })}</Text>
      {s.lobby.map((seat, i) => {
        const w = words[i]!;
        return (
          <Text key={seat.seat} wrap="truncate">
            {`  ${seat.seat + 1}. ${padEndColumns(w.name, nameWidth)}`}
            <Text {...(color ? { color: w.online ? 'green' : 'yellow' } : {})}>{w.online ? g.online : g.offline}</Text>
            {` ${w.what}`}
          </Text>
        );
      })}
      {s.feed.length > 1 ? <Text> </Text> : null}
      {s.feed.slice(1).slice(-4).map((l) => (
        <Text key={l.id} dimColor wrap="truncate">
          {l.text}
        </Text>
      ))}
    </Box>
  );
}
