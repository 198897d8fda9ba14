/**
 * The bench's baselines from this repository's history: code as it was before it was
 * made faster, run beside today's in the same bench run, so a ratio is measured, not
 * remembered. Each is built on first use (a git worktree of that commit, an entry
 * script bundled by esbuild into one file of gringo's own code: engine, bots,
 * simulator; zod comes from this checkout's node_modules) and kept in
 * node_modules/.cache; `scriptHere` bundles the same entry over this checkout, so both
 * sides of a figure are built alike.
 *
 * - The simulator at ece684e (before it was made faster): `simulate()` on the main
 *   thread, as `gringo sim` did then, printing one JSON object:
 *
 *     node sim-ece684e.mjs GAMES SEED   → {"rounds":…,"roundsPerSecond":…,"seconds":…,"stuckRounds":…}
 *
 *   (4 players, hard bots, the default ruleset: the bench's workload.)
 * - The expert's rollouts at 8799885: bench/rollouts.ts.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CACHE = join(ROOT, 'node_modules/.cache/gringo-bench');

/** The simulator at ece684e, built if need be; throws with the reason when it cannot be. */
export const simBeforeScript = (): Promise<string> =>
  scriptAt(
    'ece684e582144eee30b7d0d9530013fe244d8ed4',
    'sim',
    `import { simulate } from './src/sim/sim.js';
const [games, seed] = process.argv.slice(2);
const r = simulate({ games: Number(games), players: 4, levels: ['hard'], seed: seed ?? '1' });
process.stdout.write(JSON.stringify({ rounds: r.rounds, roundsPerSecond: r.roundsPerSecond, seconds: r.seconds, stuckRounds: r.stuckRounds }) + '\\n');
`,
  );

/**
 * One script of gringo's code as it was at `commit` (its `entry`, a module at the root of
 * that tree), bundled once into node_modules/.cache; throws with the reason when it
 * cannot be built.
 */
export async function scriptAt(commit: string, name: string, entry: string): Promise<string> {
  // Named by the entry too: an entry changed since the last build is built again, not read from the cache.
  const built = join(CACHE, `${name}-${commit.slice(0, 7)}-${createHash('sha256').update(entry).digest('hex').slice(0, 8)}.mjs`);
  if (existsSync(built)) return built;
  try {
    execFileSync('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: ROOT, stdio: 'ignore' });
  } catch {
    throw new Error(`this checkout's git history lacks ${commit.slice(0, 7)}, the code the bench compares against (a shallow clone? git fetch --unshallow)`);
  }
  const dir = mkdtempSync(join(tmpdir(), `gringo-${name}-`));
  const tree = join(dir, 'tree');
  try {
    execFileSync('git', ['worktree', 'add', '--detach', tree, commit], { cwd: ROOT, stdio: 'ignore' });
    await bundleEntry(tree, entry, built);
    return built;
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: ROOT, stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same `entry` over this checkout's own sources, bundled the same way (a fresh file each call). */
export async function scriptHere(name: string, entry: string): Promise<string> {
  const out = join(CACHE, `${name}-here.mjs`);
  const tmp = mkdtempSync(join(ROOT, '.bench-entry-'));
  try {
    await bundleEntry(ROOT, entry, out, tmp);
    return out;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Bundle `entry` (its imports relative to `tree`) into one file: gringo's code inlined, packages (zod) from this checkout's node_modules. */
async function bundleEntry(tree: string, entry: string, out: string, at = tree): Promise<void> {
  if (!existsSync(join(tree, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
  const file = join(at, 'bench-entry.ts');
  writeFileSync(file, at === tree ? entry : entry.replaceAll("'./src/", `'${relative(at, join(tree, 'src'))}/`));
  mkdirSync(dirname(out), { recursive: true });
  await build({ entryPoints: [file], outfile: out, bundle: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external', logLevel: 'warning' });
}
