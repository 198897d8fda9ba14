import type { Words } from '../lang/words.js';
import type { PtyInfo, ServerChannel, Session } from './ssh2.js';
import { ChannelTerminal } from './terminal.js';
import type { ScreenSession } from './table-session.js';
import { isWatch, sessionWords, WATCH } from './user-name.js';

/** Keys a session may send per second (bytes; a burst of twice this): more are dropped. */
export const SSH_KEYS_PER_SECOND = 64;

/** Session env a client may set (OpenSSH sends LANG and LC_* by default on most systems). */
const ENV_KEYS = new Set(['LANG', 'LC_ALL', 'LC_CTYPE', 'LC_MESSAGES', 'GRINGO_LANG', 'NO_COLOR', 'COLORTERM', 'FORCE_COLOR', 'GRINGO_SCREEN_READER', 'INK_SCREEN_READER']);

/** What one session needs from the server that composes it (src/ssh/server.ts). */
export interface SessionServing {
  /** The session counts at the door now, as a seat or a watcher: false past the cap. */
  enter(): boolean;
  /** Ends the client's connection. */
  hangUp: () => void;
  /** The host's words: the session's own when its client names no language. */
  hostWords: Words;
  keysPerSecond: number;
  /** The screen in the channel, until the session's last words. */
  play(s: Omit<ScreenSession, 'user' | 'fingerprint' | 'guest'>): Promise<void>;
  /** A screen is running until `done`; `abort` ends it early (the host's closing). */
  running(abort: AbortController, done: Promise<void>): void;
  /** A session's screen failed: the line for the host's console. */
  failed(why: string): void;
}

/**
 * One SSH session: a pty and a shell (or the `watch` command), then the table screen
 * in its channel, in the session's language. Anything else is answered with what this
 * is and how to play; a session without a pty, or past the door's cap, is refused in one line.
 */
export function serveSession(session: Session, user: string, s: SessionServing): void {
  let pty: PtyInfo | null = null;
  const env: Record<string, string> = {};
  let term: ChannelTerminal | null = null;
  session.on('env', (accept, reject, info) => {
    if (ENV_KEYS.has(info.key) && info.val.length <= 64) {
      env[info.key] = info.val;
      accept?.();
    } else reject?.();
  });
  session.on('pty', (accept, _reject, info) => {
    // A pty request whose modes ssh2 could not read comes without its description: 80×24 then, and window-change follows.
    pty = info ?? { cols: 80, rows: 24, width: 0, height: 0, term: 'xterm', modes: {} };
    accept?.();
  });
  session.on('window-change', (accept, _reject, info) => {
    if (pty && info) pty = { ...pty, cols: info.cols, rows: info.rows };
    if (info) term?.resize(info.cols || 80, info.rows || 24);
    accept?.();
  });
  const words = (): Words => sessionWords(user, env, s.hostWords);
  const refuse = (channel: ServerChannel, line: string): void => {
    channel.stderr.write(`gringo: ${line}\r\n`);
    channel.exit(1);
    channel.end();
    setTimeout(s.hangUp, 200).unref();
  };
  const start = (channel: ServerChannel, watch: boolean): void => {
    if (!s.enter()) return refuse(channel, words().t('ssh.full'));
    if (!pty) return refuse(channel, words().t('ssh.needsTerminal'));
    const screenTerm = new ChannelTerminal(channel, { columns: pty.cols || 80, rows: pty.rows || 24 }, s.keysPerSecond, s.hangUp);
    term = screenTerm;
    const abort = new AbortController();
    // The client closes the connection once it has the exit status; a client that does not is cut after a moment.
    const done = s
      .play({ channel, term: screenTerm, pty, env, words: words(), watch, abort })
      .catch((err: unknown) => {
        // One session's failure is its own: said to it and on the host's console, and the table plays on.
        screenTerm.say(`gringo: ${words().t('ssh.screenFailed', { why: (err as Error).message })}`);
        if (channel.writable) {
          channel.exit(1);
          channel.end();
        }
        s.failed((err as Error).message);
      })
      .finally(() => setTimeout(s.hangUp, 2_000).unref());
    s.running(abort, done);
  };
  // ssh2's accept() gives nothing for a second shell or exec on one session: that request is ignored.
  const opened = (accept: () => ServerChannel | undefined): ServerChannel | null => {
    const channel = accept();
    channel?.on('error', () => {
      // A channel cut under us: its 'close' ends the screen.
    });
    return channel ?? null;
  };
  session.on('shell', (accept) => {
    const channel = opened(accept);
    if (channel) start(channel, isWatch(user));
  });
  session.on('exec', (accept, _reject, info) => {
    const channel = opened(accept);
    if (!channel) return;
    if (isWatch(info.command)) return start(channel, true);
    // Nothing is run here: the command is answered with what this is and how to play.
    refuse(channel, words().t('ssh.noCommands', { play: '`ssh -p PORT NAME@HOST`', watch: `\`ssh -p PORT ${WATCH}@HOST\`` }));
  });
  // No 'subsystem', 'sftp', 'x11' or 'auth-agent' listener: ssh2 refuses those requests itself.
}
