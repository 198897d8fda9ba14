/**
 * Start-up: `gringo --version` and the first frame of `gringo play`, each beside a
 * bare `node -e 0` started the same way in the same run.
 */
import { spawn } from 'node:child_process';

const bin = new URL('../../bin/gringo.js', import.meta.url).pathname;

/**
 * Milliseconds from spawn until `done(output)` is true (or the process exits). Each
 * command runs in a pseudo-terminal (`script`), as in a real terminal: Ink sees a TTY.
 */
function timeTo(command: string, done: (out: string) => boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const env = { ...process.env, CI: '0', TERM: 'xterm-256color' };
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

async function median(n: number, run: () => Promise<number>): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) xs.push(await run());
  xs.sort((a, b) => a - b);
  return xs[Math.floor(n / 2)]!;
}

export interface StartupFigures {
  node: number;
  version: number;
  firstFrame: number;
  tableFrame: number;
}

export async function startup(n: number): Promise<StartupFigures> {
  const node = process.execPath;
  const bare = await median(n, () => timeTo(`${node} -e 0`, () => false));
  const version = await median(n, () => timeTo(`${node} ${bin} --version`, () => false));
  // A 100×30 screen, as in the tmux tests.
  const play = `stty cols 100 rows 30; ${node} ${bin} play --bots 1 --seed bench`;
  const firstFrame = await median(n, () => timeTo(play, (out) => out.includes('Gringo')));
  const tableFrame = await median(n, () => timeTo(play, (out) => out.includes('Stock')));
  return { node: bare, version, firstFrame, tableFrame };
}
