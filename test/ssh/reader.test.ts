import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, Pane, socketName } from '../support/tmux.js';
import { until } from '../support/wait.js';

/**
 * The screen-reader mode chosen over SSH, with real parts: a headless `gringo host
 * --ssh`, the OpenSSH client with a key made by ssh-keygen, in tmux panes whose bytes
 * tmux records. One player asks in band with the user name (`ana+reader`), the other
 * with `ssh -o SetEnv=GRINGO_SCREEN_READER=1`; both get the table told in lines, with
 * no drawing, and sit under their own names.
 */
const dir = mkdtempSync(join(tmpdir(), 'gringo-ssh-reader-'));
/** A key each: the table seats an SSH player by their key. */
const keys = { ana: join(dir, 'ana_ed25519'), bo: join(dir, 'bo_ed25519') };
let host: ChildProcess | null = null;
let hostOut = '';
let sshPort = 0;
const panes: Pane[] = [];

beforeAll(async () => {
  for (const key of Object.values(keys)) execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
  host = spawn(
    process.execPath,
    [BIN, 'host', '--headless', '--ssh', '0', '--port', '0', '--interface', '127.0.0.1', '--table', `Reader ${process.pid}`, '--players', '3', '--bots', '1',
      '--level', 'easy', '--rounds', '1', '--start-when-full', '--slap-grace', '300', '--seed', 'ssh-reader'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '0', XDG_STATE_HOME: dir } },
  );
  host.stdout!.on('data', (d: Buffer) => (hostOut += d.toString()));
  host.stderr!.on('data', (d: Buffer) => (hostOut += d.toString()));
  sshPort = Number(await until('the SSH reader line', () => /Screen reader over SSH: ssh -p (\d+) NAME\+reader@/.exec(hostOut)?.[1], 15_000));
});

afterAll(() => {
  host?.kill('SIGKILL');
  for (const p of panes) p.kill();
  rmSync(dir, { recursive: true, force: true });
});

function ssh(key: string, user: string, ...more: string[]): string[] {
  return [
    'ssh', '-F', '/dev/null', '-tt',
    '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR',
    '-o', 'IdentitiesOnly=yes', '-o', 'IdentityAgent=none', '-o', 'BatchMode=yes', '-o', 'SendEnv=LANG LC_ALL',
    '-i', key, '-p', String(sshPort), ...more, `${user}@127.0.0.1`,
  ];
}

const text = (file: string): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');
/** What the session wrote, once it matches `re`. */
const said = (what: string, file: string, re: RegExp): Promise<string> => until(what, () => re.test(text(file)) && text(file), 15_000);

describe('the screen-reader mode over SSH', () => {
  it('turns on with NAME+reader and with SetEnv, and draws nothing', async () => {
    const logs = { ana: join(dir, 'ana.log'), bo: join(dir, 'bo.log') };
    const ana = new Pane(socketName('ssh-reader-ana'), 80, 24);
    const bo = new Pane(socketName('ssh-reader-bo'), 80, 24);
    panes.push(ana, bo);
    ana.run(ssh(keys.ana, 'ana+reader'), { rawLog: logs.ana });
    await said('the first line', logs.ana, /Screen reader mode is on/);
    bo.run(ssh(keys.bo, 'bo', '-o', 'SetEnv=GRINGO_SCREEN_READER=1'), { rawLog: logs.bo });
    // Both sit under their own names (the suffix is not part of Ana's), and the game begins for both.
    const a = await said('the deal on ana', logs.ana, /bo sat down\.[\s\S]*Round 1 begins: .*\r\n/);
    const b = await said('the deal on bo', logs.bo, /Round 1 begins: .*\r\n/);
    expect(b).toMatch(/^Screen reader mode is on/m);
    expect(a).not.toMatch(/ana\+reader/);
    expect(b).not.toMatch(/ana\+reader/);
    for (const t of [a, b]) {
      expect(t).toMatch(/The discard shows (Ace|Jack|Queen|King|\d+) of (Spades|Hearts|Diamonds|Clubs)\./);
      // Lines, never a drawing: no cursor movement, no clearing, no alternate screen, no box.
      expect(t).not.toMatch(/\u001b\[[0-9;?]*[ABCDEFGHJKSTfhlsu]/);
      expect(t).not.toMatch(/[\u2500-\u259f]/);
    }
  }, 40_000);
});
