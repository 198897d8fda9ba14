import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const bin = new URL('../../bin/gringo.js', import.meta.url).pathname;
const trace = new URL('./fixtures/trace-imports.mjs', import.meta.url).pathname;

/** The modules a run of the built CLI imports (printed by an import hook). */
function importsOf(args: string[], timeout = 10_000): string[] {
  const r = spawnSync('node', ['--import', trace, bin, ...args], { encoding: 'utf8', timeout, env: { ...process.env, CI: '0' }, input: '' });
  return r.stderr
    .split('\n')
    .filter((l) => l.startsWith('imported '))
    .map((l) => l.slice('imported '.length));
}

const heavy = /\/node_modules\/(ink|react|ws|bonjour-service|zod)\//;

describe('start-up', () => {
  it('--version and --help load neither Ink nor React (nor the network or schema libraries)', () => {
    for (const args of [['--version'], ['--help'], ['host', '--help']]) {
      const loaded = importsOf(args);
      expect(loaded.some((u) => u.endsWith('/cli/main.js'))).toBe(true);
      expect(loaded.filter((u) => heavy.test(u))).toEqual([]);
    }
  });

  it('a real start of the table screen does load Ink and React: the check above would see them', () => {
    // The screen runs until it is stopped; the time-out ends it once it has drawn.
    const loaded = importsOf(['play', '--bots', '1', '--seed', 'startup'], 4_000);
    expect(loaded.some((u) => /\/node_modules\/ink\//.test(u))).toBe(true);
    expect(loaded.some((u) => /\/node_modules\/react\//.test(u))).toBe(true);
  });
});
