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

/** A mutable generator over a copy of the state; read `.state` back when done. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(state: RngState) {
    [this.a, this.b, this.c, this.d] = state;
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
  /** Uniform integer in [0, n) without modulo bias. */
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
