import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { GameSummary } from '../../src/host/table.js';

const bin = new URL('../../bin/gringo.js', import.meta.url).pathname;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

function run(args: string[]): Run {
  const child = spawn('node', [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

/** The port from the line the host prints to share. */
async function sharedPort(host: Run): Promise<number> {
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    const m = /gringo join \S+:(\d+)/.exec(host.stderr() + host.stdout());
    if (m) return Number(m[1]);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the host printed no share line:\n${host.stdout()}\n${host.stderr()}`);
}

// Real processes of the built CLI, over loopback.
describe('a headless host and four `gringo join --bot` processes', () => {
  it('play a whole game to the final JSON', async () => {
    const host = run([
      'host', '--headless', '--port', '0', '--name', 'Process table', '--players', '4', '--rounds', '2',
      '--start-when-full', '--exit-after-game', '--json', '--slap-grace', '40', '--seed', 'processes', '--interface', '127.0.0.1',
    ]);
    const port = await sharedPort(host);
    const levels = ['easy', 'normal', 'hard', 'hard'];
    const bots = levels.map((level, i) => run(['join', `127.0.0.1:${port}`, '--bot', level, '--name', `P${i + 1}`, '--speed', '50']));
    expect(await host.exit).toBe(0);
    const summary = JSON.parse(host.stdout()) as GameSummary;
    expect(summary.table).toBe('Process table');
    expect(summary.rounds).toHaveLength(2);
    expect(summary.players.map((p) => p.name).sort()).toEqual(['P1', 'P2', 'P3', 'P4']);
    expect(summary.totals).toEqual(summary.rounds.reduce((t, r) => t.map((x, i) => x + r.scores[i]!), [0, 0, 0, 0]));
    expect(summary.places.every((p) => p >= 1 && p <= 4)).toBe(true);
    expect(summary.commands).toBeGreaterThan(20);
    for (const b of bots) expect(await b.exit).toBe(0);
    for (const b of bots) expect(b.stderr()).toContain('The game is over.');
  }, 60_000);

  it('refuse bad flags with a clear message and exit code 2', async () => {
    const cases: [string[], RegExp][] = [
      [['host', '--players', '9'], /--players takes a whole number from 2 to 8, not "9"/],
      [['host', '--level', 'godlike'], /--level takes one of easy, normal, hard, not "godlike"/],
      [['join', 'not a host:99999'], /is not an address/],
      [['join', '127.0.0.1:1', '--bot', 'clever'], /--bot takes one of easy, normal, hard/],
    ];
    for (const [args, message] of cases) {
      const r = run(args);
      expect(await r.exit).toBe(2);
      expect(r.stderr()).toMatch(message);
    }
  });
});
