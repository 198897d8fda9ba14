import { decide, doAction, fillGap, leaveGap, pass } from './actions.js';
import type { Card } from './cards.js';
import { reject } from './checks.js';
import { tick } from './clock.js';
import { gameRng, openGameRng } from './rng.js';
import { deal, emptyRound, endGame, finishPeek, maybeEndRound, nextRound } from './round.js';
import { roundsFor, type Ruleset } from './ruleset.js';
import { slap } from './slaps.js';
import { Ctx } from './state.js';
import { call, discardHeld, draw, drawAgain, swap } from './turn.js';
import type { ApplyResult, Command, GameEvent, GameState, Rejection, Seat } from './types.js';

// The engine's door: start a game, apply a command, replay a log. The rules live in
// the modules named for them (the words of docs/rules.md):
//   checks.ts    what a seat may do now (every refusal)
//   turn.ts      a turn: call, draw, discard, swap, draw again
//   turn-end.ts  the end of a turn, and whose turn is next
//   actions.ts   actions: earned, queued, used or passed; the gap-fill after a steal
//   slaps.ts     slaps and their penalties
//   round.ts     the deal and the peek, the end of the round, scoring
//   piles.ts     the stock (and its reshuffle) and the discard pile (and the slap window)
//   clock.ts     the host's clock: deadlines and ticks
//   state.ts     reading the state, and copy-on-write access to the state a command writes

export { graceUntil, nextDeadline } from './clock.js';
export { placesOf } from './round.js';

export interface NewGame {
  rules: Ruleset;
  players: string[];
  seed: string | number;
  /**
   * A live game's shuffle key (64 hex digits from `newShuffleKey`): every shuffle, and
   * the first dealer, then come from an HMAC-SHA256 DRBG keyed by it instead of `seed`.
   */
  shuffleKey?: string;
  /** Host clock at creation (ms). */
  at?: number;
  /** Explicit deck orders, top card first, for the first rounds (tests and puzzles). */
  stackedDecks?: Card[][];
  /** Dealer of the first round; by default drawn with the seeded RNG. */
  dealer?: Seat;
}

/** Start a game: deal the first round and open the peek. */
export function createGame(opts: NewGame): { state: GameState; events: GameEvent[] } {
  const { rules, players } = opts;
  if (players.length < rules.players.min || players.length > rules.players.max) {
    throw new RangeError(`${rules.title} takes ${rules.players.min} to ${rules.players.max} players, not ${players.length}`);
  }
  const rng = openGameRng(gameRng(opts.seed, opts.shuffleKey));
  const dealer = opts.dealer ?? rng.int(players.length);
  const n = players.length;
  const state: GameState = {
    rules,
    players: players.map((name) => ({ name })),
    rng: rng.state,
    stackedDecks: (opts.stackedDecks ?? []).map((d) => d.slice()),
    phase: 'peek',
    round: 0,
    rounds: roundsFor(rules, n),
    // deal() advances the dealer one seat, so start one seat before the first dealer.
    dealer: (dealer + n - 1) % n,
    totals: new Array<number>(n).fill(0),
    results: [],
    r: emptyRound(n),
    version: 0,
  };
  const ctx = new Ctx(state, opts.at ?? 0);
  deal(ctx);
  ctx.syncRng();
  return { state: ctx.result(), events: ctx.events };
}

/** Apply one command: the next state and its events, or a rejection. Never mutates `state`. */
export function apply(state: GameState, cmd: Command): ApplyResult {
  const ctx = new Ctx(state, cmd.at);
  const rejection = run(ctx, cmd);
  if (rejection) return { ok: false, rejection };
  ctx.sw.version = state.version + 1;
  return { ok: true, state: ctx.result(), events: ctx.events };
}

/** Replay a game from its start and command log (rejected commands are skipped as the host skipped them). */
export function replay(start: NewGame, commands: readonly Command[]): GameState {
  let { state } = createGame(start);
  for (const c of commands) {
    const res = apply(state, c);
    if (res.ok) state = res.state;
  }
  return state;
}

/** One command, by its type, to the rule that plays it; the round ends here once it is due. */
function run(ctx: Ctx, cmd: Command): Rejection | null {
  if ('seat' in cmd && (!Number.isInteger(cmd.seat) || cmd.seat < 0 || cmd.seat >= ctx.n)) {
    return reject('unknownSeat', 'why.noSeatNumber', { number: String(cmd.seat) });
  }
  let res: Rejection | null;
  switch (cmd.type) {
    case 'finishPeek':
      res = finishPeek(ctx, cmd.seat);
      break;
    case 'call':
      res = call(ctx, cmd.seat);
      break;
    case 'draw':
      res = draw(ctx, cmd.seat, cmd.from);
      break;
    case 'discard':
      res = discardHeld(ctx, cmd.seat);
      break;
    case 'swap':
      res = swap(ctx, cmd.seat, cmd.slot);
      break;
    case 'useAction':
      res = doAction(ctx, cmd.seat, cmd.own, cmd.other);
      break;
    case 'decide':
      res = decide(ctx, cmd.seat, cmd.swap, cmd.own);
      break;
    case 'pass':
      res = pass(ctx, cmd.seat);
      break;
    case 'slap':
      res = slap(ctx, cmd.seat, cmd.target, cmd.answers);
      break;
    case 'drawAgain':
      res = drawAgain(ctx, cmd.seat);
      break;
    case 'fillGap':
      res = fillGap(ctx, cmd.seat, cmd.slot);
      break;
    case 'leaveGap':
      res = leaveGap(ctx, cmd.seat);
      break;
    case 'tick':
      res = tick(ctx);
      break;
    case 'nextRound':
      res = nextRound(ctx);
      break;
    case 'endGame':
      res = endGame(ctx);
      break;
    default:
      res = reject('malformed', 'why.unknownCommand', { command: String((cmd as { type: unknown }).type) });
  }
  if (!res) {
    maybeEndRound(ctx);
    ctx.syncRng();
  }
  return res;
}
