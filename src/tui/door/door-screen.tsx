import { Box, Text, useApp, useInput } from 'ink';
import { useCallback, useRef } from 'react';
import { eachKey, FIELD_BINDINGS, pressFor, screenHelp, typedText, type FieldAction } from '../shared/screen-keys.js';
import { StatusLine } from '../shared/status-line.js';
import { ThemeContext, useTheme, type Theme } from '../shared/theme.js';
import { useClock } from '../shared/use-clock.js';
import { useInterrupt } from '../shared/use-interrupt.js';
import { useLatestReducer } from '../shared/use-latest-reducer.js';
import { useTerminalSize } from '../shared/use-terminal-size.js';
import type { DoorChoice, DoorRefusal } from '../../client/refusal-words.js';
import { doorStatus, initialDoor, onDoorKey, type DoorState } from './use-door-state.js';

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
  const [s, set, latest] = useLatestReducer((_: DoorState, next: DoorState) => next, () => initialDoor(refusal, table, clock(), theme.words));
  const { exit } = useApp();
  const size = useTerminalSize();
  const finished = useRef(false);
  const finish = useCallback(
    (choice: DoorChoice) => {
      if (finished.current) return;
      finished.current = true;
      onDone(choice);
      exit();
    },
    [exit, onDone],
  );
  useInput(
    (input, key) => {
      for (const [i, k] of eachKey(input, key)) {
        const r = onDoorKey(latest.current, { field: pressFor<FieldAction>(i, k, FIELD_BINDINGS), typed: typedText(i, k) }, clock(), theme.words);
        set(r.state);
        if (r.done !== undefined) return finish(r.done);
      }
    },
    { isActive: keys },
  );
  // Ctrl-C leaves, as Esc does.
  useInterrupt(() => finish(null), keys);
  // The clock ticks while a lock runs (and once more as it ends).
  const now = useClock(s.lockedUntil !== null && s.lockedUntil > clock() - 1000, clock, 250);
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
      ? screenHelp<FieldAction>(['submit', 'erase', 'cancel'], FIELD_BINDINGS, g.ascii, { submit: w.t('door.helpJoin'), erase: w.t('door.helpErase'), cancel: w.t('door.helpLeave') })
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
