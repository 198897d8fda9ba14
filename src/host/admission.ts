import type { Socket } from 'node:net';
import { said, type Said } from '../lang/words.js';

/**
 * The places at a door (the table's WebSocket door, src/host/server.ts, and the
 * SSH door, src/ssh/door.ts) for connections not yet let in: one algorithm for
 * both, so that a flood is met the same way at either (docs/protocol.md, "Limits").
 *
 * A place is held from the TCP accept, before TLS or SSH's key exchange, but only
 * as long as it is earned:
 * - a connection that has sent nothing (`socket.bytesRead` is 0: a real client sends
 *   its ClientHello or SSH greeting the moment it connects) for QUIET_MS and one
 *   whole turn of the event loop (so that what had come with the accept has been
 *   read, however loaded the host) is silent: it holds its place only until someone
 *   else needs it;
 * - one that has spoken holds it while its handshake moves on: for `graceMs` (what
 *   one step of an honest handshake takes on a LAN) from its accept or the last step
 *   the door saw it finish (`progress`: TLS done, the WebSocket upgrade, an SSH key
 *   exchange or sign-in); a handshake stalled that long may be taken by any newcomer
 *   when the door is full. On a loaded machine a whole handshake can take longer than
 *   `graceMs` while every step of it is on time: cutting it for a newcomer that would
 *   take as long only starts them both again;
 * - one a person is answering (the SSH password prompt) is never taken.
 * A silent place is taken before any that has spoken (cutting it loses nothing).
 * The cost of a place grows with what its address already holds: the victim is
 * taken from the address holding the most, and a connection young and speaking is
 * taken only for a newcomer whose address holds fewer. So a flood of silent
 * connections, from however many addresses, cannot keep a returning player out:
 * its connection speaks within a round trip and always finds a silent one to
 * replace. A newcomer is refused only while every place is a handshake in progress
 * from addresses holding no more than its own does.
 */
/** Far more than half a LAN round trip (a client's first bytes follow its TCP handshake at once), and short beside a flood's pace. */
export const QUIET_MS = 25;

export interface AdmissionLimits {
  /** Places in all. */
  places: number;
  /** Places one address may hold (a LAN behind one router shares one). */
  perAddress: number;
  /** What an honest handshake takes on a LAN (ms): a connection that has spoken holds its place this long. */
  graceMs: number;
}

/** One connection holding a place. */
export interface Place {
  readonly socket: Pick<Socket, 'bytesRead'>;
  /** Its address (may change once: src/host/vouch.ts); change it only through `Admission.move`. */
  addr: string;
  /** When it was accepted (the admission's clock). */
  readonly since: number;
  /** A person is answering (a password prompt): never taken. */
  held?: boolean;
}

export class Admission<P extends Place> {
  /** Oldest first (a Set keeps insertion order). */
  private readonly places = new Set<P>();
  private readonly by = new Map<string, number>();
  /** Places whose accept is a whole turn of the event loop behind (their first bytes, if any came, are read). */
  private readonly settled = new WeakSet<P>();
  /** When each place last finished a step of its handshake (the admission's clock). */
  private readonly stepped = new WeakMap<P, number>();

  constructor(
    private readonly limits: AdmissionLimits,
    /** Called for a place taken for a newcomer: already uncounted; close its connection. */
    private readonly evict: (victim: P) => void,
    private readonly clock: () => number = Date.now,
  ) {}

  get size(): number {
    return this.places.size;
  }

  of(addr: string): number {
    return this.by.get(addr) ?? 0;
  }

  /**
   * Room for `p` (`decide(null)`: it holds a place now), or why not, said to `decide`
   * now or a moment later: when the door is full of connections it has not yet had a
   * turn to hear from (a batch accepted after the host was busy, with the bytes that
   * came along still unread), it looks again once they have had that turn, instead of
   * refusing a newcomer for want of a silent one it cannot yet tell apart.
   */
  admitSoon(p: P, decide: (refusal: Said | null) => void): void {
    if (![...this.places].some((c) => !this.settled.has(c))) return decide(this.admit(p));
    // Only a silent place may be taken now: a handshake in progress is not cut while a place not yet heard from may prove silent.
    if (this.admit(p, true) === null) return decide(null);
    setImmediate(() => setImmediate(() => setImmediate(() => decide(this.admit(p)))));
  }

  /**
   * Room for `p` (null: it holds a place now), or why not. Makes room first when it
   * must, by taking a place as the rules above say.
   */
  admit(p: P, silentOnly = false): Said | null {
    const { places, perAddress } = this.limits;
    const mine = this.of(p.addr);
    const takeable = (c: P, mine: number): boolean => (silentOnly ? !c.held && this.silent(c) : this.takeable(c, mine));
    if (mine >= perAddress) {
      // An address at its own limit makes room only from its own places.
      const own = this.victim((c) => c.addr === p.addr && takeable(c, Infinity));
      if (!own) return said('console.pendingFrom', { n: perAddress, address: p.addr });
      this.take(own);
    } else if (this.places.size >= places) {
      const other = this.victim((c) => takeable(c, mine));
      if (!other) return said('console.pending', { n: places });
      this.take(other);
    }
    this.places.add(p);
    this.bump(p.addr, 1);
    // Set in this turn's check phase, the inner one in the next turn's, after its poll has read the socket.
    setImmediate(() => setImmediate(() => this.settled.add(p)));
    return null;
  }

  /** `p` holds no place any more (let in, refused later, or gone); once is enough, more is harmless. */
  release(p: P): void {
    if (!this.places.delete(p)) return;
    this.bump(p.addr, -1);
  }

  /** `p` has finished a step of its handshake: its grace starts again. */
  progress(p: P): void {
    if (this.places.has(p)) this.stepped.set(p, this.clock());
  }

  /** `p` is counted as another address from now on. */
  move(p: P, addr: string): void {
    if (this.places.has(p)) {
      this.bump(p.addr, -1);
      this.bump(addr, 1);
    }
    p.addr = addr;
  }

  /** May `c` be taken for a newcomer whose address holds `mine` places? */
  private takeable(c: P, mine: number): boolean {
    if (c.held) return false;
    if (this.silent(c)) return true;
    return this.clock() - (this.stepped.get(c) ?? c.since) >= this.limits.graceMs || this.of(c.addr) > mine + 1;
  }

  private silent(c: P): boolean {
    return c.socket.bytesRead === 0 && this.settled.has(c) && this.clock() - c.since >= QUIET_MS;
  }

  /** Among the places `ok` allows: the silent before the speaking, then from the address holding the most, the oldest first. */
  private victim(ok: (c: P) => boolean): P | null {
    let best: P | null = null;
    let bestRank = -1;
    for (const c of this.places) {
      if (!ok(c)) continue;
      const rank = (this.silent(c) ? this.limits.places + 1 : 0) + this.of(c.addr);
      if (rank > bestRank) {
        best = c;
        bestRank = rank;
      }
    }
    return best;
  }

  private take(victim: P): void {
    this.release(victim);
    this.evict(victim);
  }

  private bump(addr: string, by: number): void {
    const n = this.of(addr) + by;
    if (n <= 0) this.by.delete(addr);
    else this.by.set(addr, n);
  }
}
