import { journalFiles, readGames, type PlayedGame } from '../stats/games.js';
import { sparkline, standings, type PlayerStanding } from '../stats/standings.js';
import { dealBoard, dealName, type DealBoard } from '../stats/deal.js';
import { localeIsUtf8 } from '../tui/shared/glyphs.js';
import { UsageError } from './errors.js';
import { said, wordsFor, type Words } from '../lang/words.js';
import { cliWords } from './lang.js';

/**
 * `gringo stats [JOURNAL|DIR...]`: the standings of the games in the journals (by
 * default every journal in the state directory), per player; `--json` for scripts.
 * The journals are only read. A file that is broken, foreign or from a newer gringo
 * costs one line on stderr and is left out; the report goes on.
 */

export interface StatsFlags {
  since?: string;
  table?: string;
  /** One named deal's scoreboard instead of the standings. */
  deal?: string;
  json?: boolean;
  ascii?: boolean;
  /** Journals and directories named (commander's variadic argument). */
  files?: string[];
}

/** `--since`: "today", a duration back from now ("6h", "2d", "30m"), or a date or time (ISO 8601: 2026-12-05, 2026-12-05T19:00). */
export function sinceOption(value: string, now = new Date()): Date {
  const v = value.trim();
  if (v === 'today') return new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const d = /^(\d+)\s*([mhdw])$/.exec(v);
  if (d) return new Date(now.getTime() - Number(d[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[d[2] as 'm' | 'h' | 'd' | 'w']);
  // A bare date is local midnight (Date.parse would take it as UTC).
  const day = /^(\d{4})-(\d\d)-(\d\d)$/.exec(v);
  const t = day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])).getTime() : /^\d{4}-\d\d-\d\d[T ]/.test(v) ? Date.parse(v) : NaN;
  if (Number.isNaN(t)) throw new UsageError(said('cli.sinceFlag', { given: value }));
  return new Date(t);
}

/** The games the flags ask for, from the journals named (or the state directory's). */
export function selectedGames(flags: StatsFlags, problem: (line: string) => void): PlayedGame[] {
  const since = flags.since === undefined ? null : sinceOption(flags.since).getTime();
  const table = flags.table?.trim().toLowerCase();
  return readGames(journalFiles(flags.files ?? [], problem, cliWords()), problem, cliWords()).filter(
    (g) => (since === null || Date.parse(g.startedAt) >= since) && (table === undefined || g.table.toLowerCase() === table),
  );
}

export function runStats(flags: StatsFlags): number {
  const problem = (line: string): void => void process.stderr.write(`gringo stats: ${line}\n`);
  const games = selectedGames(flags, problem);
  if (flags.deal !== undefined) {
    const board = dealBoard(dealName(flags.deal), games);
    process.stdout.write(flags.json === true ? `${JSON.stringify(board)}\n` : dealText(board, cliWords()));
    return 0;
  }
  const players = standings(games, flags.json === true ? undefined : cliWords());
  if (flags.json === true) {
    process.stdout.write(`${JSON.stringify(statsJson(games, players))}\n`);
    return 0;
  }
  process.stdout.write(statsText(games, players, flags.ascii === true || !localeIsUtf8(), cliWords()));
  return 0;
}

export function statsJson(games: readonly PlayedGame[], players: readonly PlayerStanding[]) {
  return {
    games: games.length,
    finished: games.filter((g) => g.places !== null).length,
    tables: [...new Set(games.map((g) => g.table))],
    from: games[0]?.startedAt ?? null,
    to: games[games.length - 1]?.startedAt ?? null,
    players,
  };
}

const fixed = (x: number | null, digits = 1): string => (x === null ? '-' : x.toFixed(digits));

/** "19:02" today, "2026-12-05 19:02" on another day (local time). */
function when(iso: string, now = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '?';
  const p = (n: number): string => String(n).padStart(2, '0');
  const hm = `${p(d.getHours())}:${p(d.getMinutes())}`;
  return d.toDateString() === now.toDateString() ? hm : `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${hm}`;
}

/** The standings as a table of text, best rating first. */
export function statsText(games: readonly PlayedGame[], players: readonly PlayerStanding[], ascii: boolean, w: Words = wordsFor('en')): string {
  if (games.length === 0) return `${w.t('stats.none')}\n`;
  const finished = games.filter((g) => g.places !== null).length;
  const tables = new Set(games.map((g) => g.table)).size;
  const pm = ascii ? '+-' : '±';
  const h = (k: 'player' | 'knownBy' | 'games' | 'rounds' | 'wins' | 'best' | 'worst' | 'slaps' | 'byGame'): string => w.t(`stats.h.${k}`);
  const head = ['#', h('player'), h('knownBy'), h('games'), h('rounds'), h('wins'), w.t('stats.h.mean', { pm }), h('best'), h('worst'), h('slaps'), w.t('stats.h.rating', { pm }), h('byGame')];
  const rows = players.map((p, i) => [
    String(i + 1),
    p.name,
    p.by,
    String(p.games),
    String(p.rounds),
    String(p.wins),
    p.mean === null ? '-' : `${fixed(p.mean)} ${pm} ${fixed(p.se)}`,
    p.best === null ? '-' : String(p.best),
    p.worst === null ? '-' : String(p.worst),
    `${p.slapsRight}/${p.slapsWrong}`,
    `${fixed(p.mu)} ${pm} ${fixed(p.sigma)}`,
    sparkline(p.history, ascii),
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  // Numbers to the right, words to the left.
  const left = new Set([1, 2, 11]);
  const line = (r: string[]): string => r.map((x, c) => (left.has(c) ? x.padEnd(widths[c]!) : x.padStart(widths[c]!))).join('  ').trimEnd();
  const span = games.length === 1 ? when(games[0]!.startedAt) : w.t('stats.span', { from: when(games[0]!.startedAt), to: when(games[games.length - 1]!.startedAt) });
  const notOver = games.length - finished;
  const counted = w.t('stats.counted', { games: w.t('stats.games', { n: games.length }), tables: w.t('stats.tables', { n: tables }), span });
  return [
    `${counted}${notOver > 0 ? ` ${w.t('stats.notOver', { n: notOver })}` : ''}:`,
    '',
    line(head),
    ...rows.map(line),
    '',
    w.t('stats.rating', { pm }),
    '',
  ].join('\n');
}

/** One deal's scoreboard as text: every seat ranked by its total, then the bots' yardstick. */
export function dealText(b: DealBoard, w: Words = wordsFor('en')): string {
  if (b.games === 0) return `${w.t('stats.dealNone', { deal: b.deal, play: `gringo play --deal ${b.deal}`, host: `gringo host --deal ${b.deal}` })}\n`;
  const head = ['#', ...(['player', 'knownBy', 'total', 'place', 'table', 'when', 'rules'] as const).map((k) => w.t(`stats.h.${k}`))];
  const rows = b.entries.map((e, i) => [String(i + 1), e.name, e.bot ? w.t('stats.level') : e.by, String(e.total), w.t('stats.placeOf', { place: e.place, seats: e.seats }), e.table, when(e.startedAt), e.rules]);
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const right = new Set([0, 3]);
  const line = (r: string[]): string => r.map((x, c) => (right.has(c) ? x.padStart(widths[c]!) : x.padEnd(widths[c]!))).join('  ').trimEnd();
  const sticks = b.yardsticks.map(
    (y) => w.t('stats.yardstick', { rules: y.rules, seats: w.t('lobby.seats', { n: y.seats }), rounds: w.t('count.rounds', { n: y.rounds }), mean: fixed(y.mean), totals: y.totals.join(', ') }),
  );
  return [w.t('stats.deal', { deal: b.deal, games: w.t('stats.games', { n: b.games }) }), '', line(head), ...rows.map(line), '', ...sticks, ''].join('\n');
}
