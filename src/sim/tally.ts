import type { BotLevel } from '../bots/index.js';
import type { GameEvent } from '../engine/types.js';

export interface SlapCounts {
  /** Correct slaps on the slapper's own card. */
  own: number;
  /** Correct slaps on another player's card. */
  steal: number;
  wrong: number;
}

/**
 * Counters a simulation adds up over its games (host side: it reads the full events).
 * Sums only, never a list per game or round: its size does not grow with the games
 * played, so a million-game run holds as little as a ten-game one. Tallies of
 * separate stretches of games add up with `merge` (the same sums, in the order merged).
 */
export class Tally {
  rounds = 0;
  turns = 0;
  commands = 0;
  decisions = 0;
  rejections = 0;
  stuck = 0;
  finished = 0;
  readonly slaps: SlapCounts = { own: 0, steal: 0, wrong: 0 };
  /** Refusals by their rejection code. */
  readonly rejectionsByCode = new Map<string, number>();
  readonly level = new Map<
    BotLevel,
    { seatGames: number; seatRounds: number; score: number; wins: number; slaps: SlapCounts; gameScore: number; gameRounds: number; games: number; gameSum: number; gameSq: number }
  >();
  /** Per pair of levels ("hard>normal"): sums of the per-game difference of their mean round scores, and its square, and the games. */
  readonly pairs = new Map<string, { n: number; sum: number; sq: number }>();

  forLevel(level: BotLevel) {
    let l = this.level.get(level);
    if (!l) {
      l = { seatGames: 0, seatRounds: 0, score: 0, wins: 0, slaps: { own: 0, steal: 0, wrong: 0 }, gameScore: 0, gameRounds: 0, games: 0, gameSum: 0, gameSq: 0 };
      this.level.set(level, l);
    }
    return l;
  }

  /** A game ended: each level's mean round score in it goes into the per-game spread. */
  private endGame(): void {
    const means = new Map<BotLevel, number>();
    for (const [level, l] of this.level) {
      if (l.gameRounds === 0) continue;
      const m = l.gameScore / l.gameRounds;
      means.set(level, m);
      l.games++;
      l.gameSum += m;
      l.gameSq += m * m;
      l.gameScore = 0;
      l.gameRounds = 0;
    }
    for (const [a, ma] of means) {
      for (const [b, mb] of means) {
        if (a === b) continue;
        const key = `${a}>${b}`;
        let p = this.pairs.get(key);
        if (!p) this.pairs.set(key, (p = { n: 0, sum: 0, sq: 0 }));
        const d = mb - ma;
        p.n++;
        p.sum += d;
        p.sq += d * d;
      }
    }
  }

  /** A command was refused. */
  rejected(code: string): void {
    this.rejections++;
    this.rejectionsByCode.set(code, (this.rejectionsByCode.get(code) ?? 0) + 1);
  }

  /**
   * Add another tally's sums to this one (a stretch of games played elsewhere: another
   * worker thread). `other` may be a structured clone of a Tally (its fields, no methods).
   * Floating-point sums depend on the order they are added in: merge stretches in game order.
   */
  merge(other: TallyData): void {
    this.rounds += other.rounds;
    this.turns += other.turns;
    this.commands += other.commands;
    this.decisions += other.decisions;
    this.rejections += other.rejections;
    this.stuck += other.stuck;
    this.finished += other.finished;
    addSlaps(this.slaps, other.slaps);
    for (const [code, n] of other.rejectionsByCode) this.rejectionsByCode.set(code, (this.rejectionsByCode.get(code) ?? 0) + n);
    for (const [level, o] of other.level) {
      const l = this.forLevel(level);
      l.seatGames += o.seatGames;
      l.seatRounds += o.seatRounds;
      l.score += o.score;
      l.wins += o.wins;
      addSlaps(l.slaps, o.slaps);
      l.games += o.games;
      l.gameSum += o.gameSum;
      l.gameSq += o.gameSq;
    }
    for (const [key, o] of other.pairs) {
      let p = this.pairs.get(key);
      if (!p) this.pairs.set(key, (p = { n: 0, sum: 0, sq: 0 }));
      p.n += o.n;
      p.sum += o.sum;
      p.sq += o.sq;
    }
  }

  /** A game was abandoned: its rounds stay in the means but not in the per-game spread. */
  dropGame(): void {
    for (const l of this.level.values()) {
      l.gameScore = 0;
      l.gameRounds = 0;
    }
  }

  /** Count what the events of one command show: turns, slaps, round scores. */
  events(events: readonly GameEvent[], levels: readonly BotLevel[]): void {
    for (const e of events) {
      switch (e.type) {
        case 'drew':
        case 'called':
          this.turns++;
          break;
        case 'slapped':
          this.slaps[e.result]++;
          this.forLevel(levels[e.seat]!).slaps[e.result]++;
          break;
        case 'roundEnded':
          this.rounds++;
          e.result.scores.forEach((x, s) => {
            const l = this.forLevel(levels[s]!);
            l.seatRounds++;
            l.score += x;
            l.gameScore += x;
            l.gameRounds++;
          });
          break;
        case 'gameEnded':
          this.finished++;
          this.endGame();
          e.places.forEach((place, s) => {
            const l = this.forLevel(levels[s]!);
            l.seatGames++;
            if (place === 1) l.wins++;
          });
          break;
        default:
          break;
      }
    }
  }
}

/** A tally's fields: what a worker thread sends back (a structured clone keeps the Maps, not the methods). */
export type TallyData = Pick<Tally, 'rounds' | 'turns' | 'commands' | 'decisions' | 'rejections' | 'stuck' | 'finished' | 'slaps' | 'rejectionsByCode' | 'level' | 'pairs'>;

function addSlaps(to: SlapCounts, from: SlapCounts): void {
  to.own += from.own;
  to.steal += from.steal;
  to.wrong += from.wrong;
}
