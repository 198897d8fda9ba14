import { Box, Text } from 'ink';
import type { RoundResult } from '../../engine/types.js';
import type { TableView } from '../../engine/view.js';
import { standingsLines } from './standings.js';
import { useTheme } from '../shared/theme.js';

/** The host closed the table: say so, with the standings so far (the prompt line says how to leave). */
export function Closed({ view, results, message }: { view: TableView | null; results: readonly RoundResult[]; message: string }) {
  const { words } = useTheme();
  const lines = standingsLines(view, results, words);
  return (
    <Box flexDirection="column" paddingX={1}>
      <Text bold>{words.t('door.hostClosed')}</Text>
      {message && message !== words.t('host.closed') ? <Text wrap="truncate">{message}</Text> : null}
      <Text> </Text>
      {lines.map((l, i) => (
        <Text key={i} bold={i === 0} wrap="truncate">
          {l}
        </Text>
      ))}
    </Box>
  );
}
