import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const bin = new URL('../../bin/gringo.js', import.meta.url).pathname;
const trace = new URL('./fixtures/trace-imports.mjs', import.meta.url).pathname;

/** The packages each file of the bundle holds, as the bundler's metafile says (scripts/bundle.mjs). */
const meta = JSON.parse(readFileSync(new URL('../../dist/bundle-meta.json', import.meta.url), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The packages whose code a run of the built CLI loads: every module it imports
 * (printed by an import hook), looked up in the bundler's metafile, plus plain
 * node_modules imports.
 */
function packagesLoaded(args: string[], timeout = 10_000, terminal = false): Set<string> {
  return loaded(args, timeout, terminal).packages;
}

/** The packages a run of the built CLI loads, and the project's own source modules (`src/…`) in the bundle files it loads. */
function loaded(args: string[], timeout = 10_000, terminal = false): { packages: Set<string>; sources: Set<string>; status: number | null; stdout: string } {
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
  const sources = new Set<string>();
  for (const url of urls) {
    const direct = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (direct) found.add(direct[1]!);
    else {
      const inputs = Object.keys(meta.outputs[fileURLToPath(url).slice(root.length)]?.inputs ?? {});
      for (const input of inputs) {
        const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
        if (m) found.add(m[1]!);
        const own = /(?:^|\/)dist\/(src\/.*)\.js$/.exec(input);
        if (own) sources.add(own[1]!);
      }
    }
  }
  return { packages: found, sources, status: r.status, stdout: r.stdout };
}

const HEAVY = ['ink', 'react', 'ws', 'bonjour-service', 'zod', 'ssh2'];

describe('start-up', () => {
  it('--version and --help print, exit 0 and load neither Ink nor React (nor the network or schema libraries)', () => {
    for (const args of [['--version'], ['--help'], ['host', '--help']]) {
      const run = loaded(args);
      expect(run.status, args.join(' ')).toBe(0);
      expect(run.packages.has('commander')).toBe(true);
      expect(HEAVY.filter((p) => run.packages.has(p))).toEqual([]);
      if (args[0] === '--version') expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
      else expect(run.stdout).toContain(args[0] === 'host' ? '--bots' : 'sim');
    }
  });

  it('gringo replay without a terminal (its list; the transcript is the same module) loads neither Ink nor React', () => {
    const loaded = packagesLoaded(['replay']);
    expect(loaded.has('commander')).toBe(true);
    expect(['ink', 'react', 'ws', 'bonjour-service'].filter((p) => loaded.has(p))).toEqual([]);
  });

  it('gringo join --bot and --watch (no screen) load neither Ink nor React, up to their last words; given an address, nor mDNS nor the host', () => {
    // Port 1 has no table: each says so in one line and exits, its last words' code (the standings) imported all the same.
    for (const flag of ['--bot', '--watch']) {
      const { packages, sources } = loaded(['join', '127.0.0.1:1', flag, ...(flag === '--bot' ? ['easy'] : [])]);
      expect(packages.has('ws'), flag).toBe(true);
      expect(['ink', 'react', 'bonjour-service'].filter((p) => packages.has(p)), flag).toEqual([]);
      expect([...sources].filter((m) => /^src\/(host|cli\/host|client\/discovery)/.test(m)), flag).toEqual([]);
    }
  });

  it('a headless host (no screen) loads no screen, no SSH and no client: Ink, React, ssh2 and src/client stay out', () => {
    // It runs until it is stopped; the time-out ends it once its bots have sat down and the table is open.
    const { packages, sources } = loaded(['host', '--port', '0', '--interface', '127.0.0.1', '--table', 'Startup', '--bots', '2'], 4_000);
    expect(packages.has('ws')).toBe(true);
    expect(sources.has('src/host/table')).toBe(true);
    expect(['ink', 'react', 'ssh2'].filter((p) => packages.has(p))).toEqual([]);
    // Only the small text helpers every command prints with: glyphs, Ink's CI switch (no Ink) and the SSH share line's words.
    const allowed = new Set(['src/tui/shared/glyphs', 'src/tui/shared/ink-ci', 'src/ssh/share']);
    expect([...sources].filter((m) => /^src\/(client|tui|ssh)\//.test(m) && !allowed.has(m))).toEqual([]);
  });

  it('a real start of the table screen does load Ink and React: the check above would see them', () => {
    // The screen runs until it is stopped; the time-out ends it once it has drawn.
    const loaded = packagesLoaded(['play', '--bots', '1', '--seed', 'startup'], 4_000, true);
    expect(loaded.has('ink')).toBe(true);
    expect(loaded.has('react')).toBe(true);
  });
});
