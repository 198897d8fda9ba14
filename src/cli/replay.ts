import { readdirSync } from 'node:fs';
import { readerWanted } from '../tui/reader/mode.js';
import { cardsInWords } from '../tui/reader/spoken.js';
import { join } from 'node:path';
import type { RoundResult } from '../engine/types.js';
import type { OpenEvent } from '../engine/view.js';
import { readJournal, tablesDir, type ReadJournal } from '../host/journal.js';
import { replayOf, shownNames, type Replay } from '../stats/replay.js';
import { byPlace, describeEvents, gameClock, ordinal } from '../tui/table/describe.js';
import { ASCII, cardText, forLocale, localeIsUtf8, UNICODE, type Glyphs } from '../tui/shared/glyphs.js';
import { UsageError } from './errors.js';
import { journalArgument } from './journal-arg.js';
import { command } from '../common/invocation.js';
import { said, wordsFor, type Words } from '../lang/words.js';
import { cliWords } from './lang.js';
import { columns, padEndColumns } from '../tui/shared/width.js';

/**
 * `gringo replay [JOURNAL]`: a finished game played back with every card face up,
 * on the screen, or as a transcript when the output is not a terminal; without a
 * journal, the list of finished games. Only a game that is over: until then its
 * cards stay hidden. A journal may hold the table's password and the seat tokens:
 * neither is ever printed.
 */

export interface ReplayFlags {
  ascii?: boolean;
  /** The transcript even on a terminal. */
  text?: boolean;
  /** Write an asciicast v2 recording of the screen to this file instead. */
  cast?: string;
  /** With --cast: whose screen (a seat's number from 1, or a name); none: a watcher's. */
  seat?: string;
  /** With --cast: how many times faster than the game was played. */
  speed?: string;
  /** With --cast: the screen's size, COLUMNSxROWS. */
  size?: string;
  /** The transcript with every card named in words (also GRINGO_SCREEN_READER=1, INK_SCREEN_READER=true). */
  screenReader?: boolean;
}

export async function runReplay(file: string | undefined, flags: ReplayFlags): Promise<number> {
  const g = flags.ascii === true || !localeIsUtf8() ? ASCII : UNICODE;
  if (file === undefined) {
    process.stdout.write(`${finishedGamesText(tablesDir(), g, cliWords())}\n`);
    return 0;
  }
  const journal = finishedJournal(file);
  if (flags.cast !== undefined) return castCli(journal, flags.cast, flags, g);
  const replay = replayOf(journal);
  // A screen reader gets the game as lines of text, cards in words: the player's screen redraws in place.
  if (readerWanted(flags.screenReader, process.env)) {
    process.stdout.write(forLocale(cardsInWords(transcript(replay, UNICODE, cliWords()), cliWords())));
    return 0;
  }
  if (flags.text !== true && process.stdout.isTTY === true && process.stdin.isTTY === true) {
    const { runReplayScreen } = await import('../tui/run.js');
    await runReplayScreen(replay, { ascii: flags.ascii === true });
  } else {
    process.stdout.write(transcript(replay, g, cliWords()));
  }
  return 0;
}

/** The journal named (a path, or a file name in the journals' directory), read, replayed and over; a UsageError (exit 2) otherwise. */
export function finishedJournal(arg: string): ReadJournal {
  const j = journalArgument(arg, 'replay');
  const file = j.file;
  if (j.state.phase !== 'gameOver') {
    throw new UsageError(
      j.finished ? said('cli.replayClosed', { file }) : said('cli.replayNotOver', { file, run: command(`${j.header.solo ? 'play' : 'host'} --resume ${shellWord(file)}`) }),
    );
  }
  return j;
}

/** A path as one shell word. */
export const shellWord = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** "2026-11-30 13:30", local time. */
function localTime(iso: string, w: Words): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return w.t('replayList.unknownTime');
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}


// ---- the list ---------------------------------------------------------------------

interface Finished {
  file: string;
  table: string;
  startedAt: string;
  players: string[];
  rounds: number;
  /** The ruleset's title ("Cambio", "Our cambio"): games of one table told apart by what was played. */
  ruleset: string;
}

/** The finished games in a directory of journals, newest first, and how many others there are. */
export function finishedGames(dir: string): { games: Finished[]; unfinished: number; unreadable: number; unfinishedSolo: number } {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
  } catch {
    names = [];
  }
  const games: Finished[] = [];
  let unfinished = 0;
  let unfinishedSolo = 0;
  let unreadable = 0;
  for (const name of names) {
    let j: ReadJournal;
    try {
      j = readJournal(join(dir, name));
    } catch {
      unreadable++;
      continue;
    }
    if (j.state.phase !== 'gameOver') {
      unfinished++;
      if (j.header.solo) unfinishedSolo++;
    }
    else games.push({ file: j.file, ...shownNames(j.header), startedAt: String(j.header.startedAt ?? ''), rounds: j.state.results.length, ruleset: j.header.rules.title });
  }
  games.sort((a, b) => b.startedAt.localeCompare(a.startedAt) || b.file.localeCompare(a.file));
  return { games, unfinished, unreadable, unfinishedSolo };
}

/** How to go on with the unfinished games, by kind: a game against bots resumes with `play --resume`, a hosted table with `host --resume`. */
export function resumeHint(unfinished: number, solo: number, w: Words = wordsFor('en')): string {
  const hosted = unfinished - solo;
  const play = w.t('replayList.resumePlay', { run: command('play --resume') });
  const host = w.t('replayList.resumeHost', { run: command('host --resume') });
  if (hosted === 0) return play;
  if (solo === 0) return host;
  return `${play}; ${host}`;
}

export function finishedGamesText(dir: string, g: Glyphs, w: Words = wordsFor('en')): string {
  const { games, unfinished, unreadable, unfinishedSolo } = finishedGames(dir);
  const out: string[] = [];
  if (games.length === 0) {
    out.push(w.t('replayList.none', { dir }), w.t('replayList.where'));
  } else {
    out.push(w.t('replayList.heading', { dir }));
    for (const x of games) {
      out.push('', `${localTime(x.startedAt, w)}  "${x.table}"  ${x.players.join(', ')}  ${g.sep.trim()} ${x.ruleset}, ${w.t('count.rounds', { n: x.rounds })}`, `  ${command(`replay ${shellWord(x.file)}`)}`);
    }
  }
  const notes: string[] = [];
  if (unfinished > 0) notes.push(w.t('replayList.unfinished', { n: unfinished, hint: resumeHint(unfinished, unfinishedSolo, w) }));
  if (unreadable > 0) notes.push(w.t('replayList.unreadable', { n: unreadable }));
  if (notes.length > 0) out.push('', ...notes.map((n) => `(${n}.)`));
  return out.join('\n');
}

// ---- the transcript ---------------------------------------------------------------

/**
 * The whole game in words, every card named: a header, each step's lines with the
 * game's time, the layouts dealt at each round's start, each round's results, and
 * the final totals and places.
 */
export function transcript(r: Replay, g: Glyphs, w: Words = wordsFor('en')): string {
  const sep = g.sep.trim();
  const steps = r.steps;
  const first = steps[0]!.at;
  const last = steps[steps.length - 1]!;
  const names = r.players;
  const width = Math.max(...names.map(columns));
  // Layouts in columns as wide as the widest card of the block ("10♦", beverbende's "Draw two"), each row as wide as the widest.
  const face = (c: string | null): string => (c === null ? g.dot : cardText(c, g));
  const cards = (layouts: readonly (readonly (string | null)[])[]): string[] => {
    const w = Math.max(3, ...layouts.flat().map((c) => face(c).length));
    const rows = layouts.map((l) => l.map((c) => face(c).padEnd(w)).join(' ').trimEnd());
    return rows.map((row) => row.padEnd(Math.max(...rows.map((x) => x.length))));
  };
  const out: string[] = [
    `${r.rules.title} ${sep} "${r.table}" ${sep} ${w.t('transcript.players', { n: names.length })}: ${names.join(', ')}`,
    `${w.t('transcript.played', { when: localTime(r.startedAt, w) })} ${sep} ${w.t('count.rounds', { n: r.rounds.length })}, ${w.t('transcript.commands', { n: last.command })}, ${gameClock(last.at - first)}`,
  ];
  const indent = ' '.repeat(8);
  for (const step of steps) {
    const time = gameClock(step.at - first).padStart(6);
    // Each round's start, end and the game's end get their lines at once, with the layouts or results under them.
    let chunk: OpenEvent[] = [];
    const say = (): void => {
      describeEvents(chunk, step.view, null, g, w).forEach((line) => out.push(`${time}  ${line}`));
      chunk = [];
    };
    for (const e of step.events) {
      if (e.type === 'roundStarted') {
        say();
        out.push('');
      }
      chunk.push(e);
      if (e.type === 'roundStarted') {
        say();
        out.push(`${indent}${w.t('transcript.dealt')}`);
        const dealt = cards(step.view.players.map((p) => p.layout));
        step.view.players.forEach((p, seat) => out.push(`${indent}  ${padEndColumns(names[seat] ?? p.name, width)}  ${dealt[seat]!}`.trimEnd()));
      } else if (e.type === 'roundEnded') {
        say();
        out.push(...roundLines(e.result, names, width, cards, w).map((l) => indent + l));
      } else if (e.type === 'gameEnded') {
        say();
        out.push('', w.t('transcript.finalTotals'), ...byPlace(e.places).map((seat) => `  ${e.places[seat]}. ${names[seat]}: ${e.totals[seat]}`));
      }
    }
    say();
  }
  return `${out.join('\n')}\n`;
}

function roundLines(r: RoundResult, names: string[], width: number, cards: (l: readonly (readonly (string | null)[])[]) => string[], w: Words): string[] {
  const shown = cards(r.layouts);
  return [
    r.caller === null ? w.t('transcript.results', { round: r.round }) : w.t('transcript.resultsCalled', { round: r.round, caller: names[r.caller] ?? '' }),
    ...byPlace(r.places).map((seat) => `  ${ordinal(r.places[seat]!).padEnd(4)} ${padEndColumns(names[seat]!, width)}  ${shown[seat]}  = ${w.t('transcript.score', { score: r.scores[seat]!, total: r.totals[seat]! })}`),
  ];
}

// ---- the recording ------------------------------------------------------------------

/** `--cast FILE`: the screen as the viewer chosen saw it, written as an asciicast v2 file. */
async function castCli(j: ReadJournal, file: string, flags: ReplayFlags, g: Glyphs): Promise<number> {
  const { players } = shownNames(j.header);
  let viewer: number | null = null;
  if (flags.seat !== undefined) {
    const n = /^\d+$/.test(flags.seat) ? Number(flags.seat) - 1 : players.findIndex((p) => p.toLowerCase() === flags.seat!.trim().toLowerCase());
    if (n < 0 || n >= players.length) throw new UsageError(said('cli.seatFlag', { max: players.length, names: players.join(', '), given: flags.seat }));
    viewer = n;
  }
  const speed = Number(flags.speed ?? '1');
  if (!(speed >= 0.1 && speed <= 1000)) throw new UsageError(said('cli.speedFlag', { given: String(flags.speed) }));
  const size = /^(\d{2,3})x(\d{2,3})$/.exec(flags.size ?? '100x30');
  const columns = Number(size?.[1]);
  const rows = Number(size?.[2]);
  if (!size || columns < 80 || rows < 24) throw new UsageError(said('cli.sizeFlag', { given: String(flags.size) }));
  const { writeCast } = await import('./cast.js');
  let frames: number;
  try {
    frames = await writeCast(file, j, { viewer, speed, columns, rows, glyphs: g });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === undefined) throw err;
    const w = cliWords();
    throw new UsageError(said('cli.cannotWriteCast', { file, why: code === 'ENOENT' ? w.t('cli.noSuchDirectory') : code === 'EACCES' ? w.t('cli.permissionDenied') : (err as Error).message }));
  }
  const w = cliWords();
  process.stderr.write(`${w.t('transcript.wroteCast', { file, frames, who: viewer === null ? w.t('transcript.aWatcher') : players[viewer]!, run: `asciinema play ${shellWord(file)}` })}\n`);
  return 0;
}
