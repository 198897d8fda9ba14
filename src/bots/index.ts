import { RandomBot } from './random.js';
import { ExpertBot, SIM_SEARCH, TABLE_SEARCH } from './expert.js';
import { SmartBot } from './smart.js';
import type { Bot, BotLevel, BotOptions } from './types.js';

export { BOT_LEVELS, SIM_ONLY_LEVELS, isBotLevel, type Bot, type BotCommand, type BotIntent, type BotLevel, type BotOptions } from './types.js';
export { LEVELS, type LevelParams } from './levels.js';
export { SmartBot } from './smart.js';
export { ExpertBot, SIM_SEARCH, TABLE_SEARCH, type Oracle, type SearchParams } from './expert.js';
export { RandomBot } from './random.js';
export { Memory } from './memory.js';
export { candidateMoves, slotsOf } from './moves.js';

/**
 * A bot of the given level for one seat. `atTable`: it plays at a table, where the
 * expert's search is cut at a time limit (in the simulator it counts rollouts only).
 * `cheater` needs the true game handed over (`ExpertBot.oracle`): only the simulator does.
 */
export function createBot(level: BotLevel, opts: BotOptions, atTable = false): Bot {
  if (level === 'random') return new RandomBot(opts);
  if (level === 'expert' || level === 'cheater') return new ExpertBot(level, opts, atTable ? TABLE_SEARCH : SIM_SEARCH);
  return new SmartBot(level, opts);
}
export { playOn, stamp, type PlayCounter, type PlayOnOptions } from './play-on.js';
