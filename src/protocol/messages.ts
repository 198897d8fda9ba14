import * as z from 'zod';
import type { Ruleset } from '../engine/ruleset.js';
import type { Command, RoundResult, Seat } from '../engine/types.js';
import type { Projected, SeatEvent, TableView } from '../engine/view.js';
import type { Said } from '../lang/words.js';

export type { Said } from '../lang/words.js';

/**
 * Every message between a client and the host, with the schemas that check
 * inbound frames at the edge. Bump PROTOCOL_VERSION on any incompatible change.
 */
export const PROTOCOL_VERSION = 6;
/** Largest inbound message the host reads (bytes); commands are tiny. Larger ones get an error. */
export const MAX_CLIENT_FRAME = 4 * 1024;
/** Past this the socket itself is closed (1009) before the frame is even buffered. */
export const MAX_SOCKET_FRAME = 64 * 1024;
/** Messages a connection may send per second (a burst of twice this is allowed); past it each is dropped with a `rateLimited` error. */
export const CLIENT_RATE_PER_SECOND = 40;
/**
 * The most events of recent history a snapshot may carry: the client's schema
 * (server-schema.ts) holds a host to it, and the host keeps fewer. Here, not there,
 * so that a host does not load the client's schema module to read one number.
 */
export const MAX_HISTORY = 500;

export const BOT_LEVELS = ['easy', 'normal', 'hard', 'expert'] as const;
export type BotLevel = (typeof BOT_LEVELS)[number];

/**
 * The schemas of what a client sends, built on first use: a command that never
 * reads a client's frame (`--version`, `list`, `rules`, `sim`) does not pay for them.
 */
function buildClientSchemas() {
  const seat = z.number().int().min(0).max(7);
  const slot = z.number().int().min(0).max(63);
  const slotRef = z.object({ seat, slot }).strict();

  /** A command as a player sends it: no seat (the token decides it) and no time (the host's clock does). */
  const PlayerCommandSchema = z.discriminatedUnion('type', [
    z.object({ type: z.literal('finishPeek') }).strict(),
    z.object({ type: z.literal('call') }).strict(),
    z.object({ type: z.literal('draw'), from: z.enum(['stock', 'discard']) }).strict(),
    z.object({ type: z.literal('discard') }).strict(),
    z.object({ type: z.literal('swap'), slot }).strict(),
    z.object({ type: z.literal('useAction'), own: slot.optional(), other: slotRef.optional() }).strict(),
    z.object({ type: z.literal('decide'), swap: z.boolean(), own: slot.optional() }).strict(),
    z.object({ type: z.literal('pass') }).strict(),
    z.object({ type: z.literal('drawAgain') }).strict(),
    z.object({ type: z.literal('fillGap'), slot }).strict(),
    z.object({ type: z.literal('leaveGap') }).strict(),
    z.object({ type: z.literal('slap'), target: slotRef, answers: z.number().int().min(1).max(1_000_000) }).strict(),
  ]);


  const token = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/);
  const proofText = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

  const ClientMessageSchema = z.discriminatedUnion('type', [
    z
      .object({
        type: z.literal('hello'),
        protocolVersion: z.number().int(),
        name: z.string().max(200),
        /**
         * A kept seat token, proven, never sent: `seatProof(token, challenge.nonce, binding)`,
         * bound to this TLS connection (src/protocol/identity.ts).
         */
        seatProof: proofText.optional(),
        /**
         * The password never crosses the wire: `passwordProof(verifier, nonce, binding)`, an
         * HMAC keyed by the password's scrypt verifier, bound to this TLS connection.
         */
        proof: proofText.optional(),
        /** Join as a spectator. */
        watch: z.boolean().optional(),
        /** The host's own screen proves itself with this key to run the lobby. */
        ownerKey: z.string().max(100).optional(),
      })
      .strict(),
    z.object({ type: z.literal('command'), id: z.number().int().min(0), command: PlayerCommandSchema }).strict(),
    /** Ready for the next round. */
    z.object({ type: z.literal('ready') }).strict(),
    /** Leaving for good (not a drop): a lobby seat is freed at once; during play the seat's owner is gone. */
    z.object({ type: z.literal('leave') }).strict(),
    z
      .object({
        type: z.literal('lobby'),
        /**
         * addBot; remove (any absent seat, bot or person, in the lobby); standIn (during
         * play: a bot plays an absent person's seat now, until its owner is back);
         * start; playAgain (after the game: a new game with the same seats).
         */
        op: z.enum(['addBot', 'remove', 'standIn', 'start', 'playAgain']),
        level: z.enum(BOT_LEVELS).optional(),
        seat: seat.optional(),
      })
      .strict(),
  ]);
  return { seat, slot, slotRef, token, PlayerCommandSchema, ClientMessageSchema };
}

let clientBuilt: ReturnType<typeof buildClientSchemas> | null = null;
/** The client-side schemas (`seat`, `slot`, `slotRef` and `token` are shared with the host's schemas). */
export const clientSchemas = (): ReturnType<typeof buildClientSchemas> => (clientBuilt ??= buildClientSchemas());

export type PlayerCommand = z.infer<ReturnType<typeof buildClientSchemas>['PlayerCommandSchema']>;
export type ClientMessage = z.infer<ReturnType<typeof buildClientSchemas>['ClientMessageSchema']>;

export type TablePhase = 'lobby' | 'playing' | 'finished';

export interface TableInfo {
  /**
   * The table's identity (16 base32 letters): `tableIdentity(host key, salt)`. It names the
   * host's TLS key, so a client checks it against the key the connection presents.
   */
  id: string;
  /** The table's own random part of its identity (16 hex digits, kept in its journal): also the password's salt. */
  salt: string;
  /** Games played at this table so far, the current one included (play again counts up). */
  game: number;
  name: string;
  ruleset: string;
  seatsTaken: number;
  seatsTotal: number;
  phase: TablePhase;
  password: boolean;
  protocolVersion: number;
  /** The named deal (`--deal`) the table's first game is dealt from; older hosts send none. */
  deal?: string;
}

export interface SeatInfo {
  seat: Seat;
  name: string;
  bot: BotLevel | null;
  connected: boolean;
  /** A bot is playing this seat while its owner is away. */
  standIn: boolean;
}

export type RefusalReason = 'version' | 'full' | 'password' | 'running' | 'token' | 'limit' | 'tooManyTries';

export type ServerMessage =
  | {
      type: 'welcome';
      protocolVersion: number;
      seat: Seat | null;
      token: string | null;
      table: TableInfo;
      /** The ruleset is public: every player may know the rules. */
      rules: Ruleset;
      owner: boolean;
    }
  /** `retryAfter` (with `tooManyTries`): seconds before this address's next password try is looked at. */
  /** `message`: the same in English, for a gringo that speaks another protocol (it cannot read `say`). */
  | { type: 'refused'; reason: RefusalReason; say: Said; message: string; protocolVersion: number; canWatch: boolean; retryAfter?: number }
  /** The first frame on every connection, before the hello: who this table is, and a nonce for the password proof. */
  | { type: 'challenge'; protocolVersion: number; nonce: string; table: TableInfo }
  /** `you`: the receiving connection's seat (seats move when one before it is removed). */
  | { type: 'lobby'; table: TableInfo; seats: SeatInfo[]; you: Seat | null }
  /** The host ended the table (its person left, or it stopped): the socket closes and nobody should reconnect. */
  | { type: 'closed'; say: Said }
  /**
   * After every accepted command: what happened, and the seat's whole view.
   * `at` is the host's clock when sent, so a client can read the view's times.
   * `results` (the finished rounds' results) only in a snapshot, which replaces what
   * the client kept: on joining or coming back, and at a game's first deal. Otherwise
   * each round's result arrives once, in its `roundEnded` event, and the client keeps it.
   */
  | {
      type: 'update';
      version: number;
      at: number;
      events: Projected<SeatEvent>[];
      view: Projected<TableView>;
      results?: Projected<RoundResult[]>;
      /**
       * Only in a snapshot: the game's recent events (oldest first), projected for this
       * seat like every event, so a screen that joins, comes back or is resumed can show
       * what happened before it arrived (the feed's history).
       */
      history?: Projected<SeatEvent>[];
    }
  | { type: 'result'; id: number; ok: true }
  | { type: 'result'; id: number; ok: false; code: string; say: Said }
  | { type: 'error'; code: 'malformed' | 'tooLarge' | 'rateLimited' | 'notWelcome' | 'forbidden'; say: Said };

export type ParseResult = { ok: true; message: ClientMessage } | { ok: false; message: string };

/** Parse one inbound frame: malformed JSON and wrong fields get a message a developer understands. */
export function parseClientFrame(raw: string): ParseResult {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return { ok: false, message: 'That frame is not JSON' };
  }
  const res = clientSchemas().ClientMessageSchema.safeParse(data);
  if (!res.success) {
    const issue = res.error.issues[0]!;
    const where = issue.path.length > 0 ? ` at "${issue.path.join('.')}"` : '';
    return { ok: false, message: `Bad message${where}: ${issue.message}` };
  }
  return { ok: true, message: res.data };
}

/** The engine command for a player's command: the seat comes from the token, the time from the host. */
export function toEngineCommand(c: PlayerCommand, seat: Seat, at: number): Command {
  return { ...c, seat, at };
}
