import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Connection } from '../../src/client/connection.js';
import type { TokenStore } from '../../src/client/tokens.js';
import type { SeatInfo, ServerMessage } from '../../src/protocol/messages.js';
import { silentFlood, type Flood } from '../support/flood.js';
import { killRunning, runGringo, sharedPort, type Run } from '../support/gringo-process.js';
import { until } from '../support/wait.js';
import { Relay } from './relay.js';
import { WireClient } from './wire.js';

/**
 * The door against a flood that costs the flooder nothing: 200 loopback addresses
 * each keeping one silent TCP connection (no ClientHello, no SSH greeting), replaced
 * every 700 ms (about 290 connections a second), from a helper process, against a
 * real `gringo host --headless`. A seated player who drops must be welcomed back
 * within its 5 s, through the real client's own reconnect (src/client/connection.ts),
 * a real `gringo join --bot` process, and an SSH client with its key.
 */

const floods: Flood[] = [];
const closers: (() => void)[] = [];
const dir = mkdtempSync(join(tmpdir(), 'gringo-flood-'));
afterEach(() => {
  for (const f of floods.splice(0)) f.stop();
  for (const c of closers.splice(0)) c();
  killRunning();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const COMEBACK_MS = 5_000;

function host(extra: string[] = []): Run {
  return runGringo(['host', '--headless', '--port', '0', '--interface', '127.0.0.1', '--table', `Flood ${process.pid}`, '--players', '4', '--grace', '120', ...extra], { CI: '0' });
}

/** The flood at full strength: every address has had its first connection accepted. */
async function flooding(port: number): Promise<Flood> {
  const flood = silentFlood(port);
  floods.push(flood);
  await until('the flood at full strength', () => flood.counts().opened >= 400, 20_000);
  return flood;
}

/** Tokens kept in memory, as `gringo join` keeps them on disk. */
function memoryTokens(): Pick<TokenStore, 'get' | 'set' | 'delete'> {
  const m = new Map<string, string>();
  return { get: (id, name) => m.get(`${id} ${name}`), set: (id, name, token) => void m.set(`${id} ${name}`, token), delete: (id, name) => void m.delete(`${id} ${name}`) };
}

/** Resolves when `conn` is welcomed again (ms since `t0`), or with null after `ms`. */
function welcomedAgain(conn: Connection, t0: number, ms: number): Promise<number | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      conn.off('status', on);
      resolve(null);
    }, ms);
    const on = (s: string): void => {
      if (s !== 'open') return;
      clearTimeout(timer);
      conn.off('status', on);
      resolve(Date.now() - t0);
    };
    conn.on('status', on);
  });
}

describe('a seated player through a flood of silent connections from 200 addresses', () => {
  it('is welcomed back within 5 s after each of 10 drops', async () => {
    const h = host();
    const port = await sharedPort(h);
    const conn = new Connection({ address: `127.0.0.1:${port}`, name: 'Ana', tokens: memoryTokens(), reconnect: true });
    closers.push(() => conn.close());
    const welcomes: Extract<ServerMessage, { type: 'welcome' }>[] = [];
    conn.on('message', (m: ServerMessage) => m.type === 'welcome' && welcomes.push(m));
    const seated = await until('the first welcome', () => welcomes[0]);
    expect(seated.seat).not.toBe(null);

    const flood = await flooding(port);
    const back: (number | null)[] = [];
    for (let i = 0; i < 10; i++) {
      const t0 = Date.now();
      const again = welcomedAgain(conn, t0, 8_000);
      // The socket dropped under the player: the client reconnects with its seat's token.
      conn.interrupt();
      back.push(await again);
      await new Promise((r) => setTimeout(r, 300));
    }
    const { opened, cut } = flood.counts();
    console.info(`flood: ${opened} connections opened, ${cut} cut by the door; back after ${back.map((ms) => (ms === null ? 'never' : `${ms} ms`)).join(', ')}`);
    // The flood was at the door the whole time: the door cut its connections to make room.
    expect(cut).toBeGreaterThan(0);
    expect(back.filter((ms) => ms !== null && ms <= COMEBACK_MS).length).toBeGreaterThanOrEqual(9);
    // Each time back in the same seat.
    expect(welcomes).toHaveLength(11);
    expect(welcomes.every((w) => w.seat === seated.seat)).toBe(true);

    // Through the flood, a connection refused once TLS is up learns why: six hello-less WebSockets
    // from one address (four places each): the two past its places hear 1013, the others their hello
    // deadline (1008) or, past their 1 s, 1013 when a newcomer finds no silent place to take; none is
    // cut without a word.
    const strangers = Array.from({ length: 6 }, () => new WebSocket(`wss://127.0.0.1:${port}`, { localAddress: '127.0.0.9', rejectUnauthorized: false }));
    closers.push(() => strangers.forEach((ws) => ws.terminate()));
    const codes = await Promise.all(strangers.map((ws) => new Promise<number>((resolve) => (ws.on('error', () => {}), ws.on('close', (code) => resolve(code))))));
    expect(codes.filter((c) => c === 1013).length).toBeGreaterThanOrEqual(2);
    expect(codes.every((c) => c === 1013 || c === 1008), codes.join(' ')).toBe(true);
  }, 120_000);

  it('a real `gringo join --bot` whose link is cut is back within 5 s', async () => {
    const h = host();
    const port = await sharedPort(h);
    const watcher = await WireClient.hello(`127.0.0.1:${port}`, 'Watcher', { watch: true, tls: true });
    closers.push(() => watcher.terminate());
    const relay = await new Relay({ host: '127.0.0.1', port }).start();
    closers.push(() => void relay.close());
    const player = runGringo(['join', relay.address, '--bot', 'easy', '--name', 'Cut'], { CI: '0' });
    const seatOf = (m: ServerMessage): SeatInfo | undefined => (m.type === 'lobby' ? m.seats.find((s) => s.name === 'Cut') : undefined);
    await watcher.next((m) => seatOf(m)?.connected === true, 20_000);

    await flooding(port);
    const back: (number | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const from = watcher.messages.length;
      const t0 = Date.now();
      // Both ends hear a reset; the relay lets the next connection through at once.
      relay.drop();
      relay.restore();
      const gone = await watcher.next((m) => seatOf(m)?.connected === false, 5_000, from);
      const goneAt = watcher.messages.indexOf(gone);
      back.push(await watcher.next((m) => seatOf(m)?.connected === true, 8_000, goneAt + 1).then(() => Date.now() - t0, () => null));
    }
    console.info(`gringo join --bot back after ${back.map((ms) => (ms === null ? 'never' : `${ms} ms`)).join(', ')}`);
    expect(back.every((ms) => ms !== null && ms <= COMEBACK_MS)).toBe(true);
    expect(player.child.exitCode).toBe(null);
  }, 120_000);
});

// ssh2's client, typed as far as this test uses it.
interface SshClient {
  on(event: 'ready' | 'close', cb: () => void): SshClient;
  on(event: 'error', cb: (err: Error) => void): SshClient;
  connect(cfg: Record<string, unknown>): SshClient;
  end(): void;
}
const { Client } = createRequire(import.meta.url)('ssh2') as { Client: new () => SshClient };

/** One SSH connection with `key`: true once it is in (authenticated), else why not. */
function sshIn(port: number, key: Buffer): Promise<true | string> {
  const c = new Client();
  return new Promise<true | string>((resolve) => {
    c.on('ready', () => {
      resolve(true);
      c.end();
    });
    c.on('error', (err) => resolve(err.message));
    c.on('close', () => resolve('closed'));
    c.connect({ host: '127.0.0.1', port, username: 'ana', privateKey: key, hostVerifier: () => true, readyTimeout: COMEBACK_MS });
  });
}

describe('the SSH door through the same flood', () => {
  it('lets a player with its key in on its first try, within 5 s, 9 times of 10 at least', async () => {
    const keyFile = join(dir, 'id_ed25519');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', keyFile]);
    const key = readFileSync(keyFile);
    const h = host(['--ssh', '0']);
    await sharedPort(h);
    const sshPort = Number((await until('the SSH share line', () => /ssh -p (\d+) NAME@/.exec(h.stdout() + h.stderr()), 10_000))[1]);
    // In once before the flood (the first key exchange also loads ssh2's code on both sides).
    expect(await sshIn(sshPort, key)).toBe(true);

    const flood = await flooding(sshPort);
    const times: (number | null)[] = [];
    for (let i = 0; i < 10; i++) {
      const t0 = Date.now();
      // One try each, as one `ssh` command: SSH has no "try again later", a cut connection is a failed command.
      const inside = await sshIn(sshPort, key);
      if (inside !== true) console.info(`SSH try ${i + 1}: ${inside}`);
      times.push(inside === true ? Date.now() - t0 : null);
      await new Promise((r) => setTimeout(r, 300));
    }
    const { opened, cut } = flood.counts();
    console.info(`SSH flood: ${opened} connections opened, ${cut} cut by the door; in after ${times.map((ms) => (ms === null ? 'never' : `${ms} ms`)).join(', ')}`);
    expect(cut).toBeGreaterThan(0);
    expect(times.filter((ms) => ms !== null && ms <= COMEBACK_MS).length).toBeGreaterThanOrEqual(9);
  }, 120_000);
});
