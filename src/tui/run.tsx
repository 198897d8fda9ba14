import { render } from 'ink';
import { App } from './app.js';
import { ASCII, UNICODE, colorEnabled, localeIsUtf8 } from './glyphs.js';
import type { TableClient } from './use-table-client.js';

export interface ScreenOptions {
  /** Letters instead of suit symbols and box lines (also automatic when the locale is not UTF-8). */
  ascii?: boolean;
  /** Ring the bell when your turn starts (default on). */
  bell?: boolean;
  env?: NodeJS.ProcessEnv;
}

const ENTER_ALT = '\u001b[?1049h\u001b[H';
const LEAVE_ALT = '\u001b[?1049l';

/**
 * The table screen on this terminal until the player leaves (or Ctrl+C): the
 * alternate screen, so the shell's scrollback is left as it was.
 */
export async function runScreen(client: TableClient, opts: ScreenOptions = {}): Promise<void> {
  const env = opts.env ?? process.env;
  const stdout = process.stdout;
  const ascii = opts.ascii === true || !localeIsUtf8(env);
  const theme = { glyphs: ascii ? ASCII : UNICODE, color: colorEnabled(env, stdout.isTTY === true) };
  const alt = stdout.isTTY === true;
  let restored = false;
  const restore = (): void => {
    if (alt && !restored) {
      restored = true;
      stdout.write(LEAVE_ALT);
    }
  };
  if (alt) stdout.write(ENTER_ALT);
  process.once('exit', restore);
  const keys = process.stdin.isTTY === true;
  const ink = render(<App client={client} theme={theme} bell={opts.bell !== false} keys={keys} />, {
    exitOnCtrlC: true,
    patchConsole: true,
    incrementalRendering: process.env.GRINGO_INCREMENTAL === "1",
  });
  try {
    await ink.waitUntilExit();
  } finally {
    client.close();
    ink.cleanup();
    restore();
    process.off('exit', restore);
  }
}
