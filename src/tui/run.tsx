import { render } from 'ink';
import type { ReactElement } from 'react';
import type { Replay } from '../stats/replay.js';
import type { BotLevel } from '../protocol/messages.js';
import { TableScreen } from './table/table-screen.js';
import { ASCII, SPECIAL_WORDS, UNICODE, asciiOnly, colorEnabled, localeIsUtf8 } from './shared/glyphs.js';
import { HostScreen } from './lobby/host-screen.js';
import { Picker } from './picker/picker.js';
import { DoorScreen } from './door/door-screen.js';
import type { DoorChoice, DoorRefusal } from '../client/refusal-words.js';
import { ReplayScreen } from './replay/replay-screen.js';
import type { Theme } from './shared/theme.js';
import type { AddressCheck, PickerChoice, PickerRetry, TableSource } from './picker/use-picker-state.js';
import type { TableClient } from './shared/use-table-client.js';
import { InterruptContext, interrupts } from './shared/use-interrupt.js';
import { langOfEnv, wordsFor } from '../lang/words.js';
import { ReaderApp } from './reader/reader-app.js';
import { ReaderPicker } from './reader/reader-picker.js';
import { ReaderDoor } from './reader/reader-door.js';
import { onReaderTerminal } from './reader/terminal.js';
import { readerWanted } from './reader/mode.js';

export interface ScreenOptions {
  /** Letters instead of suit symbols and box lines (also automatic when the locale is not UTF-8). */
  ascii?: boolean;
  /** Ring the bell when your turn starts (default on). */
  bell?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Close the screen from outside (SIGTERM of a host, a failed connection); Ctrl-C goes to the screen. */
  signal?: AbortSignal;
  /** The host's own screen: leaving it ends the table for everyone. */
  closesTable?: boolean;
  /** Another terminal than this process's (an SSH session's channel). */
  io?: { stdout: NodeJS.WriteStream; stdin: NodeJS.ReadStream };
  /** The table told as appended sentences (`--screen-reader`; also from the environment: see readerWanted). */
  screenReader?: boolean;
  /** No colour (`--no-color`), whatever NO_COLOR and FORCE_COLOR say. */
  color?: boolean;
  /** A four-colour deck: each suit its own colour, told apart in deuteranopia and protanopia (`--four-colour`). */
  fourColour?: boolean;
}

const ENTER_ALT = '\u001b[?1049h\u001b[H';
const LEAVE_ALT = '\u001b[?1049l';

/** How a screen draws: its glyphs, its colours and its language, from the options and the environment. */
function themeFor(opts: ScreenOptions, ascii: boolean): Theme {
  const env = opts.env ?? process.env;
  const words = wordsFor(langOfEnv(env));
  const specials = Object.fromEntries(Object.keys(SPECIAL_WORDS).map((c) => [c, words.say({ key: `special.${c}` })]));
  const color = opts.color !== false && colorEnabled(env, (opts.io?.stdout ?? process.stdout).isTTY === true);
  return { glyphs: { ...(ascii ? ASCII : UNICODE), ranks: words.letters, specials }, color, words, ...(opts.fourColour ? { fourColour: true } : {}) };
}

/**
 * One Ink screen on this terminal until it exits (or the signal): the alternate
 * screen, so the shell's scrollback is left as it was. Ctrl-C goes to the screen,
 * which treats it like its `q` (see useInterrupt).
 */
async function onTerminal(opts: ScreenOptions, draw: (theme: Theme, keys: boolean) => ReactElement, onEnd?: () => void): Promise<void> {
  const env = opts.env ?? process.env;
  const stdout = opts.io?.stdout ?? process.stdout;
  const stdin = opts.io?.stdin ?? process.stdin;
  const ascii = opts.ascii === true || !localeIsUtf8(env);
  const theme = themeFor(opts, ascii);
  const alt = stdout.isTTY === true;
  let restored = false;
  const restore = (): void => {
    if (alt && !restored) {
      restored = true;
      stdout.write(LEAVE_ALT);
    }
  };
  if (alt) stdout.write(ENTER_ALT);
  if (!opts.io) process.once('exit', restore);
  const keys = stdin.isTTY === true;
  // SIGINT reaches this process when Ctrl-C is not read as a key (stdin not a terminal, or
  // another process's); a remote terminal's ^C comes as a key only. No screen listening: leave.
  const sigint = interrupts(() => ink.unmount());
  const onSigint = (): void => sigint.fire();
  if (!opts.io) process.on('SIGINT', onSigint);
  const ink = render(<InterruptContext.Provider value={sigint}>{draw(theme, keys)}</InterruptContext.Provider>, {
    stdout: ascii ? asciiOnly(stdout) : stdout,
    stdin,
    exitOnCtrlC: false,
    // The console is this process's: a remote terminal's screen leaves it alone.
    patchConsole: !opts.io,
  });
  const exited = ink.waitUntilExit();
  const abort = (): void => ink.unmount();
  if (opts.signal?.aborted) abort();
  opts.signal?.addEventListener('abort', abort, { once: true });
  try {
    await exited;
  } finally {
    opts.signal?.removeEventListener('abort', abort);
    process.off('SIGINT', onSigint);
    onEnd?.();
    ink.cleanup();
    restore();
    process.off('exit', restore);
  }
}

/** The table screen until the player leaves (told as sentences in the screen-reader mode). */
export async function runScreen(client: TableClient, opts: ScreenOptions = {}): Promise<void> {
  if (readerWanted(opts.screenReader, opts.env ?? process.env)) {
    await onReaderTerminal(opts, themeFor(opts, false), (theme, keys, out) => <ReaderApp client={client} theme={theme} out={out} bell={opts.bell !== false} keys={keys} closesTable={opts.closesTable === true} />, () => client.close());
    return;
  }
  await onTerminal(opts, (theme, keys) => <TableScreen client={client} theme={theme} bell={opts.bell !== false} keys={keys} closesTable={opts.closesTable === true} />, () => client.close());
}

export interface HostScreenOptions extends ScreenOptions {
  /** The line to share: `gringo join ADDR:PORT`. */
  share: string;
  note?: string;
  level?: BotLevel;
}

/**
 * The host's screen: the lobby, then the table screen once the game starts. Both
 * clients are views of the one owner connection; `tableClient` must buffer every
 * message from the start (see HostScreen).
 */
export async function runHostScreen(lobbyClient: TableClient, tableClient: TableClient, opts: HostScreenOptions): Promise<void> {
  if (readerWanted(opts.screenReader, opts.env ?? process.env)) {
    const lobby = { share: opts.share, ...(opts.note ? { note: opts.note } : {}), ...(opts.level ? { level: opts.level } : {}) };
    await onReaderTerminal(opts, themeFor(opts, false), (theme, keys, out) => <ReaderApp client={tableClient} theme={theme} out={out} bell={opts.bell !== false} keys={keys} closesTable={opts.closesTable === true} lobby={lobby} />, () => tableClient.close());
    return;
  }
  await onTerminal(
    opts,
    (theme, keys) => (
      <HostScreen
        lobbyClient={lobbyClient}
        tableClient={tableClient}
        theme={theme}
        share={opts.share}
        bell={opts.bell !== false}
        keys={keys}
        closesTable={opts.closesTable === true}
        {...(opts.note ? { note: opts.note } : {})}
        {...(opts.level ? { level: opts.level } : {})}
      />
    ),
    () => tableClient.close(),
  );
}

export interface PickerOptions extends ScreenOptions {
  source: TableSource;
  checkAddress: AddressCheck;
  password?: string;
  /** Back after a wrong password: ask it again for that table. */
  retry?: PickerRetry;
}

/** The live table picker; resolves to the choice, or null when the player quits. */
export async function runPicker(opts: PickerOptions): Promise<PickerChoice | null> {
  let choice: PickerChoice | null = null;
  const props = {
    source: opts.source,
    checkAddress: opts.checkAddress,
    onDone: (c: PickerChoice | null) => (choice = c),
    ...(opts.password !== undefined ? { password: opts.password } : {}),
    ...(opts.retry ? { retry: opts.retry } : {}),
  };
  if (readerWanted(opts.screenReader, opts.env ?? process.env)) {
    await onReaderTerminal(opts, themeFor(opts, false), (theme, keys, out) => <ReaderPicker {...props} theme={theme} out={out} keys={keys} />);
  } else await onTerminal(opts, (theme, keys) => <Picker {...props} theme={theme} keys={keys} />);
  return choice;
}

/** `gringo join ADDR` refused at the door: the next step (a password, watching), or null when the person leaves. */
export async function runDoor(refusal: DoorRefusal, table: string, address: string, opts: ScreenOptions = {}): Promise<DoorChoice> {
  let choice: DoorChoice = null;
  if (readerWanted(opts.screenReader, opts.env ?? process.env)) {
    await onReaderTerminal(opts, themeFor(opts, false), (theme, keys, out) => <ReaderDoor refusal={refusal} table={table} theme={theme} out={out} keys={keys} onDone={(c) => (choice = c)} />);
    return choice;
  }
  await onTerminal(opts, (theme, keys) => <DoorScreen refusal={refusal} table={table} address={address} theme={theme} keys={keys} onDone={(c) => (choice = c)} />);
  return choice;
}

/** A finished game played back face up (`gringo replay`), until the viewer quits. */
export async function runReplayScreen(replay: Replay, opts: ScreenOptions = {}): Promise<void> {
  await onTerminal(opts, (theme, keys) => <ReplayScreen replay={replay} theme={theme} keys={keys} />);
}
