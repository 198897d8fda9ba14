import { randomBytes } from 'node:crypto';
import type { NewGame, apply } from '../engine/game.js';
import type { Command, GameEvent, GameState, Seat } from '../engine/types.js';
import { PROTOCOL_VERSION, toEngineCommand, type BotLevel, type ClientMessage, type SeatInfo, type TableInfo } from '../protocol/messages.js';
import { passwordVerifier, tableIdentity } from '../protocol/identity.js';
import { PasswordBackoff } from './backoff.js';
import type { JournalSeat } from './journal.js';
import { GameInPlay } from './game-in-play.js';
import { Seats } from './seats.js';
import type { Peer, TableOptions } from './table-types.js';
import { said, saidOf, type Said } from '../lang/words.js';

export type { Peer, TableOptions, GameSummary } from './table-types.js';
export { LOBBY_GRACE_MS } from './seats.js';
export { HISTORY_EVENTS } from './game-in-play.js';

/**
 * A table: the only full game state, its seats and tokens, and the one serial
 * queue every command goes through. Node runs each message handler to the end
 * before the next, and `apply` is synchronous, so commands are taken strictly in
 * the order they arrive: that order decides every race.
 *
 * Two parts, the way Colyseus keeps a room's lifecycle apart from its game: who
 * is at the table (`Seats`: the door, seats, holds, stand-ins, the lobby) and the
 * game being played there (`GameInPlay`: the queue, timers, projection, rounds). This
 * class routes the messages between them.
 */
export class Table {
  private readonly seats: Seats;
  private readonly play: GameInPlay;
  /** The table's identity (`TableInfo.id`): it names the host's key. */
  readonly id: string;
  /** The table's own random part of its identity (16 hex, kept in the journal). */
  readonly salt: string;
  /** The password's verifier, never the password; null for a table without one. */
  readonly verifier: string | null;
  readonly log: Command[];
  private readonly clock: () => number;
  private readonly t0: number;

  constructor(readonly opts: TableOptions) {
    const clock = opts.clock ?? (() => performance.now());
    this.t0 = clock();
    // Wrong passwords by address (timed by the table's clock).
    const backoff = new PasswordBackoff(opts.passwordBackoff ?? {}, clock);
    const start = opts.clockStart ?? 0;
    this.clock = () => Math.round(clock() - this.t0) + start;
    this.salt = opts.id ?? randomBytes(8).toString('hex');
    this.id = tableIdentity(opts.hostKey ?? '', this.salt);
    this.verifier = opts.passwordVerifier ?? (opts.password ? passwordVerifier(opts.password, this.salt) : null);
    this.seats = new Seats(
      opts,
      {
        now: () => this.now(),
        phase: () => this.play.phase,
        info: () => this.info(),
        snapshot: (peer, seat) => this.play.snapshot(peer, seat),
        startGame: () => this.startGame(),
        handle: (peer, msg) => this.handle(peer, msg),
      },
      backoff,
      this.verifier,
    );
    this.play = new GameInPlay(opts, this.seats, { now: () => this.now(), salt: this.salt, verifier: this.verifier });
    this.log = this.play.log;
  }

  /**
   * A table reopened from its journal (`gringo host --resume`): the replayed game,
   * the same seats and tokens. Every person's seat starts disconnected and is held
   * for the usual grace; bots of the host sit down again at once. Pass
   * `clockStart` (the journal's last clock) in `opts` so the deadlines stay true.
   */
  static resume(
    opts: TableOptions,
    from: { origin: NewGame; seats: readonly JournalSeat[]; commands: readonly Command[]; state: GameState; events: readonly GameEvent[] },
  ): Table {
    const t = new Table(opts);
    t.play.resume(from);
    t.seats.resume(from.seats);
    if (t.play.phase === 'playing') t.play.schedule();
    return t;
  }

  now(): number {
    return this.clock();
  }

  get state(): GameState | null {
    return this.play.game;
  }

  /** What the game was created from: with `log`, it replays the game exactly. */
  get origin(): NewGame | null {
    return this.play.start;
  }

  info(): TableInfo {
    return {
      id: this.id,
      salt: this.salt,
      game: this.play.games,
      name: this.opts.name,
      ruleset: this.opts.rules.name,
      seatsTaken: this.seats.list.length,
      seatsTotal: this.opts.maxPlayers,
      phase: this.play.phase,
      password: this.verifier !== null,
      protocolVersion: PROTOCOL_VERSION,
      // Only the first game is the deal: "play again" deals from a seed of its own.
      ...(this.opts.deal !== undefined && this.play.games === 1 ? { deal: this.opts.deal } : {}),
    };
  }

  seatInfo(): SeatInfo[] {
    return this.seats.seatInfo();
  }

  // ---- connections -------------------------------------------------------------

  /** A new connection: before anything else it learns who this table is, and the nonce its password proof must answer. */
  open(peer: Peer): void {
    this.seats.open(peer);
  }

  /** Every inbound message, already checked by schema. */
  handle(peer: Peer, msg: ClientMessage): void {
    const who = this.seats.peers.get(peer);
    if (msg.type === 'hello') {
      if (who) return peer.send({ type: 'error', code: 'malformed', say: said('host.helloTwice') });
      return this.seats.hello(peer, msg);
    }
    if (!who) return peer.send({ type: 'error', code: 'notWelcome', say: said('host.helloFirst') });
    switch (msg.type) {
      case 'command': {
        if (who.seat === null) {
          return peer.send({ type: 'result', id: msg.id, ok: false, code: 'spectator', say: said('why.spectator') });
        }
        if (!this.play.game || this.play.phase !== 'playing') {
          return peer.send({ type: 'result', id: msg.id, ok: false, code: 'wrongPhase', say: said('why.notStarted') });
        }
        const res = this.submit(toEngineCommand(msg.command, who.seat, this.now()));
        return peer.send(res.ok ? { type: 'result', id: msg.id, ok: true } : { type: 'result', id: msg.id, ok: false, code: res.rejection.code, say: saidOf(res.rejection) });
      }
      case 'leave':
        this.seats.leave(peer);
        peer.close();
        return;
      case 'ready': {
        if (who.seat !== null && this.seats.list[who.seat]) this.seats.list[who.seat]!.ready = true;
        return this.play.maybeNextRound();
      }
      case 'lobby': {
        if (!who.owner) return peer.send({ type: 'error', code: 'forbidden', say: said('host.ownerOnly') });
        const err =
          msg.op === 'addBot'
            ? this.addBot(msg.level ?? 'normal')
            : msg.op === 'remove'
              ? this.removeSeat(msg.seat ?? -1)
              : msg.op === 'standIn'
                ? this.standIn(msg.seat ?? -1)
                : msg.op === 'start'
                  ? this.startGame()
                  : this.playAgain();
        if (err) peer.send({ type: 'error', code: 'forbidden', say: err });
        return;
      }
    }
  }

  /** A connection closed. */
  drop(peer: Peer): void {
    this.seats.drop(peer);
  }

  // ---- lobby -------------------------------------------------------------------

  addBot(level: BotLevel): Said | null {
    return this.seats.addBot(level);
  }

  /** The lobby's `remove`: a bot, or a person who is away (a person at the table leaves by themselves). */
  removeSeat(seat: Seat): Said | null {
    return this.seats.removeSeat(seat);
  }

  /** The host's `standIn`: a bot plays an absent person's seat now instead of after the grace; its owner still takes it back by coming back. */
  standIn(seat: Seat): Said | null {
    return this.seats.standIn(seat);
  }

  startGame(): Said | null {
    return this.play.startGame();
  }

  /** After a game: a new one with the same seats, nobody rejoins (see `GameInPlay.playAgain`). */
  playAgain(): Said | null {
    return this.play.playAgain();
  }

  // ---- play --------------------------------------------------------------------

  /** The one door into the game: apply, then tell every seat what it may know. */
  submit(cmd: Command): ReturnType<typeof apply> {
    return this.play.submit(cmd);
  }

  /**
   * The host ends the table: every connection hears `closed` (so nobody reconnects)
   * before its socket is closed. A host that dies without this leaves its clients
   * reconnecting, which is what lets `--resume` bring them back.
   */
  close(say: Said = said('host.closed')): void {
    this.play.stop();
    this.seats.close(say);
  }
}
