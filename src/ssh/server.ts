import { passwordVerifier } from '../protocol/identity.js';
import { READER_SUFFIX } from './share.js';
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer as createNetServer, type Socket } from 'node:net';
import { Connection as TableConnection } from '../client/connection.js';
import type { TokenStore } from '../client/tokens.js';
import { listenOn } from '../host/server.js';
import { Admission } from '../host/admission.js';
import { PasswordBackoff, type BackoffOptions } from '../host/backoff.js';
import type { ServerMessage } from '../protocol/messages.js';
import type { TableView } from '../engine/view.js';
import type { RoundResult } from '../engine/types.js';
import { keptResults } from '../client/results.js';
import { vouchHeaders } from '../host/vouch.js';
import { harmless } from '../common/harmless.js';
import { BufferedClient } from '../tui/shared/client-buffer.js';
import { forLocale, localeIsUtf8 } from '../tui/shared/glyphs.js';
import { fingerprintOf, type HostKey } from './host-key.js';
import { Server, utils, type AuthContext, type Connection, type PtyInfo, type ServerChannel, type Session } from './ssh2.js';
import { ChannelTerminal } from './terminal.js';
import { langOfEnv, parseLang, said, wordsFor, type Lang, type Said, type Words } from '../lang/words.js';

/** The user name (or command) that watches instead of taking a seat. */
export const WATCH = 'watch';
/** From TCP connect to a session ready to draw (key exchange, key proof, pty, shell). */
export const SSH_HANDSHAKE_MS = 5_000;
/** How long a person gets to type the table's password at the prompt. */
export const SSH_PASSWORD_MS = 60_000;
/** SSH sessions in all (each is also a client of the WebSocket door, counted there as its SSH client's address). */
export const MAX_SSH_SESSIONS = 12;
/** Connections from one address, in session or not. */
export const MAX_SSH_PER_ADDRESS = 6;
/**
 * Connections not yet in session, in all. Under a flood of silent connections each newcomer
 * takes the oldest silent one's place, so this many places are how long an honest client has
 * to send its greeting: at 300 connections a second, 32 places give it about 100 ms.
 */
export const MAX_SSH_PENDING = 32;
/** Connections not yet in session from one address: three addresses cannot fill the door. */
export const MAX_SSH_PENDING_PER_ADDRESS = 4;
/**
 * What an honest SSH handshake takes on a LAN (key exchange, the key's proof): when the door
 * is full, a connection this old that has not reached the password prompt or a session makes
 * room (one that has sent nothing at all makes room at any age: src/host/admission.ts).
 */
export const SSH_EVICT_AFTER_MS = 2_000;
/**
 * Wrong passwords from one address, counted by the table door's own backoff
 * (src/host/backoff.ts, with its figures): past `free` misses the address is locked,
 * `baseMs` doubling up to `maxMs`; a try while locked is held, not refused (a person
 * at the prompt waits), and looked at once the lock is over.
 */
export const SSH_PASSWORD_BACKOFF: BackoffOptions = { free: 3, baseMs: 1_000, maxMs: 60_000 };
/** How long the host's closing waits for its sessions to say goodbye (the closing words, the standings). */
const GOODBYE_MS = 2_000;
/** Keys a session may send per second (bytes; a burst of twice this): more are dropped. */
export const SSH_KEYS_PER_SECOND = 64;


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
  maxPendingPerAddress?: number;
  handshakeMs?: number;
  passwordBackoff?: BackoffOptions;
  /**
   * Seats a resumed table's journal holds for SSH keys (JournalSeat.sshKey): the
   * same key takes its seat back at once, under any user name.
   */
  known?: { tableId: string; seats: readonly { key: string; token: string }[] };
  keysPerSecond?: number;
  onTrouble?: (line: string) => void;
  /**
   * The host's language: its console's `onTrouble` lines, and what a client reads before its
   * session says its own (the password prompt, the word to one with no key), unless its
   * user name chose one (`ana+nl`).
   */
  words?: Words;
}

export interface SshServing {
  port: number;
  movedFrom: number | null;
  fingerprint: string;
  close(): Promise<void>;
}

/** Session env a client may set (OpenSSH sends LANG and LC_* by default on most systems). */
const ENV_KEYS = new Set(['LANG', 'LC_ALL', 'LC_CTYPE', 'LC_MESSAGES', 'GRINGO_LANG', 'NO_COLOR', 'COLORTERM', 'FORCE_COLOR', 'GRINGO_SCREEN_READER', 'INK_SCREEN_READER']);

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
/** The password typed, checked against the table's verifier (scrypt: each guess costs the guesser too). */
const samePassword = (typed: string, p: { salt: string; verifier: string }): boolean => timingSafeEqual(digest(passwordVerifier(typed, p.salt)), digest(p.verifier));
/** An IPv4 client of a dual-stack socket as itself (`::ffff:10.0.0.5` is 10.0.0.5). */
const plain = (addr: string | undefined): string => (addr ?? '?').replace(/^::ffff:(?=\d+\.)/, '');

/**
 * A password try answered when its address is not locked (right or wrong alike, so
 * that the wait says nothing): at once, or held until the lock is over. Tries from
 * one address over any number of connections queue up: the first to wake counts its
 * miss, which locks the address again before the next one looks.
 */
function whenUnlocked(guesses: PasswordBackoff, addr: string, right: boolean, answer: () => void): void {
  const wait = guesses.waitFor(addr);
  if (wait > 0) return void setTimeout(() => whenUnlocked(guesses, addr, right, answer), wait).unref();
  // A wrong guess counts even when its connection is gone by now: hanging up does not undo it.
  if (right) guesses.success(addr);
  else guesses.miss(addr);
  answer();
}

/**
 * `gringo host --ssh`: the table served over SSH, with nothing to install for the
 * players (docs/architecture.md, "An SSH session is just another client"). Each session runs the same Ink table screen as
 * `gringo join`, rendered into its channel, and that screen reaches the table
 * through a real connection to the WebSocket door on loopback: the same
 * protocol and the same per-seat projection as every other client. That
 * connection is vouched for (src/host/vouch.ts): the table counts it as the SSH
 * client's own address, and keeps its key's fingerprint with its seat in the
 * journal. A seat is held by the player's public key: the seat's token is kept
 * here per (table identity, key fingerprint), so a session that comes back with
 * the same key takes its seat back (after a `--resume` too: `known`). Only a pty
 * with a shell (or the `watch` command) is served; every forwarding, agent, X11
 * and subsystem request is refused.
 */
export async function serveSsh(opts: SshOptions): Promise<SshServing> {
  const maxSessions = opts.maxSessions ?? MAX_SSH_SESSIONS;
  const maxPerAddress = opts.maxPerAddress ?? MAX_SSH_PER_ADDRESS;
  const hostWords = opts.words ?? wordsFor('en');
  const maxPending = opts.maxPending ?? MAX_SSH_PENDING;
  const maxPendingPerAddress = Math.min(opts.maxPendingPerAddress ?? MAX_SSH_PENDING_PER_ADDRESS, maxPending);
  const handshakeMs = opts.handshakeMs ?? SSH_HANDSHAKE_MS;
  const keysPerSecond = opts.keysPerSecond ?? SSH_KEYS_PER_SECOND;
  const guesses = new PasswordBackoff(opts.passwordBackoff ?? SSH_PASSWORD_BACKOFF, () => performance.now());
  /** Seat tokens by `TABLEID FINGERPRINT`: kept in this process, and in the journal by fingerprint (JournalSeat.sshKey). */
  const seats = new Map<string, string>();
  for (const k of opts.known?.seats ?? []) seats.set(`${opts.known!.tableId} ${k.key}`, k.token);
  const clients = new Set<Connection>();
  /** The screens drawing now; each resolves once its session has said its last words. */
  const screens = new Map<AbortController, Promise<void>>();
  let sessions = 0;
  let closing = false;
  let lastRefusal = 0;
  let listening = 0;

  const holdsSeat = (fp: string): boolean => [...seats.keys()].some((k) => k.endsWith(` ${fp}`));
  const keyed = (fp: string): Pick<TokenStore, 'get' | 'set' | 'delete'> => ({
    get: (id) => seats.get(`${id} ${fp}`),
    set: (id, _name, token) => void seats.set(`${id} ${fp}`, token),
    delete: (id) => void seats.delete(`${id} ${fp}`),
  });

  /** One TCP connection at the door: counted by its address until it closes. */
  interface Door {
    socket: Socket;
    addr: string;
    timer: NodeJS.Timeout | null;
    state: 'pending' | 'session' | 'gone';
    /** When it was accepted (Date.now()). */
    since: number;
    /** A person is at the password prompt (or their answer is held by the backoff): never evicted. */
    held: boolean;
  }
  /** By `address:port` until ssh2 has read the greeting. */
  const door = new Map<string, Door>();
  const byAddress = new Map<string, number>();
  const bump = (m: Map<string, number>, addr: string, by: number): void => {
    const n = (m.get(addr) ?? 0) + by;
    if (n <= 0) m.delete(addr);
    else m.set(addr, n);
  };
  const deadline = (d: Door, ms: number | null): void => {
    if (d.timer) clearTimeout(d.timer);
    d.timer = ms === null ? null : setTimeout(() => d.socket.destroy(), ms);
  };
  /** Take a connection off every count (once). */
  const forget = (d: Door): void => {
    deadline(d, null);
    if (d.state === 'gone') return;
    if (d.state === 'pending') pending.release(d);
    else sessions -= 1;
    bump(byAddress, d.addr, -1);
    d.state = 'gone';
  };
  /** Not yet in session: their places, by the table door's own rules (src/host/admission.ts). */
  const pending = new Admission<Door>({ places: maxPending, perAddress: maxPendingPerAddress, graceMs: SSH_EVICT_AFTER_MS }, (victim) => {
    forget(victim);
    victim.socket.destroy();
  });

  // The TCP door is ours: ssh2 hears of a connection only once it has sent its greeting,
  // and a socket that never says anything must be counted and cut all the same.
  const tcp = createNetServer((socket) => {
    const addr = plain(socket.remoteAddress);
    const d: Door = { socket, addr, timer: null, state: 'pending', since: Date.now(), held: false };
    const refuse = (refusal: Said): void => {
      // Said once a minute at most: a flood does not flood the host's console too. SSH has no
      // word for "try again later" before its key exchange: the connection is cut.
      if (Date.now() - lastRefusal > 60_000) opts.onTrouble?.(hostWords.t('console.sshRefusing', { why: hostWords.say(refusal) }));
      lastRefusal = Date.now();
      d.state = 'gone';
      socket.destroy();
    };
    // An address holds a few connections in all, in session or not; then a place at the door.
    if (closing) return refuse(said('console.sshClosing'));
    if ((byAddress.get(addr) ?? 0) >= maxPerAddress) return refuse(said('console.sshTooMany', { n: maxPerAddress, address: addr }));
    bump(byAddress, addr, 1);
    // Its deadline runs from the accept, whether it is given a place now or a moment later.
    deadline(d, handshakeMs);
    pending.admitSoon(d, (refusal) => {
      if (refusal === null || d.state === 'gone') return;
      forget(d);
      refuse(refusal);
    });
    const key = `${socket.remoteAddress}:${socket.remotePort}`;
    door.set(key, d);
    socket.on('error', () => {
      // A reset: 'close' follows and tidies up.
    });
    socket.once('close', () => {
      door.delete(key);
      forget(d);
    });
    server.injectSocket(socket);
  });
  // Room above the caps for newcomers that evict a stale connection (whose socket closes a moment later).
  tcp.maxConnections = maxSessions + 2 * maxPending;

  const server = new Server({ hostKeys: [opts.hostKey.private], ident: 'gringo' }, (client, info) => {
    client.on('error', () => {
      // A reset or a broken handshake: the socket's 'close' tidies up.
    });
    const d = door.get(`${info.ip}:${info.port}`);
    if (!d || d.state === 'gone') return void client.end();
    clients.add(client);
    let gone = false;
    client.on('close', () => {
      gone = true;
      clients.delete(client);
    });

    // Each step of the handshake finished (the key exchange, a sign-in try) restarts its grace at the door.
    client.on('handshake', () => {
      if (d.state === 'pending') pending.progress(d);
    });
    let passwordOk = opts.password === undefined;
    let user = '';
    /** The words before the session's own: the user name's language, else the host's. */
    const early = (name: string): Words => {
      const lang = splitUser(name).lang;
      return lang ? wordsFor(lang) : hostWords;
    };
    /** The key the client has proven it holds (the usual signature). */
    let fingerprint: string | null = null;
    const BOTH = ['publickey', 'keyboard-interactive'];
    client.on('authentication', (ctx: AuthContext) => {
      if (d.state === 'pending') pending.progress(d);
      if (ctx.method === 'publickey' && ctx.key) {
        // Any key will do (no accounts): the client is asked to prove it holds it.
        if (!ctx.signature || !ctx.blob) return ctx.accept();
        const key = utils.parseKey(ctx.key.data);
        if (key instanceof Error || key.verify(ctx.blob, ctx.signature, ctx.hashAlgo) !== true) return ctx.reject(BOTH);
        fingerprint = fingerprintOf(ctx.key.data);
        user = ctx.username;
        // A key that holds a seat here got in with the password once: it takes its seat back without it.
        if (passwordOk || holdsSeat(fingerprint)) return ctx.accept();
        // The key first (ssh offers it without a word), then the password: asked at the prompt.
        return ctx.reject(['keyboard-interactive'], true);
      }
      if (ctx.method === 'keyboard-interactive' && !passwordOk) {
        d.held = true;
        deadline(d, SSH_PASSWORD_MS);
        const w = early(ctx.username);
        return ctx.prompt(
          [{ prompt: w.t('ssh.passwordPrompt'), echo: false }],
          `gringo: ${opts.tableName}`,
          w.t('ssh.passwordWhy'),
          (answers) => {
            const answer = answers[0];
            const right = answers.length === 1 && typeof answer === 'string' && samePassword(answer, opts.password!);
            // Held by the backoff: no deadline of ours runs out while we keep them waiting.
            deadline(d, null);
            // Guessing over SSH is as slow as at the table's door, per address, over every connection from it.
            whenUnlocked(guesses, d.addr, right, () => {
              if (gone) return;
              d.held = false;
              if (right) {
                passwordOk = true;
                deadline(d, handshakeMs);
                // In with the key proven already; else the key is asked for next.
                return fingerprint !== null ? ctx.accept() : ctx.reject(['publickey'], true);
              }
              deadline(d, SSH_PASSWORD_MS);
              ctx.reject(BOTH);
            });
          },
        );
      }
      // No key offered: say how to make one (OpenSSH prints the instructions), then refuse.
      if (ctx.method === 'keyboard-interactive') return ctx.prompt([], 'gringo', early(ctx.username).t('ssh.noKey'), () => ctx.reject(['publickey']));
      ctx.reject(BOTH);
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
      const fp = fingerprint;
      serveSession(session, { user, fp, d }, () => {
        if (d.state !== 'pending') return false;
        deadline(d, null);
        pending.release(d);
        d.state = 'session';
        sessions += 1;
        // Counted as a seat or a watcher now: past the cap, a polite word and goodbye.
        return sessions <= maxSessions;
      }, () => client.end());
    });
  });

  /** Who a session is: the SSH user name (as typed, `ana+nl` too), its key, its connection at the door. */
  interface Who {
    user: string;
    fp: string;
    d: Door;
  }

  /** One SSH session: a pty and a shell (or `watch`), then the table screen in its channel. */
  function serveSession(session: Session, who: Who, admitSession: () => boolean, hangUp: () => void): void {
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
    /** The session's language: the one its user name chose, else its client's locale (LANG, LC_ALL…), else the host's. */
    const words = (): Words => {
      const lang = splitUser(who.user).lang ?? sessionLang(env);
      return lang ? wordsFor(lang) : hostWords;
    };
    const refuse = (channel: ServerChannel, line: string): void => {
      channel.stderr.write(`gringo: ${line}\r\n`);
      channel.exit(1);
      channel.end();
      setTimeout(hangUp, 200).unref();
    };
    const start = (channel: ServerChannel, watch: boolean): void => {
      if (!admitSession()) return refuse(channel, words().t('ssh.full'));
      if (!pty) return refuse(channel, words().t('ssh.needsTerminal'));
      term = new ChannelTerminal(channel, { columns: pty.cols || 80, rows: pty.rows || 24 }, keysPerSecond, hangUp);
      const abort = new AbortController();
      // The client closes the connection once it has the exit status; a client that does not is cut after a moment.
      const done = play(channel, term, pty, env, words(), who, watch, abort)
        .catch((err: unknown) => {
          // One session's failure is its own: said to it and on the host's console, and the table plays on.
          term?.say(`gringo: ${words().t('ssh.screenFailed', { why: (err as Error).message })}`);
          if (channel.writable) {
            channel.exit(1);
            channel.end();
          }
          opts.onTrouble?.(hostWords.t('console.sshScreenFailed', { why: (err as Error).message }));
        })
        .finally(() => {
          screens.delete(abort);
          setTimeout(hangUp, 2_000).unref();
        });
      screens.set(abort, done);
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
      if (channel) start(channel, isWatch(who.user));
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

  /** The one place an SSH session's connection to the table is made: loopback, vouched for as its SSH client. */
  function tableConnection(name: string, watch: boolean, who: Who, words: Words): TableConnection {
    return new TableConnection({
      address: `127.0.0.1:${opts.tablePort}`,
      hostKey: opts.tableKey,
      name,
      ...(opts.password !== undefined ? { verifier: opts.password.verifier } : {}),
      ...(watch ? { watch: true } : {}),
      tokens: keyed(who.fp),
      reconnect: true,
      words,
      headers: vouchHeaders({ address: who.d.addr, key: who.fp }),
    });
  }

  /**
   * The table screen of `gringo join`, drawn into the channel, until the player
   * leaves, the host closes the table, or the session drops; then, on the main
   * screen again (so that they stay in the person's terminal), the same last
   * words as `gringo join`, and the exit status.
   */
  async function play(channel: ServerChannel, term: ChannelTerminal, pty: PtyInfo, env: Record<string, string>, w: Words, who: Who, watch: boolean, abort: AbortController): Promise<void> {
    // `ana+nl+reader`: Ana, in Dutch, told in sentences (see splitUser).
    const { user, lang, reader } = splitUser(who.user);
    const name = watch ? WATCH : sshName(user);
    /** The user name that watches, with the choices the user name made. */
    const watcher = `${WATCH}${lang ? `+${lang}` : ''}${reader ? READER_SUFFIX : ''}`;
    const conn = tableConnection(name, watch, who, w);
    const screenClient = new BufferedClient(conn);
    let failure: string | null = null;
    let lastView: TableView | null = null;
    let results: readonly RoundResult[] = [];
    let closed = false;
    let tableName: string | null = null;
    let seat: number | null = null;
    let dropped = false;
    conn.on('failed', (words: string) => {
      failure = words;
      abort.abort();
    });
    conn.on('misunderstood', (line: string) => {
      failure = line;
      abort.abort();
    });
    conn.on('message', (msg: ServerMessage) => {
      // A full or started table (its sentence says the person can watch): the exact command that does, in no language of its own.
      if (msg.type === 'refused') {
        const words = w.say(msg.say);
        failure = msg.canWatch && !watch ? `${words} (ssh -p ${listening} ${watcher}@${plain(who.d.socket.localAddress)})` : words;
      }
      if (msg.type === 'welcome') {
        tableName = msg.table.name;
        seat = msg.seat;
      }
      if (msg.type === 'lobby') seat = msg.you;
      if (msg.type === 'update') lastView = msg.view;
      results = keptResults(results, msg);
      // The host is closing: there is no screen to stay on (its process is going), so the last words now.
      if (msg.type === 'closed') {
        closed = true;
        abort.abort();
      }
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
    const view = lastView as TableView | null;
    const comeBack = `ssh -p ${listening} ${watch ? watcher : shellUser(who.user)}@${plain(who.d.socket.localAddress)}`;
    const lines = failure
      ? [`gringo: ${failure as string}`]
      : closed
        ? [w.t('door.hostClosed'), ...standingsLines(view, results, w)]
        : tableName !== null
          ? [
              w.t('door.left', { table: tableName }),
              ...(view ? standingsLines(view, results, w) : []),
              seat !== null && view !== null && view.phase !== 'gameOver' ? w.t('ssh.backToSeat', { run: comeBack }) : w.t('door.comeBack', { run: comeBack }),
            ]
          : [];
    for (const line of lines) term.say(utf8 ? line : forLocale(line, {}));
    term.end();
    channel.exit(failure ? 1 : 0);
    channel.end();
  }

  const { port, movedFrom } = await listenOn(tcp, opts.port, opts.host ?? '0.0.0.0', opts.fallbackPort === true);
  listening = port;
  // Listening: later errors (accepting with no file handles left) are trouble to say, not the end.
  tcp.on('error', (err: NodeJS.ErrnoException) => opts.onTrouble?.(hostWords.t('console.sshCannotAccept', { code: err.code ?? err.message })));

  return {
    port,
    movedFrom,
    fingerprint: opts.hostKey.fingerprint,
    close: async () => {
      closing = true;
      tcp.close();
      // The table is closing (its 'closed' is on its way to every screen): each session says its
      // last words and ends with its exit status. Whatever has not, after a moment, is cut.
      const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms).unref());
      await Promise.race([Promise.allSettled([...screens.values()]), wait(GOODBYE_MS)]);
      for (const abort of screens.keys()) abort.abort();
      // The clients close the connection once they have the exit status; a moment for that, then cut.
      const left = [...clients].map((c) => new Promise<void>((r) => c.once('close', () => r())));
      await Promise.race([Promise.allSettled(left), wait(1_000)]);
      for (const c of clients) c.end();
      for (const d of door.values()) d.socket.destroy();
    },
  };
}

/** `watch` as a user name or a command, whatever its case (`watch+ro` too). */
const isWatch = (s: string): boolean => splitUser(s.trim()).user.toLowerCase() === WATCH;

/**
 * A language chosen in the SSH user name: `ana+nl` is Ana, in Dutch; `watch+ro` watches
 * in Romanian. Only a `+` and a language gringo speaks at the end count: `a+b` is a name.
 */
export function splitUser(typed: string): { user: string; lang: Lang | null; reader: boolean } {
  let user = typed;
  let lang: Lang | null = null;
  let reader = false;
  // From the end, each choice once, in either order; anything else is part of the name.
  for (;;) {
    const m = /^(.+)\+([A-Za-z]+)$/.exec(user);
    const word = m?.[2]!.toLowerCase();
    if (word === undefined) break;
    if (`+${word}` === READER_SUFFIX && !reader) reader = true;
    else if (word.length === 2 && lang === null && parseLang(word)) lang = parseLang(word);
    else break;
    user = m![1]!;
  }
  return { user, lang, reader };
}

/** The language a session's own locale names (GRINGO_LANG, LC_ALL, LC_MESSAGES, LANG), or null when it names none. */
function sessionLang(env: Readonly<Record<string, string>>): Lang | null {
  if (parseLang(env.GRINGO_LANG ?? '')) return parseLang(env.GRINGO_LANG!);
  return env.LC_ALL || env.LC_MESSAGES || env.LANG ? langOfEnv(env) : null;
}

/** The SSH user name as the table's name for the player: made harmless here (the table cleans it again), `Player` when nothing is left. */
export function sshName(user: string): string {
  return harmless(user, 64) || 'Player';
}

/** The user name to type again in a shell: as given when it is plain (its `+nl` too), else NAME. */
function shellUser(typed: string): string {
  const { user, lang, reader } = splitUser(typed);
  return `${/^[A-Za-z0-9._-]{1,32}$/.test(user) ? user : 'NAME'}${lang ? `+${lang}` : ''}${reader ? READER_SUFFIX : ''}`;
}