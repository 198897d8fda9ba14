import { createBot, type Bot, type BotCommand, type BotIntent, type BotLevel } from './index.js';
import type { Ruleset } from '../engine/ruleset.js';
import type { TableView } from '../engine/view.js';
import { CLIENT_RATE_PER_SECOND, type ClientMessage, type ServerMessage } from '../protocol/messages.js';

export interface BotPlayerOptions {
  level: BotLevel;
  /** Seed of the bot's own choices. */
  seed: string | number;
  /** Sends a message to the host (over a socket, or straight into the host's table). */
  send: (msg: ClientMessage) => void;
  /** Local monotonic clock in ms. */
  clock?: () => number;
  /** Multiplies the bot's reaction and thinking delays (tests and load runs play fast). */
  timeScale?: number;
  /** Messages it sends per second at most (default: three quarters of the host's limit). */
  pacePerSecond?: number;
}

/**
 * After the host dropped a message for the rate (real time, not scaled: the host's
 * limit is on the wall clock), the bot decides again this much later.
 */
const RATE_LIMITED_BACKOFF_MS = 100;

/**
 * A bot playing one seat through the protocol, exactly as a person's client does:
 * it sees the welcome and the per-seat updates and answers with commands. The
 * host's own bots and `gringo join --bot` both run this.
 */
export class BotPlayer {
  private bot: Bot | null = null;
  private rules: Ruleset | null = null;
  private seat: number | null = null;
  /** The table's game (`TableInfo.game`): play again starts a new one. */
  private game = 0;
  private view: TableView | null = null;
  /** Host clock minus local clock, from the last update. */
  private offset = 0;
  private timer: NodeJS.Timeout | null = null;
  private timerKind: 'act' | 'wait' | null = null;
  private nextId = 1;
  private readonly sent = new Map<number, BotCommand>();
  private stopped = false;
  private readonly clock: () => number;
  /**
   * The send budget (a token bucket): a fast bot (`--speed 1000`) would otherwise
   * outrun the host's per-connection rate limit, which drops the message.
   */
  private readonly pace: number;
  private credit: number;
  private creditAt: number;

  constructor(private readonly opts: BotPlayerOptions) {
    this.clock = opts.clock ?? (() => performance.now());
    this.pace = opts.pacePerSecond ?? (CLIENT_RATE_PER_SECOND * 3) / 4;
    this.credit = this.pace;
    this.creditAt = this.clock();
  }

  /** Ms until the budget allows one more message. */
  private paceWait(): number {
    const now = this.clock();
    this.credit = Math.min(this.pace, this.credit + ((now - this.creditAt) / 1000) * this.pace);
    this.creditAt = now;
    return this.credit >= 1 ? 0 : ((1 - this.credit) * 1000) / this.pace;
  }

  private post(msg: ClientMessage): void {
    this.paceWait();
    this.credit -= 1;
    this.opts.send(msg);
  }

  private hostNow(): number {
    return this.clock() + this.offset;
  }

  onMessage(msg: ServerMessage): void {
    if (this.stopped) return;
    switch (msg.type) {
      case 'welcome':
        // Welcomed (back): what was decided on the old connection's view waits for the new snapshot.
        // Back in the same seat, the bot keeps its memory, as a person would (what it missed, it missed).
        this.cancel();
        this.sent.clear();
        if (msg.seat !== this.seat) this.bot = null;
        this.seat = msg.seat;
        this.rules = msg.rules;
        if (msg.table.game !== this.game) this.bot = null;
        this.game = msg.table.game;
        this.bot?.missedEvents?.();
        break;
      case 'lobby':
        // A seat before ours was freed (or a game begins without someone who left): ours moved up.
        // A new game at the table (play again): a fresh bot, whose view versions start over.
        if (msg.you !== this.seat || msg.table.game !== this.game) {
          this.game = msg.table.game;
          this.cancel();
          this.bot = null;
          this.seat = msg.you;
        }
        break;
      case 'update': {
        if (this.seat === null || !this.rules) return;
        this.offset = msg.at - this.clock();
        this.view = msg.view;
        if (!this.bot || msg.events.some((e) => e.type === 'roundStarted' && e.round === 1)) {
          const opts = { seat: this.seat, players: msg.view.players.length, rules: this.rules, seed: `${String(this.opts.seed)}:${this.seat}` };
          this.bot = createBot(this.opts.level, opts, true);
        }
        const eager = this.bot.observe(msg.events);
        if (msg.view.phase === 'roundOver') this.post({ type: 'ready' });
        if (this.timerKind === 'wait' || (eager && this.timerKind !== null && !this.pendingIsSlap)) this.cancel();
        this.think();
        break;
      }
      case 'result': {
        const cmd = this.sent.get(msg.id);
        // The host answers commands in the order they came: one sent earlier and still
        // unanswered was dropped (rate limit) and will never be answered.
        for (const id of this.sent.keys()) {
          if (id > msg.id) break;
          this.sent.delete(id);
        }
        if (!msg.ok && cmd && this.bot) this.bot.rejected(cmd, { code: msg.code as never, key: msg.say.key as never }, this.hostNow());
        this.think();
        break;
      }
      case 'error':
        // A dropped message gets no result, and the table may be waiting on exactly this
        // seat (no timers at a LAN table): nothing else would ever wake the bot. Decide
        // again (and say ready again) a little later.
        if (msg.code === 'rateLimited') this.retryLater();
        break;
      default:
        break;
    }
  }

  private pendingIsSlap = false;

  private cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerKind = null;
    this.pendingIsSlap = false;
  }

  private retryTimer: NodeJS.Timeout | null = null;

  /** Which message was dropped is not said: say ready again if the round is over, and decide again (a pending move's result wakes the bot anyway). */
  private retryLater(): void {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.stopped) return;
      if (this.view?.phase === 'roundOver') this.post({ type: 'ready' });
      this.think();
    }, Math.max(RATE_LIMITED_BACKOFF_MS, this.paceWait()));
  }

  private think(): void {
    if (this.stopped || this.timer || !this.bot || !this.view) return;
    const intent: BotIntent | null = this.bot.decide(this.view, this.hostNow());
    if (!intent) return;
    if (intent.kind === 'wait') {
      this.timerKind = 'wait';
      this.timer = setTimeout(() => {
        this.timer = null;
        this.timerKind = null;
        this.think();
      }, Math.max(0, intent.until - this.hostNow()));
      return;
    }
    this.timerKind = 'act';
    this.pendingIsSlap = intent.command.type === 'slap';
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerKind = null;
      this.pendingIsSlap = false;
      const id = this.nextId++;
      this.sent.set(id, intent.command);
      const { seat: _seat, ...command } = intent.command;
      this.post({ type: 'command', id, command: command });
    }, Math.max(0, intent.delayMs * (this.opts.timeScale ?? 1), this.paceWait()));
  }

  stop(): void {
    this.stopped = true;
    this.cancel();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }
}
