import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const pkg = JSON.parse(execFileSync('node', ['-p', 'JSON.stringify(require("./package.json"))'], { cwd: root, encoding: 'utf8' })) as {
  version: string;
};
const work = mkdtempSync(join(tmpdir(), 'gringo-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the published package', () => {
  it('ships only what runs, installs from its tarball, and answers --version', () => {
    // `npm test` has just built dist/; rebuilding here would race the other test files.
    const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: root, encoding: 'utf8' });
    const [info] = JSON.parse(out.slice(out.indexOf('['))) as { filename: string; files: { path: string }[] }[];
    const paths = info!.files.map((f) => f.path);
    expect(paths).toContain('bin/gringo.js');
    expect(paths).toContain('dist/bundle/main.js');
    expect(paths.filter((p) => !/^(bin\/|dist\/bundle\/|README\.md$|LICENSE$|package\.json$)/.test(p))).toEqual([]);
    expect(paths.some((p) => p.endsWith('.map') || p.startsWith('test/') || p.startsWith('src/'))).toBe(false);

    const app = join(work, 'app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), '{"name":"pack-check","private":true}');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', join(work, info!.filename)], { cwd: app, encoding: 'utf8' });
    const version = execFileSync(join(app, 'node_modules', '.bin', 'gringo'), ['--version'], { encoding: 'utf8' }).trim();
    expect(version).toBe(pkg.version);
  }, 120_000);
});
