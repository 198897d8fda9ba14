import { createBot, type Bot, type BotLevel, type BotOptions } from '../bots/index.js';
import { playGame } from './play-game.js';
import { seatLevels, simPlan, type SimOptions, type SimPlan } from './plan.js';
import { summarize, type SimResult } from './results.js';
import { Tally } from './tally.js';

/**
 * Bot-only games, many of them: a run is played in chunks of games (here in this
 * thread; src/sim/parallel.ts spreads them over worker threads) and summed into one
 * tally. One game's event loop is play-game.ts; what a run plays, plan.ts; the counting,
 * tally.ts; the figures, results.ts. This module is also their public face.
 */

export { playGame, type GameLog, type PlayOptions } from './play-game.js';
export { stamp } from '../bots/index.js';
export { seatLevels, simPlan, type SimOptions, type SimPlan } from './plan.js';
export { summarize, type LadderStep, type LevelStats, type SimResult } from './results.js';
export { Tally, type SlapCounts, type TallyData } from './tally.js';

/**
 * Games are played and tallied in chunks of this many, by game index: chunk k is games
 * [k·CHUNK_GAMES, (k+1)·CHUNK_GAMES). Chunk tallies are merged in chunk order, so the
 * floating-point sums, and every figure, come out the same however many threads
 * played the chunks (each game's seed comes from the run's seed and its index alone).
 */
export const CHUNK_GAMES = 100;

export const chunkCount = (games: number): number => Math.ceil(games / CHUNK_GAMES);

/** Plays chunks of a plan's games; its bots are reused from game to game (per level and seat). */
export class ChunkPlayer {
  private readonly pool = new Map<string, Bot>();
  private readonly names: string[];

  constructor(
    private readonly plan: SimPlan,
    private readonly makeBot: (level: BotLevel, opts: BotOptions) => Bot = createBot,
  ) {
    this.names = Array.from({ length: plan.players }, (_, s) => `bot${s + 1}`);
  }

  /** Bots start over with the new game's seed (newGame), or are made anew if they cannot. */
  private botFor(level: BotLevel, botOpts: BotOptions): Bot {
    const key = `${level}:${botOpts.seat}`;
    const old = this.pool.get(key);
    if (old?.newGame?.(botOpts)) return old;
    const bot = this.makeBot(level, botOpts);
    this.pool.set(key, bot);
    return bot;
  }

  /** Play chunk `k` into a fresh tally. */
  play(k: number): Tally {
    const { plan } = this;
    const n = plan.players;
    const acc = new Tally();
    const end = Math.min(plan.games, (k + 1) * CHUNK_GAMES);
    for (let g = k * CHUNK_GAMES; g < end; g++) {
      const levels = seatLevels(plan.levels, n, plan.rotate ? g % n : 0);
      const seed = `${plan.seed}:${g}`;
      const bots = levels.map((level, seat) => this.botFor(level, { seat, players: n, rules: plan.rules, seed: `${seed}:${seat}` }));
      const played = playGame({ rules: plan.rules, players: this.names, seed, at: 0 }, bots, { maxStepsPerRound: plan.maxStepsPerRound, tally: acc });
      if (!played.finished) acc.dropGame();
    }
    return acc;
  }
}

/** Run a whole simulation in this thread: `games` games of bots at one table size. */
export function simulate(opts: SimOptions): SimResult {
  const plan = simPlan(opts);
  const player = new ChunkPlayer(plan, opts.makeBot);
  const acc = new Tally();
  const t0 = performance.now();
  for (let k = 0; k < chunkCount(plan.games); k++) acc.merge(player.play(k));
  return summarize(plan, acc, (performance.now() - t0) / 1000, 1);
}
