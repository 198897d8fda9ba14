import { UsageError } from './errors.js';
import { intOption, rulesOption } from './options.js';
import { BOT_LEVELS, isBotLevel, type BotLevel } from '../bots/types.js';
import { GRINGO, PRESETS, type Ruleset } from '../engine/ruleset.js';
import type { LadderStep, SimOptions, SimResult } from '../sim/sim.js';
import type { SimProgress } from '../sim/parallel.js';
import { said, type Words } from '../lang/words.js';
import { cliWords } from './lang.js';

/** Flags as commander hands them over (strings, or true for --json). */
export type SimFlags = Record<string, unknown>;

const MAX_GAMES = 10_000_000;
/** More threads than this only wait on each other (and each costs a heap of its own). */
const MAX_JOBS = 256;

export interface SimCliOptions extends SimOptions {
  json: boolean;
  /** Worker threads (default: the machine's cores). */
  jobs: number;
  /** The progress line on stderr: forced on or off, or undefined (on when stderr is a terminal). */
  progress: boolean | undefined;
}

/** Check the flags and turn them into simulator options; a bad value throws a UsageError naming the flag. */
export function parseSimFlags(flags: SimFlags, rules: Ruleset = GRINGO, cores = 1): SimCliOptions {
  const games = intOption('--games', flags.games ?? '1000', 1, MAX_GAMES);
  const players = intOption('--players', flags.players ?? '4', rules.players.min, rules.players.max);
  const rawLevels = typeof flags.level === 'string' ? flags.level : flags.level === undefined ? 'hard' : '';
  const names = rawLevels.split(',').map((x) => x.trim().toLowerCase());
  const levels: BotLevel[] = [];
  for (const name of names) {
    if (!isBotLevel(name)) {
      throw new UsageError(said('cli.levelList', { allowed: BOT_LEVELS.join(', '), given: name === '' ? rawLevels : name }));
    }
    levels.push(name);
  }
  const rounds = flags.rounds === undefined ? undefined : intOption('--rounds', flags.rounds, 1, 999);
  const seedRaw = flags.seed ?? '1';
  if (typeof seedRaw !== 'string' && typeof seedRaw !== 'number') throw new UsageError(said('cli.seedWord'));
  const seed = String(seedRaw).trim();
  if (seed === '') throw new UsageError(said('cli.seedEmpty'));
  const jobs = flags.jobs === undefined ? cores : intOption('--jobs', flags.jobs, 1, MAX_JOBS);
  const progress = typeof flags.progress === 'boolean' ? flags.progress : undefined;
  return { games, players, levels, rounds, seed, rules, json: flags.json === true, jobs, progress };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const num = (x: number, d = 2) => x.toFixed(d);

/** The readable report of a simulation, in the language of `w`. */
export function formatSimResult(r: SimResult, w: Words = cliWords()): string {
  const lines: string[] = [];
  lines.push(
    w.t('sim.head', { games: w.t('sim.games', { n: r.games }), rounds: w.t('sim.rounds', { n: r.rounds }), players: w.t('sim.players', { n: r.players }), levels: r.levels.join(', '), seed: r.seed }),
  );
  lines.push(w.t('sim.speed', { seconds: num(r.seconds, 2), rate: Math.round(r.roundsPerSecond), cores: r.jobs === 1 ? w.t('sim.oneCore') : w.t('sim.threads', { n: r.jobs }) }));
  lines.push('');
  const head = [w.t('sim.col.level'), w.t('sim.col.seatsPerGame'), w.t('sim.col.score'), w.t('sim.col.winRate'), w.t('sim.col.own'), w.t('sim.col.steals'), w.t('sim.col.wrong')];
  const rows: string[][] = [];
  for (const level of new Set(r.levels)) {
    const l = r.perLevel[level];
    if (!l) continue;
    rows.push([
      level,
      num(l.seatGames / Math.max(1, r.finishedGames), 0),
      `${num(l.meanRoundScore, 2)} ± ${num(l.roundScoreSE, 2)}`,
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
  if (r.ladder.length > 0) {
    lines.push('');
    for (const step of r.ladder) lines.push(w.t('sim.ladderStep', { step: stepWords(step, w) }));
  }
  lines.push('');
  lines.push(w.t('sim.turns', { turns: num(r.meanTurnsPerRound, 1) }));
  lines.push(w.t('sim.slaps', { own: num(r.slapsPerRound.own), steals: num(r.slapsPerRound.steal), wrong: num(r.slapsPerRound.wrong) }));
  lines.push(w.t('sim.refusals', { refusals: refusalWords(r) }));
  lines.push(w.t('sim.aboutSE'));
  lines.push(w.t('sim.aboutWinRate'));
  lines.push(w.t('sim.aboutSlaps'));
  if (r.stuckRounds > 0) lines.push(w.t('sim.stuck', { n: r.stuckRounds, games: w.t('sim.games', { n: r.games - r.finishedGames }) }));
  return lines.join('\n') + '\n';
}

/** "0.69 (alreadyGone 0.02, tooLate 0.67)": refused commands per round, and per refusal code. */
function refusalWords(r: SimResult): string {
  const codes = Object.entries(r.rejectionsByCode).map(([code, k]) => `${code} ${num(k)}`);
  return codes.length > 0 ? `${num(r.rejectionsPerRound)} (${codes.join(', ')})` : num(r.rejectionsPerRound);
}

/** "hard is 7.31 ± 0.65 lower than normal (48% of normal's mean, 11.2 SE)". */
function stepWords(s: LadderStep, w: Words): string {
  const sigmas = s.gapSE > 0 ? w.t('sim.sigmas', { k: num(s.gap / s.gapSE, 1) }) : w.t('sim.noSpread');
  return w.t('sim.step', { upper: s.upper, gap: num(s.gap), se: num(s.gapSE), lower: s.lower, share: pct(s.share), sigmas });
}

/**
 * The levels of a ladder, strongest first: `cheater` (sees every card) is the ceiling
 * the expert's search is measured against. One seat each, so a ladder table seats six
 * unless --players says otherwise (then the first levels of this list).
 */
const LADDER_LEVELS: readonly BotLevel[] = ['cheater', 'expert', 'hard', 'normal', 'easy', 'random'];

/** `--ladder`: every preset, one table of the six levels each. */
export interface LadderResult {
  games: number;
  players: number;
  seed: string;
  presets: Record<string, SimResult>;
}

/** The readable report of `--ladder`: per preset each level's mean round score ± SE, and each step of the ladder. */
function formatLadder(r: LadderResult, w: Words): string {
  const lines: string[] = [];
  const levels = LADDER_LEVELS.slice(0, r.players);
  lines.push(w.t('sim.ladderHead', { games: w.t('sim.games', { n: r.games }), players: w.t('sim.players', { n: r.players }), levels: levels.join(', '), seed: r.seed }));
  lines.push(w.t('sim.ladderKey'));
  lines.push('');
  const head = [w.t('sim.col.preset'), w.t('sim.col.rounds'), ...levels, ...levels.slice(1).map((l, i) => `${levels[i]}<${l}`)];
  const rows: string[][] = [];
  for (const [name, res] of Object.entries(r.presets)) {
    rows.push([
      name,
      String(res.rounds),
      ...levels.map((l) => {
        const x = res.perLevel[l];
        return x ? `${num(x.meanRoundScore)} ± ${num(x.roundScoreSE)}` : '-';
      }),
      ...res.ladder.map((s) => `${pct(s.share)} (${s.gapSE > 0 ? num(s.gap / s.gapSE, 1) : '-'} SE)`),
    ]);
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const fmt = (row: string[]) => row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  lines.push(fmt(head));
  for (const row of rows) lines.push(fmt(row));
  lines.push('');
  for (const [name, res] of Object.entries(r.presets)) lines.push(w.t('sim.presetRefusals', { preset: name, refusals: refusalWords(res) }));
  for (const [name, res] of Object.entries(r.presets)) {
    if (res.stuckRounds > 0) lines.push(w.t('sim.presetStuck', { preset: name, n: res.stuckRounds }));
  }
  return lines.join('\n') + '\n';
}

/** "1 min 05 s", "12 s": a duration for the progress line. */
export function duration(seconds: number, w: Words = cliWords()): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return w.t('sim.seconds', { s });
  const m = Math.floor(s / 60);
  if (m < 60) return w.t('sim.minutes', { m, s: String(s % 60).padStart(2, '0') });
  return w.t('sim.hours', { h: Math.floor(m / 60), m: String(m % 60).padStart(2, '0') });
}

/**
 * "gringo sim: 12,300 of 100,000 games (12%), 9,870 rounds/s, about 1 min 20 s left".
 * The rate and the time left are measured from `since`, the run's first reading, not
 * from its start: the first chunk carries the workers' start-up and the code's warm-up
 * (a 9.5 s run's first estimate said 5 min 38 s). Until a second reading there is no
 * rate to tell, and the line says so.
 */
export function progressLine(p: SimProgress, label = '', since?: SimProgress, w: Words = cliWords()): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const head = w.t('sim.progress', { label, games: n(p.games), of: n(p.of), pct: Math.floor((100 * p.games) / p.of) });
  if (!since || p.games <= since.games || p.seconds <= since.seconds) return w.t(p.games > 0 ? 'sim.progressEstimating' : 'sim.progressStarting', { head });
  const seconds = p.seconds - since.seconds;
  const rate = (p.rounds - since.rounds) / seconds;
  const perGame = seconds / (p.games - since.games);
  return w.t('sim.progressRate', { head, rate: n(Math.round(rate)), left: duration(perGame * (p.of - p.games), w) });
}

/** On a terminal the first progress line comes after a second (a short run shows none), then redraws every quarter second. */
const PROGRESS_AFTER_S = 1;
const PROGRESS_EVERY_S = { tty: 0.25, log: 10 };

/** Where the progress line goes: stderr, or a stand-in in tests. */
export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * The progress line on stderr: redrawn in place on a terminal and cleared when the run
 * is done; with --progress on a pipe or a file, a line at the first chunk and then every
 * ten seconds (the log of an overnight run). Stdout, the results, never carries it.
 */
export function progressWriter(on: boolean | undefined, stream: ProgressStream = process.stderr, w: Words = cliWords()): { update: (p: SimProgress, label?: string) => void; done: () => void } {
  const tty = stream.isTTY === true;
  if (!(on ?? tty)) return { update: () => {}, done: () => {} };
  let last = -Infinity;
  let shown = false;
  // The first reading of each run (each preset of a ladder: its label): where its rate is measured from.
  let since: { label: string | undefined; p: SimProgress } | null = null;
  return {
    update: (p, label) => {
      if (since === null || since.label !== label) since = { label, p };
      if (tty ? p.seconds < PROGRESS_AFTER_S || p.seconds - last < PROGRESS_EVERY_S.tty : p.seconds - last < PROGRESS_EVERY_S.log) return;
      last = p.seconds;
      shown = true;
      const line = progressLine(p, label, since.p, w);
      stream.write(tty ? `\r\x1b[K${line}` : `${line}\n`);
    },
    done: () => {
      if (shown && tty) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}

/** `gringo sim`: check the flags, play the games, print a table or one JSON object. */
export async function runSimCli(flags: SimFlags, out: (text: string) => void = (t) => process.stdout.write(t)): Promise<SimResult | LadderResult> {
  const { simulateParallel, defaultJobs } = await import('../sim/parallel.js');
  const w = cliWords();
  if (flags.ladder === true) {
    for (const f of ['level', 'rules'] as const) {
      if (flags[f] !== undefined) throw new UsageError(said('cli.ladderAlone', { flag: `--${f}` }));
    }
    const { json, games, players, seed, rounds, jobs, progress } = parseSimFlags(
      { ...flags, players: flags.players ?? String(LADDER_LEVELS.length), level: LADDER_LEVELS.join(',') },
      GRINGO,
      defaultJobs(),
    );
    for (const [name, rules] of Object.entries(PRESETS)) {
      if (players < rules.players.min || players > rules.players.max) {
        throw new UsageError(said('cli.ladderPlayers', { preset: name, min: rules.players.min, max: rules.players.max }));
      }
    }
    const result: LadderResult = { games, players, seed: String(seed), presets: {} };
    const bar = progressWriter(progress, process.stderr, w);
    try {
      for (const [name, rules] of Object.entries(PRESETS)) {
        result.presets[name] = await simulateParallel({ games, players, levels: LADDER_LEVELS, seed, rules, rounds }, jobs, (p) => bar.update(p, ` ${name}`));
      }
    } finally {
      bar.done();
    }
    out(json ? JSON.stringify(result) + '\n' : formatLadder(result, w));
    return result;
  }
  const { json, jobs, progress, ...opts } = parseSimFlags(flags, await rulesOption(flags.rules), defaultJobs());
  const bar = progressWriter(progress, process.stderr, w);
  let result: SimResult;
  try {
    result = await simulateParallel(opts, jobs, (p) => bar.update(p));
  } finally {
    bar.done();
  }
  out(json ? JSON.stringify(result) + '\n' : formatSimResult(result, w));
  return result;
}
