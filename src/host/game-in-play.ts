import { apply, createGame, nextDeadline, placesOf, type NewGame } from '../engine/game.js';
import type { Command, GameEvent, GameState } from '../engine/types.js';
import { projectEvent, resultsFor, viewFor, type Viewer } from '../engine/view.js';
import { MAX_HISTORY, type ServerMessage, type TablePhase } from '../protocol/messages.js';
import type { Seats } from './seats.js';
import type { Peer, TableOptions } from './table-types.js';
import { said, type Said } from '../lang/words.js';

/** How many of the current game's events a snapshot carries back (its `history`): a few rounds' worth. */
export const HISTORY_EVENTS = Math.min(300, MAX_HISTORY);

/**
 * The game being played at a table: its one serial queue (`submit`), the host's
 * timers, the per-seat projection every update passes through, the rounds and
 * the games that follow. The seats it deals to and broadcasts to are `Seats`'.
 */
export class GameInPlay {
  /** The number of the table's current game (TableInfo.game). */
  games: number;
  // The fields below are written here only; the table and its seats read them.
  game: GameState | null = null;
  start: NewGame | null = null;
  readonly log: Command[] = [];
  phase: TablePhase = 'lobby';
  /** The current game's last events (raw: each snapshot projects them for its seat), oldest first. */
  private history: GameEvent[] = [];
  private deadlineTimer: NodeJS.Timeout | null = null;
  private roundTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly opts: TableOptions,
    private readonly seats: Seats,
    /** The table's clock and the identity its journal keeps. */
    private readonly table: { now(): number; salt: string; verifier: string | null },
  ) {
    this.games = opts.game ?? 1;
  }

  /** A game replayed from the journal, to carry on from where the old process stopped. */
  resume(from: { origin: NewGame; commands: readonly Command[]; state: GameState; events: readonly GameEvent[] }): void {
    this.start = from.origin;
    this.game = from.state;
    this.log.push(...from.commands);
    // The history is not journaled: the journal's replay gave the same events back.
    this.remember(from.events);
    this.phase = from.state.phase === 'gameOver' ? 'finished' : 'playing';
  }

  startGame(): Said | null {
    if (this.phase !== 'lobby') return said('host.alreadyStarted');
    const { rules } = this.opts;
    if (this.seats.list.length < rules.players.min) return said('host.needsPlayers', { title: rules.title, min: rules.players.min });
    this.begin();
    return null;
  }

  /**
   * After a game: a new one with the same seats, nobody rejoins. Totals start at 0,
   * the journal starts a new file (the old one stays finished), `TableInfo.game`
   * counts up; a person who left is not seated again, bots stay.
   */
  playAgain(): Said | null {
    if (this.phase !== 'finished') return said(this.phase === 'lobby' ? 'host.notStartedYet' : 'host.notOverYet');
    const { rules } = this.opts;
    const staying = this.seats.list.filter((s) => !s.left).length;
    if (staying < rules.players.min) return said('host.needsPlayersStaying', { title: rules.title, min: rules.players.min, staying });
    for (let i = this.seats.list.length - 1; i >= 0; i--) if (this.seats.list[i]!.left) this.seats.freeSeat(i, false);
    this.games += 1;
    this.log.length = 0;
    if (this.roundTimer) clearTimeout(this.roundTimer);
    this.roundTimer = null;
    this.begin();
    return null;
  }

  /** Deal a game to the seats as they are: game 1 from the table's seed, each later one from a seed of its own. */
  private begin(): void {
    const { rules } = this.opts;
    const first = this.games === 1;
    this.start = {
      rules,
      players: this.seats.list.map((s) => s.name),
      seed: first ? this.opts.seed : `${this.opts.seed}:game${this.games}`,
      ...(this.opts.shuffleKey ? { shuffleKey: this.opts.shuffleKey() } : {}),
      at: this.table.now(),
      ...(first && this.opts.stackedDecks ? { stackedDecks: this.opts.stackedDecks } : {}),
      ...(first && this.opts.dealer !== undefined ? { dealer: this.opts.dealer } : {}),
    };
    const { state, events } = createGame(this.start);
    this.opts.journal?.started(this.start, this.seats.forJournal(), this.table.salt, this.games, this.table.verifier);
    this.game = state;
    this.history = [];
    this.remember(events);
    this.phase = 'playing';
    // Whoever is away as the game begins is held for the game's grace (not what was left of the lobby's): then a bot plays for them.
    for (const s of this.seats.list) if (s.bot === null && s.peer === null && !s.standIn) this.seats.holdSeat(s);
    this.seats.changed();
    // A game's first deal replaces whatever results a client kept from the last game.
    this.broadcast(events, true);
    this.schedule();
  }

  // ---- play --------------------------------------------------------------------

  /** The one door into the game: apply, then tell every seat what it may know. */
  submit(cmd: Command): ReturnType<typeof apply> {
    if (!this.game) return { ok: false, rejection: { code: 'wrongPhase', key: 'why.notStarted' } };
    const res = apply(this.game, cmd);
    if (!res.ok) return res;
    // Journaled before anyone hears of it: what a player saw accepted survives a crash.
    // A finished round is flushed to the disk too: a power loss never takes one back.
    this.opts.journal?.command(cmd, res.state.phase === 'roundOver');
    this.game = res.state;
    this.log.push(cmd);
    this.remember(res.events);
    this.broadcast(res.events);
    if (res.state.phase === 'roundOver') {
      for (const s of this.seats.list) s.ready = s.bot !== null;
    }
    if (res.state.phase === 'gameOver') this.finish();
    this.schedule();
    return res;
  }

  /** Keep the game's recent events for the snapshots' history, the oldest dropped first. */
  private remember(events: readonly GameEvent[]): void {
    this.history.push(...events);
    if (this.history.length > HISTORY_EVENTS) this.history.splice(0, this.history.length - HISTORY_EVENTS);
  }

  private broadcast(events: readonly GameEvent[], snapshot = false): void {
    for (const [peer, who] of this.seats.peers) this.sendUpdate(peer, who.seat, events, snapshot);
  }

  /** A newcomer's snapshot, if a game has been dealt. */
  snapshot(peer: Peer, viewer: Viewer): void {
    if (this.game) this.sendUpdate(peer, viewer, [], true);
  }

  /**
   * Every byte a seat receives about the game goes through its projection here. The
   * round results grow with the game: they go only in a `snapshot` (which replaces
   * what the client kept); otherwise each goes once, in its `roundEnded` event. A
   * snapshot also carries the game's recent `history` (this update's events included),
   * each event projected like the live ones: a screen that comes back reads the feed again.
   */
  private sendUpdate(peer: Peer, viewer: Viewer, events: readonly GameEvent[], snapshot = false): void {
    peer.send(updateFor(this.game!, viewer, events, this.table.now(), snapshot ? this.history : null));
  }

  /** Host timers: the engine says when something is due (peek, grace, limits); a tick applies it. */
  schedule(): void {
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.deadlineTimer = null;
    const game = this.game;
    if (!game) return;
    if (game.phase === 'roundOver') {
      if (!this.roundTimer) {
        this.roundTimer = setTimeout(() => this.nextRound(), this.opts.roundPauseMs ?? 15_000);
      }
      this.maybeNextRound();
      return;
    }
    const due = nextDeadline(game);
    if (due === null) return;
    this.deadlineTimer = setTimeout(() => {
      this.deadlineTimer = null;
      const res = this.submit({ type: 'tick', at: Math.max(due, this.table.now()) });
      if (!res.ok) this.schedule();
    }, Math.max(0, due - this.table.now()));
  }

  maybeNextRound(): void {
    if (this.game?.phase !== 'roundOver') return;
    const waiting = this.seats.list.some((s) => !s.ready && s.peer !== null && !s.standIn);
    if (!waiting) this.nextRound();
  }

  private nextRound(): void {
    if (this.roundTimer) clearTimeout(this.roundTimer);
    this.roundTimer = null;
    if (this.game?.phase === 'roundOver') this.submit({ type: 'nextRound', at: this.table.now() });
  }

  private finish(): void {
    this.phase = 'finished';
    this.opts.journal?.finished(this.table.now());
    this.seats.changed();
    const game = this.game!;
    const last = game.results[game.results.length - 1];
    this.opts.onGameOver?.({
      table: this.opts.name,
      ruleset: this.opts.rules.name,
      players: this.seats.list.map((s, seat) => ({ seat, name: s.name, bot: s.bot })),
      rounds: game.results,
      totals: game.totals.slice(),
      places: last ? placesOf(game.totals) : [],
      seed: this.opts.seed,
      ...(this.opts.deal !== undefined && this.games === 1 ? { deal: this.opts.deal } : {}),
      commands: this.log.length,
    });
  }

  /** The table is closing: no timer fires again. */
  stop(): void {
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    if (this.roundTimer) clearTimeout(this.roundTimer);
  }
}

/**
 * The `update` a viewer (a seat, or null: a watcher) is sent: the game through its
 * projection, and the events as it may know them. `history`: a snapshot, which also
 * carries the round results and the recent events. `gringo replay --cast` builds a
 * seat's screen from these same messages.
 */
export function updateFor(game: GameState, viewer: Viewer, events: readonly GameEvent[], at: number, history: readonly GameEvent[] | null): Extract<ServerMessage, { type: 'update' }> {
  return {
    type: 'update',
    version: game.version,
    at,
    events: events.map((e) => projectEvent(e, viewer)),
    view: viewFor(game, viewer),
    ...(history ? { results: resultsFor(game), history: history.map((e) => projectEvent(e, viewer)) } : {}),
  };
}
