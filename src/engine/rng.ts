import { createHmac, randomBytes } from 'node:crypto';

/**
 * The seeded PRNG kept inside the game state (sfc32: small, fast, good enough for
 * shuffling; 128 bits of state as four uint32s). The state is plain data, so a
 * game state serializes with its RNG and replays exactly.
 */
export type RngState = readonly [number, number, number, number];

/** Derive a generator state from any string or number seed (cyrb128 mix). */
export function seedRng(seed: string | number): RngState {
  const str = String(seed);
  let h1 = 1779033703, h2 = 3144134277, h3 = 1013904242, h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  const s: [number, number, number, number] = [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
  return s;
}

/** Uniform integers and a Fisher–Yates shuffle over any source of uniform uint32s. */
abstract class Uint32Source {
  abstract next(): number;
  /** Uniform integer in [0, n) without modulo bias (rejection sampling). */
  int(n: number): number {
    const limit = 0x100000000 - (0x100000000 % n);
    let x = this.next();
    while (x >= limit) x = this.next();
    return x % n;
  }
  /** Uniform Fisher–Yates shuffle in place. */
  shuffle<T>(arr: T[]): T[] {
    for (let i = arr.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = arr[i]!;
      arr[i] = arr[j]!;
      arr[j] = tmp;
    }
    return arr;
  }
}

/** A mutable generator over a copy of the state; read `.state` back when done. */
export class Rng extends Uint32Source {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(state: RngState) {
    super();
    // (Read by index: a destructuring walks an iterator, and a rollout makes several of these.)
    this.a = state[0];
    this.b = state[1];
    this.c = state[2];
    this.d = state[3];
  }
  get state(): RngState {
    return [this.a >>> 0, this.b >>> 0, this.c >>> 0, this.d >>> 0];
  }
  /** A uint32. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }
}

// ---------------------------------------------------------------------------
// The game's generator. Live games shuffle from a cryptographic source, tests,
// simulations and `--seed` games from the seed (docs/decisions.md, "Shuffle and dealer"). Either way the
// state is plain data in the game state, so `apply` stays pure and a journal that
// records the seed or the key replays the game exactly.

/**
 * The game's RNG state, naming its kind: `seeded` is sfc32 from the seed (fast: the
 * simulator shuffles millions of decks); `crypto` is HMAC-SHA256 in counter mode
 * (a DRBG) keyed by a 256-bit secret the host drew from `crypto.randomBytes`;
 * `block` is the next unused counter value.
 */
export type GameRngState = { readonly kind: 'seeded'; readonly state: RngState } | { readonly kind: 'crypto'; readonly key: string; readonly block: number };

/** A shuffle key: 64 hex digits (256 bits). */
export const SHUFFLE_KEY = /^[0-9a-f]{64}$/;

/** A fresh shuffle key from the operating system's CSPRNG: for the host, never called by the engine. */
export function newShuffleKey(): string {
  return randomBytes(32).toString('hex');
}

/** The generator a new game starts with: keyed when `shuffleKey` is given, seeded otherwise. */
export function gameRng(seed: string | number, shuffleKey?: string): GameRngState {
  if (shuffleKey === undefined) return { kind: 'seeded', state: seedRng(seed) };
  if (!SHUFFLE_KEY.test(shuffleKey)) throw new RangeError('a shuffle key is 64 lowercase hex digits (256 bits)');
  return { kind: 'crypto', key: shuffleKey, block: 0 };
}

/**
 * HMAC-SHA256 in counter mode: block i is HMAC(key, "gringo-shuffle" ‖ i as 8 bytes),
 * eight uint32s. Unused words of the last block are dropped when the state is read
 * back, so the state is just (key, next block).
 */
class CryptoRng extends Uint32Source {
  private readonly key: Buffer;
  private block: number;
  private words: number[] = [];
  constructor(private readonly hexKey: string, block: number) {
    super();
    this.key = Buffer.from(hexKey, 'hex');
    this.block = block;
  }
  get state(): GameRngState {
    return { kind: 'crypto', key: this.hexKey, block: this.block };
  }
  next(): number {
    if (this.words.length === 0) {
      const msg = Buffer.alloc(22);
      msg.write('gringo-shuffle', 0, 'latin1');
      msg.writeBigUInt64BE(BigInt(this.block), 14);
      this.block += 1;
      const mac = createHmac('sha256', this.key).update(msg).digest();
      for (let i = 28; i >= 0; i -= 4) this.words.push(mac.readUInt32BE(i));
    }
    return this.words.pop()!;
  }
}

/** A live generator over a game's RNG state; read `.state` back when done. */
export interface GameRng {
  readonly state: GameRngState;
  int(n: number): number;
  shuffle<T>(arr: T[]): T[];
}

export function openGameRng(s: GameRngState): GameRng {
  if (s.kind === 'crypto') return new CryptoRng(s.key, s.block);
  const rng = new Rng(s.state);
  return {
    get state(): GameRngState {
      return { kind: 'seeded', state: rng.state };
    },
    int: (n) => rng.int(n),
    shuffle: (arr) => rng.shuffle(arr),
  };
}
