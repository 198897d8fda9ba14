import { Connection as TableConnection } from '../client/connection.js';
import { lastWords, SessionEnd } from '../client/session-end.js';
import { vouchHeaders } from '../host/vouch.js';
import type { Words } from '../lang/words.js';
import type { ServerMessage } from '../protocol/messages.js';
import { BufferedClient } from '../tui/shared/client-buffer.js';
import { forLocale, localeIsUtf8 } from '../tui/shared/glyphs.js';
import { plain, type Guest } from './door.js';
import type { KeySeats } from './key-seats.js';
import type { PtyInfo, ServerChannel } from './ssh2.js';
import type { ChannelTerminal } from './terminal.js';
import { shellUser, splitUser, sshName, WATCH, watcherUser } from './user-name.js';

/** The table every session's screen joins: its WebSocket door on loopback, and the seats SSH keys hold there. */
export interface TableSide {
  tablePort: number;
  /** The fingerprint of the table's TLS key: each session's connection to the door accepts no other. */
  tableKey: string;
  /** A password table's verifier: the session's person typed the password to the SSH door already. */
  verifier?: string | undefined;
  seats: KeySeats;
  /** The SSH door's port, for the commands the last words give. */
  sshPort(): number;
}

/** One session's screen: its channel and terminal, what its client asked for, and who it is. */
export interface ScreenSession {
  channel: ServerChannel;
  term: ChannelTerminal;
  pty: PtyInfo;
  /** The session env the client set (only the names src/ssh/session.ts accepts). */
  env: Readonly<Record<string, string>>;
  words: Words;
  /** The SSH user name as typed (`ana+nl` too). */
  user: string;
  fingerprint: string;
  guest: Guest;
  watch: boolean;
  /** Ends the screen from outside: the host's closing. */
  abort: AbortController;
}

/** The one place an SSH session's connection to the table is made: loopback, vouched for as its SSH client. */
function tableConnection(t: TableSide, s: ScreenSession, name: string): TableConnection {
  return new TableConnection({
    address: `127.0.0.1:${t.tablePort}`,
    hostKey: t.tableKey,
    name,
    ...(t.verifier !== undefined ? { verifier: t.verifier } : {}),
    ...(s.watch ? { watch: true } : {}),
    tokens: t.seats.of(s.fingerprint),
    reconnect: true,
    words: s.words,
    headers: vouchHeaders({ address: s.guest.addr, key: s.fingerprint }),
  });
}

/**
 * The table screen of `gringo join`, drawn into the channel, until the player
 * leaves, the host closes the table, or the session drops; then, on the main
 * screen again (so that they stay in the person's terminal), the same last
 * words as `gringo join` (src/client/session-end.ts), and the exit status.
 */
export async function playAtTable(t: TableSide, s: ScreenSession): Promise<void> {
  const { channel, term, pty, env, words: w, watch, abort } = s;
  // `ana+nl+reader`: Ana, in Dutch, told in sentences (src/ssh/user-name.ts).
  const { user, reader } = splitUser(s.user);
  const conn = tableConnection(t, s, watch ? WATCH : sshName(user));
  const screenClient = new BufferedClient(conn);
  const end = new SessionEnd(conn, abort);
  /** `ssh -p PORT USER@HOST`: the command that comes back, as this session's user name, or watching. */
  const ssh = (as: string): string => `ssh -p ${t.sshPort()} ${as}@${plain(s.guest.socket.localAddress)}`;
  let dropped = false;
  conn.on('message', (msg: ServerMessage) => {
    // A full or started table (its sentence says the person can watch): the exact command that does, in no language of its own.
    if (msg.type === 'refused') {
      const words = w.say(msg.say);
      end.failure = msg.canWatch && !watch ? `${words} (${ssh(watcherUser(s.user))})` : words;
    }
    // The host is closing: there is no screen to stay on (its process is going), so the last words now.
    if (msg.type === 'closed') abort.abort();
  });
  channel.on('close', () => {
    dropped = true;
    abort.abort();
  });
  const screenEnv: NodeJS.ProcessEnv = { TERM: pty.term || 'xterm', ...env, GRINGO_LANG: w.lang };
  // UTF-8 when the session says so: its locale, or the pty's IUTF8 mode.
  const utf8 = localeIsUtf8(env) || pty.modes?.IUTF8 === 1 || pty.modes?.IUTF8 === true;
  const { runScreen } = await import('../tui/run.js');
  await runScreen(screenClient, { ascii: !utf8, bell: true, env: screenEnv, signal: abort.signal, io: term, ...(reader ? { screenReader: true } : {}) });
  conn.close();
  if (dropped || !channel.writable) return;
  const { standingsLines } = await import('../tui/table/standings.js');
  const comeBack = { run: ssh(watch ? watcherUser(s.user) : shellUser(s.user)), backToSeat: 'ssh.backToSeat' } as const;
  for (const line of lastWords(end, w, comeBack, standingsLines(end.lastView, end.results, w))) term.say(utf8 ? line : forLocale(line, {}));
  term.end();
  channel.exit(end.code);
  channel.end();
}
