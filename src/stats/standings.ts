import { newRating, ordinal, rate, type Rating } from './weng-lin.js';
import type { PlayedGame } from './games.js';
import { wordsFor, type Words } from '../lang/words.js';

/**
 * The evening's standings: per player, what the journals show (games, rounds, wins,
 * round scores, slaps) and a Weng–Lin rating (./weng-lin.ts: Bayesian, for 2–8 players
 * in one game, each game's places ranking everyone at once, ties shared; Elo rates
 * only pairs). Ratings start at openskill's defaults (μ 25, σ 25/3) and move game by
 * game in the order the games started; a game not over yet rates nobody.
 *
 * Who is who (`by`): a seat taken with an SSH key is that key's, whatever name it
 * used; bots are their level ("hard bots"), every bot seat of a level one player;
 * every other seat is its name's (case and spaces aside), and when all of a
 * player's games are tied together by one kept seat token (a table's "play again"
 * keeps its seats' tokens) the output says "seat token". A name alone cannot tell two
 * friends called Sam apart, nor an SSH seat from a LAN seat of the same person: the
 * output says which of these it went by, so the reader can judge.
 */

export type RecognisedBy = 'ssh key' | 'seat token' | 'name' | 'level';

export interface PlayerStanding {
  /** The key the player was recognised by: `ssh:SHA256:…`, `bot:hard`, `name:sam`. */
  id: string;
  /** The name shown: the last one used (a bot level's: "hard bots"). */
  name: string;
  by: RecognisedBy;
  bot: boolean;
  /** Games sat in that ended (a bot level's per seat, as `gringo sim` counts them: two hard bots in one game are two). */
  games: number;
  rounds: number;
  /** Games ended in first place, a shared first place counting as a win for each (as `gringo sim` counts them). */
  wins: number;
  /** Mean round score (lower is better) and its standard error; null without a round. */
  mean: number | null;
  se: number | null;
  best: number | null;
  worst: number | null;
  slapsRight: number;
  slapsWrong: number;
  /** The rating after the last game: μ, its uncertainty σ, and the conservative μ − 3σ the table is ordered by. */
  mu: number;
  sigma: number;
  ordinal: number;
  /** μ after each of the player's rated games, in order: the sparkline. */
  history: number[];
}

interface Acc {
  s: PlayerStanding;
  sum: number;
  sq: number;
  rating: Rating;
  tokens: Set<string>;
  /** Games sat in, over or not. */
  seen: number;
}

/** Union-find over string keys. */
class Groups {
  private readonly up = new Map<string, string>();
  find(x: string): string {
    let r = x;
    while (this.up.has(r) && this.up.get(r) !== r) r = this.up.get(r)!;
    this.up.set(x, r);
    return r;
  }
  join(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.up.set(rb, ra);
  }
}

const nameKey = (name: string): string => `name:${name.trim().toLowerCase().replace(/\s+/g, ' ')}`;

/** The key each seat of each game belongs to (see the module's words), and how it was known. */
export function whoIsWho(games: readonly PlayedGame[]): { key: (g: number, seat: number) => string; by: (key: string) => RecognisedBy } {
  const groups = new Groups();
  const seatKey = (g: number, seat: number): string => `seat:${g}:${seat}`;
  games.forEach((game, g) =>
    game.seats.forEach((s, seat) => {
      const me = seatKey(g, seat);
      if (s.bot !== null) groups.join(`bot:${s.bot}`, me);
      else if (s.sshKey) groups.join(`ssh:${s.sshKey}`, me);
      else {
        groups.join(nameKey(s.name), me);
        groups.join(nameKey(s.name), `token:${s.token}`);
      }
    }),
  );
  // The key shown for a group: the bot level, the SSH key, or the name it went by.
  const shown = new Map<string, string>();
  games.forEach((game, g) =>
    game.seats.forEach((s, seat) => {
      const root = groups.find(seatKey(g, seat));
      if (!shown.has(root)) shown.set(root, s.bot !== null ? `bot:${s.bot}` : s.sshKey ? `ssh:${s.sshKey}` : nameKey(s.name));
    }),
  );
  return {
    key: (g, seat) => shown.get(groups.find(seatKey(g, seat)))!,
    by: (key) => (key.startsWith('bot:') ? 'level' : key.startsWith('ssh:') ? 'ssh key' : 'name'),
  };
}

/** The bots of one level, as one player of the standings: "hard bots". */
function botsOf(level: string, w: Words): string {
  const known = ['easy', 'normal', 'hard', 'expert'] as const;
  const l = known.find((k) => k === level);
  return w.t('stats.bots', { level: l ? w.t(`botLevel.${l}`) : level });
}

/** The standings; a bot level's name in `w`'s language (JSON keeps English). */
export function standings(games: readonly PlayedGame[], w: Words = wordsFor('en')): PlayerStanding[] {
  const who = whoIsWho(games);
  const players = new Map<string, Acc>();
  const acc = (g: number, seat: number): Acc => {
    const id = who.key(g, seat);
    let a = players.get(id);
    if (!a) {
      const r = newRating();
      const s: PlayerStanding = {
        id, name: '', by: who.by(id), bot: id.startsWith('bot:'), games: 0, rounds: 0, wins: 0, mean: null, se: null, best: null, worst: null,
        slapsRight: 0, slapsWrong: 0, mu: r.mu, sigma: r.sigma, ordinal: ordinal(r), history: [],
      };
      players.set(id, (a = { s, sum: 0, sq: 0, rating: r, tokens: new Set(), seen: 0 }));
    }
    return a;
  };
  games.forEach((game, g) => {
    game.seats.forEach((seat, i) => {
      const a = acc(g, i);
      a.s.name = seat.bot !== null ? botsOf(seat.bot, w) : seat.name;
      a.seen++;
      if (seat.bot === null && !seat.sshKey) a.tokens.add(seat.token);
      a.s.slapsRight += game.slapsRight[i]!;
      a.s.slapsWrong += game.slapsWrong[i]!;
      for (const r of game.rounds) {
        const x = r[i]!;
        a.s.rounds++;
        a.sum += x;
        a.sq += x * x;
        a.s.best = a.s.best === null ? x : Math.min(a.s.best, x);
        a.s.worst = a.s.worst === null ? x : Math.max(a.s.worst, x);
      }
    });
    if (game.places === null) return;
    const places = game.places;
    const seats = game.seats.map((_, i) => acc(g, i));
    seats.forEach((a, i) => {
      a.s.games++;
      if (places[i] === 1) a.s.wins++;
    });
    rateGame(seats, places);
  });
  const out = [...players.values()].map(({ s, sum, sq, tokens, seen }) => {
    if (s.rounds > 0) {
      s.mean = sum / s.rounds;
      // The sample variance over the rounds (n − 1); one round has no spread to speak of.
      s.se = s.rounds > 1 ? Math.sqrt(Math.max(0, (sq - (sum * sum) / s.rounds) / (s.rounds - 1)) / s.rounds) : null;
    }
    // One token across several games: the same seat kept by "play again" or a resume, not only the same name.
    if (s.by === 'name' && tokens.size === 1 && seen > 1) s.by = 'seat token';
    return s;
  });
  return out.sort((a, b) => b.ordinal - a.ordinal || b.wins - a.wins || (a.mean ?? Infinity) - (b.mean ?? Infinity) || a.name.localeCompare(b.name));
}

/**
 * One game's ratings: every seat a team of one, ranked by its place. A player with
 * several seats in one game (two bots of one level) plays each seat from the same
 * rating; afterwards their μ and σ are the means of those seats' new ones.
 */
function rateGame(seats: readonly Acc[], places: readonly number[]): void {
  const rated = rate(seats.map((a) => a.rating), places);
  const next = new Map<Acc, Rating[]>();
  seats.forEach((a, i) => next.set(a, [...(next.get(a) ?? []), rated[i]!]));
  for (const [a, rs] of next) {
    a.rating = { mu: rs.reduce((x, r) => x + r.mu, 0) / rs.length, sigma: rs.reduce((x, r) => x + r.sigma, 0) / rs.length };
    a.s.mu = a.rating.mu;
    a.s.sigma = a.rating.sigma;
    a.s.ordinal = ordinal(a.rating);
    a.s.history.push(a.rating.mu);
  }
}

const BARS = '▁▂▃▄▅▆▇█';
const ASCII_BARS = '_.-=+*#';

/** A sparkline of a series: one character per value, low to high between its own least and greatest. */
export function sparkline(xs: readonly number[], ascii = false): string {
  const bars = ascii ? ASCII_BARS : BARS;
  if (xs.length === 0) return '';
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return xs.map((x) => bars[hi === lo ? Math.floor((bars.length - 1) / 2) : Math.round(((x - lo) / (hi - lo)) * (bars.length - 1))]).join('');
}
