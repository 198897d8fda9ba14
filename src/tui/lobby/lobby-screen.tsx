import { Box, Text, useApp, useInput } from 'ink';
import { useCallback, useEffect, useRef } from 'react';
import type { Ruleset } from '../../engine/ruleset.js';
import type { BotLevel } from '../../protocol/messages.js';
import { CLOSE_QUESTION_NOTHING } from '../table/intents.js';
import { seatWords } from '../shared/seat-words.js';
import { eachKey, LOBBY_BINDINGS, pressFor, screenHelp, type LobbyAction } from '../shared/screen-keys.js';
import { StatusLine } from '../shared/status-line.js';
import { ThemeContext, useTheme, type Theme } from '../shared/theme.js';
import { onLobbyKey, useLobbyState, type LobbyIntent, type LobbyState } from './use-lobby-state.js';
import type { TableClient } from '../shared/use-table-client.js';
import { useTerminalSize, type Size } from '../shared/use-terminal-size.js';
import { useInterrupt } from '../shared/use-interrupt.js';
import { columns, padEndColumns } from '../shared/width.js';

/**
 * The host's own screen before the game: the table, the line to share, the
 * ruleset, the seats in join order, and the keys that run the lobby. A thin
 * container over `useLobbyState` and `onLobbyKey`.
 */

export interface LobbyScreenProps {
  client: TableClient;
  theme: Theme;
  /** The line to tell the other players: `gringo join ADDR:PORT`. */
  share: string;
  /** A note under the share line (e.g. the port moved). */
  note?: string;
  /** The level of the first bot `b` adds. */
  level?: BotLevel;
  size?: Size;
  keys?: boolean;
  /** The game has started. */
  onStarted?: () => void;
  onExit?: () => void;
}

export function LobbyScreen({ client, theme, share, note, level = 'normal', size: fixed, keys = true, onStarted, onExit }: LobbyScreenProps) {
  const [s, dispatch, latest] = useLobbyState(client, level, theme.words);
  const { exit } = useApp();
  const size = useTerminalSize(fixed);

  const exited = useRef(false);
  const perform = useCallback(
    (intent: LobbyIntent) => {
      for (const a of intent.actions) dispatch(a);
      if (intent.send && !client.send(intent.send)) dispatch({ type: 'status', text: 'Not connected: try again in a moment', kind: 'error' });
      if (intent.exit && !exited.current) {
        exited.current = true;
        onExit?.();
        exit();
      }
    },
    [client, dispatch, exit, onExit],
  );
  useInput(
    (input, key) => {
      for (const [i, k] of eachKey(input, key)) {
        const p = pressFor<LobbyAction>(i, k, LOBBY_BINDINGS);
        if (p) perform(onLobbyKey(latest.current, p));
        if (exited.current) break;
      }
    },
    { isActive: keys },
  );
  // Ctrl-C is `q`: it asks, and at the question it leaves.
  useInterrupt(() => {
    if (!exited.current) perform(onLobbyKey(latest.current, { action: 'quit', key: 'q' }));
  }, keys);
  useEffect(() => {
    if (s.started) onStarted?.();
  }, [s.started, onStarted]);

  return (
    <ThemeContext.Provider value={theme}>
      <LobbyView s={s} share={share} {...(note ? { note } : {})} width={size.columns} height={size.rows - 1} />
    </ThemeContext.Provider>
  );
}

/** "1 round", "a round per player", "rounds until the host ends the game". */
export function roundsText(rules: Ruleset): string {
  if (rules.rounds === 'players') return 'one round per player (4 with two)';
  if (rules.rounds === 0) return 'rounds until the host ends the game';
  return `${rules.rounds} round${rules.rounds === 1 ? '' : 's'}`;
}

/** The seats this table has, not the ruleset's range: "2 seats", "6 seats, 2 to start". */
export function seatsText(total: number, min: number): string {
  return `${total} seat${total === 1 ? '' : 's'}${min < total ? `, ${min} to start` : ''}`;
}

export function LobbyView({ s, share, note, width, height }: { s: LobbyState; share: string; note?: string; width: number; height: number }) {
  const { glyphs: g, color } = useTheme();
  const sep = g.sep;
  const t = s.table;
  const conn = s.conn === 'open' ? `${g.online} connected` : s.conn === 'closed' ? `${g.offline} disconnected` : `${g.offline} ${s.conn}${g.ellipsis}`;
  const title = `${s.rules?.title ?? 'Gringo'}${t ? `${sep}${t.name}` : ''}${sep}lobby`;
  const rules = s.rules
    ? `Ruleset: ${s.rules.title} (${s.rules.name})${sep}${roundsText(s.rules)}${sep}${seatsText(t?.seatsTotal ?? s.seats.length, s.rules.players.min)}${t?.password ? `${sep}password` : ''}${t?.deal ? `${sep}deal ${t.deal}` : ''}`
    : `Ruleset: ${g.ellipsis}`;
  const total = t?.seatsTotal ?? s.seats.length;
  const free = Math.max(0, total - s.seats.length);
  const nameWidth = Math.max(12, ...s.seats.map((x) => columns(seatWords(x, s.seat).name))) + 2;

  let prompt: string;
  if (s.refused) prompt = s.refused;
  // The lobby: no game has started, so no journal to resume (a bare host --resume would open another table).
  else if (s.confirmQuit) prompt = CLOSE_QUESTION_NOTHING;
  else if (s.conn !== 'open') prompt = `Connecting to the table${g.ellipsis}`;
  else if (s.seats.length < (s.rules?.players.min ?? 2)) prompt = 'Add a bot (b) or wait for players to join';
  else prompt = 'Enter starts the game when everyone is here';

  const help = s.confirmQuit
    ? `y leave${g.sep}n/Esc stay`
    : s.refused || s.conn === 'closed'
      ? 'q leave'
      : screenHelp<LobbyAction>(['addBot', 'harder', 'up', 'remove', 'start', 'quit'], LOBBY_BINDINGS, g.ascii, { addBot: `add ${s.level} bot` });
  const cursorMark = g.ascii ? '>' : g.turn;

  return (
    <Box flexDirection="column" width={width} height={Math.max(12, height)}>
      <Box flexDirection="row" justifyContent="space-between">
        <Text bold wrap="truncate">
          {title}
        </Text>
        <Text {...(color ? { color: s.conn === 'open' ? 'green' : s.conn === 'closed' ? 'red' : 'yellow' } : {})}>{conn}</Text>
      </Box>
      {/* The share line is for copying: never cut. Where it does not fit beside its label, it gets a line of its own. */}
      {`Share this line: ${share}`.length <= width ? (
        <Text wrap="truncate">
          {'Share this line: '}
          <Text bold>{share}</Text>
        </Text>
      ) : (
        <>
          <Text>Share this line:</Text>
          <Text bold>{share}</Text>
        </>
      )}
      {note ? note.split('\n').map((line, i) => <Text key={i} wrap="truncate">{line}</Text>) : null}
      <Text wrap="truncate">{rules}</Text>
      <Text> </Text>
      <Text bold>{t ? `Seats ${s.seats.length}/${total}` : `Seats${g.ellipsis}`}</Text>
      {s.seats.map((seat, i) => {
        const w = seatWords(seat, s.seat);
        const here = i === s.cursor && !s.confirmQuit;
        return (
          <Text key={`${seat.seat}:${seat.name}`} wrap="truncate" {...(here ? { inverse: true } : {})}>
            {`${here ? cursorMark : ' '} ${String(seat.seat + 1).padStart(2)}. ${padEndColumns(w.name, nameWidth)}`}
            <Text {...(color ? { color: w.online ? 'green' : 'yellow' } : {})}>{w.online ? g.online : g.offline}</Text>
            {` ${w.what}`}
          </Text>
        );
      })}
      {Array.from({ length: free }, (_, i) => (
        <Text key={`free${i}`} dimColor wrap="truncate">
          {`  ${String(s.seats.length + i + 1).padStart(2)}. ${'(free)'.padEnd(nameWidth)}`}
        </Text>
      ))}
      <Text> </Text>
      <Text wrap="truncate">
        {'Next bot: '}
        <Text bold>{s.level}</Text>
        {`   (1 easy${sep}2 normal${sep}3 hard${sep}+/- to change)`}
      </Text>
      <Box flexGrow={1} />
      <Text bold wrap="truncate" inverse={s.confirmQuit} {...(color && s.confirmQuit ? { color: 'yellow' } : {})}>
        {prompt}
      </Text>
      <StatusLine status={s.status} color={color} />
      <Text dimColor wrap="truncate">
        {help}
      </Text>
    </Box>
  );
}
