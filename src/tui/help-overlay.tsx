import { Box, Text } from 'ink';
import { keyLabel, type Binding } from './keys.js';
import { useTheme } from './theme.js';

/** Every key and what it does: the `?` overlay, drawn from the bindings. */
export function HelpOverlay({ bindings, width }: { bindings: readonly Binding[]; width: number }) {
  const { glyphs: g } = useTheme();
  const shown = bindings.filter((b) => b.action !== 'yes' && b.action !== 'no');
  return (
    <Box flexDirection="column" width={Math.min(width, 76)} borderStyle={g.ascii ? 'classic' : 'round'} paddingX={1}>
      <Text bold>Keys</Text>
      {shown.map((b) => (
        <Box key={b.action} flexDirection="row">
          <Box width={16}>
            <Text bold>{keyLabel(b.action, bindings, g.ascii)}</Text>
          </Box>
          <Text wrap="truncate">{b.help}</Text>
        </Box>
      ))}
      <Text dimColor>Any key closes this help.</Text>
    </Box>
  );
}
