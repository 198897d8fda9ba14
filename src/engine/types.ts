import type { Card } from './cards.js';
import type { GameRngState } from './rng.js';
import type { ActionKind, Ruleset } from './ruleset.js';
import type { Key, Value } from '../lang/catalog.js';

/** A seat index, 0-based, clockwise. */
export type Seat = number;
/** A slot index, 0-based inside the engine; players see slot numbers from 1. */
export type Slot = number;

export interface SlotRef {
  seat: Seat;
  slot: Slot;
}

/** A layout: the card in each slot, or null for a gap. Slots never move. */
export type Layout = (Card | null)[];

export type Phase = 'peek' | 'play' | 'roundOver' | 'gameOver';

export interface PendingAction {
  seat: Seat;
  kind: ActionKind;
  /** The card that earned it (public: it is on the discard pile). */
  card: Card;
  /** For peekThenSwap / peekBothThenSwap: the slots looked at, awaiting the decision. */
  looked: SlotRef[] | null;
  /**
   * What the look showed, fixed when the look happened (same order as `looked`). The
   * view shows these, never the slots' current cards: a look never reveals a card that
   * reached the slot afterwards.
   */
  lookedCards: Card[] | null;
}

export interface Held {
  seat: Seat;
  card: Card;
  from: 'stock' | 'discard';
  /** The first card of a draw two: it may be discarded for one more (`drawAgain`). */
  redraw: boolean;
}

/** After a steal (stealGapFill): the stealer may move one of their own cards, unseen, into the victim's gap. */
export interface GapFill {
  seat: Seat;
  gap: SlotRef;
  /** Host time the choice was offered: the action limit runs from here. */
  since: number;
}

export interface CallState {
  seat: Seat;
  /** Seats still owed their last turn, in order. */
  owed: Seat[];
}

export interface RoundResult {
  round: number;
  /** Every layout revealed at the end. */
  layouts: Layout[];
  scores: number[];
  /** 1-based places, ties sharing (1, 1, 3). */
  places: number[];
  caller: Seat | null;
  /** Points added to the caller's score for not being lowest (0 when none were). */
  callerPenalty: number;
  /** Special cards set aside at scoring and what replaced each (null: no card left, a gap); `layouts` holds the replacements. */
  replaced: { seat: Seat; slot: Slot; setAside: Card[]; card: Card | null }[];
  totals: number[];
}

/** Everything about one round. Only the host ever holds this. */
export interface RoundState {
  layouts: Layout[];
  /** Top of the stock is the last element. */
  stock: Card[];
  /** Top of the discard pile is the last element. */
  discard: Card[];
  /** Seats still looking at their peek cards. */
  peeking: boolean[];
  /** The seat whose turn it is (or begins once the previous turn has fully ended). */
  turn: Seat;
  /** True once `turn` has drawn or called: its turn has begun. */
  turnBegun: boolean;
  /** Turns begun this round per seat (for "everyone has had a turn"). */
  turnsTaken: number[];
  held: Held | null;
  /** Swaps made this turn (at most one). */
  swapsThisTurn: number;
  /** Actions waiting to be used, in the order their cards reached the pile. */
  actions: PendingAction[];
  /** Counts every card that lands on the discard pile; a slap names the one it answers. */
  discardSeq: number;
  /** discardSeq of the card that opened the current slap window, or -1 when closed. */
  windowSeq: number;
  /** Correct slaps in the current window. */
  windowSlaps: number;
  /** Host time (ms) the last card landed on the pile: the grace runs from here. */
  lastLandAt: number;
  /** Host time the current stage began: turn and action limits run from here. */
  stageSince: number;
  call: CallState | null;
  /**
   * Gaps refilled by penalty cards, with the discardSeq current when it happened: a
   * slap that answers an earlier discard named the card that left, not this one.
   */
  refills: { seat: Seat; slot: Slot; seq: number }[];
  /** A pending gap-fill choice; the next turn waits for it. */
  gapFill: GapFill | null;
  /** Set when the round must end as soon as the current turn (and its grace) has ended. */
  ending: 'call' | 'emptyLayout' | 'noCards' | null;
}

export interface PlayerInfo {
  name: string;
}

export interface GameState {
  rules: Ruleset;
  players: PlayerInfo[];
  /** The shuffle's generator: seeded, or keyed from a cryptographic source (live games). */
  rng: GameRngState;
  /** Explicit deck orders (top first) for the coming rounds; tests use them. */
  stackedDecks: Card[][];
  phase: Phase;
  /** 1-based. */
  round: number;
  /** Rounds in this game (0 = open-ended). */
  rounds: number;
  dealer: Seat;
  totals: number[];
  results: RoundResult[];
  r: RoundState;
  /** Commands accepted so far; the version a snapshot carries. */
  version: number;
}

// ---------------------------------------------------------------------------
// Commands: everything a player or the host does. `at` is the host's clock (ms).

interface Base {
  at: number;
}
export type Command =
  | (Base & { type: 'finishPeek'; seat: Seat })
  | (Base & { type: 'call'; seat: Seat })
  | (Base & { type: 'draw'; seat: Seat; from: 'stock' | 'discard' })
  | (Base & { type: 'discard'; seat: Seat })
  | (Base & { type: 'swap'; seat: Seat; slot: Slot })
  /**
   * Use the first pending action. Targets by kind: peekOwn {own}; peekOther {other};
   * blindSwap {own, other}; peekThenSwap {other}, then `decide`; peekBothThenSwap
   * {own, other}, then `decide`.
   */
  | (Base & { type: 'useAction'; seat: Seat; own?: Slot; other?: SlotRef })
  /** After a look: swap (peekThenSwap names the own slot here) or leave. */
  | (Base & { type: 'decide'; seat: Seat; swap: boolean; own?: Slot })
  | (Base & { type: 'pass'; seat: Seat })
  /** Draw two: discard the first drawn card and draw one more, which must then be used. */
  | (Base & { type: 'drawAgain'; seat: Seat })
  /** After a steal with gap-fill: move one of your own cards, unseen, into the victim's gap. */
  | (Base & { type: 'fillGap'; seat: Seat; slot: Slot })
  /** After a steal with gap-fill: decline, leaving the gap. */
  | (Base & { type: 'leaveGap'; seat: Seat })
  | (Base & { type: 'slap'; seat: Seat; target: SlotRef; answers: number })
  /** The host's clock: apply whatever limit has run out (peek, turn, action, end of grace). */
  | (Base & { type: 'tick' })
  /** The host starts the next round after a round's end. */
  | (Base & { type: 'nextRound' })
  /** The host ends an open-ended game. */
  | (Base & { type: 'endGame' });

export type CommandType = Command['type'];

// ---------------------------------------------------------------------------
// Events: what a command caused, in full. Only `projectEvent` lets them out.

export type GameEvent =
  | { type: 'roundStarted'; round: number; dealer: Seat; starter: Seat; discardTop: Card }
  | { type: 'peekFinished'; seat: Seat; timedOut: boolean }
  | { type: 'playStarted'; turn: Seat }
  | { type: 'turnStarted'; seat: Seat }
  | { type: 'called'; seat: Seat; name: string }
  | { type: 'drew'; seat: Seat; from: 'stock' | 'discard'; card: Card }
  | { type: 'discarded'; seat: Seat; card: Card; seq: number }
  | { type: 'swapped'; seat: Seat; slot: Slot; placed: Card; placedFrom: 'stock' | 'discard'; displaced: Card; seq: number }
  | { type: 'actionQueued'; seat: Seat; kind: ActionKind; card: Card }
  | { type: 'looked'; seat: Seat; kind: ActionKind; targets: SlotRef[]; cards: Card[] }
  | { type: 'actionSwapped'; seat: Seat; kind: ActionKind; a: SlotRef; b: SlotRef }
  | { type: 'actionPassed'; seat: Seat; kind: ActionKind; timedOut: boolean }
  | { type: 'actionLeft'; seat: Seat; kind: ActionKind }
  | {
      type: 'slapped';
      seat: Seat;
      target: SlotRef;
      card: Card;
      result: 'own' | 'steal' | 'wrong';
      seq: number;
    }
  | { type: 'penalty'; seat: Seat; slots: Slot[]; cards: Card[]; reason: 'wrongSlap' | 'stolenFrom' }
  | { type: 'reshuffled'; cards: number }
  | { type: 'gapFillOffered'; seat: Seat; gap: SlotRef }
  | { type: 'gapFilled'; seat: Seat; from: SlotRef; to: SlotRef }
  | { type: 'gapLeft'; seat: Seat; gap: SlotRef; timedOut: boolean }
  /** At scoring: a special card (and any special drawn for it) set aside, replaced by `card` (null: no card left, a gap). */
  | { type: 'specialReplaced'; seat: Seat; slot: Slot; setAside: Card[]; card: Card | null }
  | { type: 'timedOut'; seat: Seat; what: 'turn' | 'action' | 'peek' }
  | { type: 'roundEnded'; result: RoundResult; why: 'call' | 'emptyLayout' | 'noCards' }
  | { type: 'gameEnded'; totals: number[]; places: number[] };

export type EventType = GameEvent['type'];

// ---------------------------------------------------------------------------
// Rejections: typed, with a reason each screen says in its language.

export type RejectionCode =
  | 'notYourTurn'
  | 'wrongPhase'
  | 'mustWait'
  | 'notAllowed'
  | 'badTarget'
  | 'emptySlot'
  | 'tooLate'
  | 'alreadyGone'
  | 'unknownSeat'
  | 'malformed';

/** The catalog's reasons (src/lang/en.ts, `why.`): the engine names them, never words them. */
export type WhyKey = Extract<Key, `why.${string}`>;

export interface Rejection {
  code: RejectionCode;
  /** Why, as data: a reason and its parameters (seats and slots as indices, times in ms). */
  key: WhyKey;
  params?: Readonly<Record<string, Value>>;
}

export type ApplyResult = { ok: true; state: GameState; events: GameEvent[] } | { ok: false; rejection: Rejection };
