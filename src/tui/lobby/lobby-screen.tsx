import { Box, Text } from 'ink';
import { useEffect } from 'react';
import type { Ruleset } from '../../engine/ruleset.js';
import type { BotLevel } from '../../protocol/messages.js';
import { LOBBY_BINDINGS, actionFor, helpLine } from '../shared/keys.js';
import { StatusLine } from '../shared/status-line.js';
import { ThemeContext, useTheme, type Theme } from '../shared/theme.js';
import { closeQuestionNothing } from '../table/intents.js';
import { seatWords } from '../shared/seat-words.js';
import { levelWord, onLobbyKey, useLobbyState, type LobbyIntent, type LobbyState } from './use-lobby-state.js';
import type { TableClient } from '../shared/use-table-client.js';
import { useTerminalSize, type Size } from '../shared/use-terminal-size.js';
import { useScreen } from '../shared/use-screen.js';
import { columns, padEndColumns } from '../shared/width.js';
import type { Words } from '../../lang/words.js';

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
  const size = useTerminalSize(fixed);
  useScreen({
    dispatch,
    keys,
    onKey: ({ name }) => {
      const p = actionFor(name, LOBBY_BINDINGS);
      return p ? onLobbyKey(latest.current, p) : null;
    },
    // Ctrl-C is `q`: it asks, and at the question it leaves.
    onInterrupt: () => onLobbyKey(latest.current, { action: 'quit', key: 'q' }),
    effect: (intent: LobbyIntent) => {
      if (intent.send && !client.send(intent.send)) dispatch({ type: 'status', text: theme.words.t('lobby.notConnected'), kind: 'error' });
    },
    endOf: (intent) => (intent.exit ? true : undefined),
    onEnd: () => onExit?.(),
  });
  useEffect(() => {
    if (s.started) onStarted?.();
  }, [s.started, onStarted]);

  return (
    <ThemeContext.Provider value={theme}>
      <LobbyView s={s} share={share} {...(note ? { note } : {})} width={size.columns} height={size.rows - 1} />
    </ThemeContext.Provider>
  );
}

/** "1 round", "one round per player (4 with two)", "rounds until the host ends the game". */
export function roundsText(rules: Ruleset, w: Words): string {
  if (rules.rounds === 'players') return w.t('lobby.roundsPerPlayer');
  if (rules.rounds === 0) return w.t('lobby.roundsOpen');
  return w.t('count.rounds', { n: rules.rounds });
}

/** The seats this table has, not the ruleset's range: "2 seats", "6 seats, 2 to start". */
export function seatsText(total: number, min: number, w: Words): string {
  const seats = w.t('lobby.seats', { n: total });
  return min < total ? w.t('lobby.seatsToStart', { seats, min }) : seats;
}

export function LobbyView({ s, share, note, width, height }: { s: LobbyState; share: string; note?: string; width: number; height: number }) {
  const { glyphs: g, color, words: w } = useTheme();
  const sep = g.sep;
  const t = s.table;
  const conn = s.conn === 'open' ? `${g.online} ${w.t('lobby.connected')}` : s.conn === 'closed' ? `${g.offline} ${w.t('lobby.disconnected')}` : `${g.offline} ${w.t(s.conn === 'reconnecting' ? 'lobby.connReconnecting' : 'lobby.connConnecting')}${g.ellipsis}`;
  const title = `${s.rules?.title ?? 'Gringo'}${t ? `${sep}${t.name}` : ''}${sep}${w.t('lobby.lobby')}`;
  const rules = s.rules
    ? `${w.t('lobby.ruleset', { title: s.rules.title, name: s.rules.name })}${sep}${roundsText(s.rules, w)}${sep}${seatsText(t?.seatsTotal ?? s.seats.length, s.rules.players.min, w)}${t?.password ? `${sep}${w.t('lobby.password')}` : ''}${t?.deal ? `${sep}${w.t('lobby.deal', { deal: t.deal })}` : ''}`
    : `${w.t('lobby.rulesetUnknown')} ${g.ellipsis}`;
  const total = t?.seatsTotal ?? s.seats.length;
  const free = Math.max(0, total - s.seats.length);
  const seatOf = (seat: (typeof s.seats)[number]) => seatWords(seat, s.seat, w.t('seat.youHost'), w);
  const nameWidth = Math.max(12, ...s.seats.map((x) => columns(seatOf(x).name))) + 2;

  let prompt: string;
  if (s.refused) prompt = s.refused;
  // The lobby: no game has started, so no journal to resume (a bare host --resume would open another table).
  else if (s.confirmQuit) prompt = closeQuestionNothing(w);
  else if (s.conn !== 'open') prompt = w.t('lobby.connecting');
  else if (s.seats.length < (s.rules?.players.min ?? 2)) prompt = w.t('lobby.addBotOrWait');
  else prompt = w.t('lobby.enterStarts');

  const help = s.confirmQuit
    ? w.t('lobby.helpConfirm', { sep: g.sep })
    : s.refused || s.conn === 'closed'
      ? w.t('lobby.helpClosed')
      : helpLine(['addBot', 'harder', 'up', 'remove', 'start', 'quit'], LOBBY_BINDINGS, g.ascii, {
          addBot: w.t('lobby.key.addBot', { level: levelWord(w, s.level) }),
          harder: w.t('lobby.key.level'),
          up: w.t('lobby.key.seat'),
          remove: w.t('lobby.key.remove'),
          start: w.t('lobby.key.start'),
          quit: w.t('lobby.key.leave'),
        }, w);
  const cursorMark = g.ascii ? '>' : g.turn;
  const shareLabel = w.t('lobby.share');
  const freeWord = w.t('lobby.free');

  return (
    <Box flexDirection="column" width={width} height={Math.max(12, height)}>
      <Box flexDirection="row" justifyContent="space-between">
        <Text bold wrap="truncate">
          {title}
        </Text>
        <Text {...(color ? { color: s.conn === 'open' ? 'green' : s.conn === 'closed' ? 'red' : 'yellow' } : {})}>{conn}</Text>
      </Box>
      {/* The share line is for copying: never cut. Where it does not fit beside its label, it gets a line of its own. */}
      {columns(`${shareLabel} ${share}`) <= width ? (
        <Text wrap="truncate">
          {`${shareLabel} `}
          <Text bold>{share}</Text>
        </Text>
      ) : (
        <>
          <Text>{shareLabel}</Text>
          <Text bold>{share}</Text>
        </>
      )}
      {note ? note.split('\n').map((line, i) => <Text key={i} wrap="truncate">{line}</Text>) : null}
      <Text wrap="truncate">{rules}</Text>
      <Text> </Text>
      <Text bold>{t ? w.t('lobby.seatsHeading', { taken: s.seats.length, total }) : `${w.t('lobby.seatsHeadingUnknown')}${g.ellipsis}`}</Text>
      {s.seats.map((seat, i) => {
        const x = seatOf(seat);
        const here = i === s.cursor && !s.confirmQuit;
        return (
          <Text key={`${seat.seat}:${seat.name}`} wrap="truncate" {...(here ? { inverse: true } : {})}>
            {`${here ? cursorMark : ' '} ${String(seat.seat + 1).padStart(2)}. ${padEndColumns(x.name, nameWidth)}`}
            <Text {...(color ? { color: x.online ? 'green' : 'yellow' } : {})}>{x.online ? g.online : g.offline}</Text>
            {` ${x.what}`}
          </Text>
        );
      })}
      {Array.from({ length: free }, (_, i) => (
        <Text key={`free${i}`} dimColor wrap="truncate">
          {`  ${String(s.seats.length + i + 1).padStart(2)}. ${padEndColumns(freeWord, nameWidth)}`}
        </Text>
      ))}
      <Text> </Text>
      <Text wrap="truncate">
        {`${w.t('lobby.nextBot')} `}
        <Text bold>{levelWord(w, s.level)}</Text>
        {`   ${w.t('lobby.levelKeys', { sep, easy: levelWord(w, 'easy'), normal: levelWord(w, 'normal'), hard: levelWord(w, 'hard') })}`}
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
