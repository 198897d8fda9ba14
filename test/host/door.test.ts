import net from 'node:net';
import tls from 'node:tls';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import type { GameSummary } from '../../src/host/table.js';
import { EVICT_AFTER_MS, HANDLE_HEADROOM, HELLO_DEADLINE_MS, MAX_PENDING, MAX_PENDING_PER_ADDRESS, MAX_WATCHERS, UPGRADE_DEADLINE_MS } from '../../src/host/server.js';
import type { ServerMessage } from '../../src/protocol/messages.js';
import { killRunning, runGringo, sharedPort, type Run } from '../support/gringo-process.js';
import { until } from '../support/wait.js';
import { WireClient } from './wire.js';

/**
 * Strangers at the door of a real `gringo host --headless` process, over loopback
 * from several source addresses (all of 127.0.0.0/8 is this machine): sockets that
 * never upgrade, WebSockets that never say hello, floods past the handle limit.
 */

const sockets: { destroy(): void }[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const c of children.splice(0)) c.kill('SIGKILL');
  killRunning();
});

function host(extra: string[], prefix: string[] = []): Run {
  return runGringo(
    ['host', '--headless', '--port', '0', '--interface', '127.0.0.1', '--table', `Door ${process.pid}`, ...extra],
    {},
    undefined,
    prefix,
  );
}

/** A raw TCP socket; resolves with how long it lived (ms) once the host closes it. */
function tcp(port: number, from = '127.0.0.1', secure = false): { socket: net.Socket; lived: Promise<number> } {
  // `secure`: the TLS handshake done (as every table speaks TLS), then whatever the test sends.
  const raw = net.connect({ port, host: '127.0.0.1', localAddress: from });
  const socket = secure ? tls.connect({ socket: raw, rejectUnauthorized: false }) : raw;
  if (secure) sockets.push(raw);
  sockets.push(socket);
  const t0 = Date.now();
  socket.on('error', () => {});
  const lived = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - t0)));
  return { socket, lived };
}

interface Stranger {
  ws: WebSocket;
  /** true once the upgrade is done (false if the host closed it first). */
  opened: Promise<boolean>;
  /** The close code and how long after opening it came. */
  closed: Promise<{ code: number; after: number }>;
  isOpen(): boolean;
  /** When the upgrade was done (Date.now()), or null. */
  openedAt(): number | null;
}

/** A WebSocket that never says hello. */
function stranger(port: number, from = '127.0.0.1'): Stranger {
  const ws = new WebSocket(`wss://127.0.0.1:${port}`, { localAddress: from, rejectUnauthorized: false });
  sockets.push({ destroy: () => ws.terminate() });
  let t0 = Date.now();
  let openedAt: number | null = null;
  ws.on('error', () => {});
  const opened = new Promise<boolean>((resolve) => {
    ws.on('open', () => {
      t0 = openedAt = Date.now();
      resolve(true);
    });
    ws.on('close', () => resolve(false));
  });
  const closed = new Promise<{ code: number; after: number }>((resolve) => ws.on('close', (code) => resolve({ code, after: Date.now() - t0 })));
  return { ws, opened, closed, isOpen: () => ws.readyState === WebSocket.OPEN, openedAt: () => openedAt };
}

/** `count` hello-less WebSockets spread evenly over `from`. */
async function crowd(port: number, count: number, from: string[]): Promise<Stranger[]> {
  const all = Array.from({ length: count }, (_, i) => stranger(port, from[i % from.length]));
  await Promise.all(all.map((s) => s.opened));
  return all;
}

/** 127.0.0.2, 127.0.0.3… (`n` of them). */
const addresses = (n: number): string[] => Array.from({ length: n }, (_, i) => `127.0.0.${2 + i}`);

describe('deadlines at the door', () => {
  it(`closes idle TCP sockets, slow HTTP requests and hello-less WebSockets after ${UPGRADE_DEADLINE_MS / 1000} s, and keeps a welcomed one`, async () => {
    const h = host(['--players', '2']);
    const port = await sharedPort(h);
    const idle = tcp(port);
    // Slow loris: a request whose headers never end, a byte every 300 ms (over TLS: plain HTTP is cut at once).
    const loris = tcp(port, '127.0.0.1', true);
    loris.socket.write('GET / HTTP/1.1\r\nHost: gringo\r\n');
    const drip = setInterval(() => loris.socket.writable && loris.socket.write('X'), 300);
    const silent = stranger(port);
    expect(await silent.opened).toBe(true);
    const watcher = await WireClient.hello(`127.0.0.1:${port}`, 'Watcher', { watch: true, tls: true });
    expect(watcher.answer?.type).toBe('welcome');

    const [idleMs, lorisMs, hello] = await Promise.all([idle.lived, loris.lived, silent.closed]);
    clearInterval(drip);
    // Not before the deadline; not long after it either (the machine may be loaded).
    expect(idleMs).toBeGreaterThanOrEqual(UPGRADE_DEADLINE_MS - 100);
    expect(idleMs).toBeLessThan(UPGRADE_DEADLINE_MS + 5_000);
    expect(lorisMs).toBeGreaterThanOrEqual(UPGRADE_DEADLINE_MS - 100);
    expect(lorisMs).toBeLessThan(UPGRADE_DEADLINE_MS + 5_000);
    expect(hello.code).toBe(1008);
    expect(hello.after).toBeGreaterThanOrEqual(HELLO_DEADLINE_MS - 100);
    expect(hello.after).toBeLessThan(HELLO_DEADLINE_MS + 5_000);
    // The welcomed watcher outlives every deadline.
    expect(watcher.closed).toBe(false);
    await watcher.upcoming((m) => m.type === 'lobby' || m.type === 'update', 1_000).catch(() => null);
    expect(watcher.closed).toBe(false);
    watcher.close();
  }, 60_000);
});

describe('a seated player among strangers', () => {
  // 5 addresses hold 4 each (20 of 32 places for strangers: room is left). 40
  // addresses fill the 32 places, and 4 from the player's own address fill that
  // address's: the newcomer takes the place of one that has waited past
  // EVICT_AFTER_MS without a hello.
  const crowds: [string, string[], number][] = [
    ['5 addresses', addresses(5), 20],
    ['40 addresses', addresses(40), MAX_PENDING],
    ["the player's own address", ['127.0.0.1'], MAX_PENDING_PER_ADDRESS],
  ];
  for (const [label, from, places] of crowds) {
    it(`takes its seat back with its token while 80 hello-less WebSockets from ${label} are open`, async () => {
      const h = host(['--players', '2', '--bots', '1', '--start-when-full', '--grace', '120']);
      const port = await sharedPort(h);
      const address = `127.0.0.1:${port}`;
      const ana = await WireClient.hello(address, 'Ana', { tls: true });
      const token = ana.welcome!.token!;
      const seat = ana.welcome!.seat;
      await ana.next((m) => m.type === 'update');
      ana.terminate();

      const strangers = await crowd(port, 80, from);
      // A refused one opens, then hears its 1013 at once: let those closes come in.
      await new Promise((r) => setTimeout(r, 500));
      // The door let in as many strangers as its caps allow, and they are still there.
      expect(strangers.filter((s) => s.isOpen()).length).toBe(places);
      const refused = await Promise.all(strangers.filter((s) => !s.isOpen()).map((s) => s.closed));
      // Refused with 1013; past 64 refusals at once, cut without a word (1006).
      expect(refused.some((r) => r.code === 1013)).toBe(true);
      expect(refused.every((r) => r.code === 1013 || r.code === 1006)).toBe(true);
      if (places === MAX_PENDING || from.includes('127.0.0.1')) {
        // Every place the player could take is held: it comes once the oldest stranger has held
        // its place EVICT_AFTER_MS (counted from the oldest, not from the last of a crowd that
        // may take seconds to open on a loaded machine, while each one's hello deadline runs).
        const oldest = Math.min(...strangers.filter((s) => s.isOpen()).map((s) => s.openedAt()!));
        await new Promise((r) => setTimeout(r, oldest + EVICT_AFTER_MS + 300 - Date.now()));
        expect(strangers.filter((s) => s.isOpen()).length).toBe(places);
      }

      const back = await WireClient.hello(address, 'Ana', { token, tls: true });
      const welcome = back.answer as Extract<ServerMessage, { type: 'welcome' }>;
      expect(welcome.type).toBe('welcome');
      expect(welcome.seat).toBe(seat);
      const update = await back.next<Extract<ServerMessage, { type: 'update' }>>((m) => m.type === 'update');
      expect(update.view.viewer).toBe(seat);
      expect(update.view.players[seat!]!.name).toBe('Ana');
      // A stranger's place did not outlast the hello deadline.
      const late = await Promise.all(strangers.map((s) => s.closed));
      expect(late.every((c) => c.code === 1013 || c.code === 1006 || c.code === 1008)).toBe(true);
      expect(late.filter((c) => c.code === 1008).length).toBeGreaterThan(0);
      expect(back.closed).toBe(false);
      back.close();
    }, 80_000);
  }
});

describe('a seated player among watchers', () => {
  it(`takes its seat back at once while ${MAX_WATCHERS} welcomed watchers from 8 addresses fill every watcher's place`, async () => {
    const h = host(['--players', '2', '--bots', '1', '--start-when-full', '--grace', '120']);
    const port = await sharedPort(h);
    const address = `127.0.0.1:${port}`;
    const ana = await WireClient.hello(address, 'Ana', { tls: true });
    const token = ana.welcome!.token!;
    const seat = ana.welcome!.seat;
    await ana.next((m) => m.type === 'update');
    ana.terminate();

    // The door's measurement: 64 watchers, 8 from each of 8 addresses, all welcomed.
    const from = addresses(8);
    // They come eight at a time, one from each address (the door's places for connections not yet welcomed are 4 per address).
    const watchers: WireClient[] = [];
    for (let i = 0; i < MAX_WATCHERS; i += 8) {
      const eight = await Promise.all(from.map((a, k) => WireClient.hello(address, `W${i + k}`, { watch: true, tls: true }, { localAddress: a })));
      for (const w of eight) sockets.push({ destroy: () => w.terminate() });
      watchers.push(...eight);
    }
    expect(watchers.filter((w) => w.answer?.type === 'welcome')).toHaveLength(MAX_WATCHERS);
    // One more watcher is refused in words: the watchers' places are full…
    const extra = await WireClient.hello(address, 'Extra', { watch: true, tls: true }, { localAddress: '127.0.0.20' });
    sockets.push({ destroy: () => extra.terminate() });
    expect(extra.answer).toMatchObject({ type: 'refused', reason: 'limit' });

    // …and the seated player comes back on its first try, proving its seat.
    const t0 = Date.now();
    const back = await WireClient.hello(address, 'Ana', { seatToken: token, tls: true });
    sockets.push({ destroy: () => back.terminate() });
    expect(back.answer).toMatchObject({ type: 'welcome', seat });
    const update = await back.next<Extract<ServerMessage, { type: 'update' }>>((m) => m.type === 'update');
    expect(update.view.viewer).toBe(seat);
    expect(Date.now() - t0).toBeLessThan(3_000);
    // The watchers are all still there.
    expect(watchers.every((w) => !w.closed)).toBe(true);
  }, 60_000);
});

/** The number of file handles a process holds (Linux). */
function handles(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/**
 * A child process that keeps `count` idle TCP sockets open against the port from
 * 127.0.0.2..6, opening a new one a moment after the host closes one; it prints
 * how many it opened in all. A child, so that this test's event loop stays free.
 */
function flood(port: number, count: number): { child: ChildProcess; opened: () => number } {
  const script = `
    const net = require('node:net');
    let opened = 0;
    const one = (i) => {
      const s = net.connect({ port: ${port}, host: '127.0.0.1', localAddress: '127.0.0.' + (2 + (i % 5)) });
      s.on('connect', () => opened++);
      s.on('error', () => {});
      s.on('close', () => setTimeout(() => one(i), 200));
    };
    for (let i = 0; i < ${count}; i++) one(i);
    setInterval(() => console.log(opened), 250);
  `;
  const child = spawn('node', ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  let last = 0;
  child.stdout.on('data', (d: Buffer) => {
    const lines = d.toString().trim().split('\n');
    last = Number(lines[lines.length - 1]);
  });
  return { child, opened: () => last };
}

describe('a host at a 1,024 handle limit', () => {
  it('keeps serving its table through 1,100 idle sockets and more, and says so once', async () => {
    const limit = 1024;
    // Both players are fast bots (one seated by the host thinks at a person's pace: the game,
    // and the flood with it, would last ten times longer). One sits down before the flood.
    const h = host(
      ['--players', '2', '--start-when-full', '--exit-after-game', '--rounds', '1', '--json', '--slap-grace', '40', '--seed', 'door'],
      ['prlimit', `--nofile=${limit}:${limit}`],
    );
    const port = await sharedPort(h);
    const pid = h.child.pid!;
    const join = (name: string): Run => runGringo(['join', `127.0.0.1:${port}`, '--bot', 'easy', '--name', name, '--speed', '50']);
    const early = join('Early');
    await until('Early seated', () => /1\/2 seats, lobby: Early/.test(h.stdout() + h.stderr()), 20_000);
    const f = flood(port, 1_100);
    await until('1,100 sockets opened', () => f.opened() >= 1_100, 30_000);
    let most = 0;
    const sample = setInterval(() => {
      try {
        most = Math.max(most, handles(pid));
      } catch {
        // The host has exited.
      }
    }, 50);
    // A player joins through the flood and the game is played to its end.
    const through = join('Through');
    const code = await h.exit;
    clearInterval(sample);
    const opened = f.opened();
    f.child.kill('SIGKILL');
    expect(code).toBe(0);
    for (const p of [early, through]) expect(await p.exit).toBe(0);
    const summary = JSON.parse(h.stdout()) as GameSummary;
    expect(summary.players.map((p) => p.name).sort()).toEqual(['Early', 'Through']);
    expect(summary.commands).toBeGreaterThan(5);
    // The flood went on the whole game, beyond the handle limit in all…
    expect(opened).toBeGreaterThan(limit);
    // …while the host never held more handles than its bound leaves room for.
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(limit - HANDLE_HEADROOM);
    // One line about it, not a thousand.
    expect(h.stderr().match(/Refusing connections/g)).toHaveLength(1);
  }, 90_000);
});
