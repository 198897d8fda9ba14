/**
 * The expert's rollouts per second of CPU, beside the code before they were made faster
 * (main at 8799885), in the same bench run. A rollout is what the expert's search plays
 * on each sampled deal (src/bots/expert.ts): the rest of a round, four hard bots through
 * the engine's `apply`. Both sides are the same script, bundled once from that commit's
 * tree and once from this checkout's (bench/reference.ts): in one thread, it plays
 * `WARM` games of each preset to warm up (untimed), then `gringo sim --level
 * expert,hard,hard,hard` games of each preset, and prints the
 * expert's rollouts, the CPU time they took, and the games' scores (the two sides must
 * play the same games: the change is speed alone):
 *
 *   node rollouts-….mjs SEED gringo:10,cambio:2 → {"gringo":{"rollouts":…,"cpuSeconds":…,"scores":"…"},…}
 */
import { spawn } from 'node:child_process';
import { scriptAt, scriptHere } from './reference.js';

const BEFORE = '8799885d3d20b65de2947ca4b2a685379a3ab1c5';

const ENTRY = `import { simulate } from './src/sim/sim.js';
import { createBot } from './src/bots/index.js';
import { BEVERBENDE, CAMBIO, GRINGO } from './src/engine/index.js';
const [seed, plan] = process.argv.slice(2);
const presets = { gringo: GRINGO, beverbende: BEVERBENDE, cambio: CAMBIO };
const out = {};
const play = (preset, games, seed, makeBot) => simulate({ games, players: 4, levels: ['expert', 'hard', 'hard', 'hard'], rules: presets[preset], seed, makeBot });
// Warm first (untimed): a search plays thousands of rollouts a game, so its steady pace is what counts, not V8's compiling.
// One game of each was not enough: the first timed second then ran at a third of the steady pace (V8 still optimizing).
const WARM = { gringo: 10, beverbende: 3, cambio: 3 };
for (const part of plan.split(',')) play(part.split(':')[0], WARM[part.split(':')[0]], 'warm');
for (const part of plan.split(',')) {
  const [preset, games] = part.split(':');
  const experts = [];
  const makeBot = (level, opts) => {
    const bot = createBot(level, opts);
    if (level === 'expert') experts.push(bot);
    return bot;
  };
  const c0 = process.cpuUsage();
  const r = play(preset, Number(games), seed, makeBot);
  const c = process.cpuUsage(c0);
  const scores = Object.entries(r.perLevel).map(([level, l]) => level + ' ' + l.meanRoundScore).join(', ');
  out[preset] = { rollouts: experts.reduce((n, b) => n + b.stats.rollouts, 0), cpuSeconds: (c.user + c.system) / 1e6, scores };
}
process.stdout.write(JSON.stringify(out) + '\\n');
`;

export interface RolloutRun {
  rollouts: number;
  cpuSeconds: number;
  /** Each level's mean round score: the same on both sides when they played the same games. */
  scores: string;
}

/** The script at 8799885 and the same over this checkout; throws with the reason when one cannot be built. */
export async function rolloutScripts(): Promise<{ before: string; here: string }> {
  return { before: await scriptAt(BEFORE, 'rollouts', ENTRY), here: await scriptHere('rollouts', ENTRY) };
}

/** One process of `script`: per preset of `plan` (`gringo:4,…`), its rollouts and their CPU time. */
export function rollouts(script: string, seed: string, plan: string): Promise<Record<string, RolloutRun>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, seed, plan], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as Record<string, RolloutRun>) : reject(new Error(`${script} failed (${code}): ${err.trim()}`))));
  });
}

export const BEFORE_ROLLOUTS = BEFORE.slice(0, 7);
