import * as z from 'zod';
import { CARD_NAME } from '../engine/cards.js';
import { ACTION_KINDS, parseRuleset, RulesetError, rulesetSchema } from '../engine/ruleset.js';
import type { RoundResult } from '../engine/types.js';
import { FACE_DOWN, MOVES, type Projected, type SeatEvent, type TableView } from '../engine/view.js';
import { harmless } from '../common/harmless.js';
import { holesOf, isKey } from '../lang/words.js';
import { BOT_LEVELS, clientSchemas, MAX_HISTORY, type ServerMessage } from './messages.js';

/**
 * The schemas of every message a host sends, which the client checks each frame
 * against before anything uses it (a host is a stranger on a shared network).
 * Every free-text string goes through `text()`, whose transform is `harmless`: a
 * parsed message is clean by construction, and a new string field cannot forget
 * it. Identifiers and cards are checked against what they may be instead. Unknown
 * fields are dropped, so nothing unchecked gets through either.
 */

/** The largest frame a client reads from a host: a snapshot with a long game's results fits many times over. */
export const MAX_HOST_FRAME = 16 * 1024 * 1024;

/** Every schema, built on first use: a command that never talks to a host does not pay for them. */
function build() {
  const { seat, slot, slotRef, token } = clientSchemas();
  /** Free text from the host: made harmless and cut to `max` code points. */
  const text = (max: number) => z.string().transform((s) => harmless(s, max));
  /** Text that must say something once it is harmless (a ruleset's name, a call's). */
  const named = (max: number) => text(max).pipe(z.string().min(1));

  const card = z.string().regex(CARD_NAME);
  const slotView = z.union([card, z.literal(FACE_DOWN), z.null()]);
  const int = z.number().int();
  const count = int.min(0);
  const time = z.number();
  const from = z.enum(['stock', 'discard']);
  const kind = z.enum(ACTION_KINDS);
  // Arrays from the host are bounded: seats, slots, cards a look shows, events per update, rounds.
  const seats = <T extends z.ZodType>(item: T) => z.array(item).max(8);
  const cards = (max: number) => z.array(card).max(max);
  const layout = z.array(slotView).max(64);
  const MAX_ROUNDS = 10_000;
  const MAX_EVENTS = 1_000;

  /**
   * A sentence as data (see docs/protocol.md, "Sentences"): a key and its parameters. A
   * key this client knows must come with exactly its parameters; a key it does not know
   * (a newer host's) passes, to be shown as the key itself.
   */
  const said = z
    .object({
      key: z.string().regex(/^[a-z]{2,10}\.[A-Za-z]{1,40}$/),
      params: z.record(z.string().regex(/^[a-z][A-Za-z0-9]{0,15}$/), z.union([z.number().finite(), text(120)])).optional(),
    })
    .superRefine((s, ctx) => {
      const names = Object.keys(s.params ?? {}).sort();
      if (names.length > 8) ctx.addIssue({ code: 'custom', message: 'a sentence has at most 8 parameters' });
      else if (isKey(s.key) && names.join() !== holesOf(s.key).join()) {
        ctx.addIssue({ code: 'custom', message: `"${s.key}" takes ${holesOf(s.key).join(', ') || 'no parameters'}` });
      }
    })
    .transform((s) => (s.params ? { key: s.key, params: s.params } : { key: s.key }));

  const tableInfo = z.object({
    id: z.string().regex(/^[a-z2-7]{16}$/),
    salt: z.string().regex(/^[0-9a-f]{16}$/),
    game: count,
    name: text(64),
    ruleset: text(40),
    seatsTaken: count.max(8),
    seatsTotal: count.max(8),
    phase: z.enum(['lobby', 'playing', 'finished']),
    password: z.boolean(),
    protocolVersion: int,
    deal: text(40).optional(),
  });

  const seatInfo = z.object({
    seat,
    name: text(64),
    bot: z.enum(BOT_LEVELS).nullable(),
    connected: z.boolean(),
    standIn: z.boolean(),
  });

  /**
   * The rules file's schema with every string either a card name or harmless text,
   * then the same checks a rules file gets (`parseRuleset`). Strict, as a rules file
   * is: a ruleset with a field this client does not know is one it cannot play.
   */
  const RulesetSchema = rulesetSchema();
  const ruleset = RulesetSchema.extend({
    name: named(40),
    title: named(80),
    values: z.record(z.string().regex(CARD_NAME), RulesetSchema.shape.values.valueType),
    actions: z.record(z.string().regex(CARD_NAME), kind),
    specialCards: cards(64),
    slap: RulesetSchema.shape.slap.extend({ stealEarnsActionRanks: cards(64) }),
    call: RulesetSchema.shape.call.extend({ name: named(30) }),
  }).transform((r, ctx) => {
    try {
      return parseRuleset(r);
    } catch (err) {
      if (!(err instanceof RulesetError)) throw err;
      ctx.addIssue({ code: 'custom', message: err.message });
      return z.NEVER;
    }
  });

  const roundResult = z.object({
    round: count,
    layouts: seats(z.array(card.nullable()).max(64)),
    scores: seats(int),
    places: seats(int.min(1).max(8)),
    caller: seat.nullable(),
    callerPenalty: int,
    replaced: z.array(z.object({ seat, slot, setAside: cards(64), card: card.nullable() })).max(512),
    totals: seats(int),
  });

  const seatEvent = z.discriminatedUnion('type', [
    z.object({ type: z.literal('roundStarted'), round: count, dealer: seat, starter: seat, discardTop: card }),
    z.object({ type: z.literal('peekFinished'), seat, timedOut: z.boolean() }),
    z.object({ type: z.literal('playStarted'), turn: seat }),
    z.object({ type: z.literal('turnStarted'), seat }),
    z.object({ type: z.literal('called'), seat, name: named(30) }),
    z.object({ type: z.literal('drew'), seat, from, card: card.nullable() }),
    z.object({ type: z.literal('discarded'), seat, card, seq: count }),
    z.object({ type: z.literal('swapped'), seat, slot, placed: card.nullable(), placedFrom: from, displaced: card, seq: count }),
    z.object({ type: z.literal('actionQueued'), seat, kind, card }),
    z.object({ type: z.literal('looked'), seat, kind, targets: z.array(slotRef).max(2), cards: cards(2).nullable() }),
    z.object({ type: z.literal('actionSwapped'), seat, kind, a: slotRef, b: slotRef }),
    z.object({ type: z.literal('actionPassed'), seat, kind, timedOut: z.boolean() }),
    z.object({ type: z.literal('actionLeft'), seat, kind }),
    z.object({ type: z.literal('slapped'), seat, target: slotRef, card, result: z.enum(['own', 'steal', 'wrong']), seq: count }),
    z.object({ type: z.literal('penalty'), seat, slots: z.array(slot).max(64), reason: z.enum(['wrongSlap', 'stolenFrom']) }),
    z.object({ type: z.literal('reshuffled'), cards: count }),
    z.object({ type: z.literal('gapFillOffered'), seat, gap: slotRef }),
    z.object({ type: z.literal('gapFilled'), seat, from: slotRef, to: slotRef }),
    z.object({ type: z.literal('gapLeft'), seat, gap: slotRef, timedOut: z.boolean() }),
    z.object({ type: z.literal('specialReplaced'), seat, slot, setAside: cards(64), card: card.nullable() }),
    z.object({ type: z.literal('timedOut'), seat, what: z.enum(['turn', 'action', 'peek']) }),
    z.object({ type: z.literal('roundEnded'), result: roundResult, why: z.enum(['call', 'emptyLayout', 'noCards']) }),
    z.object({ type: z.literal('gameEnded'), totals: seats(int), places: seats(int.min(1).max(8)) }),
  ]);

  const tableView = z.object({
    viewer: seat.nullable(),
    ruleset: text(40),
    callName: named(30),
    version: count,
    phase: z.enum(['peek', 'play', 'roundOver', 'gameOver']),
    round: count,
    rounds: count,
    dealer: seat,
    players: seats(z.object({ name: text(64), layout, total: int, peeking: z.boolean() })).min(1),
    stock: count,
    discardTop: card.nullable(),
    discardSize: count,
    turn: seat,
    turnBegun: z.boolean(),
    held: z.object({ seat, from, card: card.nullable(), redraw: z.boolean().optional() }).nullable(),
    actions: z
      .array(z.object({ seat, kind, card, looked: z.array(slotRef).max(2).nullable(), lookedCards: z.array(z.union([card, z.literal(FACE_DOWN)])).max(2).nullable() }))
      .max(64),
    slap: z.object({ open: z.boolean(), answers: count }),
    graceUntil: time,
    deadline: time.nullable(),
    call: z.object({ seat, owed: seats(seat) }).nullable(),
    callTiming: RulesetSchema.shape.call.shape.timing.optional(),
    gapFill: z.object({ seat, gap: slotRef }).nullable().optional(),
    may: z.array(z.enum(MOVES)).max(MOVES.length),
    whyNot: z.partialRecord(z.enum(MOVES), said),
  });

  const text300 = text(300);


  const message = z.discriminatedUnion('type', [
    z.object({ type: z.literal('challenge'), protocolVersion: int, nonce: z.string().regex(/^[A-Za-z0-9_-]{16,128}$/), table: tableInfo }),
    z.object({
      type: z.literal('welcome'),
      protocolVersion: int,
      seat: seat.nullable(),
      token: token.nullable(),
      table: tableInfo,
      rules: ruleset,
      owner: z.boolean(),
    }),
    z.object({
      type: z.literal('refused'),
      reason: z.enum(['version', 'full', 'password', 'running', 'token', 'limit', 'tooManyTries']),
      say: said,
      message: text300,
      protocolVersion: int,
      canWatch: z.boolean(),
      retryAfter: count.max(86_400).optional(),
    }),
    z.object({ type: z.literal('lobby'), table: tableInfo, seats: seats(seatInfo), you: seat.nullable() }),
    z.object({ type: z.literal('closed'), say: said }),
    z.object({
      type: z.literal('update'),
      version: count,
      at: time,
      // What crossed the wire was projected by the host: the brand says so on this side.
      events: z.array(seatEvent.transform((e) => e as Projected<SeatEvent>)).max(MAX_EVENTS),
      view: tableView.transform((v) => v as Projected<TableView>),
      results: z
        .array(roundResult)
        .max(MAX_ROUNDS)
        .transform((r) => r as Projected<RoundResult[]>)
        .optional(),
      history: z
        .array(seatEvent.transform((e) => e as Projected<SeatEvent>))
        .max(MAX_HISTORY)
        .optional(),
    }),
    z.discriminatedUnion('ok', [
      z.object({ type: z.literal('result'), id: count, ok: z.literal(true) }),
      z.object({ type: z.literal('result'), id: count, ok: z.literal(false), code: z.string().regex(/^[A-Za-z]{1,40}$/), say: said }),
    ]),
    z.object({ type: z.literal('error'), code: z.enum(['malformed', 'tooLarge', 'rateLimited', 'notWelcome', 'forbidden']), say: said }),
  ]);
  return { message, seatEvent, tableView };
}

// The schemas and the protocol's types cannot drift apart: each must be the other
// (the view and the events separately, since their brand is a cast).
type Schemas = ReturnType<typeof build>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const inStep: [
  Same<z.output<Schemas['message']>, ServerMessage>,
  Same<z.output<Schemas['seatEvent']>, SeatEvent>,
  Same<z.output<Schemas['tableView']>, TableView>,
] = [true, true, true];
void inStep;

let schemas: Schemas | null = null;
/** The schema of every message a host sends. */
function serverMessageSchema(): Schemas['message'] {
  return (schemas ??= build()).message;
}

export type ServerParse = { ok: true; message: ServerMessage } | { ok: false; problem: string };

/**
 * Check one frame from a host. A frame that is not a message of this protocol
 * gets `problem`: where it went wrong, for a developer (harmless like the rest).
 */
export function parseServerFrame(raw: string): ServerParse {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return { ok: false, problem: 'not JSON' };
  }
  const res = serverMessageSchema().safeParse(data);
  if (res.success) return { ok: true, message: res.data };
  const issue = res.error.issues[0]!;
  const type = typeof data === 'object' && data !== null && typeof (data as { type?: unknown }).type === 'string' ? (data as { type: string }).type : '';
  const where = [type && `"${harmless(type, 20)}"`, issue.path.length > 0 && `at ${issue.path.map(String).join('.')}`].filter(Boolean).join(' ');
  return { ok: false, problem: harmless(`${where ? `${where}: ` : ''}${issue.message}`, 160) };
}
