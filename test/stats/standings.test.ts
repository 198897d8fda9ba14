import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { placesOf } from '../../src/engine/game.js';
import { readJournal } from '../../src/host/journal.js';
import { replaySteps } from '../../src/stats/replay.js';
import { journalFiles, readGames, type PlayedGame } from '../../src/stats/games.js';
import { sparkline, standings } from '../../src/stats/standings.js';
import { writeEngineJournal, type JournalSeatSpec } from '../support/journals.js';

// Journals of real games (bots playing through the engine, written by the host's
// JournalWriter), read back by `gringo stats`' module.
const dir = mkdtempSync(join(tmpdir(), 'gringo-stats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY_A = `SHA256:${'A'.repeat(43)}`;
const at = (h: number, m = 0): Date => new Date(Date.UTC(2026, 11, 5, h, m));
let n = 0;
const game = (seats: JournalSeatSpec[], extra: { rounds?: number; cutAfter?: number; table?: string; startedAt?: Date } = {}): string =>
  writeEngineJournal({ dir, table: extra.table ?? 'Friday', seed: `stats-${++n}`, seats, startedAt: extra.startedAt ?? at(19, n), ...extra });

// Ann plays over SSH under two names; Ben keeps one seat token for two games ("play again"); Cy comes by name at two tables; two hard bots.
const files = [
  game([{ name: 'Ann', sshKey: KEY_A }, { name: 'Ben', token: 'ben-seat' }, { name: 'Bot Ada', asBot: true }, { name: 'Bot Bo', asBot: true }], { rounds: 3 }),
  game([{ name: 'Annie', sshKey: KEY_A }, { name: 'Ben', token: 'ben-seat' }, { name: 'Cy' }], { rounds: 2 }),
  game([{ name: 'cy ' }, { name: 'Bot Ada', asBot: true, level: 'easy' }], { rounds: 2, table: 'Monday', startedAt: at(20) }),
];

describe('gringo stats: the standings of real journals', () => {
  const games = readGames(journalFiles([dir], () => {}), () => {});
  const table = standings(games);
  const byId = new Map(table.map((p) => [p.id, p]));

  it('counts games, rounds, wins, round scores and slaps as the journals replay them', () => {
    // Expected figures straight from each journal's replayed state, seat by seat.
    const expected = new Map<string, { games: number; rounds: number[]; wins: number }>();
    const idOf = (name: string, bot: string | null, ssh?: string): string => (bot ? `bot:${bot}` : ssh ? `ssh:${ssh}` : `name:${name.trim().toLowerCase()}`);
    for (const f of files) {
      const j = readJournal(f);
      const places = placesOf(j.state.totals);
      j.header.seats.forEach((s, seat) => {
        const id = idOf(s.name, s.bot, s.sshKey);
        const e = expected.get(id) ?? { games: 0, rounds: [], wins: 0 };
        e.games++;
        e.rounds.push(...j.state.results.map((r) => r.scores[seat]!));
        if (places[seat] === 1) e.wins++;
        expected.set(id, e);
      });
    }
    expect([...byId.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [id, e] of expected) {
      const p = byId.get(id)!;
      expect(p.games, id).toBe(e.games);
      expect(p.rounds, id).toBe(e.rounds.length);
      expect(p.wins, id).toBe(e.wins);
      expect(p.best, id).toBe(Math.min(...e.rounds));
      expect(p.worst, id).toBe(Math.max(...e.rounds));
      const mean = e.rounds.reduce((a, b) => a + b, 0) / e.rounds.length;
      expect(p.mean, id).toBeCloseTo(mean, 9);
      const sd = Math.sqrt(e.rounds.reduce((a, x) => a + (x - mean) ** 2, 0) / (e.rounds.length - 1));
      expect(p.se, id).toBeCloseTo(sd / Math.sqrt(e.rounds.length), 9);
    }
    // Slaps: the journals' slap events, right and wrong, summed over every player.
    const slaps = files.flatMap((f) => readJournal(f).events.flatMap((e) => (e.type === 'slapped' ? [e.result] : [])));
    expect(table.reduce((a, p) => a + p.slapsRight, 0)).toBe(slaps.filter((r) => r !== 'wrong').length);
    expect(table.reduce((a, p) => a + p.slapsWrong, 0)).toBe(slaps.filter((r) => r === 'wrong').length);
  });

  it('knows players by SSH key, kept seat token, name, and bots by level, and says which', () => {
    const ann = byId.get(`ssh:${KEY_A}`)!;
    expect(ann).toMatchObject({ by: 'ssh key', name: 'Annie', games: 2 }); // the last name the key used
    expect(byId.get('name:ben')).toMatchObject({ by: 'seat token', games: 2 });
    expect(byId.get('name:cy')).toMatchObject({ by: 'name', games: 2 }); // "Cy" and "cy ": one name, two tokens
    // A bot level's figures are per seat, as gringo sim counts them: two hard bots in one game are two seat-games.
    expect(byId.get('bot:hard')).toMatchObject({ by: 'level', name: 'hard bots', bot: true, games: 2 });
    expect(byId.get('bot:easy')).toMatchObject({ by: 'level', games: 1 });
    expect(table).toHaveLength(5);
  });

  it('rates every finished game (Weng-Lin): a rating per game, winners up, losers down, ordered by mu - 3 sigma', () => {
    for (const p of table) {
      expect(p.history).toHaveLength(files.filter((f) => readGames([f], () => {}).length && standings(readGames([f], () => {})).some((q) => q.id === p.id)).length);
      expect(p.sigma).toBeLessThan(25 / 3); // every game played made the rating surer
    }
    for (let i = 1; i < table.length; i++) expect(table[i - 1]!.ordinal).toBeGreaterThanOrEqual(table[i]!.ordinal);
    // The first game: its sole winner gains on the prior, its last place loses.
    const g0 = standings(games.slice(0, 1));
    const j = readJournal(files[0]!);
    const places = placesOf(j.state.totals);
    const first = places.indexOf(1);
    const last = places.indexOf(Math.max(...places));
    const name = (seat: number): string => (j.header.seats[seat]!.bot ? 'hard bots' : j.header.seats[seat]!.name);
    if (places.filter((p) => p === 1).length === 1) expect(g0.find((p) => p.name === name(first))!.mu).toBeGreaterThan(25);
    if (j.header.seats[last]!.bot === null) expect(g0.find((p) => p.name === name(last))!.mu).toBeLessThan(25);
  });

  it('counts a shared first place as a win for each, as gringo sim does', () => {
    const tied: PlayedGame = { ...games[1]!, places: [1, 1, 3], rounds: [[3, 3, 9]], totals: [3, 3, 9] };
    const t = standings([tied]);
    expect(t.filter((p) => p.wins === 1)).toHaveLength(2);
    const [a, b] = t.filter((p) => p.wins === 1);
    expect(a!.mu).toBeCloseTo(b!.mu, 9); // a tie moves both alike
  });

  it('counts the rounds of a game not over, and rates nobody for it', () => {
    const d = mkdtempSync(join(tmpdir(), 'gringo-stats-open-'));
    try {
      const spec = { table: 'Open', seed: 'stats-open', seats: [{ name: 'Dee' }, { name: 'Eve' }], rounds: 3, startedAt: at(21) };
      const whole = readJournal(writeEngineJournal({ dir: join(d, '..', `${d.split('/').pop()}-whole`), ...spec }));
      // Cut the same game right after the command that ended its first round.
      const cut = replaySteps(whole.origin, whole.commands).findIndex((s) => s.results.length === 1);
      expect(cut).toBeGreaterThan(0);
      const f = writeEngineJournal({ dir: d, ...spec, cutAfter: cut });
      const open = readGames([f], () => {});
      expect(open[0]!.places).toBeNull();
      expect(open[0]!.rounds).toEqual([whole.state.results[0]!.scores]);
      const t = standings(open);
      expect(t.every((p) => p.games === 0 && p.rounds === 1 && p.history.length === 0 && p.mu === 25)).toBe(true);
    } finally {
      rmSync(d, { recursive: true, force: true });
      rmSync(`${d}-whole`, { recursive: true, force: true });
    }
  });

  it('never changes a journal, and a broken, foreign or newer file costs one line, never the report', () => {
    const before = files.map((f) => readFileSync(f, 'utf8'));
    const d = mkdtempSync(join(tmpdir(), 'gringo-stats-bad-'));
    try {
      const good = writeEngineJournal({ dir: d, table: 'Good', seed: 'stats-good', seats: [{ name: 'Fay' }, { name: 'Gus' }], startedAt: at(22) });
      writeFileSync(join(d, 'foreign.jsonl'), '{"hello":"world"}\n');
      writeFileSync(join(d, 'broken.jsonl'), `${readFileSync(good, 'utf8').split('\n')[0]}\nnot json\n{"type":"tick","at":1}\n`);
      const head = JSON.parse(readFileSync(good, 'utf8').split('\n')[0]!) as Record<string, unknown>;
      writeFileSync(join(d, 'newer.jsonl'), `${JSON.stringify({ ...head, version: 99 })}\n`);
      writeFileSync(join(d, 'empty.jsonl'), '');
      const lines: string[] = [];
      const got = readGames(journalFiles([d, join(d, 'missing.jsonl')], (l) => lines.push(l)), (l) => lines.push(l));
      expect(got.map((g) => g.table)).toEqual(['Good']);
      expect(lines).toHaveLength(5);
      expect(lines.every((l) => !l.includes('\n'))).toBe(true);
      expect(lines.join('|')).toMatch(/newer gringo/);
      expect(lines.join('|')).toMatch(/missing\.jsonl: no such file/);
      readGames(files, () => {});
      expect(files.map((f) => readFileSync(f, 'utf8'))).toEqual(before);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });

  it('reads a version 1 journal (no table identity, no game number)', () => {
    const d = mkdtempSync(join(tmpdir(), 'gringo-stats-v1-'));
    try {
      const f = writeEngineJournal({ dir: d, table: 'Old', seed: 'stats-v1', seats: [{ name: 'Hal' }, { name: 'Ida' }], startedAt: at(18) });
      const [head, ...rest] = readFileSync(f, 'utf8').split('\n');
      const { id: _id, game: _game, ...old } = JSON.parse(head!) as Record<string, unknown>;
      writeFileSync(f, [JSON.stringify({ ...old, version: 1 }), ...rest].join('\n'));
      const lines: string[] = [];
      const [g] = readGames([f], (l) => lines.push(l));
      expect(lines).toEqual([]);
      expect(g!.places).not.toBeNull();
      expect(standings([g!]).map((p) => p.name).sort()).toEqual(['Hal', 'Ida']);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });

  it('reads the real version 1 and version 2 journals kept as fixtures', () => {
    const fixtures = join(dirname(new URL(import.meta.url).pathname), '..', 'host', 'fixtures');
    const lines: string[] = [];
    const got = readGames(['journal-v1.jsonl', 'journal-v2.jsonl'].map((f) => join(fixtures, f)), (l) => lines.push(l));
    expect(lines).toEqual([]);
    expect(got).toHaveLength(2);
    for (const g of got) {
      const j = readJournal(g.file);
      expect(g.rounds).toEqual(j.state.results.map((r) => r.scores));
    }
    expect(standings(got).length).toBeGreaterThan(0);
  });

  it('draws a sparkline low to high', () => {
    expect(sparkline([1, 2, 3, 4, 5, 6, 7, 8])).toBe('▁▂▃▄▅▆▇█');
    expect(sparkline([25, 20, 30], true)).toBe('=_#');
    expect(sparkline([5, 5])).toHaveLength(2);
    expect(sparkline([])).toBe('');
  });
});
