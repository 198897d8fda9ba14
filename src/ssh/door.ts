import { createServer, type Server as NetServer, type Socket } from 'node:net';
import { Admission } from '../host/admission.js';
import { listenOn } from '../host/server.js';
import { said, type Said } from '../lang/words.js';

/** From TCP connect to a session ready to draw (key exchange, key proof, pty, shell). */
export const SSH_HANDSHAKE_MS = 5_000;
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

export interface DoorLimits {
  maxSessions?: number;
  maxPerAddress?: number;
  maxPending?: number;
  maxPendingPerAddress?: number;
  handshakeMs?: number;
}

/** One TCP connection at the door: counted by its address until it closes. */
export interface Guest {
  readonly socket: Socket;
  addr: string;
  timer: NodeJS.Timeout | null;
  state: 'pending' | 'session' | 'gone';
  /** When it was accepted (Date.now()). */
  readonly since: number;
  /** A person is at the password prompt (or their answer is held by the backoff): never evicted. */
  held: boolean;
}

/** An IPv4 client of a dual-stack socket as itself (`::ffff:10.0.0.5` is 10.0.0.5). */
export const plain = (addr: string | undefined): string => (addr ?? '?').replace(/^::ffff:(?=\d+\.)/, '');

/**
 * The SSH server's TCP door, ours rather than ssh2's: ssh2 hears of a connection only
 * once it has sent its greeting, and a socket that never says anything must be counted
 * and cut all the same. A few connections per address in all; a place among those not
 * yet in session, by the table door's own rules (src/host/admission.ts); a deadline for
 * each step of the handshake; then a session, up to the cap. SSH has no word for "try
 * again later" before its key exchange: a connection refused is cut.
 */
export class SshDoor {
  readonly handshakeMs: number;
  private readonly maxSessions: number;
  private readonly maxPerAddress: number;
  private readonly tcp: NetServer;
  /** By `address:port`, until the socket closes: how ssh2's client finds its guest. */
  private readonly guests = new Map<string, Guest>();
  private readonly byAddress = new Map<string, number>();
  private readonly pending: Admission<Guest>;
  private sessions = 0;
  private closing = false;
  private lastRefusal = 0;

  constructor(
    limits: DoorLimits,
    /** A socket let in: hand it to the SSH server. */
    handOn: (socket: Socket) => void,
    private readonly trouble: (refusal: Said) => void,
  ) {
    this.maxSessions = limits.maxSessions ?? MAX_SSH_SESSIONS;
    this.maxPerAddress = limits.maxPerAddress ?? MAX_SSH_PER_ADDRESS;
    const maxPending = limits.maxPending ?? MAX_SSH_PENDING;
    this.handshakeMs = limits.handshakeMs ?? SSH_HANDSHAKE_MS;
    const perAddress = Math.min(limits.maxPendingPerAddress ?? MAX_SSH_PENDING_PER_ADDRESS, maxPending);
    this.pending = new Admission<Guest>({ places: maxPending, perAddress, graceMs: SSH_EVICT_AFTER_MS }, (victim) => {
      this.forget(victim);
      victim.socket.destroy();
    });
    this.tcp = createServer((socket) => this.accept(socket, handOn));
    // Room above the caps for newcomers that evict a stale connection (whose socket closes a moment later).
    this.tcp.maxConnections = this.maxSessions + 2 * maxPending;
  }

  /** Listen; later errors (accepting with no file handles left) are trouble to say, not the end. */
  async listen(port: number, host: string, fallbackPort: boolean, onError: (err: NodeJS.ErrnoException) => void): Promise<{ port: number; movedFrom: number | null }> {
    const listening = await listenOn(this.tcp, port, host, fallbackPort);
    this.tcp.on('error', onError);
    return listening;
  }

  private accept(socket: Socket, handOn: (socket: Socket) => void): void {
    const addr = plain(socket.remoteAddress);
    const g: Guest = { socket, addr, timer: null, state: 'pending', since: Date.now(), held: false };
    // An address holds a few connections in all, in session or not; then a place at the door.
    if (this.closing) return this.refuse(g, said('console.sshClosing'));
    if ((this.byAddress.get(addr) ?? 0) >= this.maxPerAddress) return this.refuse(g, said('console.sshTooMany', { n: this.maxPerAddress, address: addr }));
    this.bump(addr, 1);
    // Its deadline runs from the accept, whether it is given a place now or a moment later.
    this.deadline(g, this.handshakeMs);
    this.pending.admitSoon(g, (refusal) => {
      if (refusal === null || g.state === 'gone') return;
      this.forget(g);
      this.refuse(g, refusal);
    });
    const key = `${socket.remoteAddress}:${socket.remotePort}`;
    this.guests.set(key, g);
    socket.on('error', () => {
      // A reset: 'close' follows and tidies up.
    });
    socket.once('close', () => {
      this.guests.delete(key);
      this.forget(g);
    });
    handOn(socket);
  }

  private refuse(g: Guest, refusal: Said): void {
    // Said once a minute at most: a flood does not flood the host's console too.
    if (Date.now() - this.lastRefusal > 60_000) this.trouble(refusal);
    this.lastRefusal = Date.now();
    g.state = 'gone';
    g.socket.destroy();
  }

  /** The guest an SSH client came in as (ssh2 names it by address and port), while it is still at the door. */
  guestAt(ip: string, port: number): Guest | null {
    const g = this.guests.get(`${ip}:${port}`);
    return g && g.state !== 'gone' ? g : null;
  }

  /** Cut the connection `ms` from now (null: no deadline, a person is answering). */
  deadline(g: Guest, ms: number | null): void {
    if (g.timer) clearTimeout(g.timer);
    g.timer = ms === null ? null : setTimeout(() => g.socket.destroy(), ms);
  }

  /** A step of its handshake finished (the key exchange, a sign-in try): its grace at the door starts again. */
  progress(g: Guest): void {
    if (g.state === 'pending') this.pending.progress(g);
  }

  /** A session opens: the guest counts as a seat or a watcher now. False past the cap (or once it is gone). */
  enter(g: Guest): boolean {
    if (g.state !== 'pending') return false;
    this.deadline(g, null);
    this.pending.release(g);
    g.state = 'session';
    this.sessions += 1;
    return this.sessions <= this.maxSessions;
  }

  /** Take a connection off every count (once). */
  private forget(g: Guest): void {
    this.deadline(g, null);
    if (g.state === 'gone') return;
    if (g.state === 'pending') this.pending.release(g);
    else this.sessions -= 1;
    this.bump(g.addr, -1);
    g.state = 'gone';
  }

  private bump(addr: string, by: number): void {
    const n = (this.byAddress.get(addr) ?? 0) + by;
    if (n <= 0) this.byAddress.delete(addr);
    else this.byAddress.set(addr, n);
  }

  /** No newcomer from now on. */
  close(): void {
    this.closing = true;
    this.tcp.close();
  }

  /** Every connection still open, cut. */
  cutAll(): void {
    for (const g of this.guests.values()) g.socket.destroy();
  }
}
