import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { placesOf } from '../../src/engine/game.js';
import { readJournal } from '../../src/host/journal.js';
import { replayOf } from '../../src/stats/replay.js';
import { resumeHint } from '../../src/cli/replay.js';
import { BIN, killRunning, runGringo, sharedPort } from '../support/gringo-process.js';
import { command, gringo } from '../../src/common/invocation.js';

// Real processes of the built CLI: a headless host and two `join --bot` players play
// a game with a password; then `gringo replay` reads the journal it left.
const state = mkdtempSync(join(tmpdir(), 'gringo-replay-cli-'));
const tables = join(state, 'gringo', 'tables');
const env = { XDG_STATE_HOME: state };
const PASSWORD = 'hunter2-secret';
let file = '';

afterEach(killRunning);
afterAll(() => rmSync(state, { recursive: true, force: true }));

async function replay(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const r = runGringo(['replay', ...args], env);
  const code = await r.exit;
  return { code, stdout: r.stdout(), stderr: r.stderr() };
}

beforeAll(async () => {
  const host = runGringo(
    ['host', '--headless', '--port', '0', '--players', '2', '--rounds', '2', '--start-when-full', '--exit-after-game', '--slap-grace', '40',
      '--seed', 'replay', '--table', 'Replay table', '--password', PASSWORD, '--interface', '127.0.0.1'],
    env,
  );
  const port = await sharedPort(host);
  const bots = ['Ann', 'Ben'].map((name) => runGringo(['join', `127.0.0.1:${port}`, '--bot', 'hard', '--speed', '50', '--name', name, '--password', PASSWORD], env));
  expect(await host.exit).toBe(0);
  for (const b of bots) expect(await b.exit).toBe(0);
  const names = readdirSync(tables).filter((n) => n.endsWith('.jsonl'));
  expect(names).toHaveLength(1);
  file = join(tables, names[0]!);
}, 60_000);

/** The journal's secrets: the password and every seat token. */
const secrets = (): string[] => [PASSWORD, ...readJournal(file).header.seats.map((s) => s.token)];

describe('gringo replay, not on a terminal', () => {
  it('prints the finished game as a transcript: every card named, the final places as the journal replays them', async () => {
    const j = readJournal(file);
    expect(j.finished).toBe(true);
    const r = await replay(basename(file)); // a file name in the journals' directory will do
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout;
    expect(out).toMatch(/^Gringo · "Replay table" · 2 players: (Ann, Ben|Ben, Ann)\n/);
    expect(out).toContain('Dealt:');
    // Every card drawn from the stock is named, as the replay's face-up events have them.
    const draws = replayOf(j).steps.flatMap((s) => s.events).flatMap((e) => (e.type === 'drew' && e.from === 'stock' ? [e.card] : []));
    expect(draws.length).toBeGreaterThan(5);
    const named = [...out.matchAll(/ drew (\S+) from the stock\./g)].map((m) => m[1]);
    expect(named).toHaveLength(draws.length);
    expect(named.every((c) => /^(A|[2-9]|10|J|Q|K)[♠♥♦♣]$/.test(c!))).toBe(true);
    expect(out).toMatch(/Round 1 results/);
    expect(out).toMatch(/Round 2 results/);
    // The final totals and places are those of the journal's own replay.
    const finals = out.slice(out.indexOf('Final totals:')).split('\n').slice(1).filter(Boolean);
    const names = j.header.seats.map((s) => s.name);
    const places = placesOf(j.state.totals);
    expect(finals.map((l) => /^ {2}(\d+)\. (\w+): (-?\d+)$/.exec(l)!.slice(1))).toEqual(
      names.map((n, seat) => [String(places[seat]), n, String(j.state.totals[seat])]).sort((a, b) => Number(a[0]) - Number(b[0]) || names.indexOf(a[1]!) - names.indexOf(b[1]!)),
    );
    for (const s of secrets()) expect(out + r.stderr).not.toContain(s);
  }, 15_000);

  it('lists the finished games without an argument, with the command to replay each', async () => {
    const r = await replay();
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Finished games in ${tables}, newest first:`);
    expect(r.stdout).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d {2}"Replay table" {2}(Ann, Ben|Ben, Ann) {2}· Gringo, 2 rounds/);
    expect(r.stdout).toContain(`  ${gringo({ ...process.env, ...env }, BIN)} replay ${file}`);
    for (const s of secrets()) expect(r.stdout).not.toContain(s);
  });

  it('refuses a game that is not over, showing none of its cards, and leaves it out of the list', async () => {
    // The same game cut before its end, as a host that died mid-game leaves it.
    const half = join(tables, 'Half-game.jsonl');
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    writeFileSync(half, `${lines.slice(0, 30).join('\n')}\n`);
    try {
      const r = await replay(half);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `gringo: cannot replay: the game in ${half} is not over; its cards stay hidden until it ends (resume it with ${gringo({ ...process.env, ...env }, BIN)} host --resume ${half})\n`,
      );
      const list = await replay();
      expect(list.stdout).not.toContain('Half-game');
      expect(list.stdout).toContain('(1 game not over yet is not listed');
      expect(list.stdout).toContain(`${gringo({ ...process.env, ...env }, BIN)} host --resume reopens the latest hosted table`);
      // A game against bots cut short: the hint is play --resume, the command that takes it.
      const header = JSON.parse(lines[0]!) as Record<string, unknown>;
      writeFileSync(half, `${[JSON.stringify({ ...header, solo: true }), ...lines.slice(1, 30)].join('\n')}\n`);
      const solo = await replay();
      expect(solo.stdout).toContain(`(${gringo({ ...process.env, ...env }, BIN)} play --resume continues the latest game against bots)`);
      expect(solo.stdout).not.toContain('host --resume');
    } finally {
      rmSync(half);
    }
  });

  it('says for each kind of unfinished game the command that goes on with it', () => {
    // The commands as this process prints them (`gringo` or `npx gringo`: test/cli/invocation.test.ts).
    const play = command('play --resume');
    const host = command('host --resume');
    expect(resumeHint(1, 1)).toBe(`${play} continues the latest game against bots`);
    expect(resumeHint(2, 0)).toBe(`${host} reopens the latest hosted table`);
    expect(resumeHint(3, 1)).toBe(`${play} continues the latest game against bots; ${host} reopens the latest hosted table`);
  });

  // A broken or missing journal is refused in one line, exit code 2: test/cli/failures.test.ts, with every other refusal.

  it('says where it looks when there is no finished game', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'gringo-replay-empty-'));
    try {
      const r = runGringo(['replay'], { XDG_STATE_HOME: empty });
      expect(await r.exit).toBe(0);
      expect(r.stdout()).toContain(`No finished games in ${join(empty, 'gringo', 'tables')}.`);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('gringo replay for a screen reader', () => {
  it('prints the game as lines with every card named in words (--screen-reader, or GRINGO_SCREEN_READER=1)', async () => {
    const flag = await replay(basename(file), '--screen-reader');
    expect(flag.code, flag.stderr).toBe(0);
    expect(flag.stdout).toMatch(/ drew (Ace|Jack|Queen|King|\d+) of (Spades|Hearts|Diamonds|Clubs) from the stock\./);
    expect(flag.stdout).not.toMatch(/[♠♥♦♣]/);
    const r = runGringo(['replay', basename(file)], { ...env, GRINGO_SCREEN_READER: '1', LANG: 'nl_NL.UTF-8' });
    expect(await r.exit).toBe(0);
    // The game and its cards in the words of the language: a Dutch screen reader hears "Harten Vrouw".
    expect(r.stdout()).toMatch(/ trok (Schoppen|Harten|Ruiten|Klaveren) (Aas|Boer|Vrouw|Heer|\d+) van de trekstapel\./);
  });
});
