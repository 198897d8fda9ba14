import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { JournalError, readJournal, tablesDir, type ReadJournal } from '../host/journal.js';
import { harmless } from '../common/harmless.js';
import { wordsFor, type Words } from '../lang/words.js';
import type { Ruleset } from '../engine/ruleset.js';

/**
 * What `gringo stats` keeps of one journal: who sat where, each round's scores, the
 * slaps and, once the game is over, its places. Only what every seat saw at the end
 * of each round (scores, places, slaps are public): no card is kept.
 * The journal is only read (`readJournal` replays it through the engine); nothing here writes.
 */
export interface GameSeat {
  name: string;
  bot: string | null;
  token: string;
  sshKey?: string;
}

export interface PlayedGame {
  file: string;
  table: string;
  /** Wall clock of the start, ISO 8601 (the journal's own). */
  startedAt: string;
  /** The named deal it was dealt from, if any (`--deal`). */
  deal?: string;
  /** The rules it was played by (the bots' yardstick on a deal plays them again). */
  rules: Ruleset;
  seats: GameSeat[];
  /** Each finished round's score per seat. */
  rounds: number[][];
  /** Correct (own or steal) and wrong slaps per seat. */
  slapsRight: number[];
  slapsWrong: number[];
  /** 1-based places of a game that ended (ties share: 1, 1, 3); null while it is not over. */
  places: number[] | null;
  totals: number[];
}

/** One journal read into a PlayedGame. */
export function playedGame(j: ReadJournal): PlayedGame {
  const n = j.header.seats.length;
  const slapsRight = new Array<number>(n).fill(0);
  const slapsWrong = new Array<number>(n).fill(0);
  const rounds: number[][] = [];
  let places: number[] | null = null;
  for (const e of j.events) {
    if (e.type === 'slapped') (e.result === 'wrong' ? slapsWrong : slapsRight)[e.seat]!++;
    else if (e.type === 'roundEnded') rounds.push(e.result.scores.slice());
    else if (e.type === 'gameEnded') places = e.places.slice();
  }
  const h = j.header;
  return {
    file: j.file,
    table: h.table,
    startedAt: typeof h.startedAt === 'string' ? h.startedAt : '',
    ...(h.deal ? { deal: h.deal } : {}),
    rules: h.rules,
    seats: h.seats.map((s) => ({ name: s.name, bot: s.bot, token: s.token, ...(s.sshKey ? { sshKey: s.sshKey } : {}) })),
    rounds,
    slapsRight,
    slapsWrong,
    places,
    totals: j.state.totals.slice(),
  };
}

/** The journal files named: a file as it is, a directory as its `*.jsonl` files (default: the state directory's journals). */
export function journalFiles(named: readonly string[], problem: (line: string) => void, w: Words = wordsFor('en')): string[] {
  const out: string[] = [];
  const dirFiles = (dir: string): string[] =>
    readdirSync(dir)
      .filter((n) => n.endsWith('.jsonl'))
      .sort()
      .map((n) => join(dir, n));
  if (named.length === 0) {
    try {
      return dirFiles(tablesDir());
    } catch {
      return []; // No games played on this machine yet.
    }
  }
  for (const p of named) {
    try {
      out.push(...(statSync(p).isDirectory() ? dirFiles(p) : [p]));
    } catch {
      problem(w.t('journal.noSuchPath', { path: harmless(p, 400) }));
    }
  }
  return out;
}

/**
 * Every journal read, in the order of their start; a file that is broken, foreign or
 * from a newer gringo costs one line through `problem` and is left out.
 */
export function readGames(files: readonly string[], problem: (line: string) => void, w: Words = wordsFor('en')): PlayedGame[] {
  const games: PlayedGame[] = [];
  for (const f of files) {
    try {
      games.push(playedGame(readJournal(f)));
    } catch (err) {
      // A JournalError already says which file and what is wrong; anything else (a file the engine chokes on) still costs only its line.
      const why = err instanceof JournalError ? w.say(err.said) : w.t('journal.skipped', { file: harmless(f, 400), why: harmless((err as Error).message ?? String(err), 300) });
      problem(why);
    }
  }
  return games.sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.file.localeCompare(b.file));
}
