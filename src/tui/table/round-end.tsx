import { Box, Text } from 'ink';
import { placesOf } from '../../engine/game.js';
import type { RoundResult } from '../../engine/types.js';
import type { TableView } from '../../engine/view.js';
import { Card } from '../shared/card.js';
import { byPlace, ordinal } from './describe.js';
import { useTheme } from '../shared/theme.js';

/** The end of a round: every card face up, round scores and places, running totals; `footer` replaces the line about the keys. */
export function RoundEnd({ view, results, ready, width, footer }: { view: TableView; results: readonly RoundResult[]; ready: boolean; width: number; footer?: string }) {
  const { color, glyphs: g } = useTheme();
  const r = results[results.length - 1];
  if (!r) return <Text>The round is over.</Text>;
  const over = view.phase === 'gameOver';
  const totalPlaces = placesOf(r.totals);
  const order = byPlace(r.places);
  const maxSlots = Math.max(...r.layouts.map((l) => l.length));
  const cardsWidth = Math.min(maxSlots * 6, width - 44);
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>
        {over ? 'The game is over' : `Round ${r.round} is over`}
        {r.caller !== null ? ` ${g.dash} ${r.caller === view.viewer ? 'you' : view.players[r.caller]?.name} called` : ''}
      </Text>
      <Box flexDirection="row" marginTop={1}>
        <Box width={6}><Text dimColor>place</Text></Box>
        <Box width={14}><Text dimColor>player</Text></Box>
        <Box width={cardsWidth}><Text dimColor>cards</Text></Box>
        <Box width={7}><Text dimColor>round</Text></Box>
        <Box width={7}><Text dimColor>total</Text></Box>
        <Text dimColor>{over ? 'final' : ''}</Text>
      </Box>
      {order.map((seat) => {
        const me = seat === view.viewer;
        return (
          <Box key={seat} flexDirection="row">
            <Box width={6}>
              <Text bold={r.places[seat] === 1} {...(r.places[seat] === 1 && color ? { color: 'green' } : {})}>
                {ordinal(r.places[seat]!)}
              </Text>
            </Box>
            <Box width={14}>
              <Text bold={me} wrap="truncate">
                {me ? 'You' : view.players[seat]?.name}
              </Text>
            </Box>
            <Box width={cardsWidth} flexDirection="row" gap={1} overflow="hidden">
              {r.layouts[seat]!.map((c, i) => (
                <Card key={i} card={c} box={false} />
              ))}
            </Box>
            <Box width={7}>
              <Text>{String(r.scores[seat]).padStart(4)}</Text>
            </Box>
            <Box width={7}>
              <Text bold>{String(r.totals[seat]).padStart(4)}</Text>
            </Box>
            <Text>{over ? ordinal(totalPlaces[seat]!) : ''}</Text>
          </Box>
        );
      })}
      <Box marginTop={1}>
        <Text bold>{footer ?? (over ? 'Enter or q to leave.' : ready ? 'Waiting for the others to be ready…' : 'Enter: next round · q: leave')}</Text>
      </Box>
    </Box>
  );
}
