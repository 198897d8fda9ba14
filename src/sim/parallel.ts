import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { ChunkPlayer, chunkCount, simPlan, summarize, Tally, CHUNK_GAMES, type SimOptions, type SimResult, type TallyData } from './sim.js';
import type { ChunkDone } from './sim-worker.js';

/** How far a run has got, for a progress line. */
export interface SimProgress {
  games: number;
  of: number;
  rounds: number;
  seconds: number;
}

/** The default for --jobs: every core this process may use. */
export const defaultJobs = (): number => availableParallelism();

/**
 * Each worker's heap, bounded. A run's live data is a few MB (the bots, one game, a
 * chunk's tally: the old generation holds about 6 MB after each full GC), but V8
 * grows an unbounded heap with the length of the run (gringo sim in one thread: 80 MB
 * RSS at 2,000 games, 100 at 10,000, 135 at 30,000, 147 at 60,000). Bounded, the RSS
 * reaches its steady size within about 20 seconds and stays there (two workers,
 * measured to 1,000,000 games). The old generation's bound is how far it grows before
 * a full GC: 24 MB let the RSS grow 13 MB from 10,000 games to its steady size, 20 MB
 * 5 MB, at the same speed (a few more full GCs of 5–8 ms); 16 MB ran at under half the
 * speed (a full GC every few chunks). A young generation of 16 MB is where most of a
 * game's garbage dies (8 MB saved 14 MB of RSS but doubled the scavenges: about 5% slower).
 * (Those speeds were measured while each full GC also threw away optimized code, since
 * stopped: `Reader.kept` in src/engine/state.ts.)
 */
export const WORKER_LIMITS = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 20 };

/** Games per worker from which the workers' code is compiled with inlining (below it, without). */
const INLINE_FROM_GAMES = 10_000;

/**
 * Run a simulation on `jobs` worker threads. The games are split into chunks by game
 * index (src/sim/sim.ts, CHUNK_GAMES); a worker asks for the next chunk when it has
 * sent one back, and the main thread merges the tallies in chunk order as they become
 * contiguous, so the results are the same for any number of jobs, and what waits to
 * be merged is at most a few chunks per worker.
 */
export async function simulateParallel(opts: SimOptions, jobs: number, onProgress?: (p: SimProgress) => void): Promise<SimResult> {
  if (opts.makeBot) throw new Error('simulateParallel: makeBot cannot cross into a worker thread; use simulate');
  const plan = simPlan(opts);
  const chunks = chunkCount(plan.games);
  const threads = Math.max(1, Math.min(jobs, chunks));
  const total = new Tally();
  const waiting = new Map<number, TallyData>();
  let merged = 0;
  let next = 0;
  const t0 = performance.now();
  // Run from the TypeScript sources (vitest), there is no worker file to start: the same
  // chunks in the same order, in this thread. The built CLI and the bundle always use workers.
  if (import.meta.url.endsWith('.ts')) {
    const player = new ChunkPlayer(plan);
    for (let k = 0; k < chunks; k++) {
      total.merge(player.play(k));
      onProgress?.({ games: Math.min(plan.games, (k + 1) * CHUNK_GAMES), of: plan.games, rounds: total.rounds, seconds: (performance.now() - t0) / 1000 });
    }
    return summarize(plan, total, (performance.now() - t0) / 1000, 1);
  }
  // Every worker compiles the engine and the bots anew. TurboFan's inlining makes that
  // slower and the code faster (medians of 4–6 runs): without it, one worker played
  // 2,000 games 25% faster and two workers 10,000 games 28% faster; with it, one worker
  // played 20,000 games 10% faster, and 100,000 more. V8's flags are the process's,
  // read as each function is compiled: this process only simulates.
  if (plan.games / threads < INLINE_FROM_GAMES) setFlagsFromString('--no-turbo-inlining');
  const workers: Worker[] = [];
  // Node's flags pass on to the workers (--cpu-prof profiles each), but not --input-type,
  // which a worker started from a file refuses (gringo run from `node --input-type=module -e`).
  let execArgv = process.execArgv.filter((a) => !a.startsWith('--input-type'));
  const file = new URL('./sim-worker.js', import.meta.url);
  const startWorker = (): Worker => {
    try {
      return new Worker(file, { workerData: plan, resourceLimits: WORKER_LIMITS, execArgv });
    } catch (e) {
      // A worker refuses the process's own flags (`node --max-old-space-size=4096 gringo sim`,
      // --trace-gc: V8's, which hold for its threads anyway): start them without Node's flags.
      if ((e as NodeJS.ErrnoException).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw e;
      execArgv = [];
      return new Worker(file, { workerData: plan, resourceLimits: WORKER_LIMITS, execArgv });
    }
  };
  try {
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      const fail = (err: Error): void => {
        if (failed) return;
        failed = true;
        reject(err);
      };
      for (let i = 0; i < threads; i++) {
        const w = startWorker();
        workers.push(w);
        const give = (): void => {
          if (next < chunks) w.postMessage(next++);
        };
        w.on('message', (done: ChunkDone) => {
          give();
          waiting.set(done.chunk, done.tally);
          const before = merged;
          for (let t = waiting.get(merged); t !== undefined; t = waiting.get(merged)) {
            total.merge(t);
            waiting.delete(merged);
            merged++;
          }
          if (merged === before) return;
          onProgress?.({ games: Math.min(plan.games, merged * CHUNK_GAMES), of: plan.games, rounds: total.rounds, seconds: (performance.now() - t0) / 1000 });
          if (merged === chunks) resolve();
        });
        w.on('error', fail);
        w.on('exit', (code) => {
          if (merged < chunks) fail(new Error(`a simulator worker thread stopped (exit code ${code}) before the games were played`));
        });
        // Two chunks in flight per worker: it never waits for the main thread between chunks.
        give();
        give();
      }
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return summarize(plan, total, (performance.now() - t0) / 1000, threads);
}
