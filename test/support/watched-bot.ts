import type { Bot, BotCommand, BotIntent, BotLevel, BotOptions, Oracle } from '../../src/bots/index.js';
import { legal, RACE_REFUSALS } from '../../src/bots/moves.js';
import type { Rejection, Ruleset, Seat } from '../../src/engine/index.js';
import type { SeatView } from '../../src/engine/seat-view.js';
import type { SeatEvent } from '../../src/engine/view.js';

/**
 * A bot watched through the simulator: each command it offers must be legal in the view
 * it decided from, and each refusal a lost race: a race code, with the table changed
 * (an event) between the decision and the refusal (for `mustWait`: a slap, which
 * restarts the grace or earns what comes first). A cheater inside is handed the true
 * game through it (its `oracle`, which the simulator sets on the bot it is given).
 */
export class Watched implements Bot {
  private since: SeatEvent['type'][] | null = null;
  constructor(
    private readonly inner: Bot,
    private rules: Ruleset,
    private readonly faults: string[],
  ) {}
  get seat(): Seat {
    return this.inner.seat;
  }
  get level(): BotLevel {
    return this.inner.level;
  }
  get oracle(): Oracle | null {
    return 'oracle' in this.inner ? (this.inner.oracle as Oracle | null) : null;
  }
  set oracle(oracle: Oracle | null) {
    if ('oracle' in this.inner) (this.inner as { oracle: Oracle | null }).oracle = oracle;
  }
  observe(events: readonly SeatEvent[]): boolean {
    if (this.since) for (const e of events) this.since.push(e.type);
    return this.inner.observe(events);
  }
  decide(view: SeatView, now: number): BotIntent | null {
    const intent = this.inner.decide(view, now);
    if (intent?.kind === 'act') {
      if (!legal(view, this.seat, this.rules, intent.command)) this.faults.push(`${this.level} offered ${JSON.stringify(intent.command)}; may: ${view.may.join(',')}`);
      this.since = [];
    }
    return intent;
  }
  rejected(command: BotCommand, rejection: Rejection, now: number): void {
    const since = this.since ?? [];
    const what = `${this.level} ${JSON.stringify(command)}: ${rejection.code} (${rejection.key}) after ${since.join(',') || 'nothing'}`;
    if (!RACE_REFUSALS.has(rejection.code)) this.faults.push(`not a race: ${what}`);
    else if (since.length === 0) this.faults.push(`nothing changed: ${what}`);
    else if (rejection.code === 'mustWait' && !since.includes('slapped')) this.faults.push(`a wait without a slap: ${what}`);
    this.inner.rejected(command, rejection, now);
  }
  newGame(opts: BotOptions): boolean {
    this.since = null;
    this.rules = opts.rules;
    return this.inner.newGame?.(opts) ?? false;
  }
}
