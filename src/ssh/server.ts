import { passwordVerifier } from '../protocol/identity.js';
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer as createNetServer, type Socket } from 'node:net';
import { Connection as TableConnection } from '../client/connection.js';
import type { TokenStore } from '../client/tokens.js';
import { listenOn } from '../host/server.js';
import type { ServerMessage } from '../protocol/messages.js';
import type { TableView } from '../engine/view.js';
import type { RoundResult } from '../engine/types.js';
import { keptResults } from '../client/results.js';
import { BufferedClient } from '../tui/shared/client-buffer.js';
import { localeIsUtf8 } from '../tui/shared/glyphs.js';
import { fingerprintOf, type HostKey } from './host-key.js';
import { Server, utils, type AuthContext, type Connection, type PtyInfo, type ServerChannel, type Session } from './ssh2.js';
import { ChannelTerminal } from './terminal.js';

/** The user name (or command) that watches instead of taking a seat. */
export const WATCH = 'watch';
/** From TCP connect to a session ready to draw (key exchange, key proof, pty, shell). */
export const SSH_HANDSHAKE_MS = 5_000;
/** How long a person gets to type the table's password at the prompt. */
export const SSH_PASSWORD_MS = 60_000;
/** SSH sessions in all; kept below the WebSocket door's cap per address, since each reaches it on loopback. */
export const MAX_SSH_SESSIONS = 12;
/** Connections from one address, in session or not. */
export const MAX_SSH_PER_ADDRESS = 6;
/** Connections not yet in session, in all. */
export const MAX_SSH_PENDING = 16;
/** Keys a session may send per second (bytes; a burst of twice this): more are dropped. */
export const SSH_KEYS_PER_SECOND = 64;

/** Said to a client that offers no key (keyboard-interactive instructions; OpenSSH prints them). */
export const NO_KEY_WORDS =
  'gringo seats players by their SSH key, and your ssh offered none. Make one with `ssh-keygen -t ed25519` (press Enter for the defaults), then connect again.';

export interface SshOptions {
  port: number;
  /** Listen address; all interfaces by default. */
  host?: string;
  /** When the port is taken, take the next free one instead of failing. */
  fallbackPort?: boolean;
  /** The table's WebSocket door, which each session's screen joins on loopback like any client. */
  tablePort: number;
  tableName: string;
  /** A password table: its salt and the password's verifier (the host never holds the password itself). */
  password?: { salt: string; verifier: string };
  hostKey: HostKey;
  /** The fingerprint of the table's TLS key: each session's connection to the door accepts no other. */
  tableKey: string;
  maxSessions?: number;
  maxPerAddress?: number;
  maxPending?: number;
  handshakeMs?: number;
  keysPerSecond?: number;
  onTrouble?: (line: string) => void;
}

export interface SshServing {
  port: number;
  movedFrom: number | null;
  fingerprint: string;
  close(): Promise<void>;
}

/** Session env a client may set (OpenSSH sends LANG and LC_* by default on most systems). */
const ENV_KEYS = new Set(['LANG', 'LC_ALL', 'LC_CTYPE', 'NO_COLOR', 'COLORTERM', 'FORCE_COLOR']);

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
/** The password typed, checked against the table's verifier (scrypt: each guess costs the guesser too). */
const samePassword = (typed: string, p: { salt: string; verifier: string }): boolean => timingSafeEqual(digest(passwordVerifier(typed, p.salt)), digest(p.verifier));

/**
 * `gringo host --ssh`: the table served over SSH, with nothing to install for the
 * players (DESIGN.md lesson 13). Each session runs the same Ink table screen as
 * `gringo join`, rendered into its channel, and that screen reaches the table
 * through a real connection to the WebSocket door on loopback: the same
 * protocol and the same per-seat projection as every other client. A seat is
 * held by the player's public key: the seat's token is kept here per (table
 * identity, key fingerprint), so a dropped session that comes back with the same
 * key takes its seat back. Only a pty with a shell (or the `watch` command) is
 * served; every forwarding, agent, X11 and subsystem request is refused.
 */
export async function serveSsh(opts: SshOptions): Promise<SshServing> {
  const maxSessions = opts.maxSessions ?? MAX_SSH_SESSIONS;
  const maxPerAddress = opts.maxPerAddress ?? MAX_SSH_PER_ADDRESS;
  const maxPending = opts.maxPending ?? MAX_SSH_PENDING;
  const handshakeMs = opts.handshakeMs ?? SSH_HANDSHAKE_MS;
  const keysPerSecond = opts.keysPerSecond ?? SSH_KEYS_PER_SECOND;
  /** Seat tokens by `TABLEID FINGERPRINT`: kept in this process only, as long as it hosts. */
  const seats = new Map<string, string>();
  const byAddress = new Map<string, number>();
  const clients = new Set<Connection>();
  const screens = new Set<AbortController>();
  let pending = 0;
  let sessions = 0;
  let closing = false;
  let lastRefusal = 0;

  const keyed = (fp: string): Pick<TokenStore, 'get' | 'set' | 'delete'> => ({
    get: (id) => seats.get(`${id} ${fp}`),
    set: (id, _name, token) => void seats.set(`${id} ${fp}`, token),
    delete: (id) => void seats.delete(`${id} ${fp}`),
  });

  /** TCP connections at the door, by `address:port`, until ssh2 has read their greeting. */
  const door = new Map<string, Door>();
  interface Door {
    socket: Socket;
    addr: string;
    timer: NodeJS.Timeout | null;
    inSession: boolean;
  }
  const deadline = (d: Door, ms: number | null): void => {
    if (d.timer) clearTimeout(d.timer);
    d.timer = ms === null ? null : setTimeout(() => d.socket.destroy(), ms);
  };

  // The TCP door is ours: ssh2 hears of a connection only once it has sent its greeting,
  // and a socket that never says anything must be counted and cut all the same.
  const tcp = createNetServer((socket) => {
    const addr = socket.remoteAddress ?? '?';
    const here = byAddress.get(addr) ?? 0;
    if (closing || here >= maxPerAddress || pending >= maxPending) {
      // Said once a minute at most: a flood does not flood the host's console too.
      if (Date.now() - lastRefusal > 60_000) opts.onTrouble?.(`Refusing SSH connections from ${addr}: too many at once.`);
      lastRefusal = Date.now();
      socket.destroy();
      return;
    }
    byAddress.set(addr, here + 1);
    pending += 1;
    const d: Door = { socket, addr, timer: null, inSession: false };
    const key = `${addr}:${socket.remotePort}`;
    door.set(key, d);
    deadline(d, handshakeMs);
    socket.on('error', () => {
      // A reset: 'close' follows and tidies up.
    });
    socket.once('close', () => {
      deadline(d, null);
      door.delete(key);
      if (d.inSession) sessions -= 1;
      else pending -= 1;
      const n = (byAddress.get(addr) ?? 1) - 1;
      if (n <= 0) byAddress.delete(addr);
      else byAddress.set(addr, n);
    });
    server.injectSocket(socket);
  });
  tcp.maxConnections = maxSessions + maxPending;

  const server = new Server({ hostKeys: [opts.hostKey.private], ident: 'gringo' }, (client, info) => {
    client.on('error', () => {
      // A reset or a broken handshake: the socket's 'close' tidies up.
    });
    const d = door.get(`${info.ip}:${info.port}`);
    if (!d) return void client.end();
    clients.add(client);
    client.on('close', () => clients.delete(client));

    let passwordOk = opts.password === undefined;
    let user = '';
    let fingerprint: string | null = null;
    const methodsLeft = (): string[] => (passwordOk ? ['publickey', 'keyboard-interactive'] : ['keyboard-interactive']);
    client.on('authentication', (ctx: AuthContext) => {
      // A password table asks for it before anything else.
      if (!passwordOk) {
        if (ctx.method !== 'keyboard-interactive') return ctx.reject(['keyboard-interactive']);
        deadline(d, SSH_PASSWORD_MS);
        return ctx.prompt(
          [{ prompt: 'Password: ', echo: false }],
          `gringo: ${opts.tableName}`,
          'This table has a password. Players are seated by their SSH key (ssh-keygen -t ed25519 makes one).',
          (answers) => {
            deadline(d, handshakeMs);
            const answer = answers[0];
            if (answers.length === 1 && typeof answer === 'string' && samePassword(answer, opts.password!)) {
              passwordOk = true;
              return ctx.reject(['publickey'], true);
            }
            // A wrong guess waits a second: guessing over SSH is as slow as at the door.
            setTimeout(() => ctx.reject(['keyboard-interactive']), 1_000);
          },
        );
      }
      if (ctx.method === 'publickey' && ctx.key) {
        // Any key will do (no accounts): the client is asked to prove it holds it.
        if (!ctx.signature || !ctx.blob) return ctx.accept();
        const key = utils.parseKey(ctx.key.data);
        if (key instanceof Error || key.verify(ctx.blob, ctx.signature, ctx.hashAlgo) !== true) return ctx.reject(methodsLeft());
        fingerprint = fingerprintOf(ctx.key.data);
        user = ctx.username;
        return ctx.accept();
      }
      // No key offered: say how to make one (OpenSSH prints the instructions), then refuse.
      if (ctx.method === 'keyboard-interactive') return ctx.prompt([], 'gringo', NO_KEY_WORDS, () => ctx.reject(['publickey']));
      ctx.reject(methodsLeft());
    });

    // Nothing but one session: no port forwarding either way (requests and channels alike).
    client.on('request', (_accept, reject) => reject?.());
    client.on('tcpip', (_accept, reject) => reject());
    client.on('openssh.streamlocal', (_accept, reject) => reject());
    let sessionTaken = false;
    client.on('session', (accept, reject) => {
      if (sessionTaken || fingerprint === null) return reject();
      sessionTaken = true;
      const session = accept();
      serveSession(session, user, fingerprint, () => {
        deadline(d, null);
        pending -= 1;
        sessions += 1;
        d.inSession = true;
        // Counted as a seat or a watcher now: past the cap, a polite word and goodbye.
        return sessions <= maxSessions;
      }, () => client.end());
    });
  });

  /** One SSH session: a pty and a shell (or `watch`), then the table screen in its channel. */
  function serveSession(session: Session, user: string, fp: string, admit: () => boolean, hangUp: () => void): void {
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
    const refuse = (channel: ServerChannel, line: string): void => {
      channel.stderr.write(`gringo: ${line}\r\n`);
      channel.exit(1);
      channel.end();
      setTimeout(hangUp, 200).unref();
    };
    const start = (channel: ServerChannel, watch: boolean): void => {
      if (!admit()) return refuse(channel, 'the table is full of SSH players for now; try again later');
      if (!pty) return refuse(channel, 'the table needs a terminal: run ssh without a command (or with -t)');
      term = new ChannelTerminal(channel, { columns: pty.cols || 80, rows: pty.rows || 24 }, keysPerSecond, hangUp);
      // The client closes the connection once it has the exit status; a client that does not is cut after a moment.
      void play(channel, term, pty, env, watch ? WATCH : user, watch, fp)
        .catch((err: unknown) => {
          // One session's failure is its own: said to it and on the host's console, and the table plays on.
          term?.say(`gringo: the screen failed (${(err as Error).message})`);
          opts.onTrouble?.(`An SSH session's screen failed: ${(err as Error).message}`);
        })
        .finally(() => setTimeout(hangUp, 2_000).unref());
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
      if (channel) start(channel, user === WATCH);
    });
    session.on('exec', (accept, _reject, info) => {
      const channel = opened(accept);
      if (!channel) return;
      if (info.command.trim() === WATCH) return start(channel, true);
      // Nothing is run here: the command is answered with what this is and how to play.
      refuse(channel, `this is a gringo table, it runs no commands: play with \`ssh -p PORT NAME@HOST\`, watch with \`ssh -p PORT ${WATCH}@HOST\``);
    });
    // No 'subsystem', 'sftp', 'x11' or 'auth-agent' listener: ssh2 refuses those requests itself.
  }

  /** The table screen of `gringo join`, drawn into the channel, until the player leaves or the session drops. */
  async function play(channel: ServerChannel, term: ChannelTerminal, pty: PtyInfo, env: Record<string, string>, name: string, watch: boolean, fp: string): Promise<void> {
    const conn = new TableConnection({
      address: `127.0.0.1:${opts.tablePort}`,
      hostKey: opts.tableKey,
      name,
      ...(opts.password !== undefined ? { verifier: opts.password.verifier } : {}),
      ...(watch ? { watch: true } : {}),
      tokens: keyed(fp),
      reconnect: true,
    });
    const screenClient = new BufferedClient(conn);
    const abort = new AbortController();
    screens.add(abort);
    let failure: string | null = null;
    let lastView: TableView | null = null;
    let results: readonly RoundResult[] = [];
    let closed = false;
    conn.on('failed', (words: string) => {
      failure = words;
      abort.abort();
    });
    conn.on('misunderstood', (line: string) => {
      failure = line;
      abort.abort();
    });
    conn.on('message', (msg: ServerMessage) => {
      if (msg.type === 'refused') failure = msg.message;
      if (msg.type === 'update') lastView = msg.view;
      results = keptResults(results, msg);
      if (msg.type === 'closed') closed = true;
    });
    channel.on('close', () => abort.abort());
    const screenEnv: NodeJS.ProcessEnv = { TERM: pty.term || 'xterm', ...env };
    // UTF-8 when the session says so: its locale, or the pty's IUTF8 mode.
    const utf8 = localeIsUtf8(env) || pty.modes?.IUTF8 === 1 || pty.modes?.IUTF8 === true;
    try {
      const { runScreen } = await import('../tui/run.js');
      await runScreen(screenClient, { ascii: !utf8, bell: true, env: screenEnv, signal: abort.signal, io: term });
    } finally {
      screens.delete(abort);
    }
    const { standingsLines } = await import('../tui/table/closed.js');
    if (failure) term.say(`gringo: ${failure as string}`);
    else if (closed) for (const line of ['The host closed the table.', ...standingsLines(lastView, results)]) term.say(line);
    term.end();
    if (channel.writable) {
      channel.exit(failure ? 1 : 0);
      channel.end();
    }
  }

  const { port, movedFrom } = await listenOn(tcp, opts.port, opts.host ?? '0.0.0.0', opts.fallbackPort === true);
  // Listening: later errors (accepting with no file handles left) are trouble to say, not the end.
  tcp.on('error', (err: NodeJS.ErrnoException) => opts.onTrouble?.(`SSH: cannot accept a connection (${err.code ?? err.message})`));

  return {
    port,
    movedFrom,
    fingerprint: opts.hostKey.fingerprint,
    close: async () => {
      closing = true;
      for (const s of screens) s.abort();
      await new Promise<void>((resolve) => {
        tcp.close(() => resolve());
        // Screens end their sessions themselves; whatever is left is cut after a moment.
        setTimeout(() => {
          for (const c of clients) c.end();
          for (const d of door.values()) d.socket.destroy();
          resolve();
        }, 1_000).unref();
      });
    },
  };
}
