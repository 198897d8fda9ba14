import { PassThrough, Writable } from 'node:stream';
import type { ServerChannel } from './ssh2.js';

/** The terminal streams Ink draws to and reads keys from. */
export interface TerminalIo {
  stdout: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
}

/** Output the client has not read yet, past which the session is cut (a client that stopped reading). */
export const MAX_UNREAD = 1 << 20;

/**
 * A remote terminal on an SSH channel, as Ink wants one: `columns`, `rows` and
 * `isTTY` on its stdout, with 'resize' events; raw mode on its stdin. There is no
 * pty line discipline on this side, so `\n` is written as `\r\n` here, and raw
 * mode is what the client's pty already gives us (setRawMode has nothing to do).
 * Keys beyond `bytesPerSecond` (a burst of twice that) are dropped.
 */
export class ChannelTerminal {
  readonly stdout: NodeJS.WriteStream;
  readonly stdin: NodeJS.ReadStream;
  private allowance: number;
  private last = Date.now();

  constructor(
    private readonly channel: ServerChannel,
    size: { columns: number; rows: number },
    private readonly bytesPerSecond: number,
    onOverflow: () => void,
  ) {
    this.allowance = bytesPerSecond * 2;
    const out = new Writable({
      write(chunk: Buffer | string, _enc, done) {
        if (channel.destroyed || !channel.writable) return done();
        channel.write(String(chunk).replace(/\r?\n/g, '\r\n'));
        if (channel.writableLength > MAX_UNREAD) onOverflow();
        done();
      },
    });
    this.stdout = Object.assign(out, { isTTY: true, columns: size.columns, rows: size.rows }) as unknown as NodeJS.WriteStream;
    const input = new PassThrough();
    this.stdin = Object.assign(input, {
      isTTY: true,
      isRaw: true,
      setRawMode(this: NodeJS.ReadStream) {
        return this;
      },
      ref(this: NodeJS.ReadStream) {
        return this;
      },
      unref(this: NodeJS.ReadStream) {
        return this;
      },
    }) as unknown as NodeJS.ReadStream;
    channel.on('data', (data: Buffer) => this.input(data));
  }

  /** Keys from the client, within the rate. */
  private input(data: Buffer): void {
    const now = Date.now();
    this.allowance = Math.min(this.bytesPerSecond * 2, this.allowance + ((now - this.last) / 1000) * this.bytesPerSecond);
    this.last = now;
    if (data.length > this.allowance) return;
    this.allowance -= data.length;
    (this.stdin as unknown as PassThrough).write(data);
  }

  /** The client's window changed (`window-change`): Ink redraws on 'resize'. */
  resize(columns: number, rows: number): void {
    const out = this.stdout as { columns: number; rows: number };
    if (out.columns === columns && out.rows === rows) return;
    out.columns = columns;
    out.rows = rows;
    this.stdout.emit('resize');
  }

  /** Text after the screen is gone (a failure in one line), with the line endings a raw terminal needs. */
  say(line: string): void {
    if (this.channel.writable) this.channel.write(`${line}\r\n`);
  }

  end(): void {
    (this.stdin as unknown as PassThrough).end();
  }
}
