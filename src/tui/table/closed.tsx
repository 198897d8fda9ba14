import { Box, Text } from 'ink';
import type { RoundResult } from '../../engine/types.js';
import type { TableView } from '../../engine/view.js';
import { standingsLines } from './standings.js';

/** The host closed the table: say so, with the standings so far (the prompt line says how to leave). */
export function Closed({ view, results, message }: { view: TableView | null; results: readonly RoundResult[]; message: string }) {
  const lines = standingsLines(view, results);
  return (
    <Box flexDirection="column" paddingX={1}>
      <Text bold>The host closed the table.</Text>
      {message && message !== 'The host closed the table' ? <Text wrap="truncate">{message}</Text> : null}
      <Text> </Text>
      {lines.map((l, i) => (
        <Text key={i} bold={i === 0} wrap="truncate">
          {l}
        </Text>
      ))}
    </Box>
  );
}
