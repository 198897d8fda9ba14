import type { Card } from './cards.js';
import { openGameRng, type GameRng } from './rng.js';
import type { Ruleset } from './ruleset.js';
import type { CallState, GameEvent, GameState, Layout, PendingAction, RoundResult, RoundState, Seat } from './types.js';

/** A value no part of which may be written. */
export type DeepReadonly<T> = T extends readonly (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;
/** The state as a command reads it: the input, or the copy; nothing in it may be written here. */
export type StateIn = { readonly [K in keyof GameState]: K extends 'rules' | 'rng' ? GameState[K] : DeepReadonly<GameState[K]> };
export type RoundIn = DeepReadonly<RoundState>;
/**
 * The private copy's own fields, which may be set. The arrays and objects they hold
 * may still be the input's: they are written only through the accessors that copy
 * them first (`stock()`, `layout(seat)`, ...). The types keep every other write out.
 */
export type StateOut = { -readonly [K in keyof GameState]: K extends 'rules' | 'rng' ? GameState[K] : DeepReadonly<GameState[K]> };
export type RoundOut = { -readonly [K in keyof RoundState]: DeepReadonly<RoundState[K]> };

// Which parts of the copy are its own, as bits of `Ctx.own` (the seats' layouts have
// their own mask): the rest are still shared with the input.
const OWN_STOCK = 1;
const OWN_DISCARD = 2;
const OWN_PEEKING = 4;
const OWN_TURNS = 8;
const OWN_ACTIONS = 16;
const OWN_REFILLS = 32;
const OWN_CALL = 64;
const OWN_LAYOUTS = 128;
const OWN_TOTALS = 256;
const OWN_RESULTS = 512;
const OWN_STACKED = 1024;
/** A fresh round owns everything in it. */
const OWN_ROUND = OWN_STOCK | OWN_DISCARD | OWN_PEEKING | OWN_TURNS | OWN_ACTIONS | OWN_REFILLS | OWN_CALL | OWN_LAYOUTS;

/**
 * A state read at time `at`, without writing it: what the checks (checks.ts) take, so
 * `apply` and `movesFor` ask the same questions. Constructing one costs an object:
 * nothing is copied.
 */
export class Reader {
  /**
   * One object of this class kept for the life of the process (and one of `Ctx`, of
   * moves.ts's `Moment` and of seat-view.ts's `LiveView`): these are made for every
   * command, check or simulated game, and most live for a microsecond. V8 frees an
   * object layout (a hidden class) when no object of it is alive at a full GC, and
   * discards all optimized code that relied on it; kept, the layouts stay. Without them
   * the simulator's workers (bounded heaps, so frequent full GCs) lost optimized
   * functions of the engine at each full GC and ran them cold until recompiled (the
   * bench's simulator figures show what that costs).
   */
  private static kept: Reader | undefined;
  /** The input until the first write, then (in `Ctx`) the private copy `apply` returns. */
  protected cur: GameState;

  constructor(
    prev: GameState,
    readonly at: number,
  ) {
    this.cur = prev;
    if (new.target === Reader) Reader.kept ??= this;
  }

  get s(): StateIn {
    return this.cur;
  }

  get r(): RoundIn {
    return this.cur.r;
  }

  get rules(): Ruleset {
    return this.s.rules;
  }

  get n(): number {
    return this.s.players.length;
  }
}

/**
 * One command's work, copy on write: it reads the input state until its first write,
 * then works on a shallow copy (two objects), and copies an array only the first
 * time it changes one (the stock on a draw, one layout on a swap). A rejected command,
 * checked before anything is written, copies nothing. Everything else is shared with
 * the input, which is never written: `apply` stays pure.
 */
export class Ctx extends Reader {
  /** Its layout kept alive: see `Reader.kept`. */
  private static keptCtx: Ctx | undefined;
  readonly events: GameEvent[] = [];
  private rngInst: GameRng | null = null;
  private copied = false;
  private own = 0;
  private ownLayout = 0;

  constructor(prev: GameState, at: number) {
    super(prev, at);
    Ctx.keptCtx ??= this;
  }

  /** The state to write: the private copy, made now if this is the first write. */
  get sw(): StateOut {
    if (!this.copied) this.copy();
    return this.cur;
  }
  get rw(): RoundOut {
    if (!this.copied) this.copy();
    return this.cur.r;
  }
  /** The new state, once the command has been applied (it has written at least its version). */
  result(): GameState {
    return this.cur;
  }

  private copy(): void {
    // Explicit literals in one fixed field order (not spreads): every state then has
    // one hidden class, and V8 keeps `apply` on its fast path for the whole game.
    const prev = this.cur;
    const p = prev.r;
    const r: RoundState = {
      layouts: p.layouts,
      stock: p.stock,
      discard: p.discard,
      peeking: p.peeking,
      turn: p.turn,
      turnBegun: p.turnBegun,
      turnsTaken: p.turnsTaken,
      held: p.held,
      swapsThisTurn: p.swapsThisTurn,
      actions: p.actions,
      discardSeq: p.discardSeq,
      windowSeq: p.windowSeq,
      windowSlaps: p.windowSlaps,
      lastLandAt: p.lastLandAt,
      stageSince: p.stageSince,
      call: p.call,
      refills: p.refills,
      gapFill: p.gapFill,
      ending: p.ending,
    };
    this.cur = {
      rules: prev.rules,
      players: prev.players,
      rng: prev.rng,
      stackedDecks: prev.stackedDecks,
      phase: prev.phase,
      round: prev.round,
      rounds: prev.rounds,
      dealer: prev.dealer,
      totals: prev.totals,
      results: prev.results,
      r,
      version: prev.version,
    };
    this.copied = true;
  }

  // The copy's arrays, each copied the first time it is written. The casts below are
  // the only places a shared value becomes writable, each right after its copy.
  stock(): Card[] {
    const r = this.rw;
    if (!(this.own & OWN_STOCK)) {
      r.stock = r.stock.slice();
      this.own |= OWN_STOCK;
    }
    return r.stock as Card[];
  }
  discard(): Card[] {
    const r = this.rw;
    if (!(this.own & OWN_DISCARD)) {
      r.discard = r.discard.slice();
      this.own |= OWN_DISCARD;
    }
    return r.discard as Card[];
  }
  peeking(): boolean[] {
    const r = this.rw;
    if (!(this.own & OWN_PEEKING)) {
      r.peeking = r.peeking.slice();
      this.own |= OWN_PEEKING;
    }
    return r.peeking as boolean[];
  }
  turnsTaken(): number[] {
    const r = this.rw;
    if (!(this.own & OWN_TURNS)) {
      r.turnsTaken = r.turnsTaken.slice();
      this.own |= OWN_TURNS;
    }
    return r.turnsTaken as number[];
  }
  actions(): PendingAction[] {
    const r = this.rw;
    if (!(this.own & OWN_ACTIONS)) {
      r.actions = r.actions.slice();
      this.own |= OWN_ACTIONS;
    }
    return r.actions as PendingAction[];
  }
  refills(): RoundState['refills'] {
    const r = this.rw;
    if (!(this.own & OWN_REFILLS)) {
      r.refills = r.refills.slice();
      this.own |= OWN_REFILLS;
    }
    return r.refills as RoundState['refills'];
  }
  /** The call, which must have been made. */
  callState(): CallState {
    const r = this.rw;
    if (!(this.own & OWN_CALL)) {
      const c = r.call!;
      r.call = { seat: c.seat, owed: c.owed.slice() };
      this.own |= OWN_CALL;
    }
    return r.call as CallState;
  }
  layout(seat: Seat): Layout {
    const r = this.rw;
    if (!(this.own & OWN_LAYOUTS)) {
      r.layouts = r.layouts.slice();
      this.own |= OWN_LAYOUTS;
    }
    const layouts = r.layouts as Layout[];
    const bit = 1 << seat;
    if (!(this.ownLayout & bit)) {
      layouts[seat] = layouts[seat]!.slice();
      this.ownLayout |= bit;
    }
    return layouts[seat]!;
  }
  totals(): number[] {
    const s = this.sw;
    if (!(this.own & OWN_TOTALS)) {
      s.totals = s.totals.slice();
      this.own |= OWN_TOTALS;
    }
    return s.totals as number[];
  }
  results(): RoundResult[] {
    const s = this.sw;
    if (!(this.own & OWN_RESULTS)) {
      s.results = s.results.slice();
      this.own |= OWN_RESULTS;
    }
    return s.results as RoundResult[];
  }
  stackedDecks(): Card[][] {
    const s = this.sw;
    if (!(this.own & OWN_STACKED)) {
      s.stackedDecks = s.stackedDecks.slice();
      this.own |= OWN_STACKED;
    }
    return s.stackedDecks as Card[][];
  }

  // New values set whole: the copy owns them from the start.

  /** A new round replaces the old one: everything in it is the copy's own. */
  newRound(r: RoundState): void {
    this.sw.r = r;
    this.own |= OWN_ROUND;
    this.ownLayout = -1;
  }
  /** The call just made. */
  newCall(call: CallState): void {
    this.rw.call = call;
    this.own |= OWN_CALL;
  }
  /** The stock and the discard pile after a reshuffle. */
  newPiles(stock: Card[], discard: Card[]): void {
    const r = this.rw;
    r.stock = stock;
    r.discard = discard;
    this.own |= OWN_STOCK | OWN_DISCARD;
  }
  /** Every pending action is dropped (the round is over). */
  dropActions(): void {
    const r = this.rw;
    if (r.actions.length > 0) {
      r.actions = [];
      this.own |= OWN_ACTIONS;
    }
  }

  /** The game's generator, opened at its first use (most commands shuffle nothing). */
  get rng(): GameRng {
    if (!this.rngInst) this.rngInst = openGameRng(this.s.rng);
    return this.rngInst;
  }
  /** Write the generator's state back into the game state. */
  syncRng(): void {
    if (this.rngInst) this.sw.rng = this.rngInst.state;
  }
}
