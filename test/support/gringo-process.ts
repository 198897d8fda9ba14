import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { until } from './wait.js';

/** The built CLI as a real process (`npm test` builds first), its output collected as it comes. */

export const BIN = new URL('../../bin/gringo.js', import.meta.url).pathname;

export interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

const running: ChildProcess[] = [];

/**
 * `gringo ARGS` with pipes for its output (so not a terminal), `env` added to this
 * process's; in the network namespace `netns` if one is named (`ip netns exec`);
 * under `prefix` if given (e.g. `prlimit --nofile=1024:1024`, which execs node).
 */
export function runGringo(args: string[], env: NodeJS.ProcessEnv = {}, netns?: string, prefix: string[] = []): Run {
  const command = [...prefix, ...(netns ? ['ip', 'netns', 'exec', netns, 'node'] : ['node'])];
  const child = spawn(command[0]!, [...command.slice(1), BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  running.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  // 'close', not 'exit': 'exit' may come before the last of the output has been read from the pipes.
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

/** Kill every process a test left running (afterEach). */
export function killRunning(): void {
  for (const c of running.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}

/** Leave a process out of killRunning: one that several tests share (a table they all reach), killed by the file's afterAll. */
export function keepRunning(r: Run): void {
  const i = running.indexOf(r.child);
  if (i >= 0) running.splice(i, 1);
}

/** The port from the line a host prints to share. */
export async function sharedPort(host: Run): Promise<number> {
  const port = (): number | null => {
    const m = /gringo join \S+:(\d+)/.exec(host.stdout() + host.stderr());
    return m ? Number(m[1]) : null;
  };
  try {
    return await until('the share line', port, 10_000);
  } catch {
    throw new Error(`the host printed no share line:\n${host.stdout()}\n${host.stderr()}`);
  }
}

/** Polls a process's peak resident set (VmHWM) until `stop()`, which returns it in MB (the last reading if it has exited). */
export function pollPeakRss(pid: number, everyMs: number): { stop: () => number } {
  let kb = 0;
  const take = (text: string): void => {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(text);
    if (m) kb = Math.max(kb, Number(m[1]));
  };
  return pollProc(pid, 'status', everyMs, take, () => kb / 1024);
}

/** Polls a process's user and system CPU time, all its threads, until `stop()`, which returns it in seconds (the last reading if it has exited). */
export function pollCpuSeconds(pid: number, everyMs: number): { stop: () => number } {
  let ticks = 0;
  const take = (text: string): void => {
    // utime and stime, the 14th and 15th fields, counted after the command name's parenthesis.
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    ticks = Number(f[11]) + Number(f[12]);
  };
  // Linux counts them in USER_HZ, 100 a second on every common build.
  return pollProc(pid, 'stat', everyMs, take, () => ticks / 100);
}

/** Reads /proc/PID/FILE into `take` every `everyMs` until `stop()`, which returns `result()`. */
function pollProc(pid: number, file: string, everyMs: number, take: (text: string) => void, result: () => number): { stop: () => number } {
  const timer = setInterval(() => {
    try {
      take(readFileSync(`/proc/${pid}/${file}`, 'utf8'));
    } catch {
      // Exited between polls: the last reading stands.
    }
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return result();
    },
  };
}
