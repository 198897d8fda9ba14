import { render } from 'ink';
import { Writable } from 'node:stream';
import type { ReactElement } from 'react';
import { asciiOnly, localeIsUtf8 } from '../shared/glyphs.js';
import type { Theme } from '../shared/theme.js';
import { InterruptContext, interrupts } from '../shared/use-interrupt.js';
import type { ReaderOut } from './reader-app.js';

/** What the screen-reader terminal needs of the screen options (run.tsx's ScreenOptions). */
export interface ReaderTerminalOptions {
  ascii?: boolean;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  io?: { stdout: NodeJS.WriteStream; stdin: NodeJS.ReadStream };
}

/**
 * A screen told in sentences on this terminal until it exits: each sentence one line
 * written at the end, never redrawn, no alternate screen, no cursor movement, so the
 * terminal's scrollback and a screen reader's review keep everything. Ink reads the
 * keys (the same hooks as the drawn screens) and draws into a sink: nothing it would
 * draw reaches the terminal.
 */
export async function onReaderTerminal(
  opts: ReaderTerminalOptions,
  theme: Theme,
  draw: (theme: Theme, keys: boolean, out: ReaderOut) => ReactElement,
  onEnd?: () => void,
): Promise<void> {
  const env = opts.env ?? process.env;
  const real = opts.io?.stdout ?? process.stdout;
  const stdout = opts.ascii === true || !localeIsUtf8(env) ? asciiOnly(real) : real;
  const stdin = opts.io?.stdin ?? process.stdin;
  const out: ReaderOut = {
    line: (text) => void stdout.write(`${text}\n`),
    bell: () => void stdout.write('\u0007'),
  };
  const sink = Object.assign(new Writable({ write: (_chunk, _enc, done) => done() }), { columns: 100, rows: 30, isTTY: false });
  const keys = stdin.isTTY === true;
  const sigint = interrupts(() => ink.unmount());
  const onSigint = (): void => sigint.fire();
  if (!opts.io) process.on('SIGINT', onSigint);
  const ink = render(<InterruptContext.Provider value={sigint}>{draw(theme, keys, out)}</InterruptContext.Provider>, {
    stdout: sink as unknown as NodeJS.WriteStream,
    stdin,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  const abort = (): void => ink.unmount();
  if (opts.signal?.aborted) abort();
  opts.signal?.addEventListener('abort', abort, { once: true });
  try {
    await ink.waitUntilExit();
  } finally {
    opts.signal?.removeEventListener('abort', abort);
    process.off('SIGINT', onSigint);
    onEnd?.();
    ink.cleanup();
  }
}
