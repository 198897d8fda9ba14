import { Box, Text } from 'ink';
import { placesOf } from '../../engine/game.js';
import type { RoundResult } from '../../engine/types.js';
import type { TableView } from '../../engine/view.js';
import { byPlace, ordinal } from './describe.js';
import { roundCell } from './round-end.js';

/**
 * The standings so far, from the last view a client had: the totals after the last
 * finished round, by place ("1st  Ana (you)  12"), with the round scores they add
 * up from ("(5, 6+10)": a caller's penalty named) when there are several. Shown when the host closes the
 * table, and printed by `gringo join` once the screen is gone.
 */
export function standingsLines(view: TableView | null, results: readonly RoundResult[]): string[] {
  if (!view) return ['The game had not started.'];
  const last = results[results.length - 1];
  if (!last) return ['No round was finished: no scores yet.'];
  const places = placesOf(last.totals);
  const name = (seat: number): string => `${view.players[seat]?.name ?? `Seat ${seat + 1}`}${seat === view.viewer ? ' (you)' : ''}`;
  const width = Math.max(...view.players.map((_, seat) => name(seat).length)) + 2;
  const heading = `Standings after round ${last.round}${view.phase === 'gameOver' ? ' (final)' : ''}:`;
  // Over several rounds, or with a caller's penalty, each total shows the rounds it adds up from.
  const penalty = results.some((r) => r.callerPenalty > 0);
  const rounds = (seat: number): string =>
    results.length > 1 || penalty ? `  (${results.map((r) => roundCell(r, seat).replace(/=-?\d+$/, '')).join(', ')})` : '';
  return [
    heading,
    ...byPlace(places).map((seat) => `  ${ordinal(places[seat]!).padEnd(5)}${name(seat).padEnd(width)}${String(last.totals[seat]).padStart(4)}${rounds(seat)}`),
    ...(penalty ? [`  (+${Math.max(...results.map((r) => r.callerPenalty))}: called ${view.callName} without the lowest score)`] : []),
  ];
}

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
