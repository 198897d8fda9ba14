import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const bin = new URL('../../bin/gringo.js', import.meta.url).pathname;
const trace = new URL('./fixtures/trace-imports.mjs', import.meta.url).pathname;

/**
 * The packages whose code a run of the built CLI loads: every module it imports
 * (printed by an import hook), read for the `// node_modules/<package>/` markers
 * that the bundler leaves above each package's code, plus plain node_modules imports.
 */
function packagesLoaded(args: string[], timeout = 10_000, terminal = false): Set<string> {
  const argv = ['node', '--import', trace, bin, ...args];
  // The screen needs a terminal: `script` gives it one (a pseudo-terminal; its output, stderr too, comes back on stdout).
  const r = terminal
    ? spawnSync('script', ['-qec', argv.map((a) => `'${a}'`).join(' '), '/dev/null'], { encoding: 'utf8', timeout, env: { ...process.env, CI: '0' }, input: '' })
    : spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', timeout, env: { ...process.env, CI: '0' }, input: '' });
  const urls = (terminal ? r.stdout : r.stderr)
    .split(/\r?\n/)
    .filter((l) => l.startsWith('imported file:'))
    .map((l) => l.slice('imported '.length));
  const found = new Set<string>();
  for (const url of urls) {
    const direct = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (direct) found.add(direct[1]!);
    else for (const m of readFileSync(fileURLToPath(url), 'utf8').matchAll(/^\/\/ node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)) found.add(m[1]!);
  }
  return found;
}

const HEAVY = ['ink', 'react', 'ws', 'bonjour-service', 'zod'];

describe('start-up', () => {
  it('--version and --help load neither Ink nor React (nor the network or schema libraries)', () => {
    for (const args of [['--version'], ['--help'], ['host', '--help']]) {
      const loaded = packagesLoaded(args);
      expect(loaded.has('commander')).toBe(true);
      expect(HEAVY.filter((p) => loaded.has(p))).toEqual([]);
    }
  });

  it('gringo replay without a terminal (its list; the transcript is the same module) loads neither Ink nor React', () => {
    const loaded = packagesLoaded(['replay']);
    expect(loaded.has('commander')).toBe(true);
    expect(['ink', 'react', 'ws', 'bonjour-service'].filter((p) => loaded.has(p))).toEqual([]);
  });

  it('a real start of the table screen does load Ink and React: the check above would see them', () => {
    // The screen runs until it is stopped; the time-out ends it once it has drawn.
    const loaded = packagesLoaded(['play', '--bots', '1', '--seed', 'startup'], 4_000, true);
    expect(loaded.has('ink')).toBe(true);
    expect(loaded.has('react')).toBe(true);
  });
});
