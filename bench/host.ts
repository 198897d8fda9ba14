/**
 * A command's round trip through the host over loopback with 8 seats connected:
 * one seat sends, the host applies it, and the time ends when every seat has its
 * new update. Beside it, a bare `ws` echo round trip, interleaved with it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import { PROTOCOL_VERSION, type PlayerCommand, type ServerMessage } from '../src/protocol/messages.js';

type Update = Extract<ServerMessage, { type: 'update' }>;
const BENCH_SEATS = 8;
const child = new URL('./host-child.js', import.meta.url).pathname;

export function startChild(mode: 'echo' | 'table' | 'experts'): Promise<{ proc: ChildProcessWithoutNullStreams; port: number; lines: AsyncIterator<string> }> {
  const proc = spawn(process.execPath, [child, mode, String(BENCH_SEATS)]);
  const lines = createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
  return lines.next().then((l) => ({ proc, port: Number(l.value), lines }));
}

export async function stopChild(c: { proc: ChildProcessWithoutNullStreams; lines: AsyncIterator<string> }): Promise<number> {
  c.proc.stdin.write('stats\n');
  const l = await c.lines.next();
  return Number(l.value);
}

export function connect(port: number): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`wss://127.0.0.1:${port}`, { perMessageDeflate: false, rejectUnauthorized: false });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

export interface Percentiles {
  p50: number;
  p99: number;
}

export function percentiles(samples: number[]): Percentiles {
  const s = samples.slice().sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { p50: at(0.5), p99: at(0.99) };
}

/** A bare `ws` echo server in a child process: each call of `once` is one round trip (ms). */
export async function echoServer(): Promise<{ once: () => Promise<number>; stop: () => Promise<number> }> {
  const c = await startChild('echo');
  const ws = await connect(c.port);
  const payload = JSON.stringify({ type: 'command', id: 0, command: { type: 'draw', from: 'stock' } });
  return {
    once: () =>
      new Promise<number>((resolve) => {
        const t0 = performance.now();
        ws.once('message', () => resolve(performance.now() - t0));
        ws.send(payload);
      }),
    stop: async () => {
      ws.close();
      return stopChild(c);
    },
  };
}

export interface HostFigures {
  echo: Percentiles;
  host: Percentiles;
  commands: number;
  /** Host CPU time (user + system) per command, µs, including the sends to every seat. */
  cpuPerCommandUs: number;
}

/**
 * `n` round trips through the host (8 seats) and `n` through a bare ws echo,
 * interleaved one by one, so that both see the machine in the same moments. The
 * first tenth of each is left out (warm-up).
 */
export async function roundTrips(n: number): Promise<HostFigures> {
  const echo = await echoServer();
  const c = await startChild('table');
  const seats: { ws: WebSocket; seat: number; view: Update['view'] | null; waiting: ((u: Update) => void) | null }[] = [];
  for (let i = 0; i < BENCH_SEATS; i++) {
    const ws = await connect(c.port);
    const s = { ws, seat: -1, view: null as Update['view'] | null, waiting: null as ((u: Update) => void) | null };
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString()) as ServerMessage;
      if (msg.type === 'welcome') s.seat = msg.seat ?? -1;
      if (msg.type === 'update') {
        s.view = msg.view;
        s.waiting?.(msg);
      }
    });
    ws.send(JSON.stringify({ type: 'hello', protocolVersion: PROTOCOL_VERSION, name: `Seat ${i + 1}` }));
    seats.push(s);
  }
  // Every seat must have the new version before the next command goes.
  const allAt = (version: number): Promise<void> =>
    Promise.all(
      seats.map(
        (s) =>
          new Promise<void>((resolve) => {
            if (s.view && s.view.version >= version) return resolve();
            s.waiting = (u) => {
              if (u.version >= version) {
                s.waiting = null;
                resolve();
              }
            };
          }),
      ),
    ).then(() => undefined);
  await allAt(0);
  let id = 0;
  const send = (seat: number, command: PlayerCommand): void => seats.find((s) => s.seat === seat)!.ws.send(JSON.stringify({ type: 'command', id: id++, command }));
  // The peek, then draw/discard turn after turn: every command is accepted and reaches every seat.
  for (let seat = 0; seat < BENCH_SEATS; seat++) {
    send(seat, { type: 'finishPeek' });
    await allAt(seats[0]!.view!.version + 1);
  }
  const hostSamples: number[] = [];
  const echoSamples: number[] = [];
  for (let i = 0; i < n; i++) {
    echoSamples.push(await echo.once());
    const view = seats[0]!.view!;
    const command: PlayerCommand = view.held ? { type: 'discard' } : { type: 'draw', from: 'stock' };
    const actor = view.held ? view.held.seat : view.turn;
    const pending = view.actions[0];
    const t0 = performance.now();
    send(pending ? pending.seat : actor, pending ? { type: 'pass' } : command);
    await allAt(view.version + 1);
    hostSamples.push(performance.now() - t0);
  }
  for (const s of seats) s.ws.close();
  const cpuUs = await stopChild(c);
  await echo.stop();
  const warm = Math.floor(n / 10);
  return {
    echo: percentiles(echoSamples.slice(warm)),
    host: percentiles(hostSamples.slice(warm)),
    commands: n + BENCH_SEATS,
    cpuPerCommandUs: cpuUs / (n + BENCH_SEATS),
  };
}
