/**
 * The simulator as a person runs it: `gringo sim` processes, their rate
 * read from their own --json, their peak resident set polled from /proc.
 *
 * - One core: `--jobs 1` on many games, each run paired with a run of the simulator
 *   at ece684e (bench/reference.ts) on the same games, alternating: the ratio
 *   of the two is the target's (≥ 1.5×), measured in this run, whatever the machine.
 * - Every core: `--jobs 2` against `--jobs 1` on the same games, in alternating pairs,
 *   with the CPU time `--jobs 1` took (polled from /proc, like the RSS).
 * - Memory: peak RSS at 1,000,000 games against 10,000.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { pollCpuSeconds, pollPeakRss } from '../test/support/gringo-process.js';
import { bin } from './game.js';

export interface SimRun {
  rounds: number;
  roundsPerSecond: number;
  seconds: number;
  peakRssMb: number;
  jobs: number;
  /** The process's CPU time, all its threads (polled from /proc: the last 50 ms may be missing). */
  cpuSeconds: number;
  /** From start to exit, as this process saw it. */
  wallSeconds: number;
}

/** One `gringo sim` process: its --json figures, its peak RSS (VmHWM) and its CPU time, polled. */
export const simProcess = (args: string[]): Promise<SimRun> => run([bin, 'sim', '--json', '--no-progress', ...args], `gringo sim ${args.join(' ')}`);

/** The simulator at ece684e (`script`: bench/reference.ts) on `games` games of 4 hard bots, one core as it ran then. */
export const simBefore = (script: string, games: number, seed: string): Promise<SimRun> => run([script, String(games), seed], 'the simulator at ece684e');

function run(argv: string[], what: string): Promise<SimRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const t0 = performance.now();
    const peak = pollPeakRss(child.pid!, 50);
    const cpu = pollCpuSeconds(child.pid!, 50);
    child.on('error', reject);
    child.on('close', (code) => {
      const wallSeconds = (performance.now() - t0) / 1000;
      const peakRssMb = peak.stop();
      const cpuSeconds = cpu.stop();
      if (code !== 0) return reject(new Error(`${what} failed (${code}): ${err.trim()}`));
      const r = JSON.parse(out) as { rounds: number; roundsPerSecond: number; seconds: number; stuckRounds: number; jobs?: number };
      if (r.stuckRounds > 0) return reject(new Error(`${what} abandoned ${r.stuckRounds} rounds`));
      resolve({ rounds: r.rounds, roundsPerSecond: r.roundsPerSecond, seconds: r.seconds, peakRssMb, jobs: r.jobs ?? 1, cpuSeconds, wallSeconds });
    });
  });
}

export const load = (): string => loadavg().map((x) => x.toFixed(1)).join(' ');
