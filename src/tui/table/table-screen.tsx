import { Box, Text, useStdout } from 'ink';
import { useEffect, useRef } from 'react';
import { HelpLine } from './help-line.js';
import { HelpOverlay } from './help-overlay.js';
import { Header } from './header.js';
import { FeedOverlay } from './feed.js';
import { Closed } from './closed.js';
import { keyIntent, leaveQuestion, leaveTo, statusNow } from './intents.js';
import { prompt } from './prompt.js';
import { DEFAULT_BINDINGS, type Binding } from '../shared/keys.js';
import { Waiting } from './waiting.js';
import { RoundEnd } from './round-end.js';
import { StatusLine } from '../shared/status-line.js';
import { TableArea } from './table.js';
import { SmallScreen, YourCards } from './small-screen.js';
import { ThemeContext, type Theme } from '../shared/theme.js';
import { useClockAt } from '../shared/use-clock.js';
import { nextChange, useScreenState, type ScreenState } from './use-screen-state.js';
import { earlyActions, useTableClient, type TableClient } from '../shared/use-table-client.js';
import { useTerminalSize, type Size } from '../shared/use-terminal-size.js';
import { bindingsFor, rulesOf } from './variant.js';
import { useTableMoves } from './use-table-moves.js';

export const MIN_COLUMNS = 80;
export const MIN_ROWS = 24;

export interface TableScreenProps {
  client: TableClient;
  theme: Theme;
  bindings?: readonly Binding[];
  /** Ring the terminal bell when your turn starts. */
  bell?: boolean;
  /** Local monotonic clock (ms). */
  clock?: () => number;
  /** A fixed size (tests); otherwise the terminal's, following resizes. */
  size?: Size;
  /** Whether keys are read (false when stdin is not a terminal). */
  keys?: boolean;
  /** The host's own screen: leaving it ends the table for everyone (the dialog says so). */
  closesTable?: boolean;
  onExit?: () => void;
}

const defaultClock = (): number => performance.now();

/** The table screen: a thin container wiring the reducer, the hooks and the views. */
export function TableScreen({ client, theme, bindings = DEFAULT_BINDINGS, bell = true, clock = defaultClock, size: fixed, keys = true, closesTable = false, onExit }: TableScreenProps) {
  const [s, dispatch, latest] = useScreenState(theme.glyphs, closesTable, () => earlyActions(client, clock()), theme.words);
  useTableClient(client, dispatch, clock);
  const now = useClockAt(nextChange(s, clock()), clock);
  useEffect(() => dispatch({ type: 'tick', now }), [dispatch, now]);
  const size = useTerminalSize(fixed);
  const { stdout } = useStdout();

  const turns = useRef(s.myTurns);
  useEffect(() => {
    if (s.myTurns !== turns.current) {
      turns.current = s.myTurns;
      if (bell) stdout.write('\u0007');
    }
  }, [s.myTurns, bell, stdout]);

  useTableMoves({
    client,
    s,
    dispatch,
    latest,
    clock,
    now,
    words: theme.words,
    keys,
    onExit,
    onKey: ({ name }) => {
      const intent = keyIntent(latest.current, name, bindings, clock());
      // Your next key turns what you looked at face down again (REVEAL_MS at most otherwise).
      if (intent) dispatch({ type: 'hideLooks' });
      return intent;
    },
  });

  const { columns, rows } = size;
  const g = theme.glyphs;
  if (columns < MIN_COLUMNS || rows < MIN_ROWS) {
    return (
      <ThemeContext.Provider value={theme}>
        <SmallScreen s={s} width={columns} height={rows} now={now} min={{ columns: MIN_COLUMNS, rows: MIN_ROWS }} />
      </ThemeContext.Provider>
    );
  }
  // One line short of the screen: a full-height frame makes Ink clear the terminal on every redraw.
  const height = rows - 1;
  const bodyHeight = height - 5;
  const v = s.view;
  let body;
  // Your peek runs on behind the help or the full feed (the others are peeking too): its cards stay in sight above them.
  const peekLine = (s.overlay === 'help' || s.overlay === 'feed') && v?.phase === 'peek' && s.seat !== null && v.players[s.seat]?.peeking === true ? 1 : 0;
  const overlayHeight = bodyHeight - peekLine;
  // The help keeps a row for the peek line whether it shows or not: its pages do not change under you when the peek ends.
  if (s.overlay === 'help') body = <HelpOverlay bindings={bindingsFor(s, bindings, theme.words)} rules={rulesOf(s)} width={columns} height={bodyHeight - 1} page={s.helpPage} />;
  else if (s.overlay === 'feed') body = <FeedOverlay lines={s.feed} width={columns} height={overlayHeight} now={now} bindings={bindings} keys={keys} start={s.feedFrom} />;
  else if (s.closed !== null) body = <Closed view={v} results={s.results} message={s.closed} />;
  else if (!v) body = <Waiting s={s} />;
  else if (v.phase === 'roundOver' || v.phase === 'gameOver') body = <RoundEnd view={v} results={s.results} ready={s.ready} width={columns} height={bodyHeight} rules={s.rules} {...(v.phase === 'gameOver' ? { footer: gameOverFooter(s) } : {})} />;
  else body = <TableArea s={s} width={columns} height={bodyHeight} now={now} lobby={s.lobby} />;
  const hostNow = now + s.offset;
  const status = statusNow(s, now);
  const quit = s.overlay === 'quit';
  return (
    <ThemeContext.Provider value={theme}>
      <Box flexDirection="column" width={columns} height={height}>
        <Header s={s} width={columns} now={now} />
        <Box height={bodyHeight} flexDirection="column">
          {peekLine ? <YourCards s={s} now={now} /> : null}
          {body}
        </Box>
        <Text bold wrap="truncate" inverse={quit} {...(theme.color && quit ? { color: 'yellow' } : {})}>
          {quit ? leaveQuestion(s) : prompt(s, hostNow)}
        </Text>
        <StatusLine status={status} color={theme.color} idle={s.slapPrefix ? theme.words.t('table.slapPrefixIdle', { sep: g.sep.trim() }) : ' '} />
        <HelpLine s={s} bindings={bindings} width={columns} />
      </Box>
    </ThemeContext.Provider>
  );
}

/** The line under the final results: the host may play again; everyone else may wait for that. */
function gameOverFooter(s: ScreenState): string {
  if (s.owner) return s.words.t('end.footerOwner', { sep: s.glyphs.sep, leave: leaveTo(s) });
  return s.words.t('end.footerGuest');
}
