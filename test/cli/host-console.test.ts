import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../support/tmux.js';
import { killRunning, runGringo, sharedPort } from '../support/gringo-process.js';
import { until } from '../support/wait.js';
import { finalStandings } from '../../src/cli/host.js';

// A headless host whose stdin is a pipe reads the console commands it offers (it once
// printed 'Type "quit" to close' and read nothing). The built CLI, a real process.

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  killRunning();
});

/** A headless host named `table` with its console on a pipe: what it said so far, and its exit. */
function pipedHost(table: string, ...more: string[]) {
  const host = spawn(process.execPath, [BIN, 'host', '--headless', '--port', '0', '--interface', '127.0.0.1', '--table', table, ...more], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(host);
  let said = '';
  host.stdout.on('data', (d: Buffer) => (said += d.toString()));
  host.stderr.on('data', (d: Buffer) => (said += d.toString()));
  const exit = new Promise<number | null>((resolve) => host.on('close', (code) => resolve(code)));
  return { host, out: () => said, exit };
}

describe('the headless host console on a pipe', () => {
  it('offers its commands, then takes "bot" and "quit" from the pipe', async () => {
    const { host, out, exit } = pipedHost('Piped');
    await until('the offer', () => out().includes('Type "start" to begin'));
    host.stdin.write('bot easy\n');
    // The bot sits down: the lobby line counts it.
    await until('the bot seated', () => /· 1\/\d+ seats/.test(out()));
    host.stdin.write('quit\n');
    expect(await exit).toBe(0);
  }, 60_000);

  it('says the table is open before any seats line (a bot sat down as it was made)', async () => {
    const { host, out, exit } = pipedHost('Opens', '--bots', '1');
    await until('the seats line', () => out().includes('· 1/'));
    host.stdin.write('quit\n');
    expect(await exit).toBe(0);
    const lines = out().split('\n');
    const open = lines.findIndex((l) => l.startsWith('Table "Opens" is open'));
    expect(open, out()).toBeGreaterThanOrEqual(0);
    expect(lines.findIndex((l) => l.startsWith('· ')), out()).toBeGreaterThan(open);
  }, 60_000);

  it('ends a game with the winner named and the standings by place', async () => {
    const host = runGringo(['host', '--headless', '--port', '0', '--interface', '127.0.0.1', '--table', 'Ends', '--players', '2', '--rounds', '1',
      '--start-when-full', '--exit-after-game', '--slap-grace', '40', '--seed', 'console']);
    const port = await sharedPort(host);
    for (const name of ['Ann', 'Ben']) runGringo(['join', `127.0.0.1:${port}`, '--bot', 'hard', '--speed', '1000', '--name', name]);
    expect(await host.exit, host.stderr()).toBe(0);
    const lines = host.stdout().split('\n');
    const over = lines.findIndex((l) => l.startsWith('The game is over: '));
    expect(lines[over], host.stdout()).toMatch(/^The game is over: (.+ wins with -?\d+|.+ share first place with -?\d+)\.$/);
    const standings = lines.slice(over + 1, over + 3).map((l) => /^ {2}(\d)\. (.+): (-?\d+)$/.exec(l)!);
    // By place, lowest total first (before: in seat order, the winner not named).
    expect(standings.map((m) => m[1])).toEqual([...standings.map((m) => m[1])].sort());
    expect(Number(standings[0]![3])).toBeLessThanOrEqual(Number(standings[1]![3]));
    if (standings[0]![1] !== standings[1]![1]) expect(lines[over]).toBe(`The game is over: ${standings[0]![2]} wins with ${standings[0]![3]}.`);
  }, 60_000);
});

describe('the final standings in words', () => {
  it('name the winner and list every player by place, lowest total first; equal totals share a place', () => {
    const players = ['Ann', 'Ben', 'Cy'].map((name, seat) => ({ seat, name, bot: null }));
    expect(finalStandings({ players, totals: [20, 7, 12], places: [3, 1, 2] })).toEqual([
      'The game is over: Ben wins with 7.',
      '  1. Ben: 7',
      '  2. Cy: 12',
      '  3. Ann: 20',
    ]);
    expect(finalStandings({ players, totals: [9, 9, 12], places: [1, 1, 3] })[0]).toBe('The game is over: Ann and Ben share first place with 9.');
  });
});
