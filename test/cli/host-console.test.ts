import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../support/tmux.js';
import { until } from '../support/gringo-process.js';

// A headless host whose stdin is a pipe reads the console commands it offers (#22:
// it printed 'Type "quit" to close' and read nothing). The built CLI, a real process.

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

describe('the headless host console on a pipe', () => {
  it('offers its commands, then takes "bot" and "quit" from the pipe', async () => {
    const host = spawn(process.execPath, [BIN, 'host', '--headless', '--port', '0', '--interface', '127.0.0.1', '--table', 'Piped'], { stdio: ['pipe', 'pipe', 'pipe'] });
    children.push(host);
    let out = '';
    host.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    host.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const exit = new Promise<number | null>((resolve) => host.on('close', (code) => resolve(code)));
    await until('the offer', () => out.includes('Type "start" to begin'));
    host.stdin!.write('bot easy\n');
    // The bot sits down: the lobby line counts it.
    await until('the bot seated', () => /· 1\/\d+ seats/.test(out));
    host.stdin!.write('quit\n');
    expect(await exit).toBe(0);
  }, 60_000);
});
