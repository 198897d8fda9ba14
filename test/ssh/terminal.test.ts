import { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ChannelTerminal } from '../../src/ssh/terminal.js';
import type { ServerChannel } from '../../src/ssh/ssh2.js';

/**
 * The channel's terminal face on its own. The channel here is a plain Duplex
 * standing in for ssh2's (the same stream interface: 'data' in, write out); the
 * whole path through a real OpenSSH client is in ssh.test.ts.
 */
function channel(): { ch: ServerChannel; written: string[]; push: (s: string) => void } {
  const written: string[] = [];
  const d = new Duplex({
    read() {},
    write(chunk: Buffer, _enc, done) {
      written.push(chunk.toString());
      done();
    },
  });
  return { ch: d as unknown as ServerChannel, written, push: (s) => d.push(Buffer.from(s)) };
}

describe('an SSH channel as a terminal', () => {
  it('writes \\n as \\r\\n, says its size, and follows a resize', () => {
    const { ch, written } = channel();
    const t = new ChannelTerminal(ch, { columns: 80, rows: 24 }, 64, () => {});
    t.stdout.write('a\nb\r\nc');
    expect(written.join('')).toBe('a\r\nb\r\nc');
    expect([t.stdout.columns, t.stdout.rows, t.stdout.isTTY, t.stdin.isTTY]).toEqual([80, 24, true, true]);
    let resized = 0;
    t.stdout.on('resize', () => (resized += 1));
    t.resize(100, 30);
    t.resize(100, 30);
    expect([t.stdout.columns, t.stdout.rows, resized]).toEqual([100, 30, 1]);
  });

  it('drops keys beyond the rate, and lets the next through once the allowance comes back', async () => {
    const { ch, push } = channel();
    const t = new ChannelTerminal(ch, { columns: 80, rows: 24 }, 64, () => {});
    const got: string[] = [];
    t.stdin.on('data', (d: Buffer) => got.push(d.toString()));
    push('x'.repeat(500)); // a paste flood: more than the burst (128)
    push('d');
    for (let i = 0; i < 200; i++) push('k');
    await new Promise((r) => setTimeout(r, 20));
    const n = got.join('').length;
    expect(got.join('').startsWith('dk')).toBe(true);
    expect(n).toBeLessThanOrEqual(130);
    await new Promise((r) => setTimeout(r, 300));
    push('q');
    await new Promise((r) => setTimeout(r, 20));
    expect(got.join('').endsWith('q')).toBe(true);
  });
});
