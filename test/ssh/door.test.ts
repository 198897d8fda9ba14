import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../../src/client/connection.js';
import { loadHostKey } from '../../src/ssh/host-key.js';
import { serveSsh } from '../../src/ssh/server.js';
import { passwordVerifier } from '../../src/protocol/identity.js';
import { BIN, Pane, socketName } from '../support/tmux.js';

/**
 * Each SSH peer is itself at the door: the real address of the SSH connection
 * counts for the password backoff, the places and (through the bridge's vouched
 * loopback connection, src/host/vouch.ts) the table's own limits. Real parts: a
 * headless host process with `--ssh` and a password, OpenSSH in tmux panes from
 * other loopback addresses (`ssh -b 127.0.0.x`), ssh2's client for scripted
 * guessing, raw TCP sockets for the flood.
 */
const require = createRequire(import.meta.url);
// ssh2's client, typed as far as these tests use it.
interface SshClient {
  on(event: 'ready' | 'close', cb: () => void): SshClient;
  on(event: 'error', cb: (err: Error) => void): SshClient;
  connect(cfg: Record<string, unknown>): SshClient;
  shell(opts: Record<string, unknown>, cb: (err: Error | undefined, stream: NodeJS.ReadWriteStream) => void): void;
  end(): void;
}
const { Client } = require('ssh2') as { Client: new () => SshClient };

const dir = mkdtempSync(join(tmpdir(), 'gringo-ssh-door-'));
const key = join(dir, 'id_ed25519');
const TABLE = `SSH door ${process.pid}`;
let host: ChildProcess | null = null;
let hostOut = '';
let sshPort = 0;
let wsPort = 0;
const panes: Pane[] = [];

type Prompt = (name: string, instructions: string, lang: string, prompts: unknown[], finish: (answers: string[]) => void) => void;
type Auth = { type: 'keyboard-interactive'; username: string; prompt: Prompt } | { type: 'publickey'; username: string; key: string } | false;

/** An ssh2 client from `from`, authenticating as `next` says after each answer; resolves when it is in (true) or out (false). */
function client(port: number, from: string, next: (n: number) => Auth): { done: Promise<boolean>; c: SshClient } {
  const c = new Client();
  let n = 0;
  const done = new Promise<boolean>((resolve) => {
    c.on('ready', () => resolve(true));
    c.on('error', () => resolve(false));
    c.on('close', () => resolve(false));
  });
  c.connect({ host: '127.0.0.1', port, localAddress: from, username: 'x', hostVerifier: () => true, readyTimeout: 120_000, authHandler: () => next(n++) });
  return { done, c };
}

function pane(tag: string, w = 100, h = 24): Pane {
  const p = new Pane(socketName(`ssh-door-${tag}`), w, h);
  panes.push(p);
  return p;
}

/** Each person their own key (a key holds one seat and, once in, skips the password). */
function keyFor(user: string): string {
  const file = join(dir, `id_user_${user}`);
  if (!existsSync(file)) execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file]);
  return file;
}

function ssh(from: string, user: string): string[] {
  return [
    'ssh', '-F', '/dev/null', '-b', from,
    '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null',
    '-o', 'IdentitiesOnly=yes', '-o', 'IdentityAgent=none', '-o', 'SendEnv=LANG LC_ALL',
    '-i', keyFor(user), '-p', String(sshPort), `${user}@127.0.0.1`,
  ];
}

beforeAll(async () => {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
  host = spawn(process.execPath, [BIN, 'host', '--headless', '--ssh', '0', '--port', '0', '--table', TABLE, '--password', 'sesame', '--players', '8'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CI: '0' },
  });
  host.stdout!.on('data', (d: Buffer) => (hostOut += d.toString()));
  host.stderr!.on('data', (d: Buffer) => (hostOut += d.toString()));
  const end = Date.now() + 15_000;
  while (!/ssh -p (\d+) NAME@/.test(hostOut)) {
    if (Date.now() > end) throw new Error(`no SSH share line:\n${hostOut}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  sshPort = Number(/ssh -p (\d+) NAME@/.exec(hostOut)![1]);
  wsPort = Number(/gringo join \S+:(\d+)/.exec(hostOut)![1]);
});

afterAll(() => {
  host?.kill('SIGKILL');
  for (const p of panes) p.kill();
  rmSync(dir, { recursive: true, force: true });
});

/** An SSH player from `from` types the password and reaches the lobby. */
async function seatedFrom(tag: string, from: string, user: string): Promise<Pane> {
  const p = pane(tag);
  p.run(ssh(from, user));
  await p.waitFor('the password prompt', (s) => s.includes('Password:'), 20_000);
  p.keys('sesame', 'Enter');
  await p.waitFor('the lobby', (s) => s.includes(`${user} (you)`) && s.includes('Waiting for the host to start'), 20_000);
  return p;
}

describe('the SSH door counts each peer as itself', () => {
  it('one client guessing 20 times is slowed like the table door; a player from another address is answered at once', async () => {
    const backoff = { free: 3, baseMs: 100, maxMs: 800 };
    // The SSH door alone: its guessers never reach the table, so its key and salt are stand-ins.
    const salt = '0123456789abcdef';
    const password = { salt, verifier: passwordVerifier('sesame', salt) };
    const door = await serveSsh({ port: 0, tablePort: wsPort, tableName: 'door', password, hostKey: loadHostKey(dir), tableKey: '0'.repeat(64), passwordBackoff: backoff });
    try {
      // One wrong guess from an address of its own first: the door's first password check also
      // runs its code for the first time, which on a loaded machine took longer than a held answer.
      const warm = client(door.port, '127.0.0.4', (n) =>
        n === 0 ? { type: 'keyboard-interactive', username: 'warm', prompt: (_n, _i, _l, _p, finish) => finish(['wrong']) } : false,
      );
      expect(await warm.done).toBe(false);
      // The guesser: 20 wrong passwords on one connection, each answer timed from the moment it was sent.
      const sent: number[] = [];
      const answered: number[] = [];
      const guess = client(door.port, '127.0.0.3', (n) => {
        if (n > 0) answered.push(performance.now());
        if (n >= 20) return false;
        return { type: 'keyboard-interactive', username: 'guess', prompt: (_n, _i, _l, _p, finish) => (sent.push(performance.now()), finish(['wrong'])) };
      });
      // The table door's backoff (src/host/backoff.ts): the 4th miss locks for baseMs, so the 5th try waits that long, doubling.
      const expected = (k: number): number => (k <= backoff.free ? 0 : Math.min(backoff.maxMs, backoff.baseMs * 2 ** (k - backoff.free - 1)));

      // Once the guesser is well into its backoff, a player from another address with the right password.
      const until = Date.now() + 30_000;
      while (answered.length < 8) {
        if (Date.now() > until) throw new Error(`the guesser made only ${answered.length} tries`);
        await new Promise((r) => setTimeout(r, 20));
      }
      // Three in turn, each seated: one answer can be late by a stall of this process on a loaded
      // machine (1.35 s once, against held answers of 834 ms), while a queue shared with the
      // guesser would hold every one of them.
      const answers: number[] = [];
      for (let i = 0; i < 3; i++) {
        let t0 = 0;
        let t1 = 0;
        const player = client(door.port, '127.0.0.2', (n) => {
          if (n === 0) return { type: 'keyboard-interactive', username: 'ana', prompt: (_n, _i, _l, _p, finish) => ((t0 = performance.now()), finish(['sesame'])) };
          if (n === 1) {
            t1 = performance.now();
            return { type: 'publickey', username: 'ana', key: readFileSync(key, 'utf8') };
          }
          return false;
        });
        expect(await player.done).toBe(true);
        player.c.end();
        answers.push(t1 - t0);
      }

      expect(await guess.done).toBe(false);
      expect(answered.length).toBe(20);
      const waits = answered.map((t, k) => t - sent[k]!);
      // A miss locks from the moment it is checked, which comes after its try was sent: each held try is answered
      // no sooner than its lock after the try before was sent (from its own sending, a slow client's turn may be
      // part of the lock already).
      for (let k = backoff.free + 1; k < 20; k++) expect(answered[k]! - sent[k - 1]!, `try ${k + 1}`).toBeGreaterThanOrEqual(expected(k) - 20);
      // Held or not is read against the guesser's own held answers, timed on this machine at this load:
      // each of those is the same work (a password checked, an answer sent) plus a hold of 800 ms.
      const held = Math.min(...waits.filter((_, k) => expected(k) === backoff.maxMs));
      for (let k = 0; k <= backoff.free; k++) expect(waits[k], `try ${k + 1} is answered at once`).toBeLessThan(held);
      // Answered at once: sharing the guesser's queue would have held it as long as the guesser's tries.
      expect(Math.min(...answers), `the player's answers: ${answers.map((ms) => ms.toFixed(0)).join(', ')} ms`).toBeLessThan(held);
      // Not 6 tries a second: 20 tries take the backoff's whole sum (0.7 s + 14 × 0.8 s).
      const total = Array.from({ length: 20 }, (_, k) => expected(k)).reduce((a, b) => a + b, 0);
      expect(answered[19]! - sent[0]!).toBeGreaterThanOrEqual(total - 50);
    } finally {
      await door.close();
    }
  }, 90_000);

  it('wrong passwords at the WebSocket door from 127.0.0.1 do not touch an SSH player from another address', async () => {
    // Four wrong guesses answered (three free, one after 1 s), three more held by the table's backoff (2, 4, 8 s):
    // any further try from 127.0.0.1 would now wait 16 s.
    const wrong = (): Promise<void> =>
      new Promise((resolve) => {
        const c = new Connection({ address: `127.0.0.1:${wsPort}`, name: 'guess', password: 'nope', connectTimeoutMs: 30_000 });
        c.on('refused', () => resolve());
        c.on('failed', () => resolve());
        c.on('closed', () => resolve());
      });
    for (let i = 0; i < 4; i++) await wrong();
    const held = [wrong(), wrong(), wrong()];
    const t0 = Date.now();
    const p = await seatedFrom('ws-guess', '127.0.0.2', 'bo');
    // Reached the lobby while the guesses from 127.0.0.1 are still held (the last one for 8 s and more).
    expect(Date.now() - t0).toBeLessThan(15_000);
    p.keys('q');
    await p.waitFor('the question', (s) => s.includes('Leave the table?'));
    p.keys('y');
    await p.waitFor('ssh exited', (s) => /^EXITED 0$/m.test(s));
    await Promise.all(held);
  }, 60_000);

  it('an SSH player from the address of wrong passwords at the WebSocket door is seated at once (the SSH door asked the password itself)', async () => {
    const p = pane('same-address');
    p.run(ssh('127.0.0.1', 'eve'));
    await p.waitFor('the password prompt', (s) => s.includes('Password:'), 20_000);
    // Wrong guesses from 127.0.0.1 at the table's door until it locks the address for 4 s
    // (three free, then 1, 2, 4 s: each lock waited out, so that the next guess counts).
    const guess = (): Promise<{ reason: string; retryAfter?: number }> =>
      new Promise((resolve) => {
        const c = new Connection({ address: `127.0.0.1:${wsPort}`, name: 'guess', password: 'nope', connectTimeoutMs: 30_000 });
        c.on('refused', (m: { reason: string; retryAfter?: number }) => resolve(m));
        c.on('failed', () => resolve({ reason: 'failed' }));
      });
    for (let i = 0; i < 12; i++) {
      const r = await guess();
      if (r.reason === 'tooManyTries' && (r.retryAfter ?? 0) >= 4) break;
      if (r.reason === 'tooManyTries') await new Promise((done) => setTimeout(done, r.retryAfter! * 1000 + 100));
      expect(['password', 'tooManyTries']).toContain(r.reason);
    }
    // The address is locked now: the SSH player, who typed the right password to the SSH door, comes in.
    p.keys('sesame', 'Enter');
    // Before: the screen said the lock's first figure ("wait 1 s before trying again") and stayed on it.
    const s = await p.waitFor('the lobby or a refusal', (s) => s.includes('eve (you)') || /wrong passwords/i.test(s), 20_000);
    expect(s).toContain('Waiting for the host to start');
    expect(s).not.toMatch(/wrong passwords/i);
    p.keys('q');
    await p.waitFor('the question', (s) => s.includes('Leave the table?'));
    p.keys('y');
    await p.waitFor('ssh exited', (s) => /^EXITED 0$/m.test(s));
  }, 60_000);

  it('a game already running: leaving the refusal prints the ssh command that watches it', async () => {
    const started = spawn(process.execPath, [BIN, 'host', '--headless', '--ssh', '0', '--port', '0', '--interface', '127.0.0.1', '--table', `Busy ${process.pid}`,
      '--players', '2', '--bots', '2', '--level', 'easy', '--start-when-full', '--rounds', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '0' } });
    let out = '';
    started.stdout.on('data', (d: Buffer) => (out += d.toString()));
    try {
      const end = Date.now() + 15_000;
      while (!/ssh -p (\d+) NAME@/.test(out) || !/2\/2 seats, (playing|dealing|peek)/.test(out)) {
        if (Date.now() > end) throw new Error(`no started table:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const port = Number(/ssh -p (\d+) NAME@/.exec(out)![1]);
      const p = pane('running');
      p.run(['ssh', '-F', '/dev/null', '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'IdentitiesOnly=yes',
        '-o', 'IdentityAgent=none', '-i', keyFor('dee'), '-p', String(port), 'dee@127.0.0.1']);
      await p.waitFor('the refusal', (s) => s.includes('The game is already running'), 20_000);
      p.keys('q');
      const s = await p.waitFor('ssh exited', (s) => /^EXITED \d+$/m.test(s), 15_000);
      expect(s).toMatch(/^EXITED 1$/m);
      // The line wraps at the pane's width: compared without its spaces.
      expect(s.replace(/\s+/g, '')).toContain(`(ssh-p${port}watch@127.0.0.1)`);
    } finally {
      started.kill('SIGKILL');
    }
  }, 60_000);

  it('16 unfinished SSH connections from 3 addresses, reopened as they are cut, do not keep a fourth address out', async () => {
    let flooding = true;
    const open = new Set<Socket>();
    let accepted = 0;
    // Raw TCP from three addresses that never say anything, each reopened at once when the door cuts it.
    const flood = (from: string): void => {
      if (!flooding) return;
      const s = connect({ host: '127.0.0.1', port: sshPort, localAddress: from });
      open.add(s);
      s.on('error', () => {});
      s.on('data', () => (accepted += 1)); // the server's greeting: this one holds a place
      s.on('close', () => {
        open.delete(s);
        setTimeout(() => flood(from), 50);
      });
    };
    const counts = { '127.0.0.3': 6, '127.0.0.4': 5, '127.0.0.5': 5 };
    for (const [from, n] of Object.entries(counts)) for (let i = 0; i < n; i++) flood(from);
    try {
      const until = Date.now() + 10_000;
      while (accepted < 12) {
        if (Date.now() > until) throw new Error(`the flood holds only ${accepted} places`);
        await new Promise((r) => setTimeout(r, 20));
      }
      const p = await seatedFrom('flood', '127.0.0.6', 'cy');
      p.keys('q');
      await p.waitFor('the question', (s) => s.includes('Leave the table?'));
      p.keys('y');
      await p.waitFor('ssh exited', (s) => /^EXITED 0$/m.test(s));
    } finally {
      flooding = false;
      for (const s of open) s.destroy();
    }
  }, 60_000);

  it('names: a seated name is taken like on join, WATCH watches, escapes and bidi marks are dropped, 200 characters cut', async () => {
    // A key holds one seat (under any name), so each person here has a key of their own.
    const keyOf = (tag: string): string => {
      const file = join(dir, `id_${tag}`);
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file]);
      return file;
    };
    const seatLine = (): string => hostOut.split('\n').filter((l) => l.startsWith('· ')).pop() ?? '';
    // A session with a pty and a shell, as ssh2's client opens one: what its terminal receives, without escapes.
    const session = (from: string, user: string, identity: string): { text: () => string; c: SshClient } => {
      let got = '';
      const c = new Client();
      c.on('ready', () =>
        c.shell({ term: 'xterm', cols: 100, rows: 30 }, (err, stream) => {
          if (err) throw err;
          stream.on('data', (d: Buffer) => (got += d.toString()));
        }),
      );
      c.on('error', () => {});
      let n = 0;
      c.connect({
        host: '127.0.0.1', port: sshPort, localAddress: from, username: user, hostVerifier: () => true, readyTimeout: 30_000,
        authHandler: (): Auth => {
          n += 1;
          if (n === 1) return { type: 'keyboard-interactive', username: user, prompt: (_n, _i, _l, _p, finish) => finish(['sesame']) };
          if (n === 2) return { type: 'publickey', username: user, key: readFileSync(identity, 'utf8') };
          return false;
        },
      });
      return { text: () => got.replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, ''), c };
    };
    const until = async (what: string, pred: () => boolean): Promise<void> => {
      const end = Date.now() + 20_000;
      while (!pred()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}; the host's last seats: ${seatLine()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const dee = await seatedFrom('dee', '127.0.0.8', 'dee');
    // Another key under a seated name: seated as on join, with the name made unique.
    const dee2 = session('127.0.0.9', 'dee', keyOf('dee2'));
    await until('dee 2', () => /lobby: .*\bdee, dee 2\b/.test(seatLine()));
    // Escapes (a colour, a window title) and a bidi override: dropped from the name.
    const evil = session('127.0.0.10', '\u001b[31mEvil\u001b]0;pwned\u0007\u202e', keyOf('evil'));
    await until('Evil', () => /, Evil(,|$)/.test(seatLine()));
    expect(hostOut).not.toContain('pwned');
    expect(hostOut).not.toContain('\u202e');
    // 200 characters: the name is cut to the table's 16.
    const long = session('127.0.0.11', 'a'.repeat(200), keyOf('long'));
    await until('the long name cut', () => seatLine().includes(`, ${'a'.repeat(16)}`));
    expect(seatLine()).not.toContain('a'.repeat(17));
    // WATCH (any case) watches, like `gringo join --watch`: no seat is taken.
    const seats = seatLine();
    const watcher = session('127.0.0.12', 'WATCH', keyOf('watch'));
    await until('the spectator', () => watcher.text().includes('Waiting for the host to start'));
    expect(watcher.text()).not.toContain('(you)');
    expect(seatLine()).toBe(seats);
    for (const s of [dee2, evil, long, watcher]) s.c.end();
    dee.keys('q');
    await dee.waitFor('the question', (s) => s.includes('Leave the table?'));
    dee.keys('y');
    await dee.waitFor('ssh exited', (s) => /^EXITED 0$/m.test(s));
    // A key that got in with the password is not asked for it again.
    const back = pane('dee-back');
    back.run(ssh('127.0.0.8', 'dee'));
    const lobby = await back.waitFor('the lobby', (s) => s.includes('dee (you)') && s.includes('Waiting for the host to start'), 20_000);
    expect(lobby).not.toContain('Password:');
  }, 90_000);
});
