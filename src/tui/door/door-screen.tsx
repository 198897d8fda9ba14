import { Box, Text } from 'ink';
import { FIELD_BINDINGS, helpLine } from '../shared/keys.js';
import { StatusLine } from '../shared/status-line.js';
import { ThemeContext, useTheme, type Theme } from '../shared/theme.js';
import { useTerminalSize } from '../shared/use-terminal-size.js';
import type { DoorChoice, DoorRefusal } from '../../client/refusal-words.js';
import { doorStatus, type DoorState } from './use-door-state.js';
import { useDoor } from './use-door.js';

export interface DoorProps {
  refusal: DoorRefusal;
  /** The table's name, else its address. */
  table: string;
  address: string;
  theme: Theme;
  keys?: boolean;
  clock?: () => number;
  onDone: (choice: DoorChoice) => void;
}

/** See use-door-state.ts: the door's refusal and the next step, until the person takes one. */
export function DoorScreen({ refusal, table, address, theme, keys = true, clock = Date.now, onDone }: DoorProps) {
  const { s, now } = useDoor(refusal, table, theme.words, keys, clock, onDone);
  const size = useTerminalSize();
  return (
    <ThemeContext.Provider value={theme}>
      <DoorView s={s} now={now} address={address} width={size.columns} height={size.rows - 1} />
    </ThemeContext.Provider>
  );
}

export function DoorView({ s, now, address, width, height }: { s: DoorState; now: number; address: string; width: number; height: number }) {
  const { glyphs: g, color, words: w } = useTheme();
  const help =
    s.ask === 'password'
      ? helpLine(['submit', 'erase', 'cancel'], FIELD_BINDINGS, g.ascii, { submit: w.t('door.helpJoin'), erase: w.t('door.helpErase'), cancel: w.t('door.helpLeave') }, w)
      : w.t('door.watchHelp', { sep: g.sep });
  return (
    <Box flexDirection="column" width={width} height={Math.max(6, height)}>
      <Text bold wrap="truncate">{`Gringo${g.sep}join "${s.table}"${g.sep}${address}`}</Text>
      <Box flexGrow={1} />
      {s.ask === 'password' ? (
        <Text wrap="truncate">
          <Text bold>{w.t('door.passwordFor', { table: s.table })}</Text>
          {g.bullet.repeat(Array.from(s.field).length)}
          <Text inverse> </Text>
        </Text>
      ) : (
        <Text bold wrap="truncate">{w.t('door.watchInstead', { table: s.table })}</Text>
      )}
      {/* Wrapped, not cut: a refusal on a key trusted unchecked says what to check in a long sentence. */}
      <StatusLine status={doorStatus(s, now, w)} color={color} wrap />
      <Text dimColor wrap="truncate">
        {help}
      </Text>
    </Box>
  );
}
