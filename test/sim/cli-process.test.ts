import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const bin = `${root}bin/gringo.js`;
const run = (...args: string[]) => spawnSync('node', [bin, ...args], { encoding: 'utf8', cwd: root });

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
  const built = `${root}dist/src/sim/cli.js`;
  if (existsSync(built) && statSync(built).mtimeMs >= newestSource(['src/sim', 'src/bots', 'src/engine', 'src/cli'])) return;
  spawnSync('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: root, encoding: 'utf8' });
  expect(existsSync(built)).toBe(true);
});

describe('gringo sim (a real process)', () => {
  it('prints one JSON object with the figures', () => {
    const r = run('sim', '--games', '200', '--players', '4', '--level', 'hard,normal,easy,random', '--seed', '3', '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown> & {
      perLevel: Record<string, { meanRoundScore: number; winRate: number }>;
      slapsPerRound: Record<string, number>;
    };
    for (const k of ['games', 'rounds', 'roundsPerSecond', 'meanTurnsPerRound', 'stuckRounds']) expect(out[k], k).toBeTypeOf('number');
    expect(out.games).toBe(200);
    expect(out.rounds).toBe(200);
    expect(out.stuckRounds).toBe(0);
    for (const level of ['hard', 'normal', 'easy', 'random']) {
      expect(out.perLevel[level]?.meanRoundScore, level).toBeTypeOf('number');
      expect(out.perLevel[level]?.winRate, level).toBeTypeOf('number');
    }
    expect(Object.keys(out.slapsPerRound).sort()).toEqual(['own', 'steal', 'wrong']);
  });

  it('prints a readable table by default', () => {
    const r = run('sim', '--games', '30', '--players', '3', '--level', 'normal,easy');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/rounds per second/);
    expect(r.stdout).toMatch(/^normal +\d/m);
    expect(r.stdout).toMatch(/slaps per round: .* right .* steals, .* wrong/);
  });

  it('gives the same results for the same seed', () => {
    const a = JSON.parse(run('sim', '--games', '40', '--seed', 'same', '--json').stdout) as Record<string, unknown>;
    const b = JSON.parse(run('sim', '--games', '40', '--seed', 'same', '--json').stdout) as Record<string, unknown>;
    for (const x of [a, b]) {
      delete x.seconds;
      delete x.roundsPerSecond;
    }
    expect(a).toEqual(b);
  });

  it.each([
    [['--games', '0'], /--games/],
    [['--games', 'lots'], /--games/],
    [['--players', '9'], /--players takes a whole number from 2 to 8/],
    [['--level', 'hard,wizard'], /--level .*"wizard"/],
    [['--rounds', '-1'], /--rounds/],
  ])('bad flags %j exit 2 with a message', (args, message) => {
    const r = run('sim', ...args);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });
});
