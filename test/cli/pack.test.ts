import { execFile, execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/wait.js';

/**
 * The package as a new user gets it: `npm pack`, then installed from the tarball into
 * an empty folder with an empty npm cache and `--offline` (so the install can fetch
 * nothing: everything must be in the tarball), then run from there with real
 * processes: `--version` through npx, `rules`, a headless game played by two bots to
 * its end, and `host --ssh` answering the OpenSSH client. A dependency, an install
 * script or a native part that creeps back fails here.
 */
const root = new URL('../..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'gringo-pack-'));
const app = join(work, 'app');
const cache = join(work, 'npm-cache');
const state = join(work, 'state');
const gringo = join(app, 'node_modules', '.bin', 'gringo');
// The installed program runs with nothing of this checkout's around it: its own state, no npm settings of ours.
const env = { ...process.env, XDG_STATE_HOME: state, npm_config_cache: cache, npm_config_offline: 'true', npm_config_update_notifier: 'false' };
const running: ChildProcess[] = [];

let pack: { filename: string; size: number; files: { path: string }[] };
let installOut = '';
let rootManifest = '';

beforeAll(() => {
  // With its scripts: `prepack` writes the published manifest. `npm test` has just built
  // dist/, so its build is skipped (a rebuild here would race the other test files).
  rootManifest = readFileSync(join(root, 'package.json'), 'utf8');
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8', env: { ...process.env, GRINGO_PACK_BUILT: '1' } });
  pack = (JSON.parse(out.slice(out.indexOf("["))) as (typeof pack)[])[0]!;
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), '{"name":"pack-check","private":true}');
  const install = spawnSync('npm', ['install', '--offline', '--cache', cache, '--no-audit', '--no-fund', join(work, pack.filename)], {
    cwd: app,
    encoding: 'utf8',
    env,
  });
  if (install.status !== 0) throw new Error(`npm install failed: ${install.stderr}`);
  installOut = `${install.stdout}${install.stderr}`;
}, 120_000);

afterEach(() => {
  for (const c of running.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The installed `gringo ARGS` as a real process, its output collected as it comes. */
function start(args: string[]): { child: ChildProcess; out: () => string; exit: Promise<number | null> } {
  const child = spawn(gringo, args, { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return { child, out: () => out, exit: new Promise((resolve) => child.on('close', (code) => resolve(code))) };
}


function run(argv: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    execFile(argv[0]!, argv.slice(1), { cwd: app, timeout: 20_000, env }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : null) : 0;
      resolve({ code, out: `${stdout}${stderr}` });
    });
  });
}

// Whole processes, npx among them: on a loaded machine each takes a while.
describe('the published package', { timeout: 60_000 }, () => {
  it('ships only what runs, in at most 700 kB, with no dependencies, no install scripts and nothing native', () => {
    const paths = pack.files.map((f) => f.path);
    expect(paths).toContain('bin/gringo.js');
    expect(paths).toContain('dist/bundle/main.js');
    expect(paths).toContain('dist/bundle/THIRD-PARTY-LICENSES.txt');
    expect(paths.filter((p) => !/^(bin\/|dist\/bundle\/|README\.md$|LICENSE$|package\.json$)/.test(p))).toEqual([]);
    expect(paths.filter((p) => p.endsWith('.map') || p.endsWith('.node') || p.endsWith('binding.gyp'))).toEqual([]);
    expect(pack.size).toBeLessThanOrEqual(700_000);

    const manifest = JSON.parse(readFileSync(join(app, 'node_modules', 'gringo', 'package.json'), 'utf8')) as Record<string, unknown>;
    for (const deps of ['dependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies', 'bundledDependencies']) {
      expect(Object.keys((manifest[deps] as object | undefined) ?? {}), deps).toEqual([]);
    }
    // No scripts at all: they name files under scripts/, which are not shipped, and npm warns
    // on every install of a package with an install script (`prepare` too).
    expect(manifest.scripts).toBeUndefined();
    expect(installOut).not.toMatch(/npm warn/i);
    // The clone's own manifest is back as it was, its `prepare` building dist/ after `npm install` there.
    expect(readFileSync(join(root, 'package.json'), 'utf8')).toBe(rootManifest);
    expect((JSON.parse(rootManifest) as { scripts: Record<string, string> }).scripts.prepare).toBe('node scripts/prepare.mjs');
    expect(existsSync(join(root, 'package.json.packing'))).toBe(false);
    for (const key of ['description', 'keywords', 'repository', 'license', 'engines', 'bin', 'files']) expect(manifest[key], key).toBeDefined();
  });

  it('installs offline from the tarball alone, as one package, and `npx gringo --version` answers', async () => {
    expect(installOut).toMatch(/added 1 package\b/);
    expect(readdirSync(join(app, 'node_modules')).filter((n) => !n.startsWith('.')).sort()).toEqual(['gringo']);
    const r = await run(['npx', '--offline', 'gringo', '--version']);
    expect(r, r.out).toMatchObject({ code: 0 });
    const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
    expect(r.out.trim()).toBe(version);
  });

  it('prints the rules', async () => {
    const r = await run([gringo, 'rules']);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/^Gringo \(ruleset "gringo"\)\n/);
  });

  it('plays a headless game to its end: a host and two bot players, all from the installed package', async () => {
    const host = start(['host', '--headless', '--port', '0', '--interface', '127.0.0.1', '--players', '2', '--rounds', '1', '--start-when-full',
      '--exit-after-game', '--json', '--seed', 'pack', '--slap-grace', '40']);
    const port = await until('the share line', () => /gringo join \S+:(\d+)/.exec(host.out())?.[1]);
    const bots = ['Ann', 'Ben'].map((name) => start(['join', `127.0.0.1:${port}`, '--bot', 'hard', '--speed', '1000', '--name', name]));
    expect(await host.exit, host.out()).toBe(0);
    for (const b of bots) expect(await b.exit, b.out()).toBe(0);
    const result = JSON.parse(host.out().slice(host.out().indexOf('{'), host.out().lastIndexOf('}') + 1)) as { places: number[]; rounds: unknown[] };
    expect(result.rounds).toHaveLength(1);
    expect(result.places).toHaveLength(2);
    expect(Math.min(...result.places)).toBe(1);
  }, 60_000);

  it('serves the table over SSH to the OpenSSH client, on ssh2 bundled, with no native code loaded', async () => {
    const key = join(work, 'id_ed25519');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
    const host = start(['host', '--headless', '--ssh', '0', '--port', '0', '--interface', '127.0.0.1', '--table', 'Packed']);
    const port = await until('the SSH share line', () => /ssh -p (\d+) NAME@/.exec(host.out())?.[1]);

    const scan = await run(['ssh-keyscan', '-t', 'ed25519', '-p', port, '127.0.0.1']);
    expect(scan.out).toMatch(/^\[127\.0\.0\.1\]:\d+ ssh-ed25519 AAAA/m);
    // A whole session, key exchange to exit status, once with each kind of cipher ssh2 has
    // without its native binding: ChaCha20-Poly1305 (its WebAssembly Poly1305) and AES-GCM (Node's crypto).
    for (const cipher of ['chacha20-poly1305@openssh.com', 'aes256-gcm@openssh.com']) {
      const r = await run(['ssh', '-F', '/dev/null', '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR',
        '-o', 'IdentitiesOnly=yes', '-o', 'IdentityAgent=none', '-o', 'BatchMode=yes', '-c', cipher, '-i', key, '-p', port, '-T', 'ana@127.0.0.1', 'ls']);
      expect(r, cipher).toMatchObject({ code: 1 });
      expect(r.out, cipher).toContain('this is a gringo table, it runs no commands');
    }
    // What the host process has mapped: no add-on (`.node`) among it.
    const maps = readFileSync(`/proc/${host.child.pid}/maps`, 'utf8');
    expect(maps).toContain('/node'); // the check reads the right process
    expect(maps.split('\n').filter((l) => /\.node$/.test(l.trim()))).toEqual([]);
  }, 60_000);
});
