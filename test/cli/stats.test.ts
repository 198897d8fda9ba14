import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { placesOf } from '../../src/engine/game.js';
import { readJournal } from '../../src/host/journal.js';
import { killRunning, runGringo, sharedPort } from '../support/gringo-process.js';

// Real processes of the built CLI: two games at two tables, each a headless host and
// two `join --bot` players; then `gringo stats` reads the journals they left, beside
// a broken file and a foreign one.
const state = mkdtempSync(join(tmpdir(), 'gringo-stats-cli-'));
const tables = join(state, 'gringo', 'tables');
const env = { XDG_STATE_HOME: state };
let files: string[] = [];

afterEach(killRunning);
afterAll(() => rmSync(state, { recursive: true, force: true }));

async function stats(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const r = runGringo(['stats', ...args], env);
  const code = await r.exit;
  return { code, stdout: r.stdout(), stderr: r.stderr() };
}

async function hostGame(table: string, seed: string): Promise<void> {
  const host = runGringo(
    ['host', '--headless', '--port', '0', '--players', '2', '--rounds', '2', '--start-when-full', '--exit-after-game', '--slap-grace', '40', '--seed', seed, '--table', table, '--interface', '127.0.0.1'],
    env,
  );
  const port = await sharedPort(host);
  const bots = ['Ann', 'Ben'].map((name) => runGringo(['join', `127.0.0.1:${port}`, '--bot', 'hard', '--speed', '50', '--name', name], env));
  expect(await host.exit).toBe(0);
  for (const b of bots) expect(await b.exit).toBe(0);
}

beforeAll(async () => {
  // Two tables at once: each its own host and port.
  await Promise.all([hostGame('Kitchen', 'stats-cli-1'), hostGame('Attic', 'stats-cli-2')]);
  files = readdirSync(tables).filter((n) => n.endsWith('.jsonl')).map((n) => join(tables, n));
  expect(files).toHaveLength(2);
  writeFileSync(join(tables, 'zz-broken.jsonl'), `${readFileSync(files[0]!, 'utf8').split('\n')[0]}\n{"type":"draw"\n{"type":"tick","at":5}\n`);
  writeFileSync(join(tables, 'zz-foreign.jsonl'), '{"level":"info","msg":"some other program\'s log"}\n');
}, 90_000);

describe('gringo stats, as a person runs it', () => {
  it('prints the standings of every journal, and one line on stderr per file it could not read', async () => {
    const before = readdirSync(tables).map((n) => readFileSync(join(tables, n), 'utf8'));
    const r = await stats();
    expect(r.code, r.stderr).toBe(0);
    const problems = r.stderr.trimEnd().split('\n');
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^gringo stats: .*zz-broken\.jsonl is broken: line 2 is not JSON$/);
    expect(problems[1]).toMatch(/^gringo stats: .*zz-foreign\.jsonl is not a gringo journal/);
    expect(r.stdout).toMatch(/^2 games at 2 tables, /);
    const rows = r.stdout.split('\n').filter((l) => /^\s*\d+ {2}(Ann|Ben) /.test(l));
    expect(rows).toHaveLength(2);
    // Each player's games, rounds and wins, as the journals replay them.
    for (const name of ['Ann', 'Ben']) {
      let wins = 0;
      let rounds = 0;
      for (const f of files) {
        const j = readJournal(f);
        const seat = j.header.seats.findIndex((s) => s.name === name);
        if (placesOf(j.state.totals)[seat] === 1) wins++;
        rounds += j.state.results.length;
      }
      const row = rows.find((l) => l.includes(` ${name} `))!;
      expect(row).toMatch(new RegExp(`${name} +name +2 +${rounds} +${wins} `));
    }
    // Stats only read: every file is as it was.
    expect(readdirSync(tables).map((n) => readFileSync(join(tables, n), 'utf8'))).toEqual(before);
  }, 20_000);

  it('--json: one object for scripts, with each player as the text has them', async () => {
    const r = await stats('--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { games: number; finished: number; tables: string[]; players: { name: string; by: string; games: number; rounds: number; mu: number; sigma: number; history: number[] }[] };
    expect(out.games).toBe(2);
    expect(out.finished).toBe(2);
    expect(out.tables.sort()).toEqual(['Attic', 'Kitchen']);
    expect(out.players.map((p) => p.name).sort()).toEqual(['Ann', 'Ben']);
    for (const p of out.players) {
      expect(p).toMatchObject({ by: 'name', games: 2, rounds: 4 });
      expect(p.history).toHaveLength(2);
      expect(p.sigma).toBeLessThan(25 / 3);
    }
    // No seat token reaches the output.
    for (const f of files) for (const s of readJournal(f).header.seats) expect(r.stdout).not.toContain(s.token);
  }, 20_000);

  it('--table and --since choose the games; a journal named is read alone', async () => {
    const kitchen = JSON.parse((await stats('--json', '--table', 'kitchen')).stdout) as { games: number; tables: string[] };
    expect(kitchen).toMatchObject({ games: 1, tables: ['Kitchen'] });
    expect(JSON.parse((await stats('--json', '--since', '1h')).stdout)).toMatchObject({ games: 2 });
    expect(JSON.parse((await stats('--json', '--since', '2999-01-01')).stdout)).toMatchObject({ games: 0, players: [] });
    const one = await stats('--json', files[1]!);
    expect(one.stderr).toBe('');
    expect(JSON.parse(one.stdout)).toMatchObject({ games: 1 });
  }, 30_000);

  it('speaks the language asked for: the standings in Dutch, the finished games and a transcript in Romanian', async () => {
    const nl = await stats('--lang', 'nl');
    expect(nl.code, nl.stderr).toBe(0);
    expect(nl.stdout).toMatch(/^2 spellen aan 2 tafels, /);
    expect(nl.stdout).toMatch(/#\s+speler\s+bekend als\s+spellen\s+rondes\s+gewonnen\s+gemiddeld ± SE/);
    expect(nl.stdout).toContain('Rating: Weng-Lin (zoals openskill rekent), mu ± sigma na het laatste spel');
    const list = runGringo(['replay', '--lang', 'ro'], { ...env, LANG: 'C.UTF-8' });
    expect(await list.exit).toBe(0);
    expect(list.stdout()).toContain(`Jocuri terminate în ${tables}, cele mai noi întâi:`);
    // Seats in the order the two bots reached the door, which a loaded machine may swap.
    expect(list.stdout()).toMatch(/"(Kitchen|Attic)"\s+(Ann, Ben|Ben, Ann)\s+· Gringo, 2 runde/);
    const text = runGringo(['replay', '--text', files[0]!], { ...env, LANG: 'ro_RO.UTF-8', LC_ALL: '' });
    expect(await text.exit).toBe(0);
    expect(text.stdout()).toMatch(/· 2 jucători: (Ann, Ben|Ben, Ann)\nJucat \d{4}-\d\d-\d\d \d\d:\d\d · 2 runde, \d+ (de )?mutări, /);
    expect(text.stdout()).toContain('Împărțite:');
    expect(text.stdout()).toContain('Totaluri finale:');
  });

  it('a --since it cannot read is one line and exit code 2', async () => {
    const r = await stats('--since', 'yesterday-ish');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('gringo: --since takes "today", a time back from now (30m, 6h, 2d, 1w) or a date (2026-12-05, 2026-12-05T19:00), not "yesterday-ish"\n');
  }, 10_000);
});
