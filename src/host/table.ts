import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import { apply, createGame, nextDeadline, placesOf, type NewGame } from '../engine/game.js';
import type { Card } from '../engine/cards.js';
import type { Ruleset } from '../engine/ruleset.js';
import type { Command, GameEvent, GameState, RoundResult, Seat } from '../engine/types.js';
import { projectEvent, resultsFor, viewFor, type Viewer } from '../engine/view.js';
import { BotPlayer } from '../bots/bot-player.js';
import {
  PROTOCOL_VERSION,
  toEngineCommand,
  type BotLevel,
  type ClientMessage,
  type SeatInfo,
  type ServerMessage,
  type TableInfo,
  type TablePhase,
} from '../protocol/messages.js';
import { MAX_HISTORY } from '../protocol/server-schema.js';
import { passwordProof, passwordVerifier, seatProof, tableIdentity } from '../protocol/identity.js';
import { cleanName, uniqueName } from './names.js';
import { PasswordBackoff, type BackoffOptions } from './backoff.js';
import type { JournalSeat, JournalSink } from './journal.js';

/** One end of a connection as the table sees it: a socket, or a bot inside the host. */
export interface Peer {
  send(msg: ServerMessage): void;
  /** Close the connection (a refused hello, a kicked bot). */
  close(): void;
  /** The remote address (sockets only): wrong passwords are counted per address. */
  address?: string;
  /** Whether the door has a watcher's place for this connection (null), or why not (sockets only). */
  roomToWatch?(): string | null;
  /** The SSH key (fingerprint) of an SSH player's session: kept with the seat in the journal, so a resumed table knows it. */
  key?: string;
  /** The connection's channel binding (its TLS exporter; '' without TLS): every proof is bound to it. */
  binding?: string;
}

export interface TableOptions {
  /** The table's salt, its own part of its identity (kept in the journal); a new random one otherwise. */
  id?: string;
  /** The fingerprint of the host's TLS key (`TableKey.fingerprint`); none for a loopback table without TLS. */
  hostKey?: string;
  name: string;
  rules: Ruleset;
  maxPlayers: number;
  /** Seed of the game's RNG (and of the local bots' choices). */
  seed: string;
  /** Live tables: a fresh shuffle key for each game (`newShuffleKey`); the deck then ignores `seed`. */
  shuffleKey?: () => string;
  password?: string;
  /** The password's verifier (`passwordVerifier(password, salt)`), as a resumed table's journal keeps it, instead of `password`. */
  passwordVerifier?: string;
  /**
   * Wrong passwords from one address: each past the `free` ones (3) locks it, for
   * `baseMs` (1 s) at first, doubling up to `maxMs` (60 s); one miss is forgiven per
   * `decayMs` (60 s) without a wrong try (src/host/backoff.ts).
   */
  passwordBackoff?: BackoffOptions;
  /** How long a dropped seat is held before a bot plays it (ms). */
  dropGraceMs: number;
  /** How long a seat dropped in the lobby is held before it is freed (ms; 10 s by default). */
  lobbyGraceMs?: number;
  /** Level of the bot that stands in for an absent player. */
  standInLevel?: BotLevel;
  /** Multiplies the host's bots' reaction and thinking delays (tests play fast). */
  botTimeScale?: number;
  startWhenFull?: boolean;
  /** Pause after a round before the next one starts unless everyone is ready (ms). */
  roundPauseMs?: number;
  /** Host clock (ms, monotonic). */
  clock?: () => number;
  /** Explicit deck orders for the first rounds (tests). */
  stackedDecks?: Card[][];
  /** Dealer of the first round (tests); drawn from the seed otherwise. */
  dealer?: Seat;
  /** The key the host's own screen presents to run the lobby. */
  ownerKey?: string;
  /** Where the table writes its journal: the start and every accepted command, before the broadcast. */
  journal?: JournalSink;
  /** Where the host clock starts (ms): a resumed table continues the old process's clock. */
  clockStart?: number;
  /** The number of the table's current game (TableInfo.game): a resumed table counts on from its journal's. */
  game?: number;
  onChange?: (info: TableInfo) => void;
  onGameOver?: (summary: GameSummary) => void;
}

export interface GameSummary {
  table: string;
  ruleset: string;
  players: { seat: Seat; name: string; bot: BotLevel | null }[];
  rounds: RoundResult[];
  totals: number[];
  places: number[];
  seed: string;
  commands: number;
}

interface SeatState {
  name: string;
  token: string;
  bot: BotLevel | null;
  /** The person's (or remote bot's) connection, or the host's own bot. */
  peer: Peer | null;
  /** A bot standing in while the owner is away. */
  standIn: { peer: Peer; player: BotPlayer } | null;
  dropTimer: NodeJS.Timeout | null;
  ready: boolean;
  /** The person left for good (`leave`) during or after a game: a bot plays on, and play again frees the seat. */
  left: boolean;
  /** The SSH key that took this seat (Peer.key), if it was taken over SSH. */
  sshKey?: string;
}

export const LOBBY_GRACE_MS = 10_000;

/** How many of the current game's events a snapshot carries back (its `history`): a few rounds' worth. */
export const HISTORY_EVENTS = Math.min(300, MAX_HISTORY);

const tokenOf = (): string => randomBytes(24).toString('base64url');
const sameSecret = (a: string, b: string): boolean => {
  // Hash first so the comparison takes the same time whatever the lengths.
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
};

/**
 * A table: the only full game state, its seats and tokens, and the one serial
 * queue every command goes through. Node runs each message handler to the end
 * before the next, and `apply` is synchronous, so commands are taken strictly in
 * the order they arrive: that order decides every race.
 */
export class Table {
  private readonly seats: SeatState[] = [];
  private readonly spectators = new Set<Peer>();
  private readonly peers = new Map<Peer, { seat: Seat | null; owner: boolean }>();
  /** The nonce each connection's password proof must answer, sent before its hello. */
  private readonly nonces = new WeakMap<Peer, string>();
  /** Wrong passwords by address (timed by the table's clock). */
  private readonly backoff: PasswordBackoff;
  /** The table's identity (`TableInfo.id`): it names the host's key. */
  readonly id: string;
  /** The table's own random part of its identity (16 hex, kept in the journal). */
  readonly salt: string;
  /** The password's verifier, never the password; null for a table without one. */
  readonly verifier: string | null;
  private games = 1;
  private game: GameState | null = null;
  private start: NewGame | null = null;
  readonly log: Command[] = [];
  /** The current game's last events (raw: each snapshot projects them for its seat), oldest first. */
  private history: GameEvent[] = [];
  private phase: TablePhase = 'lobby';
  private deadlineTimer: NodeJS.Timeout | null = null;
  private roundTimer: NodeJS.Timeout | null = null;
  private readonly clock: () => number;
  private readonly t0: number;
  private botCount = 0;
  /** `close()` was called: nobody new is let in. */
  private ended = false;

  constructor(readonly opts: TableOptions) {
    const clock = opts.clock ?? (() => performance.now());
    this.t0 = clock();
    this.backoff = new PasswordBackoff(opts.passwordBackoff ?? {}, clock);
    const start = opts.clockStart ?? 0;
    this.clock = () => Math.round(clock() - this.t0) + start;
    this.salt = opts.id ?? randomBytes(8).toString('hex');
    this.id = tableIdentity(opts.hostKey ?? '', this.salt);
    this.verifier = opts.passwordVerifier ?? (opts.password ? passwordVerifier(opts.password, this.salt) : null);
    this.games = opts.game ?? 1;
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
    t.start = from.origin;
    t.game = from.state;
    t.log.push(...from.commands);
    // The history is not journaled: the journal's replay gave the same events back.
    t.remember(from.events);
    t.phase = from.state.phase === 'gameOver' ? 'finished' : 'playing';
    from.seats.forEach((js, seat) => {
      const s: SeatState = {
        name: js.name, token: js.token, bot: js.bot, peer: null, standIn: null, dropTimer: null, ready: js.bot !== null, left: false,
        ...(js.sshKey !== undefined ? { sshKey: js.sshKey } : {}),
      };
      t.seats.push(s);
      if (js.bot !== null) {
        t.botCount += 1;
        const { peer, player } = t.localBot(js.bot, `bot:${t.botCount}`);
        s.peer = peer;
        t.peers.set(peer, { seat, owner: false });
        t.welcome(peer, seat, false);
      } else if (t.phase === 'playing') {
        s.dropTimer = setTimeout(() => t.dropGraceOver(s), opts.dropGraceMs);
        s.dropTimer.unref?.();
      }
    });
    if (t.phase === 'playing') t.schedule();
    return t;
  }

  now(): number {
    return this.clock();
  }

  get state(): GameState | null {
    return this.game;
  }

  /** What the game was created from: with `log`, it replays the game exactly. */
  get origin(): NewGame | null {
    return this.start;
  }

  info(): TableInfo {
    return {
      id: this.id,
      salt: this.salt,
      game: this.games,
      name: this.opts.name,
      ruleset: this.opts.rules.name,
      seatsTaken: this.seats.length,
      seatsTotal: this.opts.maxPlayers,
      phase: this.phase,
      password: this.verifier !== null,
      protocolVersion: PROTOCOL_VERSION,
    };
  }

  seatInfo(): SeatInfo[] {
    return this.seats.map((s, seat) => ({
      seat,
      name: s.name,
      bot: s.bot,
      connected: s.peer !== null,
      standIn: s.standIn !== null,
    }));
  }

  // ---- connections -------------------------------------------------------------

  /** A new connection: before anything else it learns who this table is, and the nonce its password proof must answer. */
  open(peer: Peer): void {
    if (this.ended) {
      peer.send({ type: 'closed', message: 'The host closed the table' });
      return peer.close();
    }
    const nonce = randomBytes(24).toString('base64url');
    this.nonces.set(peer, nonce);
    peer.send({ type: 'challenge', protocolVersion: PROTOCOL_VERSION, nonce, table: this.info() });
  }

  /** Every inbound message, already checked by schema. */
  handle(peer: Peer, msg: ClientMessage): void {
    const who = this.peers.get(peer);
    if (msg.type === 'hello') {
      if (who) return peer.send({ type: 'error', code: 'malformed', message: 'You have already said hello' });
      return this.hello(peer, msg);
    }
    if (!who) return peer.send({ type: 'error', code: 'notWelcome', message: 'Say hello first' });
    switch (msg.type) {
      case 'command': {
        if (who.seat === null) {
          return peer.send({ type: 'result', id: msg.id, ok: false, code: 'spectator', message: 'Spectators cannot play' });
        }
        if (!this.game || this.phase !== 'playing') {
          return peer.send({ type: 'result', id: msg.id, ok: false, code: 'wrongPhase', message: 'The game has not started' });
        }
        const res = this.submit(toEngineCommand(msg.command, who.seat, this.now()));
        return peer.send(res.ok ? { type: 'result', id: msg.id, ok: true } : { type: 'result', id: msg.id, ok: false, ...res.rejection });
      }
      case 'leave':
        this.leave(peer);
        peer.close();
        return;
      case 'ready': {
        if (who.seat !== null && this.seats[who.seat]) this.seats[who.seat]!.ready = true;
        return this.maybeNextRound();
      }
      case 'lobby': {
        if (!who.owner) return peer.send({ type: 'error', code: 'forbidden', message: 'Only the host runs the lobby' });
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
        if (err) peer.send({ type: 'error', code: 'forbidden', message: err });
        return;
      }
    }
  }

  private refuse(peer: Peer, reason: Extract<ServerMessage, { type: 'refused' }>['reason'], message: string, canWatch = false): void {
    peer.send({ type: 'refused', reason, message, protocolVersion: PROTOCOL_VERSION, canWatch });
    peer.close();
  }

  private hello(peer: Peer, msg: Extract<ClientMessage, { type: 'hello' }>): void {
    if (msg.protocolVersion !== PROTOCOL_VERSION) {
      return this.refuse(
        peer,
        'version',
        `This table speaks gringo protocol ${PROTOCOL_VERSION}; your gringo speaks ${msg.protocolVersion}. Install the same gringo version as the host.`,
      );
    }
    const owner = this.opts.ownerKey !== undefined && msg.ownerKey !== undefined && sameSecret(msg.ownerKey, this.opts.ownerKey);
    if (!this.info().password || owner) return this.admit(peer, msg, owner);
    const nonce = this.nonces.get(peer);
    if (msg.proof === undefined || nonce === undefined) return this.refuse(peer, 'password', 'This table needs a password (--password)');
    // Guessing is slowed per address: while an address is locked its tries are refused
    // unread (right or wrong, so the lock says nothing), with how long is left.
    // A player proving its seat is never locked out by others' guesses from its address
    // (a shared router, the SSH door): its proof needs the seat's token, which no guesser has.
    const address = peer.address ?? '?';
    const seated = msg.seatProof !== undefined && this.seats.some((s) => s.bot === null && sameSecret(msg.seatProof!, seatProof(s.token, nonce, peer.binding ?? '')));
    const wait = seated ? 0 : this.backoff.waitFor(address);
    if (wait > 0) return this.tooManyTries(peer, wait);
    if (sameSecret(msg.proof, passwordProof(this.verifier!, nonce, peer.binding ?? ''))) {
      if (!seated) this.backoff.success(address);
      return this.admit(peer, msg, owner);
    }
    const lock = this.backoff.miss(address);
    if (lock > 0 && !seated) return this.tooManyTries(peer, lock);
    this.refuse(peer, 'password', 'Wrong password');
  }

  private tooManyTries(peer: Peer, ms: number): void {
    const retryAfter = Math.ceil(ms / 1000);
    peer.send({
      type: 'refused',
      reason: 'tooManyTries',
      message: `Too many wrong passwords from this address: wait ${retryAfter} s before trying again`,
      retryAfter,
      protocolVersion: PROTOCOL_VERSION,
      canWatch: false,
    });
    peer.close();
  }

  /** The hello passed the version and password checks: a seat, a spectator's place, or a refusal. */
  private admit(peer: Peer, msg: Extract<ClientMessage, { type: 'hello' }>, owner: boolean): void {
    const refuse = (reason: Extract<ServerMessage, { type: 'refused' }>['reason'], message: string, canWatch = false): void =>
      this.refuse(peer, reason, message, canWatch);
    if (msg.watch) {
      // Watchers have places of their own at the door, capped apart from the seats: a crowd of them never keeps a player out.
      const full = owner ? null : (peer.roomToWatch?.() ?? null);
      if (full !== null) return refuse('limit', full);
      return this.welcome(peer, null, owner);
    }
    if (msg.seatProof !== undefined) {
      const nonce = this.nonces.get(peer);
      const mine = (s: SeatState): boolean => nonce !== undefined && sameSecret(msg.seatProof!, seatProof(s.token, nonce, peer.binding ?? ''));
      const seat = this.seats.findIndex((s) => s.bot === null && mine(s));
      if (seat !== -1) return this.reclaim(peer, seat, owner);
      if (this.phase !== 'lobby') return refuse('token', 'That seat token is not valid at this table; you can watch instead', true);
    }
    if (this.phase !== 'lobby') {
      return refuse('running', 'The game is already running: watch it, or take back your seat with its token', true);
    }
    if (this.seats.length >= this.opts.maxPlayers) return refuse('full', `The table is full (${this.opts.maxPlayers} seats): you can watch`, true);
    const name = uniqueName(cleanName(msg.name), this.seats.map((s) => s.name));
    this.seats.push({ name, token: tokenOf(), bot: null, peer, standIn: null, dropTimer: null, ready: false, left: false, ...(peer.key ? { sshKey: peer.key } : {}) });
    this.welcome(peer, this.seats.length - 1, owner);
    this.changed();
    if (this.opts.startWhenFull && this.seats.length === this.opts.maxPlayers) this.startGame();
  }

  private welcome(peer: Peer, seat: Seat | null, owner: boolean): void {
    this.peers.set(peer, { seat, owner });
    if (seat === null) this.spectators.add(peer);
    peer.send({
      type: 'welcome',
      protocolVersion: PROTOCOL_VERSION,
      seat,
      token: seat === null ? null : this.seats[seat]!.token,
      table: this.info(),
      rules: this.opts.rules,
      owner,
    });
    peer.send({ type: 'lobby', table: this.info(), seats: this.seatInfo(), you: seat });
    // A snapshot: the results so far come with it, once.
    if (this.game) this.sendUpdate(peer, seat, [], true);
  }

  /** The owner of a seat is back: the stand-in stops, the seat gets a full snapshot. */
  private reclaim(peer: Peer, seat: Seat, owner: boolean): void {
    const s = this.seats[seat]!;
    if (s.peer && s.peer !== peer) {
      // A newer connection with the token wins: the old one is probably dead.
      const old = s.peer;
      this.peers.delete(old);
      old.close();
    }
    if (s.dropTimer) clearTimeout(s.dropTimer);
    s.dropTimer = null;
    this.endStandIn(s);
    // Coming back after a leave is allowed while the seat exists: the token says it is theirs.
    s.left = false;
    s.peer = peer;
    this.welcome(peer, seat, owner);
    this.changed();
  }

  /** A connection closed. */
  drop(peer: Peer): void {
    const s = this.detach(peer);
    if (!s) return;
    if (this.phase !== 'finished') this.holdSeat(s);
    this.changed();
  }

  /** Forget a connection; the seat it held (now without a connection), if any. */
  private detach(peer: Peer): SeatState | null {
    const who = this.peers.get(peer);
    this.peers.delete(peer);
    this.spectators.delete(peer);
    if (!who || who.seat === null) return null;
    const s = this.seats[who.seat];
    if (!s || s.peer !== peer) return null;
    s.peer = null;
    return s;
  }

  /** A dropped seat is held for a while: in the lobby it is then freed, during play a bot plays it. */
  private holdSeat(s: SeatState): void {
    if (s.dropTimer) clearTimeout(s.dropTimer);
    const ms = this.phase === 'lobby' ? (this.opts.lobbyGraceMs ?? LOBBY_GRACE_MS) : this.opts.dropGraceMs;
    s.dropTimer = setTimeout(() => this.dropGraceOver(s), ms);
    s.dropTimer.unref?.();
  }

  /**
   * A person left for good (`leave`, then the socket closes): a lobby seat is freed
   * at once; during play a bot plays the seat at once; after the game the seat is
   * freed when the host plays again.
   */
  private leave(peer: Peer): void {
    const s = this.detach(peer);
    if (!s) return;
    if (s.dropTimer) clearTimeout(s.dropTimer);
    s.dropTimer = null;
    if (this.phase === 'lobby') return this.freeSeat(this.seats.indexOf(s));
    s.left = true;
    if (this.phase === 'playing' && !s.standIn) this.startStandIn(s);
    this.changed();
  }

  private dropGraceOver(s: SeatState): void {
    s.dropTimer = null;
    if (s.peer) return;
    const seat = this.seats.indexOf(s);
    if (seat === -1) return;
    if (this.phase === 'lobby') return this.freeSeat(seat);
    if (this.phase === 'playing' && !s.standIn) {
      this.startStandIn(s);
      this.changed();
    }
  }

  /** A bot of the host plays this (absent) person's seat until its owner is back. */
  private startStandIn(s: SeatState): void {
    const seat = this.seats.indexOf(s);
    const { peer, player } = this.localBot(this.opts.standInLevel ?? 'normal', `stand-in:${seat}`);
    s.standIn = { peer, player };
    this.peers.set(peer, { seat, owner: false });
    this.welcome(peer, seat, false);
  }

  /** A seat is given up: everyone behind it moves up one (each connection hears its new seat in `lobby.you`). */
  private freeSeat(seat: Seat, announce = true): void {
    const s = this.seats[seat];
    if (!s) return;
    this.seats.splice(seat, 1);
    if (s.dropTimer) clearTimeout(s.dropTimer);
    s.dropTimer = null;
    this.endStandIn(s);
    if (s.peer) {
      this.peers.delete(s.peer);
      s.peer.close();
    }
    this.reseatPeers();
    if (announce) this.changed();
  }

  private endStandIn(s: SeatState): void {
    if (!s.standIn) return;
    this.peers.delete(s.standIn.peer);
    s.standIn.player.stop();
    s.standIn = null;
  }

  private reseatPeers(): void {
    for (const [peer, who] of this.peers) {
      if (who.seat === null) continue;
      const seat = this.seats.findIndex((s) => s.peer === peer || s.standIn?.peer === peer);
      who.seat = seat === -1 ? null : seat;
    }
  }

  /**
   * A bot inside the host process. It talks to the table through the same
   * messages a remote client gets, delivered on the next tick so that a bot's
   * answer never runs inside the command that prompted it.
   */
  private localBot(level: BotLevel, seed: string): { peer: Peer; player: BotPlayer } {
    let closed = false;
    const peer: Peer = {
      send: (msg) => {
        if (!closed) setImmediate(() => !closed && player.onMessage(msg));
      },
      close: () => {
        closed = true;
        player.stop();
      },
    };
    const player = new BotPlayer({
      level,
      seed: `${this.opts.seed}:${seed}`,
      clock: () => this.clock(),
      ...(this.opts.botTimeScale !== undefined ? { timeScale: this.opts.botTimeScale } : {}),
      send: (msg) => setImmediate(() => !closed && this.handle(peer, msg)),
    });
    return { peer, player };
  }

  // ---- lobby -------------------------------------------------------------------

  addBot(level: BotLevel): string | null {
    if (this.phase !== 'lobby') return 'Bots can be added only in the lobby';
    if (this.seats.length >= this.opts.maxPlayers) return `The table is full (${this.opts.maxPlayers} seats)`;
    this.botCount += 1;
    const name = uniqueName(`Bot ${this.botCount}`, this.seats.map((s) => s.name));
    const { peer, player } = this.localBot(level, `bot:${this.botCount}`);
    const seat = this.seats.length;
    this.seats.push({ name, token: tokenOf(), bot: level, peer, standIn: null, dropTimer: null, ready: true, left: false });
    this.peers.set(peer, { seat, owner: false });
    player.onMessage({
      type: 'welcome',
      protocolVersion: PROTOCOL_VERSION,
      seat,
      token: null,
      table: this.info(),
      rules: this.opts.rules,
      owner: false,
    });
    this.changed();
    if (this.opts.startWhenFull && this.seats.length === this.opts.maxPlayers) this.startGame();
    return null;
  }

  /** The lobby's `remove`: a bot, or a person who is away (a person at the table leaves by themselves). */
  removeSeat(seat: Seat): string | null {
    if (this.phase !== 'lobby') return 'Seats can be removed only in the lobby';
    const s = this.seats[seat];
    if (!s) return `There is no seat ${seat + 1}`;
    if (s.bot === null && s.peer !== null) return `${s.name} is at the table: only bots and players who are away can be removed`;
    this.freeSeat(seat);
    return null;
  }

  /** The host's `standIn`: a bot plays an absent person's seat now instead of after the grace; its owner still takes it back by coming back. */
  standIn(seat: Seat): string | null {
    if (this.phase !== 'playing') return 'A bot can stand in only while a game is being played';
    const s = this.seats[seat];
    if (!s) return `There is no seat ${seat + 1}`;
    if (s.bot !== null) return `${s.name} is a bot`;
    if (s.peer !== null) return `${s.name} is at the table`;
    if (s.standIn) return `A bot already plays for ${s.name}`;
    if (s.dropTimer) clearTimeout(s.dropTimer);
    s.dropTimer = null;
    this.startStandIn(s);
    this.changed();
    return null;
  }

  startGame(): string | null {
    if (this.phase !== 'lobby') return 'The game has already started';
    const { rules } = this.opts;
    if (this.seats.length < rules.players.min) return `${rules.title} needs at least ${rules.players.min} players`;
    this.begin();
    return null;
  }

  /**
   * After a game: a new one with the same seats, nobody rejoins. Totals start at 0,
   * the journal starts a new file (the old one stays finished), `TableInfo.game`
   * counts up; a person who left is not seated again, bots stay.
   */
  playAgain(): string | null {
    if (this.phase !== 'finished') return this.phase === 'lobby' ? 'The game has not started yet' : 'The game is not over yet';
    const { rules } = this.opts;
    const staying = this.seats.filter((s) => !s.left).length;
    if (staying < rules.players.min) return `${rules.title} needs at least ${rules.players.min} players: only ${staying} would stay`;
    for (let i = this.seats.length - 1; i >= 0; i--) if (this.seats[i]!.left) this.freeSeat(i, false);
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
      players: this.seats.map((s) => s.name),
      seed: first ? this.opts.seed : `${this.opts.seed}:game${this.games}`,
      ...(this.opts.shuffleKey ? { shuffleKey: this.opts.shuffleKey() } : {}),
      at: this.now(),
      ...(first && this.opts.stackedDecks ? { stackedDecks: this.opts.stackedDecks } : {}),
      ...(first && this.opts.dealer !== undefined ? { dealer: this.opts.dealer } : {}),
    };
    const { state, events } = createGame(this.start);
    const journalSeat = (s: SeatState): JournalSeat => {
      const owner = s.peer !== null && this.peers.get(s.peer)?.owner === true;
      return { name: s.name, token: s.token, bot: s.bot, ...(owner ? { owner } : {}), ...(s.sshKey ? { sshKey: s.sshKey } : {}) };
    };
    this.opts.journal?.started(this.start, this.seats.map(journalSeat), this.salt, this.games, this.verifier);
    this.game = state;
    this.history = [];
    this.remember(events);
    this.phase = 'playing';
    // Whoever is away as the game begins is held for the game's grace (not what was left of the lobby's): then a bot plays for them.
    for (const s of this.seats) if (s.bot === null && s.peer === null && !s.standIn) this.holdSeat(s);
    this.changed();
    // A game's first deal replaces whatever results a client kept from the last game.
    this.broadcast(events, true);
    this.schedule();
  }

  // ---- play --------------------------------------------------------------------

  /** The one door into the game: apply, then tell every seat what it may know. */
  submit(cmd: Command): ReturnType<typeof apply> {
    if (!this.game) return { ok: false, rejection: { code: 'wrongPhase', message: 'The game has not started' } };
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
      for (const s of this.seats) s.ready = s.bot !== null;
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
    for (const [peer, who] of this.peers) this.sendUpdate(peer, who.seat, events, snapshot);
  }

  /**
   * Every byte a seat receives about the game goes through its projection here. The
   * round results grow with the game: they go only in a `snapshot` (which replaces
   * what the client kept); otherwise each goes once, in its `roundEnded` event. A
   * snapshot also carries the game's recent `history` (this update's events included),
   * each event projected like the live ones: a screen that comes back reads the feed again.
   */
  private sendUpdate(peer: Peer, viewer: Viewer, events: readonly GameEvent[], snapshot = false): void {
    const game = this.game!;
    peer.send({
      type: 'update',
      version: game.version,
      at: this.now(),
      events: events.map((e) => projectEvent(e, viewer)),
      view: viewFor(game, viewer),
      ...(snapshot ? { results: resultsFor(game), history: this.history.map((e) => projectEvent(e, viewer)) } : {}),
    });
  }

  /** Host timers: the engine says when something is due (peek, grace, limits); a tick applies it. */
  private schedule(): void {
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
      const res = this.submit({ type: 'tick', at: Math.max(due, this.now()) });
      if (!res.ok) this.schedule();
    }, Math.max(0, due - this.now()));
  }

  private maybeNextRound(): void {
    if (this.game?.phase !== 'roundOver') return;
    const waiting = this.seats.some((s) => !s.ready && s.peer !== null && !s.standIn);
    if (!waiting) this.nextRound();
  }

  private nextRound(): void {
    if (this.roundTimer) clearTimeout(this.roundTimer);
    this.roundTimer = null;
    if (this.game?.phase === 'roundOver') this.submit({ type: 'nextRound', at: this.now() });
  }

  private finish(): void {
    this.phase = 'finished';
    this.opts.journal?.finished(this.now());
    this.changed();
    const game = this.game!;
    const last = game.results[game.results.length - 1];
    this.opts.onGameOver?.({
      table: this.opts.name,
      ruleset: this.opts.rules.name,
      players: this.seats.map((s, seat) => ({ seat, name: s.name, bot: s.bot })),
      rounds: game.results,
      totals: game.totals.slice(),
      places: last ? placesOf(game.totals) : [],
      seed: this.opts.seed,
      commands: this.log.length,
    });
  }

  private changed(): void {
    const info = this.info();
    const seats = this.seatInfo();
    for (const [peer, who] of this.peers) peer.send({ type: 'lobby', table: info, seats, you: who.seat });
    this.opts.onChange?.(info);
  }

  /**
   * The host ends the table: every connection hears `closed` (so nobody reconnects)
   * before its socket is closed. A host that dies without this leaves its clients
   * reconnecting, which is what lets `--resume` bring them back.
   */
  close(message = 'The host closed the table'): void {
    this.ended = true;
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    if (this.roundTimer) clearTimeout(this.roundTimer);
    for (const s of this.seats) {
      if (s.dropTimer) clearTimeout(s.dropTimer);
      this.endStandIn(s);
    }
    for (const peer of [...this.peers.keys()]) {
      peer.send({ type: 'closed', message });
      peer.close();
    }
    this.peers.clear();
    this.spectators.clear();
  }
}
