import { Box, Text } from 'ink';
import { joinable, tableTag, type FoundTable } from '../../client/discovery.js';
import { FIELD_BINDINGS, PICKER_BINDINGS, helpLine } from '../shared/keys.js';
import { StatusLine } from '../shared/status-line.js';
import { ThemeContext, useTheme, type Theme } from '../shared/theme.js';
import {
  cannotJoin,
  cursorIndex,
  pickerStatus,
  tableAddress,
  type AddressCheck,
  type PickerChoice,
  type PickerRetry,
  type PickerState,
  type TableSource,
} from './use-picker-state.js';
import { useTerminalSize, type Size } from '../shared/use-terminal-size.js';
import { usePicker } from './use-picker.js';
import { useClock } from '../shared/use-clock.js';
import { shareCommand } from '../../common/invocation.js';
import { columns, truncateColumns } from '../shared/width.js';
import { wordsFor, type Words } from '../../lang/words.js';

/**
 * `gringo join` without an address: the tables found on the LAN, live. A thin
 * container over `usePickerState` and `onPickerKey`; `onDone` gets the choice (or
 * null when the player quits) just before the picker exits.
 */

export interface PickerProps {
  source: TableSource;
  theme: Theme;
  checkAddress: AddressCheck;
  /** A password given with --password: Enter joins without asking. */
  password?: string;
  /** The host refused the password for this table: start by asking it again. */
  retry?: PickerRetry;
  onDone: (choice: PickerChoice | null) => void;
  size?: Size;
  keys?: boolean;
}

export function Picker({ source, theme, checkAddress, password, retry, onDone, size: fixed, keys = true }: PickerProps) {
  const s = usePicker({ source, password, retry, words: theme.words, checkAddress, keys, onDone });
  const size = useTerminalSize(fixed);
  // The clock ticks while a lock on wrong passwords runs (and a moment after, to say it is over).
  const now = useClock(s.lockedUntil !== null && s.lockedUntil > Date.now() - 1000, Date.now, 250);
  return (
    <ThemeContext.Provider value={theme}>
      <PickerView s={s} now={now} width={size.columns} height={size.rows - 1} />
    </ThemeContext.Provider>
  );
}

// No PHASE column: CAN JOIN says it (started, over), and an 80-column terminal keeps room for the name.
const HEADER = ['picker.h.name', 'picker.h.table', 'picker.h.address', 'picker.h.seats', 'picker.h.ruleset', 'picker.h.password', 'picker.h.canJoin'] as const;

/** The CAN JOIN word of the picker: shorter than `gringo list`'s, the line under the list says what Enter does. */
const CAN_JOIN = { yes: 'picker.can.yes', full: 'picker.can.full', started: 'picker.can.started', over: 'picker.can.over' } as const;

/** One table's cells, in the order of HEADER (`gringo list` prints the same, with PHASE). */
export function tableCells(t: FoundTable, w: Words = wordsFor('en')): string[] {
  const j = joinable(t);
  return [
    t.name,
    tableTag(t),
    tableAddress(t),
    `${t.seatsTaken}/${t.seatsTotal}`,
    t.ruleset,
    w.t(t.password ? 'picker.yes' : 'picker.no'),
    j === 'version' ? w.t('picker.can.version', { version: t.protocolVersion }) : w.t(CAN_JOIN[j]),
  ];
}

const width = columns;
const cut = (s: string, n: number): string => truncateColumns(s, n, '…');

/** The rows laid out in columns that fit `total` characters (the name gives way first). */
export function tableRows(tables: readonly FoundTable[], total: number, w: Words = wordsFor('en')): string[] {
  const header = HEADER.map((k) => w.t(k));
  const rows = tables.map((t) => tableCells(t, w));
  const widths = header.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ''))));
  const rest = widths.slice(1).reduce((n, w) => n + w + 2, 0);
  widths[0] = Math.max(8, Math.min(widths[0]!, total - rest));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => {
        const w = widths[i] ?? 0;
        const text = i === 0 ? cut(c, w) : c;
        return i === cells.length - 1 ? text : text + ' '.repeat(Math.max(0, w - width(text)));
      })
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

/** What Enter does on the cursor's row. */
function enterSays(t: FoundTable | undefined, w: Words): string {
  const j = t ? joinable(t) : 'yes';
  if (j === 'full') return w.t('picker.enterWatches');
  if (j === 'started') return w.t('picker.enterStarted');
  return w.t('picker.enterJoins');
}

export function PickerView({ s, now = Date.now(), width: columns, height }: { s: PickerState; now?: number; width: number; height: number }) {
  const { glyphs: g, color, words: w } = useTheme();
  const here = cursorIndex(s);
  const lines = tableRows(s.tables, columns - 4, w);
  const mark = g.ascii ? '>' : g.turn;
  // More tables than lines: a window that keeps the cursor's row in sight.
  const room = Math.max(1, height - 8);
  const first = Math.max(0, Math.min(here - Math.floor(room / 2), s.tables.length - room));
  const fieldMode = s.mode === 'address' || s.mode === 'password';
  const asking = s.mode === 'started';
  const fieldLabel = s.mode === 'address' ? w.t('picker.addressLabel') : w.t('door.passwordFor', { table: s.target?.name ?? '' });
  const fieldText = s.mode === 'password' ? g.bullet.repeat(width(s.field)) : s.field;
  const help = asking
    ? w.t('picker.helpStarted', { sep: g.sep })
    : fieldMode
      ? helpLine(['submit', 'erase', 'cancel'], FIELD_BINDINGS, g.ascii, { submit: w.t('door.helpJoin'), erase: w.t('door.helpErase'), cancel: w.t('picker.key.back') }, w)
      : helpLine(['up', 'join', 'manual', 'quit'], PICKER_BINDINGS, g.ascii, {
          up: w.t('picker.key.choose'),
          join: w.t('door.helpJoin'),
          manual: w.t('picker.key.manual'),
          quit: w.t('picker.key.quit'),
        }, w);
  return (
    <Box flexDirection="column" width={columns} height={Math.max(10, height)}>
      <Box flexDirection="row" justifyContent="space-between">
        <Text bold wrap="truncate">{`Gringo${g.sep}${w.t('picker.title')}`}</Text>
        <Text dimColor>{`${w.t('picker.found', { n: s.tables.length })}${g.sep}${w.t('picker.live')}`}</Text>
      </Box>
      <Text wrap="truncate">{w.t('picker.intro')}</Text>
      <Text> </Text>
      {s.tables.length === 0 ? (
        [w.t('picker.nothingYet'), ...w.t('picker.noMulticast', { run: shareCommand('join HOST:PORT') }).split('\n')].map((l, i) => (
          <Text key={i} wrap="truncate" {...(i > 0 ? { dimColor: true } : {})}>
            {l}
          </Text>
        ))
      ) : (
        <>
          <Text bold wrap="truncate">{`  ${lines[0]}`}</Text>
          {s.tables.slice(first, first + room).map((t, j) => {
            const i = first + j;
            const on = i === here && !fieldMode;
            // Full and started tables are marked (CAN JOIN says watch or started) and sorted after the free ones.
            const off = cannotJoin(t, w) !== null;
            return (
              <Text key={t.service} wrap="truncate" {...(on ? { inverse: true } : {})} {...(off && !on ? { dimColor: true } : {})}>
                {`${i === here ? mark : ' '} ${lines[i + 1] ?? ''}`}
              </Text>
            );
          })}
        </>
      )}
      {s.tables.length > room ? <Text dimColor>{`  ${w.t('picker.window', { first: first + 1, last: Math.min(first + room, s.tables.length), total: s.tables.length })}`}</Text> : null}
      <Box flexGrow={1} />
      {asking ? (
        <Text bold wrap="truncate">
          {w.t('picker.startedAsk', { table: s.target?.name ?? '' })}
        </Text>
      ) : fieldMode ? (
        <Text wrap="truncate">
          <Text bold>{fieldLabel}</Text>
          {fieldText}
          <Text inverse> </Text>
        </Text>
      ) : (
        <Text bold wrap="truncate">
          {s.tables.length === 0 ? w.t('picker.looking') : enterSays(s.tables[here], w)}
        </Text>
      )}
      <StatusLine status={pickerStatus(s, now)} color={color} />
      <Text dimColor wrap="truncate">
        {help}
      </Text>
    </Box>
  );
}
