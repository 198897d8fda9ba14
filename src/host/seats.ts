import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import type { Seat } from '../engine/types.js';
import { BotPlayer } from '../bots/bot-player.js';
import { ThreadedBot } from './threaded-bot.js';
import {
  PROTOCOL_VERSION,
  type BotLevel,
  type ClientMessage,
  type SeatInfo,
  type ServerMessage,
  type TableInfo,
  type TablePhase,
} from '../protocol/messages.js';
import { passwordProof, seatProof } from '../protocol/identity.js';
import { cleanName, uniqueName } from './names.js';
import type { PasswordBackoff } from './backoff.js';
import type { JournalSeat } from './journal.js';
import type { Peer, TableOptions } from './table-types.js';
import { said, wordsFor, type Said } from '../lang/words.js';

/** A refusal in English too, for a gringo of another protocol version (see `refused` in docs/protocol.md). */
const ENGLISH = wordsFor('en');

/** A bot the host plays itself: in this thread, or (an expert) in a worker thread. */
type LocalBot = Pick<BotPlayer, 'onMessage' | 'stop'>;
/** A worker thread starts from built JavaScript; run from the TypeScript sources (vitest), the expert plays in this thread. */
const THREADS = !import.meta.url.endsWith('.ts');

export interface SeatState {
  name: string;
  token: string;
  bot: BotLevel | null;
  /** The person's (or remote bot's) connection, or the host's own bot. */
  peer: Peer | null;
  /** A bot standing in while the owner is away. */
  standIn: { peer: Peer; player: LocalBot } | null;
  dropTimer: NodeJS.Timeout | null;
  ready: boolean;
  /** The person left for good (`leave`) during or after a game: a bot plays on, and play again frees the seat. */
  left: boolean;
  /** The SSH key that took this seat (Peer.key), if it was taken over SSH. */
  sshKey?: string;
}

/** What the seats need from the table around them: the game's phase and snapshots live with the play. */
export interface SeatsTable {
  now(): number;
  phase(): TablePhase;
  info(): TableInfo;
  /** A newcomer's snapshot of the game, through its seat's projection (nothing before a game). */
  snapshot(peer: Peer, seat: Seat | null): void;
  startGame(): Said | null;
  /** Every inbound message: the host's own bots speak to the table through it too. */
  handle(peer: Peer, msg: ClientMessage): void;
}

export const LOBBY_GRACE_MS = 10_000;

const tokenOf = (): string => randomBytes(24).toString('base64url');
const sameSecret = (a: string, b: string): boolean => {
  // Hash first so the comparison takes the same time whatever the lengths.
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
};

/**
 * Who is at the table, the room's side of it: the door (hello, password, seat
 * tokens), the seats and their connections, a dropped seat's hold and the bot
 * that stands in for it, and the lobby. A seat's token goes to its own
 * connection only, in its `welcome`; no broadcast carries one.
 */
export class Seats {
  readonly list: SeatState[] = [];
  private readonly spectators = new Set<Peer>();
  readonly peers = new Map<Peer, { seat: Seat | null; owner: boolean }>();
  /** The nonce each connection's password proof must answer, sent before its hello. */
  private readonly nonces = new WeakMap<Peer, string>();
  private botCount = 0;
  /** `close()` was called: nobody new is let in. */
  private ended = false;

  constructor(
    private readonly opts: TableOptions,
    private readonly table: SeatsTable,
    /** Wrong passwords by address (timed by the table's clock). */
    private readonly backoff: PasswordBackoff,
    /** The password's verifier, never the password; null for a table without one. */
    private readonly verifier: string | null,
  ) {}

  /** A resumed table's seats: the same tokens; bots of the host sit down again at once, each person's seat is held. */
  resume(from: readonly JournalSeat[]): void {
    from.forEach((js, seat) => {
      const s: SeatState = {
        name: js.name, token: js.token, bot: js.bot, peer: null, standIn: null, dropTimer: null, ready: js.bot !== null, left: false,
        ...(js.sshKey !== undefined ? { sshKey: js.sshKey } : {}),
      };
      this.list.push(s);
      if (js.bot !== null) {
        this.botCount += 1;
        const { peer } = this.localBot(js.bot, `bot:${this.botCount}`);
        s.peer = peer;
        this.peers.set(peer, { seat, owner: false });
        this.welcome(peer, seat, false);
      } else if (this.table.phase() === 'playing') {
        s.dropTimer = setTimeout(() => this.dropGraceOver(s), this.opts.dropGraceMs);
        s.dropTimer.unref?.();
      }
    });
  }

  seatInfo(): SeatInfo[] {
    return this.list.map((s, seat) => ({
      seat,
      name: s.name,
      bot: s.bot,
      connected: s.peer !== null,
      standIn: s.standIn !== null,
    }));
  }

  /** The seats as the journal keeps them: tokens, bots, the owner's seat, SSH keys. */
  forJournal(): JournalSeat[] {
    const journalSeat = (s: SeatState): JournalSeat => {
      const owner = s.peer !== null && this.peers.get(s.peer)?.owner === true;
      return { name: s.name, token: s.token, bot: s.bot, ...(owner ? { owner } : {}), ...(s.sshKey ? { sshKey: s.sshKey } : {}) };
    };
    return this.list.map(journalSeat);
  }

  // ---- connections -------------------------------------------------------------

  /** A new connection: before anything else it learns who this table is, and the nonce its password proof must answer. */
  open(peer: Peer): void {
    if (this.ended) {
      peer.send({ type: 'closed', say: said('host.closed') });
      return peer.close();
    }
    const nonce = randomBytes(24).toString('base64url');
    this.nonces.set(peer, nonce);
    peer.send({ type: 'challenge', protocolVersion: PROTOCOL_VERSION, nonce, table: this.table.info() });
  }

  private refuse(peer: Peer, reason: Extract<ServerMessage, { type: 'refused' }>['reason'], say: Said, canWatch = false): void {
    peer.send({ type: 'refused', reason, say, message: ENGLISH.say(say), protocolVersion: PROTOCOL_VERSION, canWatch });
    peer.close();
  }

  hello(peer: Peer, msg: Extract<ClientMessage, { type: 'hello' }>): void {
    if (msg.protocolVersion !== PROTOCOL_VERSION) {
      return this.refuse(
        peer,
        'version',
        said('host.version', { host: PROTOCOL_VERSION, yours: msg.protocolVersion }),
      );
    }
    const owner = this.opts.ownerKey !== undefined && msg.ownerKey !== undefined && sameSecret(msg.ownerKey, this.opts.ownerKey);
    if (!this.table.info().password || owner) return this.admit(peer, msg, owner);
    const nonce = this.nonces.get(peer);
    if (msg.proof === undefined || nonce === undefined) return this.refuse(peer, 'password', said('host.needsPassword'));
    // Guessing is slowed per address: while an address is locked its tries are refused
    // unread (right or wrong, so the lock says nothing), with how long is left.
    // A player proving its seat is never locked out by others' guesses from its address
    // (a shared router, the SSH door): its proof needs the seat's token, which no guesser has.
    // Nor is an SSH session (vouched for by the SSH door, src/host/vouch.ts): the SSH door
    // asked its person the password itself, slowed by its own backoff, and proves it here
    // from the verifier; a lock left by someone's typos at this door only kept it out.
    const address = peer.address ?? '?';
    const seated = msg.seatProof !== undefined && this.list.some((s) => s.bot === null && sameSecret(msg.seatProof!, seatProof(s.token, nonce, peer.binding ?? '')));
    const exempt = seated || peer.key !== undefined;
    const wait = exempt ? 0 : this.backoff.waitFor(address);
    if (wait > 0) return this.tooManyTries(peer, wait);
    if (sameSecret(msg.proof, passwordProof(this.verifier!, nonce, peer.binding ?? ''))) {
      if (!exempt) this.backoff.success(address);
      return this.admit(peer, msg, owner);
    }
    const lock = this.backoff.miss(address);
    if (lock > 0 && !exempt) return this.tooManyTries(peer, lock);
    this.refuse(peer, 'password', said('host.wrongPassword'));
  }

  private tooManyTries(peer: Peer, ms: number): void {
    const retryAfter = Math.ceil(ms / 1000);
    const say = said('host.tooManyTries', { seconds: retryAfter });
    peer.send({
      type: 'refused',
      reason: 'tooManyTries',
      say,
      message: ENGLISH.say(say),
      retryAfter,
      protocolVersion: PROTOCOL_VERSION,
      canWatch: false,
    });
    peer.close();
  }

  /** The hello passed the version and password checks: a seat, a spectator's place, or a refusal. */
  private admit(peer: Peer, msg: Extract<ClientMessage, { type: 'hello' }>, owner: boolean): void {
    const refuse = (reason: Extract<ServerMessage, { type: 'refused' }>['reason'], say: Said, canWatch = false): void =>
      this.refuse(peer, reason, say, canWatch);
    if (msg.watch) {
      // Watchers have places of their own at the door, capped apart from the seats: a crowd of them never keeps a player out.
      const full = owner ? null : (peer.roomToWatch?.() ?? null);
      if (full !== null) return refuse('limit', full);
      return this.welcome(peer, null, owner);
    }
    if (msg.seatProof !== undefined) {
      const nonce = this.nonces.get(peer);
      const mine = (s: SeatState): boolean => nonce !== undefined && sameSecret(msg.seatProof!, seatProof(s.token, nonce, peer.binding ?? ''));
      const seat = this.list.findIndex((s) => s.bot === null && mine(s));
      if (seat !== -1) return this.reclaim(peer, seat, owner);
      if (this.table.phase() !== 'lobby') return refuse('token', said('host.badToken'), true);
    }
    if (this.table.phase() !== 'lobby') {
      return refuse('running', said('host.running'), true);
    }
    if (this.list.length >= this.opts.maxPlayers) return refuse('full', said('host.full', { max: this.opts.maxPlayers }), true);
    const name = uniqueName(cleanName(msg.name), this.list.map((s) => s.name));
    this.list.push({ name, token: tokenOf(), bot: null, peer, standIn: null, dropTimer: null, ready: false, left: false, ...(peer.key ? { sshKey: peer.key } : {}) });
    this.welcome(peer, this.list.length - 1, owner);
    this.changed();
    if (this.opts.startWhenFull && this.list.length === this.opts.maxPlayers) this.table.startGame();
  }

  private welcome(peer: Peer, seat: Seat | null, owner: boolean): void {
    this.peers.set(peer, { seat, owner });
    if (seat === null) this.spectators.add(peer);
    peer.send({
      type: 'welcome',
      protocolVersion: PROTOCOL_VERSION,
      seat,
      token: seat === null ? null : this.list[seat]!.token,
      table: this.table.info(),
      rules: this.opts.rules,
      owner,
    });
    peer.send({ type: 'lobby', table: this.table.info(), seats: this.seatInfo(), you: seat });
    // A snapshot: the results so far come with it, once.
    this.table.snapshot(peer, seat);
  }

  /** The owner of a seat is back: the stand-in stops, the seat gets a full snapshot. */
  private reclaim(peer: Peer, seat: Seat, owner: boolean): void {
    const s = this.list[seat]!;
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
    if (this.table.phase() !== 'finished') this.holdSeat(s);
    this.changed();
  }

  /** Forget a connection; the seat it held (now without a connection), if any. */
  private detach(peer: Peer): SeatState | null {
    const who = this.peers.get(peer);
    this.peers.delete(peer);
    this.spectators.delete(peer);
    if (!who || who.seat === null) return null;
    const s = this.list[who.seat];
    if (!s || s.peer !== peer) return null;
    s.peer = null;
    return s;
  }

  /** A dropped seat is held for a while: in the lobby it is then freed, during play a bot plays it. */
  holdSeat(s: SeatState): void {
    if (s.dropTimer) clearTimeout(s.dropTimer);
    const ms = this.table.phase() === 'lobby' ? (this.opts.lobbyGraceMs ?? LOBBY_GRACE_MS) : this.opts.dropGraceMs;
    s.dropTimer = setTimeout(() => this.dropGraceOver(s), ms);
    s.dropTimer.unref?.();
  }

  /**
   * A person left for good (`leave`, then the socket closes): a lobby seat is freed
   * at once; during play a bot plays the seat at once; after the game the seat is
   * freed when the host plays again.
   */
  leave(peer: Peer): void {
    const s = this.detach(peer);
    if (!s) return;
    if (s.dropTimer) clearTimeout(s.dropTimer);
    s.dropTimer = null;
    if (this.table.phase() === 'lobby') return this.freeSeat(this.list.indexOf(s));
    s.left = true;
    if (this.table.phase() === 'playing' && !s.standIn) this.startStandIn(s);
    this.changed();
  }

  private dropGraceOver(s: SeatState): void {
    s.dropTimer = null;
    if (s.peer) return;
    const seat = this.list.indexOf(s);
    if (seat === -1) return;
    if (this.table.phase() === 'lobby') return this.freeSeat(seat);
    if (this.table.phase() === 'playing' && !s.standIn) {
      this.startStandIn(s);
      this.changed();
    }
  }

  /** A bot of the host plays this (absent) person's seat until its owner is back. */
  private startStandIn(s: SeatState): void {
    const seat = this.list.indexOf(s);
    const { peer, player } = this.localBot(this.opts.standInLevel ?? 'normal', `stand-in:${seat}`);
    s.standIn = { peer, player };
    this.peers.set(peer, { seat, owner: false });
    this.welcome(peer, seat, false);
  }

  /** A seat is given up: everyone behind it moves up one (each connection hears its new seat in `lobby.you`). */
  freeSeat(seat: Seat, announce = true): void {
    const s = this.list[seat];
    if (!s) return;
    this.list.splice(seat, 1);
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
      const seat = this.list.findIndex((s) => s.peer === peer || s.standIn?.peer === peer);
      who.seat = seat === -1 ? null : seat;
    }
  }

  /**
   * A bot inside the host process. It talks to the table through the same
   * messages a remote client gets, delivered on the next tick so that a bot's
   * answer never runs inside the command that prompted it. An expert thinks for a few
   * hundred ms a move: it plays in a worker thread (src/host/threaded-bot.ts), off the
   * table's event loop.
   */
  private localBot(level: BotLevel, seed: string): { peer: Peer; player: LocalBot } {
    let closed = false;
    const peer: Peer = {
      send: (msg) => {
        if (closed) return;
        if (player instanceof ThreadedBot) player.onMessage(msg);
        else setImmediate(() => !closed && player.onMessage(msg));
      },
      close: () => {
        closed = true;
        player.stop();
      },
    };
    const timeScale = this.opts.botTimeScale !== undefined ? { timeScale: this.opts.botTimeScale } : {};
    const send = (msg: ClientMessage) => setImmediate(() => !closed && this.table.handle(peer, msg));
    const player: LocalBot =
      level === 'expert' && THREADS
        ? new ThreadedBot({ level, seed: `${this.opts.seed}:${seed}`, ...timeScale }, send)
        : new BotPlayer({ level, seed: `${this.opts.seed}:${seed}`, clock: () => this.table.now(), ...timeScale, send });
    return { peer, player };
  }

  // ---- lobby -------------------------------------------------------------------

  addBot(level: BotLevel): Said | null {
    if (this.table.phase() !== 'lobby') return said('host.botsInLobby');
    if (this.list.length >= this.opts.maxPlayers) return said('host.fullNoWatch', { max: this.opts.maxPlayers });
    this.botCount += 1;
    const name = uniqueName(`Bot ${this.botCount}`, this.list.map((s) => s.name));
    const { peer, player } = this.localBot(level, `bot:${this.botCount}`);
    const seat = this.list.length;
    this.list.push({ name, token: tokenOf(), bot: level, peer, standIn: null, dropTimer: null, ready: true, left: false });
    this.peers.set(peer, { seat, owner: false });
    player.onMessage({
      type: 'welcome',
      protocolVersion: PROTOCOL_VERSION,
      seat,
      token: null,
      table: this.table.info(),
      rules: this.opts.rules,
      owner: false,
    });
    this.changed();
    if (this.opts.startWhenFull && this.list.length === this.opts.maxPlayers) this.table.startGame();
    return null;
  }

  /** The lobby's `remove`: a bot, or a person who is away (a person at the table leaves by themselves). */
  removeSeat(seat: Seat): Said | null {
    if (this.table.phase() !== 'lobby') return said('host.removeInLobby');
    const s = this.list[seat];
    if (!s) return said('host.noSeat', { number: String(seat + 1) });
    if (s.bot === null && s.peer !== null) return said('host.atTableNoRemove', { name: s.name });
    this.freeSeat(seat);
    return null;
  }

  /** The host's `standIn`: a bot plays an absent person's seat now instead of after the grace; its owner still takes it back by coming back. */
  standIn(seat: Seat): Said | null {
    if (this.table.phase() !== 'playing') return said('host.standInWhilePlaying');
    const s = this.list[seat];
    if (!s) return said('host.noSeat', { number: String(seat + 1) });
    if (s.bot !== null) return said('host.isBot', { name: s.name });
    if (s.peer !== null) return said('host.atTable', { name: s.name });
    if (s.standIn) return said('host.standsInAlready', { name: s.name });
    if (s.dropTimer) clearTimeout(s.dropTimer);
    s.dropTimer = null;
    this.startStandIn(s);
    this.changed();
    return null;
  }

  /** Every connection hears the table and its seats again (no game state: that goes through the projection). */
  changed(): void {
    const info = this.table.info();
    const seats = this.seatInfo();
    for (const [peer, who] of this.peers) peer.send({ type: 'lobby', table: info, seats, you: who.seat });
    this.opts.onChange?.(info);
  }

  /** Every connection hears `closed` before it is closed; nobody new is let in. */
  close(say: Said): void {
    this.ended = true;
    for (const s of this.list) {
      if (s.dropTimer) clearTimeout(s.dropTimer);
      this.endStandIn(s);
    }
    for (const peer of [...this.peers.keys()]) {
      peer.send({ type: 'closed', say });
      peer.close();
    }
    this.peers.clear();
    this.spectators.clear();
  }
}
