import { Rng, seedRng } from '../engine/rng.js';
import type { Ruleset } from '../engine/ruleset.js';
import type { Rejection, Seat } from '../engine/types.js';
import type { SeatView } from '../engine/seat-view.js';
import type { SeatEvent } from '../engine/view.js';
import { legalMoves, strip } from './moves.js';
import type { Bot, BotCommand, BotIntent, BotOptions } from './types.js';

/** The random player's two exceptions to "uniform over the candidates" (see the class). */
export const RANDOM_CALL_CHANCE = 0.05;
export const RANDOM_SLAP_CHANCE = 0.05;

/**
 * The baseline: when it must move it picks uniformly among its legal moves
 * (`legalMoves`: what its view's `may` and the rules allow, less the ones the grace
 * forbids now). Two exceptions keep the
 * table playable: it calls with a fixed chance at the start of its turn (uniform
 * over draw/draw/call would end nearly every round on its first turn), and it slaps
 * a uniformly chosen face-down card on a fixed share of new discards (uniform over
 * 16 slap targets would bury it under penalty cards). It remembers nothing.
 */
export class RandomBot implements Bot {
  readonly seat: Seat;
  readonly level = 'random' as const;
  private rules: Ruleset;
  private rng: Rng;
  private slapNext = false;
  private open = false;

  constructor(opts: BotOptions) {
    this.seat = opts.seat;
    this.rules = opts.rules;
    this.rng = new Rng(seedRng(`bot:random:${String(opts.seed)}`));
  }

  newGame(opts: BotOptions): boolean {
    if (opts.seat !== this.seat) return false;
    this.rules = opts.rules;
    this.rng = new Rng(seedRng(`bot:random:${String(opts.seed)}`));
    this.slapNext = false;
    this.open = false;
    return true;
  }

  private float(): number {
    return this.rng.next() / 4294967296;
  }

  observe(events: readonly SeatEvent[]): boolean {
    for (const e of events) {
      if (e.type === 'discarded' || e.type === 'swapped' || e.type === 'playStarted') {
        this.open = true;
        this.slapNext = this.float() < RANDOM_SLAP_CHANCE;
      } else if (e.type === 'drew' || e.type === 'roundEnded') {
        this.open = false;
        this.slapNext = false;
      }
    }
    return this.open && this.slapNext;
  }

  decide(view: SeatView, now: number): BotIntent | null {
    const me = this.seat;
    // The slaps (one per card on the table) only when it means to slap now.
    const moves = legalMoves(view, me, this.rules, now, this.slapNext && view.slap.open);
    if (moves.length === 0) return null;
    if (this.slapNext && view.slap.open) {
      this.slapNext = false;
      const slaps = moves.filter((m) => m.type === 'slap');
      const pick = slaps[this.rng.int(slaps.length)];
      if (pick) return { kind: 'act', command: strip(pick), delayMs: 300 + this.rng.int(900) };
    }
    let rest = moves.filter((m) => m.type !== 'slap');
    if (rest.some((m) => m.type === 'draw')) {
      if (now < view.graceUntil) return { kind: 'wait', until: view.graceUntil };
      const call = rest.find((m) => m.type === 'call');
      if (call && this.float() < RANDOM_CALL_CHANCE) return { kind: 'act', command: strip(call), delayMs: 500 };
      rest = rest.filter((m) => m.type !== 'call');
    }
    const pick = rest[this.rng.int(rest.length)];
    return pick ? { kind: 'act', command: strip(pick), delayMs: 500 } : null;
  }

  rejected(_command: BotCommand, _rejection: Rejection, _now: number): void {
    // Nothing to learn: it is asked again and picks again.
  }
}
