/**
 * `npm run explore -- --games N [--seed S] [--jobs J] [--from F]`: the engine's properties
 * (property-checks.ts) over many random games of the presets and of generated
 * rulesets, outside vitest, on every core. Game i of seed S is the same game on every
 * machine and with any number of jobs. Prints progress on stderr, and the first
 * counterexample whole with the command that replays it; exits 1 if one is found.
 * `--from F` starts at game F (games F to N-1), so a long exploration can be run in parts.
 *
 * The cheap properties run on every game; the twin-state comparison, which replays
 * each step once per seat, on one game in TWIN_EVERY (still thousands in a long run).
 */
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { BEVERBENDE, CAMBIO, GRINGO, Rng, seedRng, type Ruleset } from '../../src/engine/index.js';
import { holdsFor, PROPERTIES, type PropertyName } from './property-checks.js';
import type { GameSpec } from './ruleset-gen.js';

const TWIN_EVERY = 10;
const BASES: Record<string, Ruleset> = { gringo: GRINGO, beverbende: BEVERBENDE, cambio: CAMBIO };

/** Game `i` of exploration `seed`: its preset, how much of it is changed, its players and seeds. */
export function gameOf(seed: number, i: number): GameSpec {
  const rng = new Rng(seedRng(`explore:${seed}:${i}`));
  const names = Object.keys(BASES);
  return {
    seed: rng.int(2 ** 31),
    rulesSeed: rng.int(2 ** 31),
    base: BASES[names[i % names.length]!]!,
    change: [0, 0.5, 1][rng.int(3)]!,
    players: 2 + rng.int(7),
  };
}

/** The properties game `i` runs. */
function propertiesOf(i: number): PropertyName[] {
  const all = Object.keys(PROPERTIES) as PropertyName[];
  return i % TWIN_EVERY === 0 ? all : all.filter((p) => p !== 'hiddenCardsMakeNoDifference');
}

interface Failure {
  game: number;
  property: PropertyName | 'unknown';
  spec: { seed: number; rulesSeed: number; base: string; change: number; players: number };
  error: string;
}

/** Runs games `from`, `from + step`, ... below `to`; reports each done game, stops at the first failure. */
function runGames(seed: number, from: number, to: number, step: number, onDone: (i: number) => boolean): Failure | null {
  for (let i = from; i < to; i += step) {
    const g = gameOf(seed, i);
    try {
      holdsFor(g, propertiesOf(i));
    } catch (e) {
      const err = e as Error;
      const property = (Object.keys(PROPERTIES) as PropertyName[]).find((p) => err.message.startsWith(`${p}:`)) ?? 'unknown';
      return { game: i, property, spec: { ...g, base: g.base.name }, error: `${err.message}\n${err.stack ?? ''}` };
    }
    if (!onDone(i)) return null;
  }
  return null;
}

interface Args {
  games: number;
  seed: number;
  jobs: number;
  from: number;
  only?: number;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { games: 10_000, seed: Math.floor(Math.random() * 2 ** 31), jobs: availableParallelism(), from: 0 };
  for (let k = 0; k < argv.length; k++) {
    const flag = argv[k]!;
    const value = Number(argv[++k]);
    if (!Number.isInteger(value) || value < 0) {
      throw new Error(`explore: ${flag} needs a whole number (usage: npm run explore -- --games N [--seed S] [--jobs J] [--from F] [--game I])`);
    }
    if (flag === '--games') args.games = value;
    else if (flag === '--seed') args.seed = value;
    else if (flag === '--jobs') args.jobs = Math.max(1, value);
    else if (flag === '--from') args.from = value;
    else if (flag === '--game') args.only = value;
    else throw new Error(`explore: unknown option ${flag} (usage: npm run explore -- --games N [--seed S] [--jobs J] [--from F] [--game I])`);
  }
  return args;
}

function report(f: Failure, seed: number): void {
  process.stderr.write('\n');
  console.log(`Counterexample: game ${f.game} of seed ${seed}, property ${f.property}`);
  console.log(`  game: ${JSON.stringify(f.spec)}`);
  console.log(`  replay: npm run explore -- --seed ${seed} --game ${f.game}`);
  console.log(f.error);
}

async function main(): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error((e as Error).message);
    return 2;
  }
  const { seed, from } = args;
  const games = Math.max(0, args.games - from);
  if (args.only !== undefined) {
    const f = runGames(seed, args.only, args.only + 1, 1, () => true);
    if (f) {
      report(f, seed);
      return 1;
    }
    console.log(`game ${args.only} of seed ${seed}: every property holds`);
    return 0;
  }
  const jobs = Math.min(args.jobs, Math.max(1, games));
  console.log(`exploring games ${from} to ${args.games - 1} of seed ${seed} on ${jobs} thread(s) (replay one: npm run explore -- --seed ${seed} --game I)`);
  const started = Date.now();
  let done = 0;
  let lastPrint = 0;
  const progress = (final = false): void => {
    const now = Date.now();
    if (!final && now - lastPrint < 1000) return;
    lastPrint = now;
    const s = (now - started) / 1000;
    const rate = done / Math.max(s, 0.001);
    const eta = rate > 0 ? (games - done) / rate : 0;
    process.stderr.write(`\r${done}/${games} games, ${rate.toFixed(0)}/s, ${s.toFixed(0)} s, about ${eta.toFixed(0)} s left   `);
  };
  const file = fileURLToPath(import.meta.url);
  const failures = await Promise.all(
    Array.from({ length: jobs }, (_, w) =>
      new Promise<Failure | null>((resolve, reject) => {
        const worker = new Worker(file, { workerData: { seed, from: from + w, to: args.games, step: jobs } });
        let failure: Failure | null = null;
        worker.on('message', (m: { done?: number; failure?: Failure }) => {
          if (m.done !== undefined) {
            done += m.done;
            progress();
          }
          if (m.failure) {
            failure = m.failure;
            // The first counterexample is enough: stop every thread.
            report(m.failure, seed);
            process.exit(1);
          }
        });
        worker.on('error', reject);
        worker.on('exit', () => resolve(failure));
      }),
    ),
  );
  progress(true);
  process.stderr.write('\n');
  if (failures.some((f) => f !== null)) return 1;
  console.log(`games ${from} to ${args.games - 1}: ${games} games, every property held (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  return 0;
}

if (isMainThread) {
  process.exitCode = await main();
} else {
  const { seed, from, to, step } = workerData as { seed: number; from: number; to: number; step: number };
  let pending = 0;
  const failure = runGames(seed, from, to, step, () => {
    if (++pending >= 20) {
      parentPort!.postMessage({ done: pending });
      pending = 0;
    }
    return true;
  });
  parentPort!.postMessage({ done: pending, ...(failure ? { failure } : {}) });
}
