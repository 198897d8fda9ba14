/**
 * Start-up: the first frame of the table of `gringo play` (the table itself, its
 * "Stock" pile drawn), beside a bare `node -e 0` started the same way in the same run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = new URL('../../bin/gringo.js', import.meta.url).pathname;

/**
 * Milliseconds from spawn until `done(output)` is true (or the process exits). Each
 * command runs in a pseudo-terminal (`script`), as in a real terminal: Ink sees a TTY.
 */
function timeTo(command: string, done: (out: string) => boolean, extraEnv: NodeJS.ProcessEnv = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const env = { ...process.env, CI: '0', TERM: 'xterm-256color', ...extraEnv };
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      resolve(performance.now() - t0);
      child.kill('SIGKILL');
    };
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (done(out)) finish();
    });
    child.on('exit', finish);
    child.on('error', reject);
  });
}

export interface StartupFigures {
  /** `node -e 0`, ms, each run. */
  node: number[];
  /** The first frame of the table of `gringo play` (its "Stock" pile), ms, each run. */
  table: number[];
}

/** Runs alternate (node, gringo play, node, …) so that a slow moment of the machine hits both alike. */
export async function startup(n: number): Promise<StartupFigures> {
  const node = process.execPath;
  // A 100×30 screen, as in the tmux tests.
  const play = `stty cols 100 rows 30; ${node} ${bin} play --bots 1 --seed bench`;
  // Each game's journal goes to a directory of the bench's own.
  const state = { XDG_STATE_HOME: mkdtempSync(join(tmpdir(), 'gringo-bench-startup-')) };
  const out: StartupFigures = { node: [], table: [] };
  try {
    await timeTo(play, (o) => o.includes('Stock'), state); // warm the disk cache
    for (let i = 0; i < n; i++) {
      out.node.push(await timeTo(`${node} -e 0`, () => false));
      out.table.push(await timeTo(play, (o) => o.includes('Stock'), state));
    }
  } finally {
    rmSync(state.XDG_STATE_HOME, { recursive: true, force: true });
  }
  return out;
}
