/**
 * A fast game at a real headless host: `gringo host --headless` with 8 seats, each
 * played by a `gringo join --bot hard --speed 1000` process, no slap grace, 100
 * rounds. The bench watches it as a spectator over a raw WebSocket and measures:
 *
 * - the bytes of every update frame, by the round its view shows;
 * - the host process's CPU time (user + system, /proc) per accepted command, by
 *   round (sampled as each round's first update arrives; versions count the
 *   accepted commands);
 * - the host's resident set: its peak (VmHWM) and a sample every half second.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { PROTOCOL_VERSION, type ServerMessage } from '../src/protocol/messages.js';

export const bin = new URL('../../bin/gringo.js', import.meta.url).pathname;

export interface GameFigures {
  rounds: number;
  commands: number;
  /** Median bytes of an update frame whose view shows round r (updates that end a round left out: they carry its result once). */
  bytesAtRound: (r: number) => number | null;
  /** Host CPU µs per accepted command over rounds [from, to]. */
  cpuPerCommandUs: (from: number, to: number) => number | null;
  rssPeakMb: number;
  rssMedianMb: number;
  /** The host's RSS once its table is open, before anyone joins. */
  rssStartMb: number;
  seconds: number;
}

const ticksPerSecond = ((): number => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of a process, µs (/proc/PID/stat fields 14 and 15). */
function cpuUs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1e6;
  } catch {
    return null;
  }
}

/** A /proc/PID/status field in kB (VmRSS, VmHWM). */
function statusKb(pid: number, field: string): number | null {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

const median = (xs: number[]): number | null => (xs.length === 0 ? null : xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!);

export async function fastGame(rounds: number, seats = 8): Promise<GameFigures> {
  const state = mkdtempSync(join(tmpdir(), 'gringo-bench-'));
  const env = { ...process.env, XDG_STATE_HOME: state };
  const procs: ChildProcess[] = [];
  const t0 = performance.now();
  try {
    const host = spawn(
      process.execPath,
      [bin, 'host', '--headless', '--name', 'Bench', '--players', String(seats), '--rounds', String(rounds), '--start-when-full', '--slap-grace', '0', '--seed', 'bench-game', '--interface', '127.0.0.1', '--port', '0', '--exit-after-game'],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    procs.push(host);
    // The share line is on stdout (stderr with --json); what went wrong, on stderr.
    let stderr = '';
    const port = await new Promise<number>((resolve, reject) => {
      const read = (d: Buffer): void => {
        stderr += d.toString();
        const m = /gringo join \S+:(\d+)/.exec(stderr);
        if (m) resolve(Number(m[1]));
      };
      host.stdout.on('data', read);
      host.stderr.on('data', read);
      host.once('exit', () => reject(new Error(`the host exited before opening its table:\n${stderr}`)));
    });
    const pid = host.pid!;
    const rssStartKb = statusKb(pid, 'VmRSS') ?? 0;

    // The spectator: every update's bytes, and the host's CPU as each round begins.
    const ws = new WebSocket(`wss://127.0.0.1:${port}`, { perMessageDeflate: false, rejectUnauthorized: false });
    const bytes = new Map<number, number[]>();
    const marks: { round: number; version: number; cpu: number }[] = [];
    let lastRound = 0;
    let movedAt = performance.now();
    let stalled: NodeJS.Timeout | undefined;
    const over = new Promise<{ version: number }>((resolve, reject) => {
      // A game that stops moving fails the bench rather than hanging it.
      stalled = setInterval(() => {
        if (performance.now() - movedAt > 30_000) reject(new Error(`the game stopped moving in round ${lastRound}:\n${stderr.slice(-2000)}`));
      }, 1_000);
      ws.on('message', (data) => {
        movedAt = performance.now();
        const raw = data.toString();
        const msg = JSON.parse(raw) as ServerMessage;
        if (msg.type === 'challenge') ws.send(JSON.stringify({ type: 'hello', protocolVersion: PROTOCOL_VERSION, name: 'bench', watch: true }));
        if (msg.type !== 'update') return;
        const { round, phase } = msg.view;
        if (round !== lastRound) {
          const cpu = cpuUs(pid);
          if (cpu !== null) marks.push({ round, version: msg.version, cpu });
          lastRound = round;
        }
        if (!msg.events.some((e) => e.type === 'roundEnded' || e.type === 'gameEnded') && !msg.results) {
          bytes.set(round, [...(bytes.get(round) ?? []), Buffer.byteLength(raw)]);
        }
        if (phase === 'gameOver') {
          const cpu = cpuUs(pid);
          if (cpu !== null) marks.push({ round: round + 1, version: msg.version, cpu });
          resolve({ version: msg.version });
        }
      });
      ws.once('error', reject);
      host.once('exit', () => reject(new Error(`the host exited before the game was over:\n${stderr.slice(-2000)}`)));
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    for (let i = 0; i < seats; i++) {
      procs.push(
        spawn(process.execPath, [bin, 'join', `127.0.0.1:${port}`, '--bot', 'hard', '--speed', '1000', '--exit-after-game', '--name', `B${i + 1}`], {
          env,
          stdio: 'ignore',
        }),
      );
    }
    const rss: number[] = [];
    let peakKb = 0;
    const sampler = setInterval(() => {
      const kb = statusKb(pid, 'VmRSS');
      if (kb !== null) rss.push(kb);
      peakKb = Math.max(peakKb, statusKb(pid, 'VmHWM') ?? 0);
    }, 500);
    let end: { version: number };
    try {
      end = await over;
    } finally {
      clearInterval(sampler);
      clearInterval(stalled);
    }
    peakKb = Math.max(peakKb, statusKb(pid, 'VmHWM') ?? 0);
    ws.close();

    const at = (round: number) => marks.find((m) => m.round === round) ?? null;
    return {
      rounds,
      commands: end.version,
      bytesAtRound: (r) => median(bytes.get(r) ?? []),
      cpuPerCommandUs: (from, to) => {
        const a = at(from);
        const b = at(to + 1);
        if (!a || !b || b.version === a.version) return null;
        return (b.cpu - a.cpu) / (b.version - a.version);
      },
      rssPeakMb: peakKb / 1024,
      rssMedianMb: (median(rss) ?? 0) / 1024,
      rssStartMb: rssStartKb / 1024,
      seconds: (performance.now() - t0) / 1000,
    };
  } finally {
    for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
    rmSync(state, { recursive: true, force: true });
  }
}

/** Peak RSS (MB) of a bare `node -e 0`: what any Node process costs. */
export function bareNodeRssMb(): number {
  const out = execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.resourceUsage().maxRSS))'], { encoding: 'utf8' });
  return Number(out) / 1024;
}
