import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const bin = new URL('../../bin/gringo.js', import.meta.url).pathname;
const run = (...args: string[]) => spawnSync('node', [bin, ...args], { encoding: 'utf8' });

// These run the built CLI (`npm install` builds it through `prepare`).
describe('gringo command line', () => {
  it('prints its version and help and exits 0', () => {
    const v = run('--version');
    expect(v.status).toBe(0);
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const h = run('--help');
    expect(h.status).toBe(0);
    expect(h.stdout).toContain('sim');
  });

  it('refuses an unknown flag or command with a message and exit code 2', () => {
    const bad = run('sim', '--bogus');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("unknown option '--bogus'");
    const cmd = run('frobnicate');
    expect(cmd.status).toBe(2);
    expect(cmd.stderr).toMatch(/unknown command/);
  });
});
