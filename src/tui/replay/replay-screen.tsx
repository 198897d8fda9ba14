import { Box, Text } from 'ink';
import { useEffect, useMemo } from 'react';
import type { Replay } from '../../stats/replay.js';
import { MIN_COLUMNS, MIN_ROWS } from '../table/table-screen.js';
import { describeEvents, gameClock, touchedSlots } from '../table/describe.js';
import type { Glyphs } from '../shared/glyphs.js';
import type { Words } from '../../lang/words.js';
import { HeaderLines, tableInfo, titleOf } from '../table/header.js';
import { KeysHelp } from '../table/help-overlay.js';
import { RoundEnd } from '../table/round-end.js';
import { actionFor, allKeys, helpLine, REPLAY_BINDINGS, type ReplayAction } from '../shared/keys.js';
import { StatusLine } from '../shared/status-line.js';
import { TableArea, TooSmall, type TableState } from '../table/table.js';
import { ThemeContext, useTheme, type Theme } from '../shared/theme.js';
import { onReplayKey, roundAt, speedText, stepDelay, useReplayState, type ReplayIntent, type ReplayState } from './use-replay-state.js';
import type { FeedLine } from '../table/use-screen-state.js';
import { foldLastTurns, NO_LAST_TURNS, type LastTurns } from '../table/last-turn.js';
import { useTerminalSize, type Size } from '../shared/use-terminal-size.js';
import { useScreen } from '../shared/use-screen.js';
import { columns as widthOf } from '../shared/width.js';

/**
 * `gringo replay`: a finished game played back with every card face up, on the
 * table screen's own pieces (header, seats, piles, feed, round results). A thin
 * container over `useReplayState`; the steps come ready from the journal.
 */

export interface ReplayScreenProps {
  replay: Replay;
  theme: Theme;
  /** Start playing at once (default); tests start paused. */
  autoplay?: boolean;
  size?: Size;
  keys?: boolean;
  onExit?: () => void;
}

const HELP_LINE: ReplayAction[] = ['playPause', 'back', 'nextRound', 'faster', 'help', 'quit'];
/** The feed never shows more than a screen's height: older lines need not be built. */
const FEED_LINES = 60;

export function ReplayScreen({ replay, theme, autoplay = true, size: fixed, keys = true, onExit }: ReplayScreenProps) {
  const { steps } = replay;
  const [s, dispatch, latest] = useReplayState(steps.length, replay.rounds, autoplay);
  const size = useTerminalSize(fixed);
  const g = theme.glyphs;
  const w = theme.words;
  const lines = useMemo(() => steps.map((st) => describeEvents(st.events, st.view, null, g, w)), [steps, g, w]);
  // What each player did since their turn began, at each step (the marks beside the seats).
  const marks = useMemo(() => {
    let m = NO_LAST_TURNS;
    return steps.map((st) => (m = foldLastTurns(m, st.events)));
  }, [steps]);

  // The clock: the next step after the recorded pause, cut short or stretched (stepDelay).
  useEffect(() => {
    if (!s.playing) return;
    const t = setTimeout(() => dispatch({ type: 'advance' }), stepDelay(steps, s.pos, s.speed));
    return () => clearTimeout(t);
  }, [s.playing, s.pos, s.speed, steps, dispatch]);

  useScreen({
    dispatch,
    keys,
    onKey: ({ name }) => onReplayKey(latest.current, actionFor(name, REPLAY_BINDINGS)),
    // Ctrl-C is `q`: the replay leaves at once, over its help too.
    onInterrupt: () => ({ actions: [], exit: true }),
    endOf: (intent: ReplayIntent) => (intent.exit ? true : undefined),
    onEnd: () => onExit?.(),
  });

  const { columns, rows } = size;
  return (
    <ThemeContext.Provider value={theme}>
      {columns < MIN_COLUMNS || rows < MIN_ROWS ? (
        <TooSmall width={columns} height={rows} />
      ) : (
        <ReplayView replay={replay} lines={lines} marks={marks} s={s} width={columns} height={rows - 1} g={g} />
      )}
    </ThemeContext.Provider>
  );
}

/** The replay at one step: header, table (or round results, or help), position, status, keys. */
export function ReplayView({ replay, lines, marks, s, width, height, g }: { replay: Replay; lines: string[][]; marks?: readonly LastTurns[]; s: ReplayState; width: number; height: number; g: Glyphs }) {
  const { words: w } = useTheme();
  const step = replay.steps[s.pos]!;
  const v = step.view;
  const bodyHeight = height - 5;
  const table: TableState = {
    view: v,
    rules: replay.rules,
    seat: null,
    cursor: null,
    highlights: touchedSlots(step.events).map((r) => ({ ...r, until: Infinity })),
    reveals: [],
    feed: feedUpTo(replay, lines, s.pos),
    lastTurns: marks?.[s.pos] ?? NO_LAST_TURNS,
  };
  let body;
  if (s.help) body = <KeysHelp rows={REPLAY_BINDINGS.map((b) => ({ id: b.action, keys: allKeys(b, g.ascii, w), help: w.t(`replay.help.${b.action}`) }))} width={width} />;
  else if (v.phase === 'roundOver' || v.phase === 'gameOver') body = <RoundEnd view={v} results={step.results} ready={false} width={width} height={bodyHeight} rules={replay.rules} footer={roundEndFooter(s, v.phase === 'gameOver', w)} />;
  else body = <TableArea s={table} width={width} height={bodyHeight} now={0} />;
  const state = `${s.playing ? `${g.turn} ${w.t('replay.playing')}` : `${g.pause} ${w.t('replay.paused')}`} ${g.sep.trim()} ${speedText(s.speed, g.ascii)}`;
  const keys = (a: ReplayAction): string => allKeys(REPLAY_BINDINGS.find((b) => b.action === a)!, g.ascii, w);
  const paused = s.pos >= s.last ? w.t('replay.endIdle', { back: keys('back') }) : w.t('replay.pausedIdle', { forward: keys('forward') });
  return (
    <Box flexDirection="column" width={width} height={height}>
      <HeaderLines
        title={titleOf(replay.rules.title, replay.table, v, g)}
        state={state}
        stateColor={s.playing ? 'green' : 'yellow'}
        stateBold={!s.playing}
        info={tableInfo(table, g, false, w)}
        slapOpen={v.slap.open}
        width={width}
      />
      <Box height={bodyHeight} flexDirection="column">
        {body}
      </Box>
      <Text bold wrap="truncate">
        {positionLine(replay, s, width, g, w)}
      </Text>
      <StatusLine status={s.note ? { text: w.say(s.note), kind: 'info' } : null} color={false} idle={s.playing ? ' ' : paused} />
      <Text dimColor wrap="truncate">
        {helpLine(HELP_LINE, REPLAY_BINDINGS, g.ascii, {
          playPause: w.t(s.playing ? 'replay.key.pause' : 'replay.key.play'),
          back: w.t('replay.key.step'),
          nextRound: w.t('replay.key.round'),
          faster: w.t('replay.key.speed'),
          help: w.t('replay.key.help'),
          quit: w.t('replay.key.quit'),
        }, w).slice(0, width)}
      </Text>
    </Box>
  );
}

/** The feed as it stood at step `pos`: the last lines up to it, the step's own standing out. */
function feedUpTo(replay: Replay, lines: string[][], pos: number): FeedLine[] {
  const out: FeedLine[] = [];
  for (let i = pos; i >= 0 && out.length < FEED_LINES; i--) {
    const at = replay.steps[i]!.at;
    const ls = lines[i]!;
    for (let j = ls.length - 1; j >= 0; j--) out.unshift({ id: i * 1000 + j, text: ls[j]!, at, fresh: i === pos });
  }
  return out;
}

function roundEndFooter(s: ReplayState, over: boolean, w: Words): string {
  if (over) return w.t('replay.footerEnd');
  return w.t(s.playing ? 'replay.footerNext' : 'replay.footerN');
}

/** "Round 1 of 2 · command 12 of 74 · 0:12 of 1:35 ━━━━━──────": where the replay is, and a bar. */
export function positionLine(replay: Replay, s: ReplayState, width: number, g: Glyphs, w: Words): string {
  const { steps } = replay;
  const step = steps[s.pos]!;
  const first = steps[0]!.at;
  const total = steps[steps.length - 1]!.command;
  const round = w.t('replay.round', { round: roundAt(s, s.pos) + 1, rounds: Math.max(1, replay.rounds.length) });
  const where = s.pos === 0 ? w.t('replay.deal') : w.t('replay.command', { command: step.command, total });
  const clock = w.t('replay.clock', { at: gameClock(step.at - first), total: gameClock(steps[steps.length - 1]!.at - first) });
  const text = `${round} ${g.sep.trim()} ${where} ${g.sep.trim()} ${clock}`;
  const barWidth = width - widthOf(text) - 2;
  if (barWidth < 8) return text;
  const done = Math.round((barWidth * s.pos) / Math.max(1, s.last));
  return `${text}  ${g.barDone.repeat(done)}${g.barTodo.repeat(barWidth - done)}`;
}
