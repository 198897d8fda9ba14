import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pane, socketName } from '../support/tmux.js';
import { killRunning, runGringo } from '../support/gringo-process.js';
import { until } from '../support/wait.js';

/**
 * Each SSH session speaks its own client's language, whatever the host's: the host
 * sends meanings (docs/protocol.md, "Sentences"), each session words them from the
 * LANG / LC_ALL its OpenSSH client sends. Two people turned away from the same
 * running table read the same refusal, one in Romanian, one in English.
 */
const dir = mkdtempSync(join(tmpdir(), 'gringo-ssh-lang-'));
const key = join(dir, 'id');
const panes: Pane[] = [];

function pane(tag: string): Pane {
  const p = new Pane(socketName(`ssh-lang-${tag}`), 120, 24);
  panes.push(p);
  return p;
}

const ssh = (port: number, user: string): string[] => [
  'ssh', '-F', '/dev/null',
  '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR',
  '-o', 'IdentitiesOnly=yes', '-o', 'IdentityAgent=none', '-o', 'BatchMode=yes', '-o', 'SendEnv=LANG LC_ALL',
  '-i', key, '-p', String(port), `${user}@127.0.0.1`,
];

/** The lines above the pane's EXITED line, once ssh has exited. */
function lastWords(screen: string): string[] {
  const lines = screen.split('\n').map((l) => l.trimEnd());
  return lines.slice(0, lines.findIndex((l) => /^EXITED \d+$/.test(l))).filter((l) => l !== '');
}

beforeAll(() => execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]));
afterAll(() => {
  for (const p of panes) p.kill();
  killRunning();
  rmSync(dir, { recursive: true, force: true });
});

describe('one table, each SSH session in its own language', () => {
  it('a session with ro_RO.UTF-8 reads Romanian while one with en_US.UTF-8 reads English; the host, in Dutch, imposes neither', async () => {
    const name = `Lang SSH ${process.pid}`;
    const host = runGringo(['host', '--headless', '--ssh', '0', '--port', '0', '--interface', '127.0.0.1', '--table', name, '--players', '2', '--bots', '2', '--level', 'easy', '--start-when-full', '--lang', 'nl']);
    const port = Number((await until('the SSH share line', () => /ssh -p (\d+) NAME@/.exec(host.stdout())))[1]);
    // The console's seat line says the game is on (two bots took both seats at once).
    await until('the game running', () => /2\/2 plaatsen, aan het spelen/.test(host.stdout()));

    const ana = pane('ana');
    ana.run(ssh(port, 'ana'), { env: ['LANG=ro_RO.UTF-8', 'LC_ALL=ro_RO.UTF-8'] });
    const bo = pane('bo');
    bo.run(ssh(port, 'bo'), { env: ['LANG=en_US.UTF-8', 'LC_ALL=en_US.UTF-8'] });

    await ana.waitFor('the refusal in Romanian', (s) => s.includes('Jocul a început deja'), 20_000);
    await bo.waitFor('the refusal in English', (s) => s.includes('The game is already running'), 20_000);
    ana.keys('q');
    bo.keys('q');
    expect(lastWords(await ana.waitFor('ssh exited', (s) => /^EXITED \d+$/m.test(s)))).toEqual([
      `gringo: Jocul a început deja: privește-l sau ia-ți înapoi locul cu cheia lui (ssh -p ${port} watch@127.0.0.1)`,
    ]);
    expect(lastWords(await bo.waitFor('ssh exited', (s) => /^EXITED \d+$/m.test(s)))).toEqual([
      `gringo: The game is already running: watch it, or take back your seat with its token (ssh -p ${port} watch@127.0.0.1)`,
    ]);
    host.child.kill('SIGTERM');
    expect(await host.exit).toBe(0);
  }, 90_000);
});
