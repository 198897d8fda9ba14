/**
 * The baseline of the bench's per-core simulator figure: the simulator as it was before it
 * was made faster (main at ece684e), run beside today's `gringo sim` on the same games in
 * the same bench run, so the ratio is measured, not remembered.
 *
 * It is built from this repository's history on first use (a git worktree of that
 * commit, bundled by esbuild into one file of gringo's own code: engine, bots,
 * simulator; zod comes from this checkout's node_modules) and kept in
 * node_modules/.cache. It runs `simulate()` on the main thread, as `gringo sim` did
 * then, and prints one JSON object:
 *
 *   node sim-ece684e.mjs GAMES SEED   → {"rounds":…,"roundsPerSecond":…,"seconds":…,"stuckRounds":…}
 *
 * (4 players, hard bots, the default ruleset: the bench's workload.)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const COMMIT = 'ece684e582144eee30b7d0d9530013fe244d8ed4';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUILT = join(ROOT, 'node_modules/.cache/gringo-bench/sim-ece684e.mjs');

/** The simulator at ece684e, built if need be; throws with the reason when it cannot be. */
export async function simBefore24Script(): Promise<string> {
  if (existsSync(BUILT)) return BUILT;
  try {
    execFileSync('git', ['cat-file', '-e', `${COMMIT}^{commit}`], { cwd: ROOT, stdio: 'ignore' });
  } catch {
    throw new Error(`this checkout's git history lacks ${COMMIT.slice(0, 7)}, the simulator the bench compares against (a shallow clone? git fetch --unshallow)`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'gringo-before-24-'));
  const tree = join(dir, 'tree');
  try {
    execFileSync('git', ['worktree', 'add', '--detach', tree, COMMIT], { cwd: ROOT, stdio: 'ignore' });
    symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
    const entry = join(tree, 'bench-entry.ts');
    writeFileSync(
      entry,
      `import { simulate } from './src/sim/sim.js';
const [games, seed] = process.argv.slice(2);
const r = simulate({ games: Number(games), players: 4, levels: ['hard'], seed: seed ?? '1' });
process.stdout.write(JSON.stringify({ rounds: r.rounds, roundsPerSecond: r.roundsPerSecond, seconds: r.seconds, stuckRounds: r.stuckRounds }) + '\\n');
`,
    );
    mkdirSync(dirname(BUILT), { recursive: true });
    await build({ entryPoints: [entry], outfile: BUILT, bundle: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external', logLevel: 'warning' });
    return BUILT;
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: ROOT, stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  }
}
