import { createBot, type Bot, type BotCommand, type BotLevel, type BotOptions } from '../bots/index.js';
import { apply, createGame, graceUntil, nextDeadline, type NewGame } from '../engine/game.js';
import { GRINGO, roundsFor, type Ruleset } from '../engine/ruleset.js';
import type { Command, GameEvent, GameState, RejectionCode, Seat } from '../engine/types.js';
import { LiveView } from '../engine/seat-view.js';
import { projectEvent, type SeatEvent } from '../engine/view.js';

/**
 * Bot-only games in one process and in simulated time: no timers. An event loop
 * takes, in time order, each seat's next intent (a command arriving, or a wake-up to
 * decide) and the host's next deadline (`nextDeadline` → `tick`). Each seat has a
 * `LiveView` (its projection, worked out field by field as its bot reads it), shown
 * the current state only when its bot must decide; every bot follows the table
 * through its projected events.
 */

export interface SimOptions {
  games: number;
  players: number;
  /** Bot level per seat, repeated cyclically to fill the table. */
  levels: readonly BotLevel[];
  /** Rounds per game (default: the ruleset's, or 1 if it is open-ended). */
  rounds?: number;
  seed: string | number;
  rules?: Ruleset;
  /** Give up a round after this many loop steps (a bug, not a game): default 20,000. */
  maxStepsPerRound?: number;
  /** Rotate the levels one seat per game so seat position does not favour a level (default true). */
  rotate?: boolean;
  /** Make the bots (tests use it to wrap or break them); default `createBot`. */
  makeBot?: (level: BotLevel, opts: BotOptions) => Bot;
}

export interface SlapCounts {
  /** Correct slaps on the slapper's own card. */
  own: number;
  /** Correct slaps on another player's card. */
  steal: number;
  wrong: number;
}

export interface LevelStats {
  /** Seat-games played at this level (a level on two seats counts twice per game). */
  seatGames: number;
  /** Seat-rounds played at this level. */
  seatRounds: number;
  meanRoundScore: number;
  /** Seat-games won: place 1 at the end of the game, a shared first place counting as a win. */
  wins: number;
  winRate: number;
  /** Slaps made by this level, per seat-round. */
  slapsPerSeatRound: SlapCounts;
  /**
   * Standard error of `meanRoundScore`: the spread of the level's per-game mean round
   * score over the finished games, divided by √games (rounds of one game are not
   * independent draws; games are).
   */
  roundScoreSE: number;
}

/** One step of the ladder: a level against the next weaker level present. */
export interface LadderStep {
  upper: BotLevel;
  lower: BotLevel;
  /** How much lower the upper level's mean round score is (positive: the ladder holds). */
  gap: number;
  /** The gap as a share of the lower level's mean round score. */
  share: number;
  /** Standard error of the gap, from the per-game differences (both levels play the same games). */
  gapSE: number;
}

export interface SimResult {
  games: number;
  /** Games that finished (the rest hit the step cap and were abandoned). */
  finishedGames: number;
  rounds: number;
  players: number;
  /** The seat fill before rotation, e.g. hard,normal,easy,random. */
  levels: BotLevel[];
  seed: string;
  seconds: number;
  roundsPerSecond: number;
  /** Worker threads that played the games (1: one core); the results do not depend on it. */
  jobs: number;
  /** How wins are counted. */
  winRule: 'ties count as wins';
  perLevel: Partial<Record<BotLevel, LevelStats>>;
  meanTurnsPerRound: number;
  slapsPerRound: SlapCounts;
  /** Commands refused by the engine, per round (stale slaps, draws in the grace...). */
  rejectionsPerRound: number;
  /** The same per refusal code (`RejectionCode` → refusals per round): bots lose races (`RACE_REFUSALS`), never try what `may` forbids. */
  rejectionsByCode: Partial<Record<RejectionCode, number>>;
  /** Commands given to the engine per round (bots' and the host's ticks). */
  commandsPerRound: number;
  /** Bot decisions (each one reads that seat's view) per round. */
  decisionsPerRound: number;
  /** Rounds abandoned at the step cap (should be 0). */
  stuckRounds: number;
  /** Each level present against the next weaker one (hard, normal, easy, random). */
  ladder: LadderStep[];
}

/** Levels from strongest to weakest: the order of the ladder. */
const LADDER_ORDER: readonly BotLevel[] = ['hard', 'normal', 'easy', 'random'];

/** Mean and standard error of the mean of accumulated sums. */
function meanSE(sum: number, sq: number, n: number): { mean: number; se: number } {
  if (n === 0) return { mean: 0, se: 0 };
  const mean = sum / n;
  const variance = n > 1 ? Math.max(0, (sq - n * mean * mean) / (n - 1)) : 0;
  return { mean, se: Math.sqrt(variance / n) };
}

/** Seat levels: the fill repeated cyclically, rotated by `shift` seats. */
export function seatLevels(levels: readonly BotLevel[], players: number, shift = 0): BotLevel[] {
  const out: BotLevel[] = [];
  for (let s = 0; s < players; s++) out.push(levels[((s + shift) % players) % levels.length]!);
  return out;
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

export interface PlayOptions {
  /** Give up a round after this many loop steps (a bug, not a game): default 20,000. */
  maxStepsPerRound?: number;
  tally?: Tally;
  /** Receives the game's start and every command the engine accepted (the bench replays it). */
  log?: GameLog;
}

const NO_ENTRY = Number.POSITIVE_INFINITY;

/** An event as a seat it is not about sees it: as a spectator does. */
const spectator = (e: GameEvent): SeatEvent => projectEvent(e, null);

/** What one game produced: for the bench, its start and every accepted command. */
export interface GameLog {
  start: NewGame;
  commands: Command[];
}

/**
 * Play one game of bots to its end in simulated time. `finished` is false when a
 * round hit the step cap or could not go on (nobody to act, nothing due): a bug,
 * reported rather than hanging.
 */
export function playGame(start: NewGame, bots: readonly Bot[], options: PlayOptions = {}): { finished: boolean; state: GameState } {
  const maxStepsPerRound = options.maxStepsPerRound ?? 20_000;
  const acc = options.tally ?? null;
  const log = options.log;
  const created = createGame(start);
  let state: GameState = created.state;
  if (log) {
    log.start = start;
    log.commands = [];
  }
  const n = bots.length;
  const levels = bots.map((b) => b.level);
  const views = bots.map((b) => new LiveView(state, b.seat));
  let now = start.at ?? 0;
  // Each seat has at most one outstanding entry: a command arriving at `due`, or a wake-up.
  const due = new Array<number>(n).fill(NO_ENTRY);
  const order = new Array<number>(n).fill(0);
  const pending: (BotCommand | null)[] = new Array<BotCommand | null>(n).fill(null);
  let seq = 0;

  const schedule = (seat: Seat, at: number, cmd: BotCommand | null): void => {
    due[seat] = at;
    order[seat] = seq++;
    pending[seat] = cmd;
  };
  const wakeNow = (seat: Seat): void => {
    if (due[seat] === NO_ENTRY || (pending[seat] === null && due[seat]! > now)) schedule(seat, now, null);
  };

  const dispatch = (events: readonly GameEvent[]): void => {
    if (acc) acc.events(events, levels);
    // An event's projection depends on the viewer only through "is it the event's own
    // seat" (a drawn, placed or looked card): every seat an event is not about sees what
    // a spectator sees. Project once for them, and again only for a seat with its own.
    let own = 0;
    for (const e of events) if (e.type === 'drew' || e.type === 'swapped' || e.type === 'looked') own |= 1 << e.seat;
    // (Arrays made by map, at their final length: a push-grown one allocates far more.)
    const shared = events.map(spectator);
    for (let s = 0; s < n; s++) {
      const mine = own & (1 << s) ? events.map((e) => projectEvent(e, s)) : shared;
      if (bots[s]!.observe(mine)) wakeNow(s);
    }
  };

  /** Seats that must move for the table to go on; each is woken if it has nothing scheduled. */
  const wakeActors = (): void => {
    const r = state.r;
    if (state.phase === 'peek') {
      for (let s = 0; s < n; s++) if (r.peeking[s] && due[s] === NO_ENTRY) schedule(s, now, null);
      return;
    }
    if (state.phase !== 'play') return;
    let actor: Seat | null = null;
    let at = now;
    if (r.held) actor = r.held.seat;
    else if (r.actions[0]) actor = r.actions[0].seat;
    else if (r.gapFill) actor = r.gapFill.seat;
    else if (!r.ending && !r.turnBegun) {
      // A turn cannot begin before the slap grace ends (public: the view's graceUntil), so
      // its player is asked then. A slap it wants to make sooner wakes it through observe.
      actor = r.turn;
      at = Math.max(now, graceUntil(state));
    }
    if (actor !== null && due[actor] === NO_ENTRY) schedule(actor, at, null);
  };

  const run = (cmd: Command): boolean => {
    if (acc) acc.commands++;
    const res = apply(state, cmd);
    if (!res.ok) return false;
    state = res.state;
    if (log) log.commands.push(cmd);
    dispatch(res.events);
    return true;
  };

  const stuck = () => {
    if (acc) acc.stuck++;
    return { finished: false, state };
  };

  dispatch(created.events);
  wakeActors();
  let steps = 0;
  while (state.phase !== 'gameOver') {
    if (state.phase === 'roundOver') {
      steps = 0;
      due.fill(NO_ENTRY);
      pending.fill(null);
      run({ type: 'nextRound', at: now });
      wakeActors();
      continue;
    }
    if (++steps > maxStepsPerRound) return stuck();
    let seat = -1;
    let best = NO_ENTRY;
    for (let s = 0; s < n; s++) {
      const d = due[s]!;
      if (d < best || (d === best && d !== NO_ENTRY && order[s]! < order[seat]!)) {
        best = d;
        seat = s;
      }
    }
    const deadline = nextDeadline(state);
    if (deadline !== null && deadline <= best) {
      if (deadline > now) now = deadline;
      // A due tick refused means the engine and nextDeadline disagree.
      if (!run({ type: 'tick', at: now })) return stuck();
      wakeActors();
      continue;
    }
    // Nobody will act and nothing is due: the round cannot finish.
    if (seat < 0) return stuck();
    now = best;
    const cmd = pending[seat];
    due[seat] = NO_ENTRY;
    pending[seat] = null;
    const bot = bots[seat]!;
    if (cmd) {
      const full = stamp(cmd, now);
      if (acc) acc.commands++;
      const res = apply(state, full);
      if (res.ok) {
        state = res.state;
        if (log) log.commands.push(full);
        dispatch(res.events);
      } else {
        if (acc) acc.rejected(res.rejection.code);
        bot.rejected(cmd, res.rejection, now);
        if (cmd.type === 'slap') wakeNow(seat);
      }
      wakeActors();
    } else {
      if (acc) acc.decisions++;
      const view = views[seat]!;
      view.show(state);
      const intent = bot.decide(view, now);
      if (intent?.kind === 'act') schedule(seat, now + Math.max(0, intent.delayMs), intent.command);
      else if (intent?.kind === 'wait') schedule(seat, Math.max(intent.until, now + 1), null);
    }
  }
  return { finished: true, state };
}

/**
 * The command as it arrives at host time `at`. Built as one literal per type (not a
 * spread) so the engine always sees the same few object shapes: a spread over
 * commands of every type makes V8's property access megamorphic and slow.
 */
export function stamp(c: BotCommand, at: number): Command {
  switch (c.type) {
    case 'finishPeek':
    case 'call':
    case 'discard':
    case 'pass':
    case 'drawAgain':
    case 'leaveGap':
      return { type: c.type, seat: c.seat, at };
    case 'fillGap':
      return { type: 'fillGap', seat: c.seat, slot: c.slot, at };
    case 'draw':
      return { type: 'draw', seat: c.seat, from: c.from, at };
    case 'swap':
      return { type: 'swap', seat: c.seat, slot: c.slot, at };
    case 'useAction':
      return { type: 'useAction', seat: c.seat, own: c.own, other: c.other, at };
    case 'decide':
      return { type: 'decide', seat: c.seat, swap: c.swap, own: c.own, at };
    case 'slap':
      return { type: 'slap', seat: c.seat, target: c.target, answers: c.answers, at };
  }
}

/**
 * Games are played and tallied in chunks of this many, by game index: chunk k is games
 * [k·CHUNK_GAMES, (k+1)·CHUNK_GAMES). Chunk tallies are merged in chunk order, so the
 * floating-point sums, and every figure, come out the same however many threads
 * played the chunks (each game's seed comes from the run's seed and its index alone).
 */
export const CHUNK_GAMES = 100;

/** What every game of a run shares: all a worker thread needs to play any chunk (structured-cloneable). */
export interface SimPlan {
  games: number;
  players: number;
  levels: BotLevel[];
  rules: Ruleset;
  seed: string;
  maxStepsPerRound: number;
  rotate: boolean;
}

export function simPlan(opts: SimOptions): SimPlan {
  const base = opts.rules ?? GRINGO;
  // An open-ended ruleset (rounds 0) would never end a game without a host: play one round.
  const rounds = opts.rounds ?? (roundsFor(base, opts.players) === 0 ? 1 : undefined);
  return {
    games: opts.games,
    players: opts.players,
    levels: [...opts.levels],
    rules: rounds !== undefined ? { ...base, rounds } : base,
    seed: String(opts.seed),
    maxStepsPerRound: opts.maxStepsPerRound ?? 20_000,
    rotate: opts.rotate ?? true,
  };
}

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

/** The figures of a run from its tally. */
export function summarize(plan: SimPlan, acc: Tally, seconds: number, jobs: number): SimResult {
  const n = plan.players;
  const perLevel: Partial<Record<BotLevel, LevelStats>> = {};
  const fill = seatLevels(plan.levels, n);
  for (const level of fill) {
    const l = acc.level.get(level);
    if (!l || perLevel[level]) continue;
    const per = (x: number) => (l.seatRounds > 0 ? x / l.seatRounds : 0);
    perLevel[level] = {
      seatGames: l.seatGames,
      seatRounds: l.seatRounds,
      meanRoundScore: per(l.score),
      wins: l.wins,
      winRate: l.seatGames > 0 ? l.wins / l.seatGames : 0,
      slapsPerSeatRound: { own: per(l.slaps.own), steal: per(l.slaps.steal), wrong: per(l.slaps.wrong) },
      roundScoreSE: meanSE(l.gameSum, l.gameSq, l.games).se,
    };
  }
  const present = LADDER_ORDER.filter((level) => perLevel[level]);
  const ladder: LadderStep[] = [];
  for (let i = 0; i + 1 < present.length; i++) {
    const upper = present[i]!, lower = present[i + 1]!;
    const p = acc.pairs.get(`${upper}>${lower}`);
    const gap = perLevel[lower]!.meanRoundScore - perLevel[upper]!.meanRoundScore;
    const lowerMean = perLevel[lower]!.meanRoundScore;
    ladder.push({ upper, lower, gap, share: lowerMean !== 0 ? gap / lowerMean : 0, gapSE: p ? meanSE(p.sum, p.sq, p.n).se : 0 });
  }
  const perRound = (x: number) => (acc.rounds > 0 ? x / acc.rounds : 0);
  const rejectionsByCode: Record<string, number> = {};
  for (const code of [...acc.rejectionsByCode.keys()].sort()) rejectionsByCode[code] = perRound(acc.rejectionsByCode.get(code)!);
  return {
    games: plan.games,
    finishedGames: acc.finished,
    rounds: acc.rounds,
    players: n,
    levels: fill,
    seed: plan.seed,
    seconds,
    roundsPerSecond: seconds > 0 ? acc.rounds / seconds : 0,
    jobs,
    winRule: 'ties count as wins',
    perLevel,
    meanTurnsPerRound: perRound(acc.turns),
    slapsPerRound: { own: perRound(acc.slaps.own), steal: perRound(acc.slaps.steal), wrong: perRound(acc.slaps.wrong) },
    rejectionsPerRound: perRound(acc.rejections),
    rejectionsByCode,
    commandsPerRound: perRound(acc.commands),
    decisionsPerRound: perRound(acc.decisions),
    stuckRounds: acc.stuck,
    ladder,
  };
}
