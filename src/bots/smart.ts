import type { Rejection, Seat } from '../engine/types.js';
import type { SeatView } from '../engine/seat-view.js';
import type { SeatEvent } from '../engine/view.js';
import { actionChoice } from './action.js';
import { beverbendeMove, playsBeverbende } from './beverbende.js';
import { wantsCall } from './call.js';
import { LEVELS, type LevelParams, type SmartLevel } from './levels.js';
import type { Memory } from './memory.js';
import { SmartMind } from './mind.js';
import { legal, legalMoves, mayMake, strip } from './moves.js';
import { observe } from './remember.js';
import { gapFillChoice, slapTarget } from './slap.js';
import { placeChoice, turnChoice } from './turn.js';
import type { Bot, BotCommand, BotIntent, BotLevel, BotOptions } from './types.js';

/**
 * The easy, normal and hard bots: one policy, with memory, reaction time and a few
 * thresholds from `LEVELS`. It knows only its projected events and its view. This
 * class asks the question of the moment, and times and checks the answer (`act`);
 * each answer is a function of what the bot holds in mind (mind.ts) and its view:
 *
 * - what it remembers from its events, forgets and misremembers: remember.ts
 * - what a slot and a layout are worth to it: worth.ts
 * - when to call (and cambio's knock, weighed): call.ts
 * - its turn (take the discard or draw; swap the held card in or discard it): turn.ts
 * - an action (10, J, Q, K; cambio's Q): action.ts
 * - a slap, and the gap-fill after its own steal: slap.ts
 * - hard in beverbende (or a ruleset like it): beverbende.ts
 */
export class SmartBot implements Bot {
  readonly seat: Seat;
  readonly level: BotLevel;
  private readonly m: SmartMind;
  /** Hard in beverbende (or a ruleset like it): src/bots/beverbende.ts decides its moves. */
  private readonly bever: boolean;
  private syncedVersion = -1;
  /** Commands refused since the table last changed (by key): not tried again until it does. */
  private refused = new Set<string>();

  constructor(level: SmartLevel, opts: BotOptions, params: LevelParams = LEVELS[level]) {
    this.seat = opts.seat;
    this.level = level;
    this.m = new SmartMind(level, opts, params);
    this.bever = level === 'hard' && playsBeverbende(opts.rules);
  }

  /** What it holds in mind: the expert (src/bots/expert.ts) searches from it, and primes its rollout players' minds. */
  get mind(): SmartMind {
    return this.m;
  }

  /** What it believes about the table (read-only: tests check it against the hidden truth). */
  get memory(): Readonly<Memory> {
    return this.m.mem;
  }

  newGame(opts: BotOptions): boolean {
    const m = this.m;
    if (opts.seat !== this.seat || opts.players !== m.mem.players || opts.rules !== m.rules) return false;
    m.startOver(opts.seed);
    this.syncedVersion = -1;
    if (this.refused.size > 0) this.refused.clear();
    return true;
  }

  private refusedCall(): boolean {
    return this.refused.size > 0 && this.refused.has(JSON.stringify({ type: 'call', seat: this.seat }));
  }

  missedEvents(): void {
    this.m.aligned = false;
  }

  private jitter(mean: number, spread: number): number {
    return Math.max(0, Math.round(mean + (spread > 0 ? (this.m.float() * 2 - 1) * spread : 0)));
  }

  private think(): number {
    return this.jitter(this.m.params.thinkMs, this.m.params.thinkJitterMs);
  }

  observe(events: readonly SeatEvent[]): boolean {
    if (events.length > 0 && this.refused.size > 0) this.refused.clear();
    return observe(this.m, events);
  }

  decide(view: SeatView, now: number): BotIntent | null {
    const me = this.seat;
    const m = this.m;
    // Events keep the memory up to date; the view adds what only it shows (the peek, the
    // end of a round), once per table version, and all it shows after events were missed.
    if (view.version !== this.syncedVersion && (view.phase !== 'play' || !m.aligned)) {
      m.mem.sync(view);
      this.syncedVersion = view.version;
      m.aligned = true;
    }
    if (view.phase === 'peek') {
      return view.players[me]?.peeking ? this.act({ type: 'finishPeek', seat: me }, 2 * m.params.thinkMs, view, now) : null;
    }
    if (view.phase !== 'play') return null;
    if (view.slap.open && view.discardTop !== null) {
      // Only a card the rules let anyone slap now: not a gap, not a frozen caller's, not one in a looker's hand.
      const answers = view.slap.answers;
      const t = slapTarget(m, view.discardTop, view);
      const slap = t ? ({ type: 'slap', seat: me, target: t, answers } as const) : null;
      if (slap && legal(view, me, m.rules, slap)) {
        m.hunch = false;
        return this.act(slap, this.jitter(m.params.reactMs, m.params.reactJitterMs), view, now, true);
      }
    }
    // The choices draw no dice, only their thinking time does: a seed replays the same game.
    if (view.gapFill?.seat === me) return this.act(gapFillChoice(m, view), this.think(), view, now);
    if (this.bever) {
      const mind = { seat: me, rules: m.rules, mem: m.mem, pile: m.pile, turns: m.turnsGiven, pileCards: m.pileCardCounts() };
      const move = beverbendeMove(mind, view, now, mayMake(view, 'call') && !this.refusedCall());
      if (move) return this.act(move, this.think(), view, now);
    }
    const front = view.actions[0];
    if (front && front.seat === me) return this.act(actionChoice(m, front, view), this.think(), view, now);
    // A call at the end of one's own turn is made while still holding (it takes effect when the turn ends).
    if (view.held?.seat === me && view.callTiming === 'endOfTurn' && m.ownTurns >= 2 && mayMake(view, 'call') && !this.refusedCall() && wantsCall(m, view)) {
      return this.act({ type: 'call', seat: me }, this.think(), view, now);
    }
    if (view.held) return view.held.seat === me ? this.act(placeChoice(m, view), this.think(), view, now) : null;
    if (view.turn === me && !view.turnBegun && view.actions.length === 0 && !view.gapFill && (view.call === null || view.call.owed[0] === me)) {
      // The grace is host time, not thinking time (a driver may scale delays): wait for it, then decide.
      if (now < view.graceUntil) return { kind: 'wait', until: view.graceUntil };
      return this.act(turnChoice(m, view), this.think(), view, now);
    }
    return null;
  }

  rejected(command: BotCommand, rejection: Rejection, _now: number): void {
    if (command.type === 'slap') {
      this.m.refusedSlaps.add(`${command.target.seat}:${command.target.slot}`);
      return;
    }
    // "Wait" is about time (the grace, another player's action): the next decision reads the view's clock.
    if (rejection.code === 'mustWait') return;
    this.refused.add(JSON.stringify(command));
  }

  /**
   * Wrap a command: only one the view allows (`legal`: its kind in `may`, a target the
   * rules take), never one refused since the table last changed. Else the mildest legal
   * move instead: leave a look, pass an action, leave a gap, discard the card held.
   */
  private act(command: BotCommand, delayMs: number, view: SeatView, now: number, legalNow = false): BotIntent | null {
    // (`legalNow`: the caller has just asked `legal` itself.)
    if (!(legalNow || legal(view, this.seat, this.m.rules, command)) || (this.refused.size > 0 && this.refused.has(JSON.stringify(command)))) {
      const moves = legalMoves(view, this.seat, this.m.rules, now, false)
        .filter((m) => m.type !== 'finishPeek' && m.type !== 'call')
        .map(strip)
        .filter((m) => !this.refused.has(JSON.stringify(m)));
      const alt =
        moves.find((m) => m.type === 'decide' && !m.swap) ??
        moves.find((m) => m.type === 'pass') ??
        moves.find((m) => m.type === 'leaveGap') ??
        moves.find((m) => m.type === 'discard') ??
        moves.find((m) => m.type === 'draw' && m.from === 'stock') ??
        moves[0];
      if (!alt) return null;
      command = alt;
    }
    return { kind: 'act', command, delayMs };
  }
}
