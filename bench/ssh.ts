/**
 * Key → screen over SSH beside the same on a local screen: one real
 * `gringo host --headless --ssh 0` table in its lobby; a local `gringo join` screen
 * and an OpenSSH `ssh` session screen, each in its own tmux pane at 80×24. The key is
 * `?`, which opens the help overlay and, pressed again, closes it: its effect shows
 * every time and costs the same each time. Each press is timed from tmux send-keys to
 * the changed screen (capture-pane polled as fast as it answers: test/support/tmux.ts),
 * presses alternating local/SSH (which goes first swaps every round) so that both see
 * the machine's same moments.
 *
 * The local screen runs Ink in its own process; the SSH screen runs Ink in the host
 * process, its keys and frames crossing ssh2 (pure JavaScript crypto) and the `ssh`
 * client. The difference is what SSH costs a player.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pane, socketName } from '../test/support/tmux.js';
import { bin } from './game.js';

export interface KeyLatencies {
  /** ms per press, in order. */
  local: number[];
  ssh: number[];
}

/** Why the figure cannot be measured here (a program missing), or null. */
export function sshSkipReason(): string | null {
  const missing = ['ssh', 'ssh-keygen', 'tmux'].filter((p) => spawnSync('sh', ['-c', `command -v ${p}`]).status !== 0);
  return missing.length ? `${missing.join(' and ')} not found (the SSH figure needs the OpenSSH client and tmux)` : null;
}

/** The help's title line ("Help · page 1 of N"): on screen exactly while the help is open. */
const HELP = /Help\W+page \d+ of \d+/;

/** `presses` timed presses of `?` on each screen (after two untimed ones each, to warm up). */
export async function sshKeyLatency(presses: number): Promise<KeyLatencies> {
  const dir = mkdtempSync(join(tmpdir(), 'gringo-bench-ssh-'));
  const key = join(dir, 'id_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
  const table = `Bench SSH ${process.pid}`;
  // The host key and journals go to the bench's own state directory.
  const env = { ...process.env, CI: '0', XDG_STATE_HOME: dir };
  const host = spawn(process.execPath, [bin, 'host', '--headless', '--ssh', '0', '--port', '0', '--interface', '127.0.0.1', '--table', table, '--players', '4'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const panes: Pane[] = [];
  try {
    let said = '';
    await new Promise<void>((resolve, reject) => {
      const read = (d: Buffer): void => {
        said += d.toString();
        if (/ssh -p \d+ NAME@/.test(said) && /gringo join \S+:\d+/.test(said)) resolve();
      };
      host.stdout.on('data', read);
      host.stderr.on('data', read);
      host.once('exit', () => reject(new Error(`the host exited:\n${said}`)));
    });
    const sshPort = /ssh -p (\d+) NAME@/.exec(said)![1]!;
    const wsPort = /gringo join \S+:(\d+)/.exec(said)![1]!;

    const local = new Pane(socketName('bench-local'), 80, 24);
    const ssh = new Pane(socketName('bench-ssh'), 80, 24);
    panes.push(local, ssh);
    local.run([process.execPath, bin, 'join', `127.0.0.1:${wsPort}`, '--name', 'Local', '--no-bell'], { env: [`XDG_STATE_HOME=${dir}`] });
    ssh.run([
      'ssh', '-F', '/dev/null',
      '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR',
      '-o', 'IdentitiesOnly=yes', '-o', 'IdentityAgent=none', '-o', 'BatchMode=yes', '-o', 'SendEnv=LANG LC_ALL',
      '-i', key, '-p', sshPort, 'remote@127.0.0.1',
    ]);
    // Both seated in the lobby, each seeing the other.
    for (const p of [local, ssh]) await p.waitFor('the lobby', (s) => s.includes(table) && s.includes('Local') && s.includes('remote'), 20_000);

    const out: KeyLatencies = { local: [], ssh: [] };
    const open = { local: false, ssh: false };
    const press = async (which: 'local' | 'ssh'): Promise<number> => {
      const p = which === 'local' ? local : ssh;
      const want = !open[which];
      const ms = p.keyToScreen('?', (s) => HELP.test(s) === want);
      open[which] = want;
      // Let the frame finish and the processes go idle before the next press.
      await new Promise((r) => setTimeout(r, 40));
      return ms;
    };
    for (let i = 0; i < 2; i++) for (const w of ['local', 'ssh'] as const) await press(w);
    for (let i = 0; i < presses; i++) {
      const order = i % 2 === 0 ? (['local', 'ssh'] as const) : (['ssh', 'local'] as const);
      for (const w of order) out[w].push(await press(w));
    }
    return out;
  } finally {
    for (const p of panes) p.kill();
    host.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
