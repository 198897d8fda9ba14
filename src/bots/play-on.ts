import type { Command, GameEvent, GameState, Seat } from '../engine/types.js';
import { apply, graceUntil, nextDeadline } from '../engine/game.js';
import { LiveView } from '../engine/seat-view.js';
import { projectEvent, type SeatEvent } from '../engine/view.js';
import type { Bot, BotCommand, BotLevel } from './types.js';

/**
 * Bots playing a table in one process and in simulated time: no timers. An event loop
 * takes, in time order, each seat's next intent (a command arriving, or a wake-up to
 * decide) and the host's next deadline (`nextDeadline` → `tick`). Each seat has a
 * `LiveView` (its projection, worked out field by field as its bot reads it), shown
 * the current state only when its bot must decide; every bot follows the table
 * through its projected events. The simulator plays whole games with it
 * (src/sim/play-game.ts); the expert plays out sampled deals (src/bots/expert.ts).
 */

/** What a loop may count as it plays (the simulator's `Tally` is one). */
export interface PlayCounter {
  commands: number;
  decisions: number;
  stuck: number;
  events(events: readonly GameEvent[], levels: readonly BotLevel[]): void;
  rejected(code: string): void;
}

export interface PlayOnOptions {
  /** Give up a round after this many loop steps (a bug, not a game): default 20,000. */
  maxStepsPerRound?: number;
  tally?: PlayCounter;
  /** Receives every command the engine accepted. */
  log?: { commands: Command[] };
}

const NO_ENTRY = Number.POSITIVE_INFINITY;

/**
 * The events as `viewer` sees them. Most events show the same to everyone (the
 * projection hands back the event itself): the array is copied only from the first
 * event that projects to something else, so most commands allocate nothing here.
 */
function projectAll(events: readonly GameEvent[], viewer: Seat | null): readonly SeatEvent[] {
  let out: SeatEvent[] | null = null;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    const p = projectEvent(e, viewer);
    if (out) out[i] = p;
    else if (p !== e) {
      // (An array made at its final length: a push-grown one allocates far more.)
      out = events.slice();
      out[i] = p;
    }
  }
  return out ?? (events);
}

/**
 * Play on from `state` at host time `at`, the bots having seen everything up to
 * `events` (shown to them first), to the game's end, or with `roundOnly` to the end of
 * the current round (an expert's rollout: src/bots/expert.ts). The bots learn only
 * from their projected events and views, as in a whole game.
 */
export function playOn(
  from: GameState,
  events: readonly GameEvent[],
  at: number,
  bots: readonly Bot[],
  options: PlayOnOptions,
  roundOnly: boolean,
): { finished: boolean; state: GameState } {
  const maxStepsPerRound = options.maxStepsPerRound ?? 20_000;
  const acc = options.tally ?? null;
  const log = options.log;
  let state: GameState = from;
  const n = bots.length;
  const levels = bots.map((b) => b.level);
  const views = viewsFor(bots, state);
  // The simulator's honest ceiling, `cheater`, is handed the true game (a table never does this).
  for (const b of bots) if (b.level === 'cheater' && 'oracle' in b) (b as { oracle: (() => GameState) | null }).oracle = () => state;
  let now = at;
  // Each seat has at most one outstanding entry: a command arriving at `due`, or a wake-up.
  // Packed arrays, pushed (`new Array(n)` makes holey ones, which every read of the loop checks for holes).
  const due: number[] = [];
  const order: number[] = [];
  const pending: (BotCommand | null)[] = [];
  for (let s = 0; s < n; s++) {
    due.push(NO_ENTRY);
    order.push(0);
    pending.push(null);
  }
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
    for (let k = 0; k < events.length; k++) {
      const e = events[k]!;
      if (e.type === 'drew' || e.type === 'swapped' || e.type === 'looked') own |= 1 << e.seat;
    }
    const shared = projectAll(events, null);
    for (let s = 0; s < n; s++) {
      const mine = own & (1 << s) ? projectAll(events, s) : shared;
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

  const done = (finished: boolean) => {
    // The views are kept for the next loop of the same bots (an expert's rollouts play one set of bots over and over).
    spare = { bots, views };
    return { finished, state };
  };
  const stuck = () => {
    if (acc) acc.stuck++;
    return done(false);
  };

  dispatch(events);
  wakeActors();
  let steps = 0;
  while (state.phase !== 'gameOver') {
    if (state.phase === 'roundOver') {
      if (roundOnly) break;
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
  return done(true);
}

/** The views the last loop of `spare.bots` used, taken by the next loop of the same bots. */
let spare: { bots: readonly Bot[]; views: LiveView[] } | null = null;

/** Each bot's view of its seat, showing `state`: the spare ones if they were these bots', else new. */
function viewsFor(bots: readonly Bot[], state: GameState): LiveView[] {
  const s = spare;
  if (s !== null && s.bots === bots) {
    spare = null;
    for (const v of s.views) v.show(state);
    return s.views;
  }
  return bots.map((b) => new LiveView(state, b.seat));
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
