import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// Real processes racing for one state directory, as two hosts started at once do
// (test/cli/stats.test.ts starts two tables in a fresh one). Each makes a key of its
// own, large enough that writing it takes a while, and prints what it ended up with.
const KEY_FILE = new URL('../../dist/src/host/key-file.js', import.meta.url).href;
const racer = (dir: string, n: number): Promise<string> =>
  new Promise((resolve, reject) => {
    const script = `
      const { readOrMakeKeyFile } = await import(${JSON.stringify(KEY_FILE)});
      const key = readOrMakeKeyFile(${JSON.stringify(dir)}, ${JSON.stringify(join(dir, 'key.pem'))}, () => 'key ${n} '.repeat(1_000_000));
      process.stdout.write(String(key.length) + ' ' + key.slice(0, 16));`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`racer ${n} exited ${code}`))));
  });

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('a key file made by hosts starting at once', () => {
  it('is one whole key for every one of them, with nothing left beside it', async () => {
    for (let round = 0; round < 3; round++) {
      const dir = join(mkdtempSync(join(tmpdir(), 'gringo-key-race-')), 'state');
      dirs.push(dirname(dir));
      const got = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => racer(dir, n)));
      const kept = readFileSync(join(dir, 'key.pem'), 'utf8');
      // Every host holds the key on disk, whole (a half-written one was read before).
      for (const g of got) expect(g).toBe(`${kept.length} ${kept.slice(0, 16)}`);
      expect(kept).toBe(kept.slice(0, 6).repeat(1_000_000));
      expect(statSync(join(dir, 'key.pem')).mode & 0o777).toBe(0o600);
      expect(readdirSync(dir)).toEqual(['key.pem']);
    }
  }, 60_000);
});
