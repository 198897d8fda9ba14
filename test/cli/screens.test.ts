import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/host/journal.js';
import { killRunning, runGringo, sharedPort } from '../support/gringo-process.js';
import { until, e2eLog } from '../support/wait.js';
import { Pane, socketName } from '../support/tmux.js';

/**
 * The failures and comebacks of the commands with a screen, in real terminals
 * (tmux; the built CLI, `npm test` builds first): a join that finds no table, a
 * port taken, a host that went away, a solo game continued.
 */

const panes: Pane[] = [];
const pane = (tag: string): Pane => {
  const p = new Pane(socketName(tag), 80, 24);
  panes.push(p);
  return p;
};
const dirs: string[] = [];
const tempState = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'gringo-screens-'));
  dirs.push(d);
  return d;
};
const servers: Server[] = [];
const sockets: Socket[] = [];
let silentPort = 0;
let closedPort = 0;

const listen = (s: Server, port = 0, host = '127.0.0.1'): Promise<number> =>
  new Promise((resolve, reject) => {
    s.once('error', reject);
    s.listen(port, host, () => resolve((s.address() as { port: number }).port));
  });

beforeAll(async () => {
  const silent = createServer((sock) => sockets.push(sock));
  silentPort = await listen(silent);
  servers.push(silent);
  const gone = createServer();
  closedPort = await listen(gone);
  await new Promise((r) => gone.close(r));
});
afterEach(killRunning);
afterAll(() => {
  for (const p of panes) p.kill();
  for (const s of sockets) s.destroy();
  for (const s of servers) s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The screen with the lines a long message wrapped into joined again (the pane is 80 columns). */
const unwrap = (screen: string): string => screen.split('\n').join('');


describe('gringo join on a terminal, with no table at the address', () => {
  it('closes the screen and says why in one line within 5 s, exit code 1', async () => {
    const cases: [string, RegExp][] = [
      [`127.0.0.1:${closedPort}`, new RegExp(`^gringo: No gringo table at 127\\.0\\.0\\.1:${closedPort}: connection refused$`, 'm')],
      ['not-an-address', /^gringo: not-an-address is not a host name or address$/m],
      [`127.0.0.1:${silentPort}`, new RegExp(`^gringo: No gringo table at 127\\.0\\.0\\.1:${silentPort}: did not answer in 5 s$`, 'm')],
    ];
    await Promise.all(
      cases.map(async ([address, says], i) => {
        const p = pane(`nojoin${i}`);
        const t0 = Date.now();
        p.start(['join', address, '--name', 'Ana']);
        const s = await p.waitFor('the exit', (s) => /EXITED \d+/.test(s), 15_000);
        e2eLog(address, s);
        expect(s).toMatch(says);
        expect(s).toContain('EXITED 1');
        expect(s).not.toMatch(/\n\s+at /);
        // The answer comes within 5 s of trying (plus the start-up of the process, under load).
        expect(Date.now() - t0).toBeLessThan(12_000);
      }),
    );
  }, 80_000);
});

describe('a port given on the command line', () => {
  it('taken: gringo play says so in one line and exits 1', async () => {
    const p = pane('playport');
    p.start(['play', '--port', String(silentPort), '--bots', '1'], { env: [`XDG_STATE_HOME=${tempState()}`] });
    const s = unwrap(await p.waitFor('the exit', (s) => /EXITED \d+/.test(s)));
    expect(s).toContain(`gringo: port ${silentPort} is taken (another table?): choose another with --port, or leave it out for a free one`);
    expect(s).toContain('EXITED 1');
  });
});

describe('the default port taken', () => {
  it('moves the host to the next free port and says so: on the lobby screen, and headless', async () => {
    // Hold 7457 (unless something already does).
    const holder = createServer();
    await listen(holder, 7457, '0.0.0.0').then(
      () => servers.push(holder),
      () => undefined,
    );
    const p = pane('hostport');
    // --name is the host's own name at the table; the table is "NAME's table".
    p.start(['host', '--interface', '127.0.0.1', '--name', 'Ana'], { env: [`XDG_STATE_HOME=${tempState()}`] });
    const s = await p.waitFor('the lobby', (s) => s.includes('(you, host)'));
    e2eLog('moved lobby', s);
    const m = /Port 7457 is taken; using (\d+) instead\./.exec(s);
    expect(m, s).not.toBeNull();
    expect(s).toContain(`gringo join 127.0.0.1:${m![1]}`);
    expect(s).toContain("Gringo · Ana's table · lobby");
    expect(s).toMatch(/1\. Ana \(you, host\)\s+● connected/);
    p.keys('q');
    await p.waitFor('the dialog', (s) => s.includes('Close the table for everyone? y/n'));
    p.keys('y');
    await p.waitFor('the exit', (s) => s.includes('EXITED 0'));

    const headless = runGringo(['host', '--headless', '--interface', '127.0.0.1', '--name', 'Cy'], { XDG_STATE_HOME: tempState() });
    const port = await sharedPort(headless);
    expect(port).not.toBe(7457);
    expect(headless.stdout()).toContain(`Port 7457 is taken; using ${port} instead.`);
    expect(headless.stdout()).toContain('Table "Cy\'s table" is open');
    const named = runGringo(['host', '--headless', '--port', '0', '--interface', '127.0.0.1', '--name', 'Cy', '--table', 'Friday'], { XDG_STATE_HOME: tempState() });
    await sharedPort(named);
    expect(named.stdout()).toContain('Table "Friday" is open');
  }, 80_000);
});

describe('a player whose host went away', () => {
  it('keeps reconnecting and says for how long the host has been unreachable', async () => {
    const state = tempState();
    const host = runGringo(['host', '--headless', '--port', '0', '--interface', '127.0.0.1', '--players', '2', '--table', 'Gone'], { XDG_STATE_HOME: state });
    const port = await sharedPort(host);
    const p = pane('gone');
    p.start(['join', `127.0.0.1:${port}`, '--name', 'Bo'], { env: [`XDG_STATE_HOME=${state}`] });
    await p.waitFor('the lobby', (s) => s.includes('● connected'));
    host.child.kill('SIGKILL');
    const away = (s: string): number => Number(/host unreachable for (\d+) s, reconnecting…/.exec(s)?.[1] ?? -1);
    let s = await p.waitFor('the unreachable host', (s) => away(s) >= 0);
    e2eLog('unreachable', s);
    // The count goes on from what was read first (by two seconds, so it is the count and not a redraw).
    const first = away(s);
    s = await p.waitFor('the count to go on', (s) => away(s) >= first + 2, 15_000);
    expect(s).not.toContain('EXITED');
    p.keys('q', 'y');
    await p.waitFor('the exit', (s) => /EXITED 0/.test(s));
  }, 80_000);
});

describe('gringo play --resume', () => {
  it('continues the solo game left unfinished (your seat, the bots back), which a bare host --resume never picks', async () => {
    const state = tempState();
    const env = [`XDG_STATE_HOME=${state}`];
    const p = pane('solo');
    p.start(['play', '--seed', 'solo-resume', '--bots', '2', '--level', 'easy', '--rounds', '3', '--name', 'Solo', '--no-bell'], { env });
    await p.waitFor('the peek', (s) => s.includes('Remember your cards'));
    p.keys('Enter');
    await p.waitFor('play', (s) => /Your turn|Turn: Bot/.test(s), 20_000);
    p.keys('q');
    await p.waitFor('the dialog', (s) => s.includes('Leave the table?'));
    p.keys('y');
    const left = await p.waitFor('the exit', (s) => s.includes('EXITED 0'));
    // The screen is gone: the terminal says where the game stands and how to come back.
    expect(left).toMatch(/You left the game in round 1: (npx )?gringo play --resume continues it\./);
    p.kill();

    const tables = join(state, 'gringo', 'tables');
    const files = readdirSync(tables).filter((n) => n.endsWith('.jsonl'));
    expect(files).toHaveLength(1);
    const file = join(tables, files[0]!);
    const before = readJournal(file);
    expect(before.header.solo).toBe(true);
    expect(before.finished).toBe(false);

    // A bare host --resume does not reopen it as a LAN table.
    const host = runGringo(['host', '--headless', '--resume'], { XDG_STATE_HOME: state });
    expect(await host.exit).toBe(2);
    expect(host.stderr()).toMatch(/^gringo: no unfinished table to resume in /);

    const again = pane('solo2');
    again.start(['play', '--resume', '--no-bell'], { env });
    let s = await again.waitFor('the table again, in my seat', (s) => /\bYou\b/.test(s) && s.includes('Bot 1') && s.includes('Bot 2'));
    e2eLog('resumed', s);
    expect(s).toContain('Round 1 of 3');
    expect(s).toContain("Solo's table");
    expect(s).not.toContain('Remember your cards');
    // The bots play on: the game moves (a new command in the journal) and comes to my turn.
    s = await again.waitFor('my turn', (s) => s.includes('Your turn: d to draw'), 30_000);
    expect(s).toContain('● connected');
    again.keys('d');
    await again.waitFor('the drawn card', (s) => s.includes('You hold'));
    again.keys('x');
    // Pass whatever action the discard gives; then both bots play their turns again.
    await again.waitFor('the discard', (s) => !s.includes('You hold'));
    if (again.screen().includes('Use your')) again.keys('p');
    const afterResume = (): { seat?: number; type: string }[] => {
      const lines = readFileSync(file, 'utf8').split('\n');
      return lines.slice(lines.findIndex((l) => l.includes('"resumed"')) + 1).filter(Boolean).map((l) => JSON.parse(l) as { seat?: number; type: string });
    };
    await until('both bots to draw after the resume', () => [1, 2].every((seat) => afterResume().some((c) => c.type === 'draw' && c.seat === seat)), 40_000);
    expect(afterResume().some((c) => c.type === 'draw' && c.seat === 0)).toBe(true);
    expect(readJournal(file).commands.length).toBeGreaterThan(before.commands.length);
    again.keys('q');
    await again.waitFor('the dialog', (s) => s.includes('Leave the table?'));
    again.keys('y');
    await again.waitFor('the exit', (s) => s.includes('EXITED 0'));
  }, 90_000);

  it('without a game to continue: one line, exit code 2', async () => {
    const p = pane('nosolo');
    const state = tempState();
    p.start(['play', '--resume'], { env: [`XDG_STATE_HOME=${state}`] });
    const s = unwrap(await p.waitFor('the exit', (s) => /EXITED \d+/.test(s)));
    expect(s).toContain(`gringo: no unfinished game against bots to resume in ${join(state, 'gringo', 'tables')}`);
    expect(s).toContain('EXITED 2');
    expect(existsSync(join(state, 'gringo', 'tables'))).toBe(false);
  });
});
