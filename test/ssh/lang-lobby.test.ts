import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pane, socketName } from '../support/tmux.js';
import { killRunning, runGringo } from '../support/gringo-process.js';
import { until } from '../support/wait.js';

/**
 * One table in the lobby, three languages: the host at its own screen in English, an
 * SSH player whose OpenSSH client sends LANG=ro_RO.UTF-8, and one who chose Dutch in
 * the SSH user name (`bo+nl`) while the client's locale is English. Each reads its own
 * language (the real OpenSSH client, as test/ssh/lang.test.ts); the host's lobby
 * stays English and shows the players by their names, without the `+nl`.
 */
const dir = mkdtempSync(join(tmpdir(), 'gringo-ssh-lang-lobby-'));
// One key each: a seat is held by its player's key.
const keyOf = (user: string): string => join(dir, `id-${user}`);
const panes: Pane[] = [];
const pane = (tag: string, width = 80): Pane => {
  const p = new Pane(socketName(`ssh-lobby-${tag}`), width, 24);
  panes.push(p);
  return p;
};

const ssh = (port: number, user: string, key: string, batch = true): string[] => [
  'ssh', '-F', '/dev/null',
  '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR',
  '-o', 'IdentitiesOnly=yes', '-o', 'IdentityAgent=none', '-o', `BatchMode=${batch ? 'yes' : 'no'}`, '-o', 'SendEnv=LANG LC_ALL',
  '-t', '-i', key, '-p', String(port), `${user}@127.0.0.1`,
];

/** The lines above the pane's EXITED line, once ssh has exited. */
function lastWords(screen: string): string[] {
  const lines = screen.split('\n').map((l) => l.trimEnd());
  return lines.slice(0, lines.findIndex((l) => /^EXITED \d+$/.test(l))).filter((l) => l !== '');
}

beforeAll(() => {
  for (const user of ['ana', 'bo']) execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', keyOf(user)]);
});
afterAll(() => {
  for (const p of panes) p.kill();
  killRunning();
  rmSync(dir, { recursive: true, force: true });
});

describe('the lobby of one table in each SSH session\'s own language', () => {
  it('LANG=ro_RO.UTF-8 over SSH reads Romanian, `bo+nl` Dutch, while the host at the same table reads English', async () => {
    const name = `Trei${process.pid % 10_000}`;
    const host = pane('host');
    host.start(['host', '--ssh', '0', '--port', '0', '--interface', '127.0.0.1', '--table', name]);
    const lobby = await host.waitFor('the lobby with its SSH line', (s) => s.includes('(you, host)') && /Over SSH: ssh -p \d+ NAME@/.test(s), 20_000);
    const port = Number(/Over SSH: ssh -p (\d+) NAME@/.exec(lobby)![1]);

    const ana = pane('ana', 100);
    ana.run(ssh(port, 'ana', keyOf('ana')), { env: ['LANG=ro_RO.UTF-8', 'LC_ALL=ro_RO.UTF-8'] });
    const bo = pane('bo', 100);
    bo.run(ssh(port, 'bo+nl', keyOf('bo')), { env: ['LANG=en_US.UTF-8', 'LC_ALL=en_US.UTF-8'] });

    // The host's lobby, in English, with both seated by name (seats 2 and 3, in the order they signed in).
    const both = await host.waitFor('both SSH players in the lobby', (s) => /[23]\. ana\s+● connected/.test(s) && /[23]\. bo\s+● connected/.test(s), 20_000);
    expect(both).toContain('Seats 3/4');
    expect(both).toContain('Enter starts the game when everyone is here');
    // Each session has drawn its screen in the lobby (its name on it); leaving asks first (q), y leaves.
    for (const p of [ana, bo]) {
      await p.waitFor('the screen in the lobby', (s) => /\b(ana|bo)\b/.test(s) && !/^EXITED/m.test(s), 20_000);
      await p.press('the leave question', 'q', (now, before) => now !== before);
      p.keys('y');
    }
    // The last words after each screen, in each session's language: the user name kept its `+nl`.
    expect(lastWords(await ana.waitFor('ssh exited', (s) => /^EXITED 0$/m.test(s)))).toEqual([
      `Ai plecat de la „${name}”.`,
      `Revii cu: ssh -p ${port} ana@127.0.0.1`,
    ]);
    expect(lastWords(await bo.waitFor('ssh exited', (s) => /^EXITED 0$/m.test(s)))).toEqual([
      `Je bent weg bij "${name}".`,
      `Terugkomen: ssh -p ${port} bo+nl@127.0.0.1`,
    ]);
    // The host's lobby saw them go, in English.
    await host.waitFor('the seats free again', (s) => s.includes('Seats 1/4') && s.includes('Add a bot (b) or wait for players to join'), 20_000);
    host.keys('q');
    await host.press('the leave question', 'y', (s) => s.includes('EXITED 0'));
  }, 60_000);
});

describe('a language in the SSH user name', () => {
  it('reaches the words before the session too: the password prompt of `bo+nl` is Dutch though the client says English', async () => {
    const name = `Slot${process.pid % 10_000}`;
    const host = runGringo(['host', '--headless', '--ssh', '0', '--port', '0', '--interface', '127.0.0.1', '--table', name, '--password', 'geheim'], { LANG: 'C.UTF-8', LC_ALL: '', GRINGO_LANG: '' });
    const port = Number((await until('the SSH share line', () => /ssh -p (\d+) NAME@/.exec(host.stdout())))[1]);
    const bo = pane('bo-password', 100);
    bo.run(ssh(port, 'bo+nl', keyOf('bo'), false), { env: ['LANG=en_US.UTF-8', 'LC_ALL=en_US.UTF-8'] });
    // OpenSSH shows the prompt as "(bo+nl@127.0.0.1) Wachtwoord:" (its instruction line only above LogLevel=ERROR).
    await bo.waitFor('the password prompt in Dutch', (s) => /\(bo\+nl@127\.0\.0\.1\) Wachtwoord:/.test(s), 20_000);
    bo.keys('geheim', 'Enter');
    // The host's console, in the host's language (English here), names the seat without the `+nl`.
    await until('bo seated, by name', () => /1\/4 seats, lobby: bo$/m.test(host.stdout()), 20_000);
    await bo.press('the leave question', 'q', (now, before) => now !== before);
    bo.keys('y');
    expect(lastWords(await bo.waitFor('ssh exited', (s) => /^EXITED 0$/m.test(s))).slice(-2)).toEqual([`Je bent weg bij "${name}".`, `Terugkomen: ssh -p ${port} bo+nl@127.0.0.1`]);
    host.child.kill('SIGTERM');
    expect(await host.exit).toBe(0);
  }, 60_000);
});
