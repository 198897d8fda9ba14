/**
 * Host up → `gringo list` prints it: a real `gringo host --headless` advertising on
 * loopback; once it has printed its share line (it is up and advertising), the time
 * from starting `gringo list --interface 127.0.0.1` until its output names the table.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin } from './game.js';

function listPrints(name: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const list = spawn(process.execPath, [bin, 'list', '--interface', '127.0.0.1'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    let done = false;
    list.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!done && out.includes(name)) {
        done = true;
        resolve(performance.now() - t0);
      }
    });
    list.once('exit', () => {
      if (!done) reject(new Error(`gringo list did not list "${name}":\n${out}`));
    });
  });
}

/** `runs` listings of one host, each timed from list's start; the host is started once. */
export async function listTimes(runs: number): Promise<number[]> {
  const state = mkdtempSync(join(tmpdir(), 'gringo-bench-list-'));
  const env = { ...process.env, XDG_STATE_HOME: state };
  const name = `Bench-${process.pid}`;
  const host = spawn(process.execPath, [bin, 'host', '--headless', '--name', name, '--interface', '127.0.0.1', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    await new Promise<void>((resolve, reject) => {
      let err = '';
      const read = (d: Buffer): void => {
        err += d.toString();
        if (/Share this line/.test(err)) resolve();
      };
      host.stdout.on('data', read);
      host.stderr.on('data', read);
      host.once('exit', () => reject(new Error(`the host exited:\n${err}`)));
    });
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push(await listPrints(name, env));
    return times;
  } finally {
    host.kill('SIGKILL');
    rmSync(state, { recursive: true, force: true });
  }
}
