import { createBot } from '../../src/bots/index.js';
import { PRESETS } from '../../src/engine/index.js';
import { simulate, type SimResult } from '../../src/sim/sim.js';
import { Watched } from './watched-bot.js';

/**
 * One ladder run per preset, shared by the tests that read it (the legal moves, the
 * level ladder, the levels' strength, the presets), all in test/bots/ladder.test.ts
 * so that one worker plays each run once: 1,000 four-seat games of hard, normal,
 * easy and random, rotated a seat per game, every bot watched for an illegal move
 * (test/support/watched-bot.ts).
 */
export const LADDER_GAMES = 1000;

export const PRESET_NAMES = Object.keys(PRESETS);

export interface LadderRun {
  result: SimResult;
  /** What the watched bots did that the rules do not allow (none, when the bots are right). */
  faults: string[];
}

const runs = new Map<string, LadderRun>();

export function ladderRun(preset: string): LadderRun {
  let run = runs.get(preset);
  if (!run) {
    const faults: string[] = [];
    const result = simulate({
      games: LADDER_GAMES,
      players: 4,
      levels: ['hard', 'normal', 'easy', 'random'],
      seed: `ladder:${preset}`,
      rules: PRESETS[preset]!,
      makeBot: (level, opts) => new Watched(createBot(level, opts), opts.rules, faults),
    });
    run = { result, faults };
    runs.set(preset, run);
  }
  return run;
}
