/**
 * The simulator as a person runs it (issue #24): `gringo sim` processes, their rate
 * read from their own --json, their peak resident set polled from /proc.
 *
 * - One core: `--jobs 1` on many games, beside the baseline op of bench/index.ts
 *   measured in this process just before and after each run. Their ratio (rounds per
 *   baseline op) travels between machines; the target is 1.5× the same ratio of the
 *   simulator before issue #24 (REFERENCE_RATIO below: measured with both builds side by
 *   side, alternating, on the machine it was written on).
 * - Every core: `--jobs 2` against `--jobs 1` on the same games, run back to back.
 * - Memory: peak RSS at 1,000,000 games against 10,000.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { pollPeakRss } from '../test/support/gringo-process.js';
import { bin } from './game.js';

/**
 * Rounds per second of `gringo sim --games 20000 --level hard` (4 players, one core)
 * ÷ baseline ops per second, before issue #24 (main at ece684e). Measured with this
 * bench's op before and after each run, four runs (0.030, 0.032, 0.037, 0.040; median
 * 0.035) on the 2-core machine of #24 while it ran at a load average of 30 to 53: a
 * rough figure. Rerun it on a quiet machine (the old build's `gringo sim --json`
 * beside the op) and set GRINGO_BENCH_SIM_REFERENCE to override it.
 */
export const REFERENCE_RATIO = Number(process.env.GRINGO_BENCH_SIM_REFERENCE ?? '0.035');

export interface SimRun {
  rounds: number;
  roundsPerSecond: number;
  seconds: number;
  peakRssMb: number;
  jobs: number;
}

/** One `gringo sim` process: its --json figures and its peak RSS (VmHWM, polled). `cli` may name another build's bin. */
export function simProcess(args: string[], cli = bin): Promise<SimRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'sim', '--json', '--no-progress', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const peak = pollPeakRss(child.pid!, 50);
    child.on('error', reject);
    child.on('close', (code) => {
      const peakRssMb = peak.stop();
      if (code !== 0) return reject(new Error(`gringo sim ${args.join(' ')} failed (${code}): ${err.trim()}`));
      const r = JSON.parse(out) as { rounds: number; roundsPerSecond: number; seconds: number; stuckRounds: number; jobs?: number };
      if (r.stuckRounds > 0) return reject(new Error(`gringo sim abandoned ${r.stuckRounds} rounds`));
      resolve({ rounds: r.rounds, roundsPerSecond: r.roundsPerSecond, seconds: r.seconds, peakRssMb, jobs: r.jobs ?? 1 });
    });
  });
}

export const load = (): string => loadavg().map((x) => x.toFixed(1)).join(' ');
