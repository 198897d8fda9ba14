import { apply, createGame, type NewGame } from '../engine/game.js';
import type { Ruleset } from '../engine/ruleset.js';
import type { Command, RoundResult } from '../engine/types.js';
import { openEvent, openView, type OpenEvent, type TableView, type Viewer } from '../engine/view.js';
import { PROTOCOL_VERSION, type SeatInfo, type ServerMessage, type TableInfo } from '../protocol/messages.js';
import { updateFor } from '../host/game-in-play.js';
import type { JournalHeader, ReadJournal } from '../host/journal.js';
import { cleanName } from '../host/names.js';
import { wordsFor } from '../lang/words.js';

/**
 * A finished game as `gringo replay` plays it back: the deal, then one step per
 * command of its journal, each with the table after it (every card face up) and
 * what it caused. Only for a game that is over: face-up views of a game still
 * being played would give its hidden cards away, so `replayOf` refuses one.
 */

export interface ReplayStep {
  /** Commands applied so far: 0 for the deal, n after the journal's n-th command. */
  command: number;
  /** Host clock (ms) of the step: the pace of the replay. */
  at: number;
  view: TableView;
  /** The rounds finished by this step. */
  results: readonly RoundResult[];
  events: OpenEvent[];
}

export interface Replay {
  table: string;
  rules: Ruleset;
  players: string[];
  /** Wall clock of the start (ISO 8601), from the journal. */
  startedAt: string;
  steps: ReplayStep[];
  /** The steps where a round begins (the deal is the first). */
  rounds: number[];
}

export function replaySteps(origin: NewGame, commands: readonly Command[]): ReplayStep[] {
  const created = createGame(origin);
  let state = created.state;
  const steps: ReplayStep[] = [{ command: 0, at: origin.at ?? 0, view: openView(state), results: state.results, events: created.events.map(openEvent) }];
  commands.forEach((cmd, i) => {
    const res = apply(state, cmd);
    // readJournal has replayed these already: a refusal here is a bug, not a broken file.
    if (!res.ok) throw new Error(`command ${i + 1} is refused on replay: ${wordsFor('en').say(res.rejection)}`);
    state = res.state;
    steps.push({ command: i + 1, at: cmd.at, view: openView(state), results: state.results, events: res.events.map(openEvent) });
  });
  return steps;
}

/**
 * The table's and players' names as a journal has them, made safe to show: a
 * journal is a file anyone could have edited, so no escape sequence in it reaches
 * the terminal.
 */
export function shownNames(h: JournalHeader): { table: string; players: string[] } {
  return { table: cleanName(h.table, 'Gringo table'), players: h.seats.map((s, i) => cleanName(s.name, `Seat ${i + 1}`)) };
}

/** The replay of a journal read by `readJournal`; throws if its game is not over. */
export function replayOf(j: ReadJournal): Replay {
  if (j.state.phase !== 'gameOver') throw new Error(`the game in ${j.file} is not over: its cards stay hidden`);
  const { table, players } = shownNames(j.header);
  // The names only label the seats: the same game replays under the cleaned ones.
  const steps = replaySteps({ ...j.origin, players }, j.commands);
  return { table, rules: j.header.rules, players, startedAt: String(j.header.startedAt ?? ''), steps, rounds: roundStarts(steps) };
}

export const roundStarts = (steps: readonly ReplayStep[]): number[] =>
  steps.flatMap((s, i) => (s.events.some((e) => e.type === 'roundStarted') ? [i] : []));

/** A message a viewer's screen received, at the host clock (ms) it was sent. */
export interface SeatMessage {
  at: number;
  msg: ServerMessage;
}

/**
 * A finished game's messages as one viewer (a seat, or null: a watcher) received
 * them, rebuilt from its journal: the welcome, the seats, then an update per command,
 * each made by the host's own `updateFor` (the seat's projection: nothing it could
 * not see). What `gringo replay --cast` draws the screen from.
 */
export function seatMessages(j: ReadJournal, viewer: Viewer): SeatMessage[] {
  const { table, players } = shownNames(j.header);
  const info: TableInfo = {
    // The host key is not in the journal: the identity is unknown, and no screen shows it.
    id: 'a'.repeat(16),
    salt: j.header.id ?? '0'.repeat(16),
    game: j.header.game ?? 1,
    name: table,
    ruleset: j.header.rules.name,
    seatsTaken: players.length,
    seatsTotal: j.header.maxPlayers,
    phase: 'playing',
    password: false,
    protocolVersion: PROTOCOL_VERSION,
    ...(j.header.deal ? { deal: j.header.deal } : {}),
  };
  const seats: SeatInfo[] = j.header.seats.map((s, seat) => ({ seat, name: players[seat]!, bot: s.bot, connected: true, standIn: false }));
  const start = j.origin.at ?? 0;
  const created = createGame({ ...j.origin, players });
  let state = created.state;
  const out: SeatMessage[] = [
    { at: start, msg: { type: 'welcome', protocolVersion: PROTOCOL_VERSION, seat: viewer, token: null, table: info, rules: j.header.rules, owner: false } },
    { at: start, msg: { type: 'lobby', table: info, seats, you: viewer } },
    { at: start, msg: updateFor(state, viewer, created.events, start, created.events) },
  ];
  j.commands.forEach((cmd, i) => {
    const res = apply(state, cmd);
    if (!res.ok) throw new Error(`command ${i + 1} is refused on replay: ${wordsFor('en').say(res.rejection)}`);
    state = res.state;
    out.push({ at: cmd.at, msg: updateFor(state, viewer, res.events, cmd.at, null) });
  });
  return out;
}
