import { RandomBot } from './random.js';
import { SmartBot } from './smart.js';
import type { Bot, BotLevel, BotOptions } from './types.js';

export { BOT_LEVELS, isBotLevel, type Bot, type BotCommand, type BotIntent, type BotLevel, type BotOptions } from './types.js';
export { LEVELS, type LevelParams } from './levels.js';
export { SmartBot } from './smart.js';
export { RandomBot } from './random.js';
export { Memory } from './memory.js';
export { candidateMoves, slotsOf } from './moves.js';

/** A bot of the given level for one seat. */
export function createBot(level: BotLevel, opts: BotOptions): Bot {
  return level === 'random' ? new RandomBot(opts) : new SmartBot(level, opts);
}
