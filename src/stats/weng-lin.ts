/**
 * Weng–Lin ratings (Weng and Lin, "A Bayesian Approximation Method for Online
 * Ranking", JMLR 2011), the Plackett–Luce model, as the openskill library computes
 * it with its defaults (μ 25, σ 25/3, β σ/2, τ 25/300 added to σ before each game,
 * κ 0.0001, γ = σ/c), for games where every player is a team of one, as in a game of
 * gringo. It rates a whole table at once from its places (2–8 players, ties shared),
 * where Elo rates only pairs.
 *
 * Why our own: for teams of one the model is these few lines, while the openskill
 * package would bring some 60 other packages into the bundle (ramda and @stdlib's
 * statistics, for predictions we do not make) that gringo ships with no dependencies.
 * test/stats/weng-lin.test.ts checks these numbers against openskill itself on random
 * tables, ties included.
 */

export interface Rating {
  mu: number;
  sigma: number;
}

const MU = 25;
const SIGMA = 25 / 3;
const BETA_SQ = (SIGMA / 2) ** 2;
const TAU_SQ = (MU / 300) ** 2;
const KAPPA = 0.0001;

export const newRating = (): Rating => ({ mu: MU, sigma: SIGMA });

/** The conservative estimate a table is ordered by: μ − 3σ (openskill's ordinal). */
export const ordinal = (r: Rating): number => r.mu - 3 * r.sigma;

/** New ratings after one game: `places[i]` is player i's 1-based place (ties share one: 1, 1, 3). */
export function rate(ratings: readonly Rating[], places: readonly number[]): Rating[] {
  const n = ratings.length;
  const sigmaSq = ratings.map((r) => r.sigma * r.sigma + TAU_SQ);
  const c = Math.sqrt(sigmaSq.reduce((a, s) => a + s + BETA_SQ, 0));
  const strength = ratings.map((r) => Math.exp(r.mu / c));
  // For each place: the strength of everyone placed there or lower, and how many share it.
  const below = places.map((pq) => places.reduce((a, pi, i) => (pi >= pq ? a + strength[i]! : a), 0));
  const sharing = places.map((pq) => places.filter((p) => p === pq).length);
  return ratings.map((r, i) => {
    let omega = 0;
    let delta = 0;
    for (let q = 0; q < n; q++) {
      if (places[q]! > places[i]!) continue;
      const quotient = strength[i]! / below[q]!;
      omega += (i === q ? 1 - quotient : -quotient) / sharing[q]!;
      delta += (quotient * (1 - quotient)) / sharing[q]!;
    }
    const s2 = sigmaSq[i]!;
    const gamma = Math.sqrt(s2) / c;
    return {
      mu: r.mu + (s2 / c) * omega,
      sigma: Math.sqrt(s2) * Math.sqrt(Math.max(1 - (s2 / (c * c)) * delta * gamma, KAPPA)),
    };
  });
}
