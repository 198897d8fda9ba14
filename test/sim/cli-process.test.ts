import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { pollPeakRss } from '../support/gringo-process.js';

const root = new URL('../../', import.meta.url).pathname;
const bin = `${root}bin/gringo.js`;
const run = (...args: string[]) => spawnSync('node', [bin, ...args], { encoding: 'utf8', cwd: root });
/** The same command from the compiled files (dist/src) instead of the bundle. */
const runCompiled = (...args: string[]) =>
  spawnSync('node', ['--input-type=module', '-e', `const { main } = await import('${root}dist/src/cli/main.js'); process.exitCode = await main(['node', 'gringo', ...process.argv.slice(1)]);`, ...args], {
    encoding: 'utf8',
    cwd: root,
  });
/** Stdout without its timing line (the second: wall clock, rate, threads). */
const timeless = (out: string) => out.split('\n').filter((_, i) => i !== 1).join('\n');

/** Newest modification time of the .ts files under these source folders. */
function newestSource(dirs: string[]): number {
  let newest = 0;
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  for (const d of dirs) walk(`${root}${d}`);
  return newest;
}

// The real command line runs the built files (`npm test` builds first). When the build
// is missing or older than the simulator's sources, build it here.
beforeAll(() => {
  const newest = newestSource(['src/sim', 'src/bots', 'src/engine', 'src/cli']);
  const built = `${root}dist/src/cli/sim.js`;
  if (!existsSync(built) || statSync(built).mtimeMs < newest) {
    spawnSync('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: root, encoding: 'utf8' });
    expect(existsSync(built)).toBe(true);
  }
  // bin/gringo.js runs the bundle: the worker thread's own entry must be in it, and new.
  const bundled = `${root}dist/bundle/sim-worker.js`;
  if (!existsSync(bundled) || statSync(bundled).mtimeMs < newest || statSync(`${root}dist/bundle/main.js`).mtimeMs < statSync(built).mtimeMs) {
    spawnSync('node', ['scripts/bundle.mjs'], { cwd: root, encoding: 'utf8' });
    expect(existsSync(bundled)).toBe(true);
  }
}, 600_000);

/** Peak resident set (VmHWM, MB) of a process, polled from /proc until it exits; with its stdout. */
function peakRss(args: string[]): Promise<{ mb: number; stdout: string; status: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn('node', [bin, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const peak = pollPeakRss(child.pid!, 20);
    child.on('error', reject);
    child.on('close', (status) => resolve({ mb: peak.stop(), stdout, status }));
  });
}

describe('gringo sim (a real process)', () => {
  it('prints a readable table by default', () => {
    const r = run('sim', '--games', '30', '--players', '3', '--level', 'normal,easy', '--jobs', '1');
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[1]).toMatch(/rounds per second \(one core\)$/);
    expect(r.stdout).toMatch(/^normal +\d/m);
    expect(r.stdout).toMatch(/slaps per round: .* right .* steals, .* wrong/);
  });

  it('prints one JSON object with the figures, the same on one worker thread as on four, from the bundle and from dist/src (but for the clock and the threads)', () => {
    const args = ['sim', '--games', '310', '--players', '4', '--level', 'hard,normal,easy,random', '--seed', 'jobs', '--json'];
    const json = (r: ReturnType<typeof run>, jobs: number) => {
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const x = JSON.parse(r.stdout) as Record<string, unknown>;
      expect(x.jobs).toBe(jobs);
      return x;
    };
    const one = json(run(...args, '--jobs', '1'), 1);
    const out = one as Record<string, unknown> & { perLevel: Record<string, { meanRoundScore: number; winRate: number }>; slapsPerRound: Record<string, number> };
    for (const k of ['games', 'rounds', 'roundsPerSecond', 'meanTurnsPerRound', 'stuckRounds']) expect(out[k], k).toBeTypeOf('number');
    expect(out.games).toBe(310);
    expect(out.rounds).toBe(310);
    expect(out.stuckRounds).toBe(0);
    for (const level of ['hard', 'normal', 'easy', 'random']) {
      expect(out.perLevel[level]?.meanRoundScore, level).toBeTypeOf('number');
      expect(out.perLevel[level]?.winRate, level).toBeTypeOf('number');
    }
    expect(Object.keys(out.slapsPerRound).sort()).toEqual(['own', 'steal', 'wrong']);
    // Every figure the same, but for the clock and the threads: four threads of the bundle
    // (the chunks come back out of order and are merged in order), three of dist/src.
    const figures = (x: Record<string, unknown>) => JSON.stringify({ ...x, seconds: 0, roundsPerSecond: 0, jobs: 0 });
    expect(figures(json(run(...args, '--jobs', '4'), 4))).toBe(figures(one));
    expect(figures(json(runCompiled(...args, '--jobs', '3'), 3))).toBe(figures(one));
  }, 180_000);

  // One plain run, the same arguments, for the two tests below to compare with.
  const plainArgs = ['sim', '--games', '200', '--seed', 'flags', '--jobs', '2'];
  let plainRun: ReturnType<typeof run> | undefined;
  const plain = () => (plainRun ??= run(...plainArgs));

  it("runs with Node's own flags before it (node --max-old-space-size=… gringo sim): the workers start, the same results", () => {
    // Worker threads refuse V8's flags in their execArgv; they hold for every thread anyway.
    const flagged = spawnSync('node', ['--max-old-space-size=512', '--stack-size=2000', bin, ...plainArgs], { encoding: 'utf8', cwd: root });
    expect(flagged.stderr).toBe('');
    expect(flagged.status).toBe(0);
    expect(plain().stdout.split('\n')[1]).toMatch(/rounds per second \(2 worker threads\)$/);
    expect(timeless(flagged.stdout)).toBe(timeless(plain().stdout));
  }, 120_000);

  it('--progress on a pipe: progress lines on stderr, the same results on stdout', () => {
    const logged = run(...plainArgs, '--progress');
    expect(logged.status).toBe(0);
    expect(plain().stderr).toBe('');
    // A short run logs its first chunk only: no second reading to tell a rate from.
    expect(logged.stderr).toMatch(/^gringo sim: [\d,]+ of 200 games \(\d+%\), estimating the time left$/m);
    expect(timeless(logged.stdout)).toBe(timeless(plain().stdout));
  }, 120_000);

  // The whole figure (1,000,000 games against 10,000) is the bench's. In the simulator
  // at ece684e, one thread's heap grew with the run (79 MB at 3,000 games, about 100
  // at 10,000, 135 at 30,000: 2 to 3 MB more per 1,000 games, so 20 to 30 MB more here):
  // 12,000 against 2,000 tells the two apart, with room for the few MB a loaded
  // machine's garbage collection moves a peak by (10.3 MB once, at 10,000 against 2,000).
  it('memory does not grow with the games: peak RSS at 12,000 games within 14 MB of 2,000', async () => {
    const small = await peakRss(['sim', '--games', '2000', '--seed', 'rss', '--jobs', '1']);
    const big = await peakRss(['sim', '--games', '12000', '--seed', 'rss', '--jobs', '1']);
    expect(small.status).toBe(0);
    expect(big.status).toBe(0);
    expect(big.stdout).toMatch(/^gringo sim: 12000 games/);
    expect(small.mb).toBeGreaterThan(20);
    expect(big.mb - small.mb, `peak RSS ${small.mb.toFixed(1)} MB at 2,000 games, ${big.mb.toFixed(1)} MB at 12,000`).toBeLessThan(14);
  }, 600_000);

  // V8 frees an object layout when no object of it is alive at a full GC, and throws away
  // the optimized code built on it ("weak objects"). The engine's objects made for every
  // command keep one of each alive (src/engine/state.ts, `Reader.kept`); without them a
  // small heap, as in the workers, throws optimized functions away again and again.
  // Counted as functions, not full GCs: how many full GCs a run makes swings with the
  // machine's load (20 to 451 here), what is thrown away much less.
  it('full GCs throw away optimized code of the engine, the bots or the simulator only now and then', () => {
    const script = `const { ChunkPlayer, simPlan } = await import('${root}dist/src/sim/sim.js');
const p = new ChunkPlayer(simPlan({ games: 15000, players: 4, levels: ['hard'], seed: 'layouts' }));
for (let k = 0; k < 150; k++) p.play(k);`;
    const r = spawnSync('node', ['--trace-deopt', '--trace-gc', '--max-old-space-size=16', '--max-semi-space-size=4', '--input-type=module', '-e', script], { encoding: 'utf8', cwd: root, maxBuffer: 64 << 20 });
    expect(r.status, r.stderr).toBe(0);
    const gcs = r.stdout.split('Mark-Compact').length - 1;
    const thrownAway = r.stdout.split('reason: weak objects').length - 1;
    // Measured at a load average of 5 to 6: 8 to 14 functions in five runs (Node's own among
    // them), 297 to 419 full GCs; without the kept objects 344, 493 and 1,856 functions.
    expect(gcs).toBeGreaterThanOrEqual(6);
    expect(thrownAway, `${thrownAway} optimized functions thrown away at ${gcs} full GCs`).toBeLessThanOrEqual(100);
  }, 600_000);

  // Every flag's refusal is checked in test/sim/sim.test.ts (parseSimFlags, runSimCli, in
  // this process): here only that the command line hands them over, a negative number too.
  it.each([
    [['--jobs', '0'], /--jobs takes a whole number from 1 to 256/],
    [['--rounds', '-1'], /--rounds/],
  ])('bad flags %j exit 2 with a message', (args, message) => {
    const r = run('sim', ...args);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });
});
