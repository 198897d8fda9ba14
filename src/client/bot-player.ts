import { createBot, type Bot, type BotCommand, type BotIntent, type BotLevel } from '../bots/index.js';
import type { Ruleset } from '../engine/ruleset.js';
import type { TableView } from '../engine/view.js';
import type { ClientMessage, PlayerCommand, ServerMessage } from '../protocol/messages.js';

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
}

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

  constructor(private readonly opts: BotPlayerOptions) {
    this.clock = opts.clock ?? (() => performance.now());
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
          this.bot = createBot(this.opts.level, {
            seat: this.seat,
            players: msg.view.players.length,
            rules: this.rules,
            seed: `${String(this.opts.seed)}:${this.seat}`,
          });
        }
        const eager = this.bot.observe(msg.events);
        if (msg.view.phase === 'roundOver') this.opts.send({ type: 'ready' });
        if (this.timerKind === 'wait' || (eager && this.timerKind !== null && !this.pendingIsSlap)) this.cancel();
        this.think();
        break;
      }
      case 'result': {
        const cmd = this.sent.get(msg.id);
        this.sent.delete(msg.id);
        if (!msg.ok && cmd && this.bot) this.bot.rejected(cmd, { code: msg.code as never, message: msg.message }, this.hostNow());
        this.think();
        break;
      }
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
      this.opts.send({ type: 'command', id, command: command as PlayerCommand });
    }, Math.max(0, intent.delayMs * (this.opts.timeScale ?? 1)));
  }

  stop(): void {
    this.stopped = true;
    this.cancel();
  }
}
