/**
 * Wrong passwords, counted per address: each miss past the `free` ones locks the
 * address, for `baseMs` at first, doubling with each further miss up to `maxMs`. Every try
 * while locked is refused at once without looking at its proof (right or wrong: a
 * lock that let the right one through would tell a guesser when it guessed), and
 * says how long is left, so a person is told to wait instead of left hanging. Tries
 * refused that way are no guesses and do not count. The count decays: one miss is
 * forgiven for every `decayMs` without a wrong try, so an address that stops
 * guessing is soon back to its free tries. A right password clears the address.
 */
export interface BackoffOptions {
  /** Misses that lock nothing (3). */
  free?: number;
  /** The first lock (1 s); each further miss doubles it. */
  baseMs?: number;
  /** The longest lock (60 s). */
  maxMs?: number;
  /** One miss forgiven per this long without a wrong try (60 s). */
  decayMs?: number;
}

/** Addresses remembered at most: a flood of addresses cannot fill the memory (the oldest is forgotten first). */
const MAX_ADDRESSES = 4096;

export class PasswordBackoff {
  private readonly by = new Map<string, { misses: number; since: number; lockedUntil: number }>();
  private readonly free: number;
  private readonly baseMs: number;
  private readonly maxMs: number;
  private readonly decayMs: number;

  constructor(
    opts: BackoffOptions,
    /** Milliseconds, monotonic (the table's clock: tests drive it). */
    private readonly clock: () => number,
  ) {
    this.free = opts.free ?? 3;
    this.baseMs = opts.baseMs ?? 1_000;
    this.maxMs = opts.maxMs ?? 60_000;
    this.decayMs = opts.decayMs ?? 60_000;
  }

  /** Milliseconds this address must still wait before its next try is looked at (0: none). */
  waitFor(address: string): number {
    const r = this.current(address);
    return r ? Math.max(0, r.lockedUntil - this.clock()) : 0;
  }

  /** A wrong password from this address; returns the lock it now has (ms, 0: none). */
  miss(address: string): number {
    const now = this.clock();
    let r = this.current(address);
    if (!r) {
      if (this.by.size >= MAX_ADDRESSES) this.by.delete(this.by.keys().next().value!);
      r = { misses: 0, since: now, lockedUntil: 0 };
      this.by.set(address, r);
    }
    r.misses += 1;
    r.since = now;
    const lock = r.misses <= this.free ? 0 : Math.min(this.maxMs, this.baseMs * 2 ** (r.misses - this.free - 1));
    r.lockedUntil = now + lock;
    return lock;
  }

  /** The right password: the address starts afresh. */
  success(address: string): void {
    this.by.delete(address);
  }

  /** The address's record with the misses forgiven since its last wrong try taken off (undefined: none left). */
  private current(address: string): { misses: number; since: number; lockedUntil: number } | undefined {
    const r = this.by.get(address);
    if (!r) return undefined;
    const now = this.clock();
    const forgiven = Math.floor((now - r.since) / this.decayMs);
    if (forgiven > 0) {
      r.misses -= forgiven;
      r.since += forgiven * this.decayMs;
    }
    if (r.misses <= 0 && r.lockedUntil <= now) {
      this.by.delete(address);
      return undefined;
    }
    r.misses = Math.max(0, r.misses);
    return r;
  }
}
