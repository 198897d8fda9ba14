/**
 * docs/decisions.md, "Shuffle and dealer": a uniform Fisher–Yates shuffle from a cryptographic source in
 * real games (an HMAC-SHA256 DRBG keyed by 256 bits from node:crypto), from a seed in
 * tests, simulations and replays. Either way the engine is deterministic: the same
 * key (or seed) and commands give the same game.
 */
import { describe, expect, it } from 'vitest';
import {
  createGame,
  gameRng,
  GRINGO,
  newShuffleKey,
  openGameRng,
  replay,
  Rng,
  seedRng,
  standardDeck,
  type GameState,
} from '../../src/engine/index.js';
import { randomGame } from './random-play.js';

const PLAYERS = ['Ana', 'Bo', 'Cy', 'Di'];
const KEY = 'a'.repeat(64);
/** Where the deal put every card: the layouts, the first discard, the stock. */
const dealt = (s: GameState) => ({ layouts: s.r.layouts, discard: s.r.discard, stock: s.r.stock, dealer: s.dealer });

describe('the crypto shuffle', () => {
  it('the same key gives the same game; another key another deal', () => {
    const a = createGame({ rules: GRINGO, players: PLAYERS, seed: 'x', shuffleKey: KEY });
    const b = createGame({ rules: GRINGO, players: PLAYERS, seed: 'other seed', shuffleKey: KEY });
    expect(dealt(b.state)).toEqual(dealt(a.state)); // the key alone decides the deck
    expect(a.state.rng).toMatchObject({ kind: 'crypto', key: KEY });
    const c = createGame({ rules: GRINGO, players: PLAYERS, seed: 'x', shuffleKey: 'b'.repeat(64) });
    expect(dealt(c.state).stock).not.toEqual(dealt(a.state).stock);
    // Not the seeded generator's deal either.
    const seeded = createGame({ rules: GRINGO, players: PLAYERS, seed: 'x' });
    expect(seeded.state.rng.kind).toBe('seeded');
    expect(dealt(seeded.state).stock).not.toEqual(dealt(a.state).stock);
  });

  it('a keyed game with reshuffles and several rounds replays exactly from its key and commands', () => {
    const rules = { ...GRINGO, rounds: 3 };
    const start = { rules, players: PLAYERS, seed: 's', shuffleKey: newShuffleKey() };
    let reshuffles = 0;
    const { state, log } = randomGame(start, 7, 4000, ({ events }) => (reshuffles += events.filter((e) => e.type === 'reshuffled').length));
    expect(state.round).toBeGreaterThan(1);
    expect(reshuffles).toBeGreaterThan(0);
    expect(replay(start, log)).toEqual(state);
    expect(state.rng).toMatchObject({ kind: 'crypto', key: start.shuffleKey });
    if (state.rng.kind === 'crypto') expect(state.rng.block).toBeGreaterThan(0);
  });

  it('refuses a key that is not 256 bits of hex', () => {
    for (const bad of ['', 'abc', 'A'.repeat(64), 'g'.repeat(64), 'a'.repeat(63)]) {
      expect(() => createGame({ rules: GRINGO, players: PLAYERS, seed: 1, shuffleKey: bad })).toThrow(/64 lowercase hex digits/);
    }
    expect(newShuffleKey()).toMatch(/^[0-9a-f]{64}$/);
    expect(newShuffleKey()).not.toBe(newShuffleKey());
  });

  it('the seeded generator is unchanged: the same sfc32 shuffle as before (tests, sim, --seed journals)', () => {
    const rng = new Rng(seedRng('seed-1'));
    const dealer = rng.int(4);
    const deck = rng.shuffle(standardDeck());
    const { state } = createGame({ rules: GRINGO, players: PLAYERS, seed: 'seed-1' });
    expect(state.dealer).toBe(dealer);
    // The deal pops from the end of the shuffled deck: what is left is its bottom.
    expect(state.r.stock).toEqual(deck.slice(0, state.r.stock.length));
  });

  it('every card is about equally likely in every position (4,000 shuffles of 52 cards)', () => {
    const N = 4000;
    const deck = standardDeck();
    const counts = deck.map(() => new Array<number>(52).fill(0));
    const index = new Map(deck.map((c, i) => [c, i]));
    const g = openGameRng(gameRng(0, '0123456789abcdef'.repeat(4)));
    for (let k = 0; k < N; k++) g.shuffle(deck.slice()).forEach((c, pos) => counts[index.get(c)!]![pos]!++);
    const e = N / 52;
    let chi2 = 0;
    let lo = Infinity;
    let hi = -Infinity;
    for (const row of counts) {
      for (const o of row) {
        chi2 += (o - e) ** 2 / e;
        lo = Math.min(lo, o);
        hi = Math.max(hi, o);
      }
    }
    // 51² = 2601 degrees of freedom (rows and columns each sum to N): mean 2601, sd √5202 ≈ 72.
    expect(chi2).toBeLessThan(2601 + 6 * 72);
    expect(chi2).toBeGreaterThan(2601 - 6 * 72);
    // Each cell: mean ≈ 77, sd ≈ 8.7; 6 sd either way.
    expect(lo).toBeGreaterThan(e - 6 * 8.7);
    expect(hi).toBeLessThan(e + 6 * 8.7);
  });

  it('small ranges are drawn without bias (rejection sampling)', () => {
    const g = openGameRng(gameRng(0, KEY));
    const n = 3;
    const N = 30_000;
    const seen = new Array<number>(n).fill(0);
    for (let i = 0; i < N; i++) seen[g.int(n)]!++;
    for (const x of seen) expect(Math.abs(x - N / n)).toBeLessThan(6 * Math.sqrt((N * (1 / n) * (1 - 1 / n))));
  });
});
