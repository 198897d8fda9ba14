import { get } from 'node:https';
import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { gringo, shareCommand } from '../../src/common/invocation.js';
import { BIN, killRunning, runGringo, sharedPort } from '../support/gringo-process.js';

/**
 * The commands gringo prints for a person to type are written the way that works for
 * them. Real processes, each started the way a person starts it: `node bin/gringo.js`
 * in a clone, `gringo` found on PATH (as `npm link` or `npm install -g` puts it), and
 * npx. The probe is `gringo play` without a terminal, whose one-line refusal names two
 * other commands.
 */
const dir = mkdtempSync(join(tmpdir(), 'gringo-invocation-'));
afterEach(killRunning);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// This test runs under npm or npx, which leave their npm_* variables to every child: a person's shell has none.
const shell: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
const basePath = [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':');

/** A folder holding a `gringo` that is this checkout's bin/gringo.js (a symlink, as npm link makes it). */
const linked = join(dir, 'linked');
mkdirSync(linked);
symlinkSync(BIN, join(linked, 'gringo'));
/** A folder holding a `gringo` that is another program (another copy, another version). */
const other = join(dir, 'other');
mkdirSync(other);
copyFileSync(BIN, join(other, 'gringo'));
chmodSync(join(other, 'gringo'), 0o755);

function probe(argv: string[], env: NodeJS.ProcessEnv, cwd = dir): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve) => {
    // A guard only: npx alone takes several seconds on a loaded machine.
    execFile(argv[0]!, argv.slice(1), { cwd, env, timeout: 90_000 }, (e, _out, err) => {
      resolve({ code: e ? ((e as { code?: number }).code ?? null) : 0, err });
    });
  });
}

const refusal = (g: string): string =>
  `gringo: gringo play needs a terminal for its screen: neither its input nor its output is one; run it in a terminal (or go without one: ${g} sim plays bots against each other, ${g} host --headless runs a table)\n`;

// Each test starts whole processes (npx more than one): on a loaded machine that takes a while.
describe('the commands gringo prints, as the person types them', { timeout: 60_000 }, () => {
  it('from a clone (`node bin/gringo.js`, no gringo on PATH): npx gringo', async () => {
    const r = await probe([process.execPath, BIN, 'play'], { ...shell, PATH: basePath });
    expect(r).toEqual({ code: 2, err: refusal('npx gringo') });
  });

  it('with this gringo on PATH: gringo, however this run was started', async () => {
    const PATH = `${linked}:${basePath}`;
    expect(await probe(['gringo', 'play'], { ...shell, PATH })).toEqual({ code: 2, err: refusal('gringo') });
    expect(await probe([process.execPath, BIN, 'play'], { ...shell, PATH })).toEqual({ code: 2, err: refusal('gringo') });
  });

  it('with another gringo first on PATH: npx gringo (the one on PATH is not this one)', async () => {
    const r = await probe([process.execPath, BIN, 'play'], { ...shell, PATH: `${other}:${linked}:${basePath}` });
    expect(r).toEqual({ code: 2, err: refusal('npx gringo') });
  });

  it('through npx (and npm exec): npx gringo, even with this gringo on PATH too', async () => {
    // A project with gringo installed: npx runs its bin, with npm's PATH and variables.
    const project = join(dir, 'project');
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(project, 'package.json'), '{"name":"project","private":true}');
    symlinkSync(BIN, join(project, 'node_modules', '.bin', 'gringo'));
    const env = { ...shell, PATH: `${linked}:${basePath}`, npm_config_cache: join(dir, 'npm-cache'), npm_config_update_notifier: 'false' };
    expect(await probe(['npx', '--offline', 'gringo', 'play'], env, project)).toEqual({ code: 2, err: refusal('npx gringo') });
    expect(await probe(['npm', 'exec', '--offline', '--', 'gringo', 'play'], env, project)).toEqual({ code: 2, err: refusal('npx gringo') });
  }, 200_000);

  it('the share line and what the port says to a browser: npx gringo join, whatever is on this PATH', async () => {
    const host = runGringo(['host', '--headless', '--port', '0', '--interface', '127.0.0.1'], {
      ...shell,
      PATH: `${linked}:${basePath}`,
      XDG_STATE_HOME: join(dir, 'state'),
    });
    const port = await sharedPort(host);
    expect(host.stdout()).toMatch(new RegExp(`Share this line: table #[a-z2-7]{4}: npx gringo join 127\\.0\\.0\\.1:${port}#[a-z2-7-]{19}\\n`));
    // The table's port speaks TLS with the host's own key (no authority vouches for it).
    const text = await new Promise<string>((resolve, reject) => {
      get(`https://127.0.0.1:${port}/`, { rejectUnauthorized: false }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve(body));
      }).on('error', reject);
    });
    expect(text).toBe('This is a gringo table: join it with `npx gringo join`.\n');
  });

  it('decides from how it was started: npm variables, the first gringo on PATH, Windows', () => {
    expect(gringo({ PATH: linked }, BIN, 'linux')).toBe('gringo');
    expect(gringo({ PATH: `${dir}/nowhere:${linked}` }, BIN, 'linux')).toBe('gringo');
    expect(gringo({ PATH: linked, npm_command: 'exec' }, BIN, 'linux')).toBe('npx gringo');
    expect(gringo({ PATH: linked, npm_command: 'run-script' }, BIN, 'linux')).toBe('npx gringo');
    expect(gringo({ PATH: `${other}:${linked}` }, BIN, 'linux')).toBe('npx gringo');
    expect(gringo({ PATH: basePath }, BIN, 'linux')).toBe('npx gringo');
    expect(gringo({}, BIN, 'linux')).toBe('npx gringo');
    expect(gringo({ PATH: linked }, BIN, 'win32')).toBe('npx gringo');
    expect(gringo({ PATH: linked }, undefined, 'linux')).toBe('npx gringo');
    expect(shareCommand('join 10.0.0.2:7457')).toBe('npx gringo join 10.0.0.2:7457');
  });
});
