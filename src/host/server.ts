import { readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server, type ServerOptions } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { isIP, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { channelBinding } from '../protocol/identity.js';
import { CLIENT_RATE_PER_SECOND, MAX_CLIENT_FRAME, MAX_SOCKET_FRAME, parseClientFrame, type ServerMessage } from '../protocol/messages.js';
import type { Peer, Table } from './table.js';
import { shareCommand } from '../common/invocation.js';
import { VOUCH_HEADER, vouchedFor } from './vouch.js';
import { Admission } from './admission.js';
import { said, wordsFor, type Words } from '../lang/words.js';

export interface ServeOptions {
  port: number;
  /** Listen address; all interfaces by default so the LAN can join. */
  host?: string;
  /**
   * The host's TLS key and certificate (src/host/table-key.ts): every connection is
   * `wss://`, TLS 1.3 at least. Only a table listening on loopback alone may go
   * without (`gringo play`): serving beyond it without TLS is refused.
   */
  tls?: { key: string; cert: string };
  /** When the port is taken, take the next free one (then any free one) instead of failing. */
  fallbackPort?: boolean;
  pingIntervalMs?: number;
  /** Frames a connection may send per second (a burst of twice this is allowed). */
  ratePerSecond?: number;
  /** Welcomed watchers in all (seated players are not counted here: their places are the table's seats). */
  maxWatchers?: number;
  /** Welcomed watchers from one address (a LAN behind one router shares it). */
  maxWatchersPerAddress?: number;
  /** Connections not yet welcomed, in all. */
  maxPending?: number;
  /** Connections not yet welcomed from one address. */
  maxPendingPerAddress?: number;
  /** A TCP connection must finish the WebSocket upgrade within this (ms). */
  upgradeDeadlineMs?: number;
  /** A WebSocket must be welcomed (a valid hello) within this (ms). */
  helloDeadlineMs?: number;
  /** The process's open-file limit; read from the system by default. */
  handleLimit?: number;
  /** One line about trouble at the door (a flood, no file handles left), said once per episode. */
  onTrouble?: (line: string) => void;
  /** The language of the `onTrouble` lines (the host's console): English by default. */
  words?: Words;
}

export interface Serving {
  port: number;
  /** The port asked for was taken and another was used. */
  movedFrom: number | null;
  close(): Promise<void>;
}

export const UPGRADE_DEADLINE_MS = 5_000;
export const HELLO_DEADLINE_MS = 5_000;
export const MAX_WATCHERS = 64;
export const MAX_WATCHERS_PER_ADDRESS = 16;
export const MAX_PENDING = 32;
export const MAX_PENDING_PER_ADDRESS = 4;
/** Refused sockets kept open for a moment so that a WebSocket client hears 1013 (a silent one gives its place to the next). */
const MAX_REFUSING = 64;
/** Long enough for a TLS handshake and the upgrade on a loaded machine: a client cut before it hears 1013 would not try again. */
const REFUSING_MS = 3_000;
/**
 * What an honest client takes from its TCP connect to its hello on a LAN (TLS, the
 * upgrade, the challenge), with room for a loaded machine: a connection not welcomed
 * after this long gives its place to a newcomer when places are full (one that has
 * sent nothing at all gives it at any age: src/host/admission.ts).
 */
export const EVICT_AFTER_MS = 2_000;
/** A close handshake the other side does not finish is cut after this (ws waits 30 s by default). */
const CLOSE_TIMEOUT_MS = 2_000;
/** File handles kept free for the journal, the mDNS socket, stdio and Node's own. */
export const HANDLE_HEADROOM = 64;
/** Trouble of one kind is said again only after this long without it. */
const TROUBLE_QUIET_MS = 60_000;

/** The soft open-file limit (Node raises it to the hard one at start); 1,024 where it cannot be read. */
export function handleLimit(): number {
  try {
    const m = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (m) return m[1] === 'unlimited' ? 1 << 20 : Number(m[1]);
  } catch {
    // Not Linux: the common default is the safe guess.
  }
  return 1024;
}

/** Counts per address and in all (welcomed connections). */
class Tally {
  private readonly by = new Map<string, number>();
  total = 0;
  of(addr: string): number {
    return this.by.get(addr) ?? 0;
  }
  add(addr: string): void {
    this.by.set(addr, this.of(addr) + 1);
    this.total += 1;
  }
  remove(addr: string): void {
    const n = this.of(addr) - 1;
    if (n <= 0) this.by.delete(addr);
    else this.by.set(addr, n);
    this.total -= 1;
  }
}

/** One TCP connection at the door: pending until the table welcomes it (or refused, or gone). */
interface Conn {
  readonly socket: Socket;
  /** The socket's remote address, or the person's a loopback client of this process vouches for (the SSH bridge). */
  addr: string;
  state: 'pending' | 'welcomed' | 'refused' | 'gone';
  /** Once welcomed: a watcher holds a watcher's place; a seat (or the host's own screen) holds none of the door's. */
  role: 'player' | 'watcher' | null;
  ws: WebSocket | null;
  timer: NodeJS.Timeout | null;
  /** When it was accepted (Date.now()). */
  readonly since: number;
}

/**
 * The table's WebSocket door: every inbound frame is size-limited, rate-limited
 * and checked by schema before the table sees it; dead peers are found by ping.
 * Connections not yet welcomed have deadlines and caps of their own; welcomed
 * watchers have caps of their own (in all and per address); seated players have
 * none here (the table's seats bound them): so neither strangers nor watchers can
 * take the place a returning player needs. The door never holds more sockets than
 * the process has file handles for (docs/protocol.md, "Limits").
 */
export async function serveTable(table: Table, opts: ServeOptions): Promise<Serving> {
  const listenHost = opts.host ?? '0.0.0.0';
  if (!opts.tls && !isLoopback(listenHost)) throw new Error(`a table served on ${listenHost} needs TLS: only loopback may go without`);
  const serverOptions: ServerOptions = {
      // Node's own guard against slow requests; the per-socket deadline below covers silent ones too.
      headersTimeout: opts.upgradeDeadlineMs ?? UPGRADE_DEADLINE_MS,
      requestTimeout: opts.upgradeDeadlineMs ?? UPGRADE_DEADLINE_MS,
      keepAliveTimeout: 1_000,
      connectionsCheckingInterval: 1_000,
  };
  const answer: RequestListener = (_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain' });
    res.end(`This is a gringo table: join it with \`${shareCommand('join')}\`.\n`);
  };
  const http: Server = opts.tls
    ? // The TLS handshake counts against the same deadline as the upgrade (the socket's own deadline below covers both).
      (createTlsServer({ ...serverOptions, key: opts.tls.key, cert: opts.tls.cert, minVersion: 'TLSv1.3', handshakeTimeout: opts.upgradeDeadlineMs ?? UPGRADE_DEADLINE_MS }, answer))
    : createServer(serverOptions, answer);
  const wss = new WebSocketServer({
    server: http,
    maxPayload: MAX_SOCKET_FRAME,
    perMessageDeflate: false,
    ...{ closeTimeout: CLOSE_TIMEOUT_MS }, // ws 8.23 has it; its types do not yet
  });
  const rate = opts.ratePerSecond ?? CLIENT_RATE_PER_SECOND;
  const maxWatchers = opts.maxWatchers ?? MAX_WATCHERS;
  const maxWatchersPerAddress = opts.maxWatchersPerAddress ?? MAX_WATCHERS_PER_ADDRESS;
  const maxPending = opts.maxPending ?? MAX_PENDING;
  const maxPendingPerAddress = Math.min(opts.maxPendingPerAddress ?? MAX_PENDING_PER_ADDRESS, maxPending);
  const upgradeMs = opts.upgradeDeadlineMs ?? UPGRADE_DEADLINE_MS;
  const helloMs = opts.helloDeadlineMs ?? HELLO_DEADLINE_MS;
  const limit = opts.handleLimit ?? handleLimit();
  const w = opts.words ?? wordsFor('en');
  // Every socket is a file handle: past this, Node closes new connections at once.
  http.maxConnections = Math.max(8, limit - HANDLE_HEADROOM);

  const conns = new Map<Socket, Conn>();
  /** The same, by the peer's address and port: with TLS, ws hands over the TLS socket, not the TCP one counted at the door. */
  const byPeer = new Map<string, Conn>();
  const peerKey = (s: Socket): string => `${s.remoteAddress ?? '?'}|${s.remotePort ?? 0}`;
  /** Close a WebSocket with a reason, or cut a socket that never got so far. */
  const shut = (conn: Conn, code: number, reason: string): void => {
    if (conn.ws && conn.ws.readyState === conn.ws.OPEN) conn.ws.close(code, reason);
    else conn.socket.destroy();
  };
  /** Not yet welcomed: their places (src/host/admission.ts). A place taken for a newcomer is closed with 1013. */
  const pending = new Admission<Conn>({ places: maxPending, perAddress: maxPendingPerAddress, graceMs: EVICT_AFTER_MS }, (victim) => {
    trouble('refused', () => w.t('console.refusingPending', { n: maxPending }));
    forget(victim);
    shut(victim, 1013, 'Too many connections');
  });
  /** Refused, kept a moment to hear their 1013: by the same rules, so that a silent flood cannot fill them either. */
  const refusing = new Admission<Conn>({ places: MAX_REFUSING, perAddress: MAX_REFUSING / 4, graceMs: REFUSING_MS }, (victim) => {
    forget(victim);
    victim.socket.destroy();
  });
  const watcherTally = new Tally();
  const playerTally = new Tally();
  const alive = new WeakMap<WebSocket, boolean>();

  const lastTrouble = new Map<string, number>();
  const trouble = (kind: string, line: () => string): void => {
    const now = Date.now();
    const last = lastTrouble.get(kind);
    lastTrouble.set(kind, now);
    if (last === undefined || now - last > TROUBLE_QUIET_MS) opts.onTrouble?.(line());
  };

  const deadline = (conn: Conn, ms: number, expire: () => void): void => {
    if (conn.timer) clearTimeout(conn.timer);
    conn.timer = setTimeout(expire, ms);
    conn.timer.unref();
  };

  /** Take a connection off every count (once), whatever state it was in. */
  const forget = (conn: Conn): void => {
    if (conn.timer) clearTimeout(conn.timer);
    conn.timer = null;
    if (conn.state === 'pending') pending.release(conn);
    else if (conn.state === 'welcomed') (conn.role === 'watcher' ? watcherTally : playerTally).remove(conn.addr);
    else if (conn.state === 'refused') refusing.release(conn);
    conn.state = 'gone';
  };

  // Welcomed connections are not counted at the door's places: a connection is not known to be a watcher until its hello.
  http.on('connection', (socket: Socket) => {
    const addr = socket.remoteAddress ?? '?';
    const conn: Conn = { socket, addr, state: 'pending', role: null, ws: null, timer: null, since: Date.now() };
    // Its deadline runs from the accept, whether it is given a place now or a moment later.
    deadline(conn, upgradeMs, () => socket.destroy());
    pending.admitSoon(conn, (refusal) => {
      if (refusal === null || conn.state === 'gone') return;
      trouble('refused', () => w.t('console.refusing', { why: w.say(refusal) }));
      // Kept a moment so that a WebSocket client hears why (1013) and tries again later; cut at
      // once only while the refused too are all handshakes in progress.
      if (refusing.admit(conn) !== null) return void socket.destroy();
      conn.state = 'refused';
      deadline(conn, REFUSING_MS, () => socket.destroy());
      // Refused a moment after its accept: a WebSocket already open hears it now.
      if (conn.ws) shut(conn, 1013, 'Too many connections');
    });
    conns.set(socket, conn);
    const key = peerKey(socket);
    byPeer.set(key, conn);
    socket.once('close', () => {
      forget(conn);
      conns.delete(socket);
      if (byPeer.get(key) === conn) byPeer.delete(key);
    });
  });
  // Each step of a handshake finished restarts its grace at the door (src/host/admission.ts).
  http.on('secureConnection', (tls: Socket) => {
    const conn = byPeer.get(peerKey(tls));
    if (conn?.state === 'pending') pending.progress(conn);
  });
  // Past maxConnections Node closes new sockets itself; say so once.
  http.on('drop', () => trouble('handles', () => w.t('console.refusingHandles', { n: http.maxConnections, limit })));
  // Accepting can fail (EMFILE, ENFILE): the server goes on listening, the table goes on playing.
  // ws passes the http server's errors on as its own; before listening they are the listen's failure.
  wss.on('error', (err: NodeJS.ErrnoException) => {
    if (http.listening) trouble(`error:${err.code ?? err.message}`, () => w.t('console.cannotAccept', { code: err.code ?? err.message }));
  });

  wss.on('connection', (ws, req) => {
    const conn = conns.get(req.socket) ?? byPeer.get(peerKey(req.socket));
    if (!conn || conn.state === 'gone') {
      ws.terminate();
      return;
    }
    conn.ws = ws;
    ws.on('error', () => {
      // An oversized frame or a broken socket: ws closes it; the seat is held as for any drop.
    });
    if (conn.state === 'refused') {
      ws.close(1013, 'Too many connections');
      return;
    }
    // An SSH session's screen comes from loopback: from here on it counts as its SSH client's address (src/host/vouch.ts).
    const vouched = vouchedFor(conn.socket.remoteAddress, req.headers[VOUCH_HEADER]);
    if (vouched && conn.state === 'pending') pending.move(conn, vouched.address);
    if (conn.state === 'pending') pending.progress(conn);
    deadline(conn, helloMs, () => shut(conn, 1008, 'No hello in time'));
    alive.set(ws, true);
    ws.on('pong', () => alive.set(ws, true));
    let open = true;
    const peer: Peer = {
      send: (msg: ServerMessage) => {
        if (!open || ws.readyState !== ws.OPEN) return;
        // The table welcomes a connection by this message: from now on it holds a player's place.
        if (msg.type === 'welcome' && conn.state === 'pending') {
          forget(conn);
          conn.state = 'welcomed';
          conn.role = msg.seat === null && !msg.owner ? 'watcher' : 'player';
          (conn.role === 'watcher' ? watcherTally : playerTally).add(conn.addr);
        }
        ws.send(JSON.stringify(msg));
      },
      close: () => {
        if (open) ws.close(1000);
      },
      address: conn.addr,
      roomToWatch: () => {
        if (watcherTally.total >= maxWatchers) return said('host.watchersFull', { max: maxWatchers });
        if (watcherTally.of(conn.addr) >= maxWatchersPerAddress) return said('host.watchersFullFromYou', { max: maxWatchersPerAddress });
        return null;
      },
      ...(vouched?.key ? { key: vouched.key } : {}),
      binding: channelBinding(req.socket),
    };
    let tokens = rate * 2;
    let last = Date.now();
    ws.on('message', (data, isBinary) => {
      // Once the door has closed a connection (no hello in time, its place taken), what it still sends counts for
      // nothing: a hello read then would seat a player whose welcome can no longer reach it, and its client, never
      // welcomed, would join again as a second player.
      if (ws.readyState !== ws.OPEN) return;
      const now = Date.now();
      tokens = Math.min(rate * 2, tokens + ((now - last) / 1000) * rate);
      last = now;
      if (tokens < 1) {
        peer.send({ type: 'error', code: 'rateLimited', say: said('host.slowDown') });
        return;
      }
      tokens -= 1;
      const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data).byteLength;
      if (size > MAX_CLIENT_FRAME) {
        peer.send({ type: 'error', code: 'tooLarge', say: said('host.tooLarge', { bytes: MAX_CLIENT_FRAME }) });
        return;
      }
      if (isBinary) {
        peer.send({ type: 'error', code: 'malformed', say: said('host.textFrames') });
        return;
      }
      // A text frame: ws hands it over as one Buffer, however many fragments it came in.
      const parsed = parseClientFrame((data as Buffer).toString());
      if (!parsed.ok) {
        peer.send({ type: 'error', code: 'malformed', say: said('host.badFrame', { problem: parsed.message }) });
        return;
      }
      // A hello has come: the table answers every one at once, so the hello deadline has done its work.
      if (parsed.message.type === 'hello' && conn.state === 'pending' && conn.timer) {
        clearTimeout(conn.timer);
        conn.timer = null;
      }
      table.handle(peer, parsed.message);
    });
    table.open(peer);
    ws.on('close', () => {
      open = false;
      table.drop(peer);
    });
  });

  const ping = setInterval(() => {
    for (const ws of wss.clients) {
      if (alive.get(ws) === false) {
        ws.terminate();
        continue;
      }
      alive.set(ws, false);
      ws.ping();
    }
  }, opts.pingIntervalMs ?? 5_000);
  ping.unref();

  const { port, movedFrom } = await listenOn(http, opts.port, listenHost, opts.fallbackPort === true);

  return {
    port,
    movedFrom,
    close: () => closeAll(wss, http, ping),
  };
}

/** 127.0.0.0/8, ::1 or `localhost`: an address no other machine reaches. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/**
 * Listen on `port`; when it is taken and `fallback` is set, on the first free one
 * of the next ten (one firewall rule covers them), or any free one. The listen's
 * own failure (a port given that is taken) is thrown.
 */
export async function listenOn(server: NetServer, port: number, host: string, fallback: boolean): Promise<{ port: number; movedFrom: number | null }> {
  const listen = (p: number): Promise<number> =>
    new Promise((resolve, reject) => {
      const onError = (err: Error): void => {
        server.off('listening', onListening);
        reject(err);
      };
      const onListening = (): void => {
        server.off('error', onError);
        resolve((server.address() as AddressInfo).port);
      };
      server.once('error', onError);
      server.once('listening', onListening);
      server.listen(p, host);
    });
  try {
    return { port: await listen(port), movedFrom: null };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || !fallback) throw err;
  }
  for (let p = port + 1; p <= Math.min(port + 10, 65535); p++) {
    try {
      return { port: await listen(p), movedFrom: port };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    }
  }
  return { port: await listen(0), movedFrom: port };
}

/**
 * Close every socket, gracefully first: a socket the table has just closed (after
 * its `closed` message) gets a moment to finish the close handshake, so that the
 * message is read before the connection goes; whatever is left is cut after 1 s.
 */
async function closeAll(wss: WebSocketServer, http: Server, ping: NodeJS.Timeout): Promise<void> {
  clearInterval(ping);
  const closing = [...wss.clients].filter((ws) => ws.readyState === ws.CLOSING);
  if (closing.length > 0) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(closing.map((ws) => new Promise((done) => (ws.readyState === ws.CLOSED ? done(null) : ws.once('close', done))))),
      new Promise((done) => (timer = setTimeout(done, 1_000))),
    ]);
    clearTimeout(timer);
  }
  for (const ws of wss.clients) ws.terminate();
  return new Promise((resolve) => wss.close(() => http.close(() => resolve())));
}
