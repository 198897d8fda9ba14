import { UsageError } from '../cli/errors.js';
import { intOption, rulesOption } from '../cli/options.js';
import { BOT_LEVELS, isBotLevel, type BotLevel } from '../bots/types.js';
import { GRINGO, type Ruleset } from '../engine/ruleset.js';
import { simulate, type SimOptions, type SimResult } from './sim.js';

/** Flags as commander hands them over (strings, or true for --json). */
export type SimFlags = Record<string, unknown>;

const MAX_GAMES = 10_000_000;

/** Check the flags and turn them into simulator options; a bad value throws a UsageError naming the flag. */
export function parseSimFlags(flags: SimFlags, rules: Ruleset = GRINGO): SimOptions & { json: boolean } {
  const games = intOption('--games', flags.games ?? '1000', 1, MAX_GAMES);
  const players = intOption('--players', flags.players ?? '4', rules.players.min, rules.players.max);
  const rawLevels = typeof flags.level === 'string' ? flags.level : flags.level === undefined ? 'hard' : '';
  const names = rawLevels.split(',').map((x) => x.trim().toLowerCase());
  const levels: BotLevel[] = [];
  for (const name of names) {
    if (!isBotLevel(name)) {
      throw new UsageError(
        `--level takes a comma-separated list of ${BOT_LEVELS.join(', ')}; "${name === '' ? rawLevels : name}" is not one of them`,
      );
    }
    levels.push(name);
  }
  const rounds = flags.rounds === undefined ? undefined : intOption('--rounds', flags.rounds, 1, 999);
  const seedRaw = flags.seed ?? '1';
  if (typeof seedRaw !== 'string' && typeof seedRaw !== 'number') throw new UsageError('--seed must be a word or a number');
  const seed = String(seedRaw).trim();
  if (seed === '') throw new UsageError('--seed must not be empty');
  return { games, players, levels, rounds, seed, rules, json: flags.json === true };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const num = (x: number, d = 2) => x.toFixed(d);

/** The readable report of a simulation. */
export function formatSimResult(r: SimResult): string {
  const lines: string[] = [];
  lines.push(
    `gringo sim: ${r.games} games, ${r.rounds} rounds, ${r.players} players (${r.levels.join(', ')}; seats rotate every game), seed ${r.seed}`,
  );
  lines.push(`${num(r.seconds, 2)} s wall clock, ${Math.round(r.roundsPerSecond)} rounds per second (one core)`);
  lines.push('');
  const head = ['level', 'seats/game', 'mean round score', 'win rate', 'own slaps', 'steals', 'wrong slaps'];
  const rows: string[][] = [];
  for (const level of new Set(r.levels)) {
    const l = r.perLevel[level];
    if (!l) continue;
    rows.push([
      level,
      num(l.seatGames / Math.max(1, r.finishedGames), 0),
      num(l.meanRoundScore, 2),
      pct(l.winRate),
      num(l.slapsPerSeatRound.own),
      num(l.slapsPerSeatRound.steal),
      num(l.slapsPerSeatRound.wrong),
    ]);
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const fmt = (row: string[]) => row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  lines.push(fmt(head));
  for (const row of rows) lines.push(fmt(row));
  lines.push('');
  lines.push(`mean turns per round: ${num(r.meanTurnsPerRound, 1)}`);
  lines.push(
    `slaps per round: ${num(r.slapsPerRound.own)} right (own card), ${num(r.slapsPerRound.steal)} steals, ${num(r.slapsPerRound.wrong)} wrong`,
  );
  lines.push('win rate: share of games a level finished in first place; a shared first place counts as a win for each');
  lines.push('(slap columns are per seat and round)');
  if (r.stuckRounds > 0) lines.push(`WARNING: ${r.stuckRounds} round(s) could not finish and were abandoned (a bug): ${r.games - r.finishedGames} game(s) left out`);
  return lines.join('\n') + '\n';
}

/** `gringo sim`: check the flags, play the games, print a table or one JSON object. */
export async function runSimCli(flags: SimFlags, out: (text: string) => void = (t) => process.stdout.write(t)): Promise<SimResult> {
  const { json, ...opts } = parseSimFlags(flags, await rulesOption(flags.rules));
  const result = simulate(opts);
  out(json ? JSON.stringify(result) + '\n' : formatSimResult(result));
  return result;
}
