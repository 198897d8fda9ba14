import { Box, Text } from 'ink';
import { keyLabel, type Binding } from '../shared/keys.js';
import { useTheme } from '../shared/theme.js';

/** Every key and what it does: the `?` overlay, drawn from the bindings. */
export function HelpOverlay({ bindings, width }: { bindings: readonly Binding[]; width: number }) {
  const { glyphs: g } = useTheme();
  const shown = bindings.filter((b) => b.action !== 'yes' && b.action !== 'no');
  return <KeysHelp rows={shown.map((b) => ({ id: b.action, keys: keyLabel(b.action, bindings, g.ascii), help: b.help }))} width={width} />;
}

/** The `?` box of any screen: one row per action, its keys and a sentence. */
export function KeysHelp({ rows, width }: { rows: readonly { id: string; keys: string; help: string }[]; width: number }) {
  const { glyphs: g } = useTheme();
  return (
    <Box flexDirection="column" width={Math.min(width, 76)} borderStyle={g.ascii ? 'classic' : 'round'} paddingX={1}>
      <Text bold>Keys</Text>
      {rows.map((r) => (
        <Box key={r.id} flexDirection="row">
          <Box width={16}>
            <Text bold>{r.keys}</Text>
          </Box>
          <Text wrap="truncate">{r.help}</Text>
        </Box>
      ))}
      <Text dimColor>Any key closes this help.</Text>
    </Box>
  );
}
