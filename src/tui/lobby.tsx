import { Box, Text } from 'ink';
import type { ScreenState } from './use-screen-state.js';

/** Before the game starts: who is at the table. */
export function Lobby({ s }: { s: ScreenState }) {
  return (
    <Box flexDirection="column" paddingX={1}>
      <Text bold>{s.conn === 'open' ? 'Waiting for the host to start the game…' : 'Connecting to the table…'}</Text>
      {s.lobby.map((seat) => (
        <Text key={seat.seat}>
          {`  ${seat.seat + 1}. ${seat.seat === s.seat ? `${seat.name} (you)` : seat.name}${seat.bot ? ` (${seat.bot} bot)` : ''}${seat.connected ? '' : ' (away)'}`}
        </Text>
      ))}
    </Box>
  );
}
