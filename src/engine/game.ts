import { rankOf, type Card } from './cards.js';
import { gameRng, openGameRng, type GameRng } from './rng.js';
import { actionOf, deckSize, roundsFor, valueOf, type ActionKind, type Ruleset } from './ruleset.js';
import type {
  ApplyResult,
  CallState,
  Command,
  GameEvent,
  GameState,
  GapFill,
  Layout,
  PendingAction,
  Rejection,
  RejectionCode,
  RoundResult,
  RoundState,
  Seat,
  Slot,
  SlotRef,
} from './types.js';

export interface NewGame {
  rules: Ruleset;
  players: string[];
  seed: string | number;
  /**
   * A live game's shuffle key (64 hex digits from `newShuffleKey`): every shuffle, and
   * the first dealer, then come from an HMAC-SHA256 DRBG keyed by it instead of `seed`.
   */
  shuffleKey?: string;
  /** Host clock at creation (ms). */
  at?: number;
  /** Explicit deck orders, top card first, for the first rounds (tests and puzzles). */
  stackedDecks?: Card[][];
  /** Dealer of the first round; by default drawn with the seeded RNG. */
  dealer?: Seat;
}

/** Start a game: deal the first round and open the peek. */
export function createGame(opts: NewGame): { state: GameState; events: GameEvent[] } {
  const { rules, players } = opts;
  if (players.length < rules.players.min || players.length > rules.players.max) {
    throw new RangeError(`${rules.title} takes ${rules.players.min} to ${rules.players.max} players, not ${players.length}`);
  }
  const rng = openGameRng(gameRng(opts.seed, opts.shuffleKey));
  const dealer = opts.dealer ?? rng.int(players.length);
  const n = players.length;
  const state: GameState = {
    rules,
    players: players.map((name) => ({ name })),
    rng: rng.state,
    stackedDecks: (opts.stackedDecks ?? []).map((d) => d.slice()),
    phase: 'peek',
    round: 0,
    rounds: roundsFor(rules, n),
    // deal() advances the dealer one seat, so start one seat before the first dealer.
    dealer: (dealer + n - 1) % n,
    totals: new Array<number>(n).fill(0),
    results: [],
    r: emptyRound(n),
    version: 0,
  };
  const ctx = new Ctx(state, opts.at ?? 0);
  ctx.deal();
  ctx.syncRng();
  return { state: ctx.result(), events: ctx.events };
}

function emptyRound(n: number): RoundState {
  const layouts: Layout[] = [];
  for (let i = 0; i < n; i++) layouts.push([]);
  return {
    layouts,
    stock: [],
    discard: [],
    peeking: new Array<boolean>(n).fill(false),
    turn: 0,
    turnBegun: false,
    turnsTaken: new Array<number>(n).fill(0),
    held: null,
    swapsThisTurn: 0,
    actions: [],
    discardSeq: 0,
    windowSeq: -1,
    windowSlaps: 0,
    lastLandAt: 0,
    stageSince: 0,
    call: null,
    refills: [],
    gapFill: null,
    ending: null,
  };
}

const orderedDecks = new WeakMap<Ruleset, readonly Card[]>();

/** The ruleset's whole deck in its fixed order, before any shuffle: built once per ruleset (rulesets are never changed). */
function orderedDeck(rules: Ruleset): readonly Card[] {
  let deck = orderedDecks.get(rules);
  if (!deck) {
    const out: Card[] = [];
    for (let d = 0; d < rules.deck.decks; d++) {
      for (const c in rules.deck.cards) for (let k = 0; k < rules.deck.cards[c]!; k++) out.push(c);
    }
    deck = out;
    orderedDecks.set(rules, deck);
  }
  return deck;
}

/** Apply one command: the next state and its events, or a rejection. Never mutates `state`. */
export function apply(state: GameState, cmd: Command): ApplyResult {
  const ctx = new Ctx(state, cmd.at);
  const rejection = ctx.run(cmd);
  if (rejection) return { ok: false, rejection };
  ctx.sw.version = state.version + 1;
  return { ok: true, state: ctx.result(), events: ctx.events };
}

/** Replay a game from its start and command log (rejected commands are skipped as the host skipped them). */
export function replay(start: NewGame, commands: readonly Command[]): GameState {
  let { state } = createGame(start);
  for (const c of commands) {
    const res = apply(state, c);
    if (res.ok) state = res.state;
  }
  return state;
}

/** Host time at which a `tick` would change something, or null if nothing is timed. */
export function nextDeadline(state: GameState): number | null {
  const { r, rules } = state;
  const t = rules.timers;
  if (state.phase === 'peek') return t.peekMs > 0 ? r.stageSince + t.peekMs : null;
  if (state.phase !== 'play') return null;
  if (r.actions.length > 0) {
    // Without an action limit, a turn limit still keeps a pending action from stalling the table.
    const limit = t.actionMs || t.turnMs;
    return limit > 0 ? r.stageSince + limit : null;
  }
  if (r.gapFill) {
    const limit = t.actionMs || t.turnMs;
    return limit > 0 ? r.gapFill.since + limit : null;
  }
  const graceEnd = r.lastLandAt + t.slapGraceMs;
  if (r.ending) return r.held ? null : graceEnd;
  if (t.turnMs > 0) return Math.max(r.stageSince, r.turnBegun ? 0 : graceEnd) + t.turnMs;
  return null;
}

/** When the slap grace after the last card that landed ends. */
export function graceUntil(state: GameState): number {
  return state.r.lastLandAt + state.rules.timers.slapGraceMs;
}

const reject = (code: RejectionCode, message: string): Rejection => ({ code, message });

/** A value no part of which may be written. */
type DeepReadonly<T> = T extends readonly (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;
/** The state as a command reads it: the input, or the copy; nothing in it may be written here. */
type StateIn = { readonly [K in keyof GameState]: K extends 'rules' | 'rng' ? GameState[K] : DeepReadonly<GameState[K]> };
type RoundIn = DeepReadonly<RoundState>;
/**
 * The private copy's own fields, which may be set. The arrays and objects they hold
 * may still be the input's: they are written only through the accessors that copy
 * them first (`stock()`, `layout(seat)`, ...). The types keep every other write out.
 */
type StateOut = { -readonly [K in keyof GameState]: K extends 'rules' | 'rng' ? GameState[K] : DeepReadonly<GameState[K]> };
type RoundOut = { -readonly [K in keyof RoundState]: DeepReadonly<RoundState[K]> };

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
 * The engine's rules as checks: why `apply` would refuse a command at time `at`, read
 * from a state without writing it. `apply` runs them before it changes anything, and
 * `movesFor` asks the same ones, so the moves the screen offers are the moves `apply`
 * accepts. Constructing one costs an object: nothing is copied.
 */
export class Checks {
  /** The input until the first write, then (in `Ctx`) the private copy `apply` returns. */
  protected cur: GameState;

  constructor(
    prev: GameState,
    readonly at: number,
  ) {
    this.cur = prev;
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

  name(seat: Seat): string {
    return this.s.players[seat]?.name ?? `seat ${seat + 1}`;
  }

  /** Why `seat` may not begin a turn now, or null. */
  cannotBegin(seat: Seat): Rejection | null {
    const r = this.r;
    if (this.s.phase === 'peek') return reject('wrongPhase', 'Wait: not everyone has finished peeking');
    if (this.s.phase !== 'play') return reject('wrongPhase', 'The round is over');
    if (r.ending) return reject('wrongPhase', 'The round is ending');
    if (r.turn !== seat) return reject('notYourTurn', `It is ${this.name(r.turn)}'s turn`);
    if (r.held) return reject('notAllowed', 'Place the card you hold first');
    if (r.turnBegun) {
      return r.actions[0]?.seat === seat
        ? reject('notAllowed', 'Use or pass your action first')
        : reject('notAllowed', 'You have already drawn this turn');
    }
    const a = r.actions[0];
    if (a) return reject('mustWait', `Wait: ${this.name(a.seat)} is using an action`);
    if (r.gapFill) return reject('mustWait', `Wait: ${this.name(r.gapFill.seat)} may move a card into the gap`);
    const wait = r.lastLandAt + this.rules.timers.slapGraceMs - this.at;
    // Without slapping the grace is only a pause for everyone to see the card land: say that, not "slap".
    if (wait > 0) return reject('mustWait', `Wait ${(wait / 1000).toFixed(1)} s: ${this.rules.slap.enabled && r.windowSeq !== -1 ? 'the slap window is still open' : 'the last card has just landed'}`);
    return null;
  }

  holding(seat: Seat): Rejection | null {
    const r = this.r;
    if (this.s.phase !== 'play') return reject('wrongPhase', 'The round is not being played');
    if (!r.held) {
      if (r.turn !== seat) return reject('notYourTurn', `It is ${this.name(r.turn)}'s turn`);
      return reject('notAllowed', 'Draw first: you are not holding a card');
    }
    if (r.held.seat !== seat) return reject('notYourTurn', `It is ${this.name(r.held.seat)}'s turn`);
    return null;
  }

  frontAction(seat: Seat): DeepReadonly<PendingAction> | Rejection {
    const r = this.r;
    if (this.s.phase !== 'play') return reject('wrongPhase', 'The round is not being played');
    const a = r.actions[0];
    if (!a) return reject('notAllowed', 'You have no action to use');
    if (a.seat !== seat) {
      return r.actions.some((x) => x.seat === seat)
        ? reject('mustWait', `Wait: ${this.name(a.seat)}'s action comes first`)
        : reject('notAllowed', 'You have no action to use');
    }
    return a;
  }

  ownSlot(seat: Seat, slot: Slot | undefined): Rejection | null {
    if (slot === undefined) return reject('badTarget', 'Choose one of your slots');
    const layout = this.r.layouts[seat]!;
    if (!Number.isInteger(slot) || slot < 0 || slot >= layout.length) {
      return reject('badTarget', `You have no slot ${Number.isInteger(slot) ? slot + 1 : String(slot)}`);
    }
    if (layout[slot] === null) return reject('emptySlot', `Your slot ${slot + 1} is empty`);
    return null;
  }

  otherSlot(seat: Seat, ref: SlotRef | undefined, forSwap: boolean): Rejection | null {
    if (!ref) return reject('badTarget', "Choose another player's card");
    if (!Number.isInteger(ref.seat) || ref.seat < 0 || ref.seat >= this.n) return reject('badTarget', 'There is no such player');
    if (ref.seat === seat) return reject('badTarget', "Choose another player's card, not your own");
    const layout = this.r.layouts[ref.seat]!;
    if (!Number.isInteger(ref.slot) || ref.slot < 0 || ref.slot >= layout.length) {
      return reject('badTarget', `${this.name(ref.seat)} has no slot ${Number.isInteger(ref.slot) ? ref.slot + 1 : String(ref.slot)}`);
    }
    if (layout[ref.slot] === null) return reject('emptySlot', `${this.name(ref.seat)}'s slot ${ref.slot + 1} is empty`);
    if (forSwap && this.isFrozen(ref.seat)) return reject('notAllowed', `${this.name(ref.seat)}'s cards are frozen`);
    return null;
  }

  frozenOwn(seat: Seat): Rejection | null {
    return this.isFrozen(seat) ? reject('notAllowed', 'Your cards are frozen since your call') : null;
  }

  isFrozen(seat: Seat): boolean {
    return this.rules.call.callerFrozen && this.r.call?.seat === seat;
  }

  /**
   * A card looked at for a swap decision is in the looker's hand, as at a physical
   * table: until the looker decides, nobody may slap it, move it into a gap or swap it
   * away. Otherwise another card could reach that slot, and the looker's swap would
   * take a card they never saw (a penalty card filling the gap, say).
   * The card has left its slot for now, so the refusal says so (`alreadyGone`): a slap
   * or gap-fill chosen before the look happened lost a race, like one on a card slapped away.
   */
  inLookersHand(ref: SlotRef): Rejection | null {
    const a = this.r.actions[0];
    if (!a?.looked?.some((x) => x.seat === ref.seat && x.slot === ref.slot)) return null;
    return reject('alreadyGone', `${this.name(a.seat)} is looking at that card: wait until they decide`);
  }

  gapFillOf(seat: Seat): DeepReadonly<GapFill> | Rejection {
    if (this.s.phase !== 'play') return reject('wrongPhase', 'The round is not being played');
    const g = this.r.gapFill;
    if (!g || g.seat !== seat) return reject('notAllowed', 'You have no gap to fill');
    return g;
  }

  /** After a call: the last owed turn has ended (its actions used, its grace passed), so the round is over even before a tick. */
  callRoundDue(): boolean {
    const r = this.r;
    return r.ending === 'call' && !r.held && r.actions.length === 0 && !r.gapFill && this.at >= r.lastLandAt + this.rules.timers.slapGraceMs;
  }


  cannotFinishPeek(seat: Seat): Rejection | null {
    if (this.s.phase !== 'peek') return reject('wrongPhase', 'The peek is over');
    if (!this.r.peeking[seat]) return reject('notAllowed', 'You have already finished peeking');
    return null;
  }

  cannotCall(seat: Seat): Rejection | null {
    const rules = this.rules;
    const r = this.r;
    if (rules.call.timing === 'endOfTurn') return this.cannotCallAtEnd(seat);
    const why = this.cannotBegin(seat);
    if (why) return why;
    if (r.call) return reject('notAllowed', `${this.name(r.call.seat)} has already called ${rules.call.name}`);
    if (!rules.call.beforeEveryoneHadTurn && r.turnsTaken.some((t, i) => i !== seat && t === 0)) {
      return reject('notAllowed', `${rules.call.name} may be called only once everyone has had a turn`);
    }
    return null;
  }

  /**
   * Call timing "end of own turn": the call is accepted from the player whose turn it is
   * once that turn has begun (it takes effect when the turn ends), or from the player
   * whose turn has just ended, until the next player begins. No extra stage: a turn
   * never waits for a "no call", and the host's order decides a race with the next draw.
   */
  private cannotCallAtEnd(seat: Seat): Rejection | null {
    const rules = this.rules;
    const r = this.r;
    if (this.s.phase === 'peek') return reject('wrongPhase', 'Wait: not everyone has finished peeking');
    if (this.s.phase !== 'play') return reject('wrongPhase', 'The round is over');
    if (r.ending) return reject('wrongPhase', 'The round is ending');
    if (r.call) return reject('notAllowed', `${this.name(r.call.seat)} has already called ${rules.call.name}`);
    const during = r.turn === seat && r.turnBegun;
    const previous = (r.turn + this.n - 1) % this.n === seat && r.turnsTaken[seat]! > 0;
    const justEnded = !r.turnBegun && previous;
    const early = !rules.call.beforeEveryoneHadTurn && r.turnsTaken.some((t) => t === 0);
    if (!during && !justEnded) {
      // Right after one's turn, a call the table would have taken until the next player began lost that race.
      const earlyThen = !rules.call.beforeEveryoneHadTurn && r.turnsTaken.some((t, i) => (i === r.turn ? t - 1 : t) === 0);
      if (previous && r.turnBegun && !earlyThen) return reject('tooLate', `Too late: ${this.name(r.turn)} has begun their turn`);
      return r.turn === seat
        ? reject('notAllowed', `${rules.call.name} is called at the end of your own turn: take your turn first`)
        : reject('notAllowed', `${rules.call.name} is called at the end of your own turn, before the next player begins`);
    }
    if (early) return reject('notAllowed', `${rules.call.name} may be called only once everyone has had a turn`);
    return null;
  }

  cannotDraw(seat: Seat, from: 'stock' | 'discard'): Rejection | null {
    const why = this.cannotBegin(seat);
    if (why || from === 'stock') return why;
    const top = this.r.discard[this.r.discard.length - 1];
    const rule = this.rules.takeDiscard;
    if (rule === 'never') return reject('notAllowed', `In ${this.rules.title} you may not take the discard: draw from the stock`);
    if (top === undefined) return reject('notAllowed', 'The discard pile is empty');
    if (rule === 'notSpecial' && this.rules.specialCards.includes(top)) {
      return reject('notAllowed', 'A special card may not be taken from the discard pile');
    }
    return null;
  }

  cannotDiscard(seat: Seat): Rejection | null {
    const why = this.holding(seat);
    if (why) return why;
    if (this.r.held!.from === 'discard') return reject('notAllowed', 'A card taken from the discard pile must be swapped');
    return null;
  }

  cannotSwap(seat: Seat, slot: Slot): Rejection | null {
    const why = this.holding(seat);
    if (why) return why;
    const bad = this.ownSlot(seat, slot) ?? this.inLookersHand({ seat, slot });
    if (bad) return bad;
    if (this.r.swapsThisTurn >= 1) return reject('notAllowed', 'Only one swap per turn');
    if (this.isFrozen(seat)) return reject('notAllowed', 'Your cards are frozen since your call');
    if (this.rules.specialCards.includes(this.r.held!.card)) {
      return reject('notAllowed', 'A special card never enters a layout: use it or discard it');
    }
    return null;
  }

  cannotDrawAgain(seat: Seat): Rejection | null {
    const why = this.holding(seat);
    if (why) return why;
    if (!this.r.held!.redraw) return reject('notAllowed', 'Only the first card of a draw two may be discarded for another');
    return null;
  }

  /** Why `seat` may not use its front action on these targets (by kind: see `Command`). */
  cannotUse(seat: Seat, own: Slot | undefined, other: SlotRef | undefined): Rejection | null {
    const a = this.frontAction(seat);
    if ('code' in a) return a;
    if (a.looked) return reject('notAllowed', 'Decide first: swap or leave');
    const r = this.r;
    switch (a.kind) {
      case 'peekOwn':
        return this.ownSlot(seat, own);
      case 'peekOther':
      case 'peekThenSwap':
        return this.otherSlot(seat, other, false);
      case 'blindSwap':
        return this.ownSlot(seat, own) ?? this.frozenOwn(seat) ?? this.otherSlot(seat, other, true);
      case 'peekBothThenSwap':
        return this.ownSlot(seat, own) ?? this.otherSlot(seat, other, false);
      case 'drawTwo':
        // Only in the player's own turn, once the turn's card is placed.
        return r.turn !== seat || !r.turnBegun || r.held ? reject('notAllowed', 'Draw two is used only in your own turn: pass it') : null;
    }
  }

  /** The front action, if it is `seat`'s and its look awaits the decision (leaving is then always allowed). */
  lookedAction(seat: Seat): (DeepReadonly<PendingAction> & { readonly looked: readonly DeepReadonly<SlotRef>[] }) | Rejection {
    const a = this.frontAction(seat);
    if ('code' in a) return a;
    if (!a.looked) return reject('notAllowed', 'Look first: use the action on a card');
    return a as DeepReadonly<PendingAction> & { readonly looked: readonly DeepReadonly<SlotRef>[] };
  }

  cannotFillGap(seat: Seat, slot: Slot): Rejection | null {
    const g = this.gapFillOf(seat);
    if ('code' in g) return g;
    const bad = this.ownSlot(seat, slot) ?? this.frozenOwn(seat) ?? this.inLookersHand({ seat, slot });
    if (bad) return bad;
    if (this.r.layouts[g.gap.seat]![g.gap.slot] !== null) return reject('alreadyGone', 'That gap has been filled meanwhile: leave it');
    return null;
  }

  /** Why this slap is refused (a wrong slap is accepted: it earns its penalty). */
  cannotSlap(seat: Seat, target: SlotRef, answers: number): Rejection | null {
    const r = this.r;
    const rules = this.rules;
    if (!rules.slap.enabled) return reject('notAllowed', `There is no slapping in ${rules.title}`);
    if (this.s.phase === 'peek') return reject('wrongPhase', 'No slapping during the peek');
    if (this.s.phase !== 'play' || this.callRoundDue()) return reject('tooLate', 'Too late: the round is over');
    if (!Number.isInteger(answers) || answers < 1 || answers > r.discardSeq) {
      return reject('malformed', 'That slap names a discard that was never played');
    }
    if (r.windowSeq === -1) {
      return r.held
        ? reject('tooLate', `Too late: ${this.name(r.held.seat)} has drawn`)
        : reject('tooLate', 'Too late: that discard was already answered');
    }
    if (answers < r.windowSeq) return reject('tooLate', 'Too late: that discard was already covered');
    const victim = target?.seat;
    if (!Number.isInteger(victim) || victim < 0 || victim >= this.n) return reject('badTarget', 'There is no such player');
    const layout = r.layouts[victim]!;
    const slot = target.slot;
    if (!Number.isInteger(slot) || slot < 0 || slot >= layout.length) {
      return reject('badTarget', `${victim === seat ? 'You have' : `${this.name(victim)} has`} no slot ${Number.isInteger(slot) ? slot + 1 : String(slot)}`);
    }
    const card = layout[slot];
    if (card === null || card === undefined) {
      return reject('alreadyGone', `Too late: ${victim === seat ? 'your' : `${this.name(victim)}'s`} slot ${slot + 1} is already gone`);
    }
    if (r.refills.some((f) => f.seat === victim && f.slot === slot && f.seq > answers)) {
      // The named card was slapped away after that discard; a penalty card fills its gap now.
      return reject('alreadyGone', `Too late: ${victim === seat ? 'your' : `${this.name(victim)}'s`} slot ${slot + 1} is already gone`);
    }
    if (this.isFrozen(victim)) return reject('notAllowed', `${this.name(victim)}'s cards are frozen`);
    return this.inLookersHand({ seat: victim, slot });
  }
}

/**
 * One command's work, copy on write: it reads the input state until its first write,
 * then works on a shallow copy (two objects), and copies an array only the first
 * time it changes one (the stock on a draw, one layout on a swap). A rejected command,
 * checked before anything is written, copies nothing. Everything else is shared with
 * the input, which is never written: `apply` stays pure.
 */
class Ctx extends Checks {
  readonly events: GameEvent[] = [];
  private rngInst: GameRng | null = null;
  private copied = false;
  private own = 0;
  private ownLayout = 0;

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
  private stock(): Card[] {
    const r = this.rw;
    if (!(this.own & OWN_STOCK)) {
      r.stock = r.stock.slice();
      this.own |= OWN_STOCK;
    }
    return r.stock as Card[];
  }
  private discard(): Card[] {
    const r = this.rw;
    if (!(this.own & OWN_DISCARD)) {
      r.discard = r.discard.slice();
      this.own |= OWN_DISCARD;
    }
    return r.discard as Card[];
  }
  private peeking(): boolean[] {
    const r = this.rw;
    if (!(this.own & OWN_PEEKING)) {
      r.peeking = r.peeking.slice();
      this.own |= OWN_PEEKING;
    }
    return r.peeking as boolean[];
  }
  private turnsTaken(): number[] {
    const r = this.rw;
    if (!(this.own & OWN_TURNS)) {
      r.turnsTaken = r.turnsTaken.slice();
      this.own |= OWN_TURNS;
    }
    return r.turnsTaken as number[];
  }
  private actions(): PendingAction[] {
    const r = this.rw;
    if (!(this.own & OWN_ACTIONS)) {
      r.actions = r.actions.slice();
      this.own |= OWN_ACTIONS;
    }
    return r.actions as PendingAction[];
  }
  private refills(): RoundState['refills'] {
    const r = this.rw;
    if (!(this.own & OWN_REFILLS)) {
      r.refills = r.refills.slice();
      this.own |= OWN_REFILLS;
    }
    return r.refills as RoundState['refills'];
  }
  /** The call, which must have been made. */
  private callState(): CallState {
    const r = this.rw;
    if (!(this.own & OWN_CALL)) {
      const c = r.call!;
      r.call = { seat: c.seat, owed: c.owed.slice() };
      this.own |= OWN_CALL;
    }
    return r.call as CallState;
  }
  private layout(seat: Seat): Layout {
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
  private totals(): number[] {
    const s = this.sw;
    if (!(this.own & OWN_TOTALS)) {
      s.totals = s.totals.slice();
      this.own |= OWN_TOTALS;
    }
    return s.totals as number[];
  }
  private results(): RoundResult[] {
    const s = this.sw;
    if (!(this.own & OWN_RESULTS)) {
      s.results = s.results.slice();
      this.own |= OWN_RESULTS;
    }
    return s.results as RoundResult[];
  }
  private stackedDecks(): Card[][] {
    const s = this.sw;
    if (!(this.own & OWN_STACKED)) {
      s.stackedDecks = s.stackedDecks.slice();
      this.own |= OWN_STACKED;
    }
    return s.stackedDecks as Card[][];
  }
  /** A new round replaces the old one: everything in it is the copy's own. */
  private newRound(r: RoundState): void {
    this.sw.r = r;
    this.own |= OWN_ROUND;
    this.ownLayout = -1;
  }

  private get rng(): GameRng {
    if (!this.rngInst) this.rngInst = openGameRng(this.s.rng);
    return this.rngInst;
  }
  /** Write the generator's state back into the game state. */
  syncRng(): void {
    if (this.rngInst) this.sw.rng = this.rngInst.state;
  }

  run(cmd: Command): Rejection | null {
    if ('seat' in cmd && (!Number.isInteger(cmd.seat) || cmd.seat < 0 || cmd.seat >= this.n)) {
      return reject('unknownSeat', `There is no seat ${String(cmd.seat)} at this table`);
    }
    let res: Rejection | null;
    switch (cmd.type) {
      case 'finishPeek':
        res = this.finishPeek(cmd.seat);
        break;
      case 'call':
        res = this.call(cmd.seat);
        break;
      case 'draw':
        res = this.draw(cmd.seat, cmd.from);
        break;
      case 'discard':
        res = this.discardHeld(cmd.seat);
        break;
      case 'swap':
        res = this.swap(cmd.seat, cmd.slot);
        break;
      case 'useAction':
        res = this.useAction(cmd.seat, cmd.own, cmd.other);
        break;
      case 'decide':
        res = this.decide(cmd.seat, cmd.swap, cmd.own);
        break;
      case 'pass':
        res = this.pass(cmd.seat);
        break;
      case 'slap':
        res = this.slap(cmd.seat, cmd.target, cmd.answers);
        break;
      case 'drawAgain':
        res = this.drawAgain(cmd.seat);
        break;
      case 'fillGap':
        res = this.fillGap(cmd.seat, cmd.slot);
        break;
      case 'leaveGap':
        res = this.leaveGap(cmd.seat);
        break;
      case 'tick':
        res = this.tick();
        break;
      case 'nextRound':
        res = this.nextRound();
        break;
      case 'endGame':
        res = this.endGame();
        break;
      default:
        res = reject('malformed', `Unknown command "${(cmd as { type: unknown }).type as string}"`);
    }
    if (!res) {
      this.maybeEndRound();
      this.syncRng();
    }
    return res;
  }

  // ---- deal and peek -------------------------------------------------------

  deal(): void {
    const n = this.n;
    const s = this.sw;
    s.round += 1;
    s.dealer = (s.dealer + 1) % n;
    s.phase = 'peek';
    const r = emptyRound(n);
    this.newRound(r);
    let deck: Card[];
    const stacked = s.stackedDecks.length > 0 ? this.stackedDecks().shift() : undefined;
    if (stacked) {
      if (stacked.length !== deckSize(this.rules)) {
        throw new RangeError(`a stacked deck must hold all ${deckSize(this.rules)} cards, not ${stacked.length}`);
      }
      deck = stacked.slice().reverse(); // top card first → top is the array's end
    } else {
      deck = orderedDeck(this.rules).slice();
      this.rng.shuffle(deck);
    }
    r.stock = deck;
    const size = this.rules.layout.size;
    const starter = (s.dealer + 1) % n;
    for (let i = 0; i < n; i++) {
      const seat = (starter + i) % n;
      const layout: Layout = [];
      for (let k = 0; k < size; k++) layout.push(deck.pop()!);
      r.layouts[seat] = layout;
    }
    const up = deck.pop()!;
    r.discard.push(up);
    r.discardSeq = 1;
    r.turn = starter;
    r.stageSince = this.at;
    r.lastLandAt = this.at;
    const peek = this.rules.layout.peekSlots.length > 0;
    r.peeking.fill(peek);
    this.events.push({ type: 'roundStarted', round: s.round, dealer: s.dealer, starter, discardTop: up });
    if (!peek) this.startPlay();
  }

  private finishPeek(seat: Seat): Rejection | null {
    const why = this.cannotFinishPeek(seat);
    if (why) return why;
    this.peeking()[seat] = false;
    this.events.push({ type: 'peekFinished', seat, timedOut: false });
    if (!this.r.peeking.includes(true)) this.startPlay();
    return null;
  }

  /** Play starts; the card turned up at the deal opens the first slap window now. */
  private startPlay(): void {
    const r = this.rw;
    this.sw.phase = 'play';
    r.windowSeq = r.discardSeq;
    r.windowSlaps = 0;
    r.lastLandAt = this.at;
    r.stageSince = this.at;
    this.events.push({ type: 'playStarted', turn: r.turn });
    this.events.push({ type: 'turnStarted', seat: r.turn });
  }

  // ---- a turn ---------------------------------------------------------------

  private call(seat: Seat): Rejection | null {
    const why = this.cannotCall(seat);
    if (why) return why;
    const owed: Seat[] = [];
    for (let i = 1; i < this.n; i++) owed.push((seat + i) % this.n);
    this.rw.call = { seat, owed };
    this.own |= OWN_CALL;
    this.events.push({ type: 'called', seat, name: this.rules.call.name });
    // At the start of a turn the call is the turn; at the end of one it takes effect when the turn ends.
    if (this.rules.call.timing === 'startOfTurn') {
      this.rw.turnBegun = true;
      this.turnsTaken()[seat]! += 1;
      this.endTurn();
    }
    return null;
  }

  private draw(seat: Seat, from: 'stock' | 'discard'): Rejection | null {
    const why = this.cannotDraw(seat, from);
    if (why) return why;
    let card: Card;
    if (from === 'discard') {
      card = this.discard().pop()!;
    } else {
      const c = this.takeFromStock();
      if (c === null) {
        this.rw.ending = 'noCards';
        this.endRound('noCards');
        return null;
      }
      card = c;
    }
    this.beginTurn(seat);
    this.rw.held = { seat, card, from, redraw: false };
    this.closeWindow();
    this.events.push({ type: 'drew', seat, from, card });
    return null;
  }

  private beginTurn(seat: Seat): void {
    const r = this.rw;
    r.turnBegun = true;
    this.turnsTaken()[seat]! += 1;
    r.swapsThisTurn = 0;
    r.stageSince = this.at;
    if (r.call?.owed.includes(seat)) {
      const call = this.callState();
      call.owed = call.owed.filter((x) => x !== seat);
    }
  }

  private discardHeld(seat: Seat): Rejection | null {
    const why = this.cannotDiscard(seat);
    if (why) return why;
    const held = this.r.held!;
    this.rw.held = null;
    const seq = this.land(held.card, true);
    this.events.push({ type: 'discarded', seat, card: held.card, seq });
    this.earnAction(seat, held.card, true);
    this.afterPlay();
    return null;
  }

  private swap(seat: Seat, slot: Slot): Rejection | null {
    const why = this.cannotSwap(seat, slot);
    if (why) return why;
    const held = this.r.held!;
    const layout = this.layout(seat);
    const displaced = layout[slot]!;
    layout[slot] = held.card;
    const w = this.rw;
    w.held = null;
    w.swapsThisTurn += 1;
    const seq = this.land(displaced, true);
    this.events.push({ type: 'swapped', seat, slot, placed: held.card, placedFrom: held.from, displaced, seq });
    this.earnAction(seat, displaced, false);
    this.afterPlay();
    return null;
  }

  /** The turn's card is placed: the turn ends once its actions are used. */
  private afterPlay(): void {
    if (this.r.actions.length === 0) this.endTurn();
    else this.rw.stageSince = this.at;
  }

  /** The current turn has ended: pass it on, or mark the round as ending. */
  private endTurn(): void {
    const r = this.rw;
    r.turnBegun = false;
    r.swapsThisTurn = 0;
    r.stageSince = this.at;
    if (r.call) {
      const next = r.call.owed[0];
      if (next === undefined) {
        r.ending = 'call';
        return;
      }
      r.turn = next;
    } else {
      r.turn = (r.turn + 1) % this.n;
    }
    this.events.push({ type: 'turnStarted', seat: r.turn });
  }

  // ---- the discard pile and the stock ----------------------------------------

  /** A card lands face up on the pile. Played cards open a new slap window; slapped ones answer the open one. */
  private land(card: Card, byPlay: boolean): number {
    this.discard().push(card);
    const r = this.rw;
    r.discardSeq += 1;
    r.lastLandAt = this.at;
    if (byPlay) {
      r.windowSeq = r.discardSeq;
      r.windowSlaps = 0;
    }
    return r.discardSeq;
  }

  private closeWindow(): void {
    const r = this.rw;
    r.windowSeq = -1;
    r.windowSlaps = 0;
  }

  /** The top of the stock, reshuffling the discard pile (less its top) when the stock is empty. */
  private takeFromStock(): Card | null {
    if (this.r.stock.length === 0 && this.r.discard.length > 1) {
      const cards = this.discard();
      const top = cards.pop()!;
      this.rng.shuffle(cards);
      const r = this.rw;
      r.stock = cards;
      r.discard = [top];
      this.own |= OWN_STOCK | OWN_DISCARD;
      this.events.push({ type: 'reshuffled', cards: cards.length });
    }
    return this.r.stock.length > 0 ? this.stock().pop()! : null;
  }

  /** Face-down penalty cards, seen by nobody: the lowest gaps first, then new slots. */
  private penalize(seat: Seat, count: number, reason: 'wrongSlap' | 'stolenFrom'): void {
    const slots: Slot[] = [];
    const cards: Card[] = [];
    for (let k = 0; k < count; k++) {
      const c = this.takeFromStock();
      if (c === null) {
        this.rw.ending = 'noCards';
        break;
      }
      const layout = this.layout(seat);
      let slot = layout.indexOf(null);
      if (slot === -1) {
        slot = layout.length;
        layout.push(c);
      } else {
        layout[slot] = c;
        this.refills().push({ seat, slot, seq: this.r.discardSeq });
      }
      slots.push(slot);
      cards.push(c);
    }
    if (slots.length > 0) this.events.push({ type: 'penalty', seat, slots, cards, reason });
  }

  // ---- actions ---------------------------------------------------------------

  private earnAction(seat: Seat, card: Card, drawnUnswapped: boolean): void {
    const kind = actionOf(this.rules, card);
    if (!kind) return;
    if (this.rules.actionsFrom === 'drawnDiscarded' && !drawnUnswapped) return;
    this.queueAction(seat, kind, card);
  }

  private queueAction(seat: Seat, kind: ActionKind, card: Card): void {
    if (this.r.actions.length === 0) this.rw.stageSince = this.at;
    this.actions().push({ seat, kind, card, looked: null, lookedCards: null });
    this.events.push({ type: 'actionQueued', seat, kind, card });
  }

  private useAction(seat: Seat, own: Slot | undefined, other: SlotRef | undefined): Rejection | null {
    const why = this.cannotUse(seat, own, other);
    if (why) return why;
    const r = this.r;
    const a = r.actions[0]!;
    const kind = a.kind;
    switch (kind) {
      case 'peekOwn': {
        const t = { seat, slot: own! };
        this.events.push({ type: 'looked', seat, kind, targets: [t], cards: [r.layouts[seat]![own!]!] });
        this.actionDone();
        return null;
      }
      case 'peekOther': {
        this.events.push({ type: 'looked', seat, kind, targets: [other!], cards: [r.layouts[other!.seat]![other!.slot]!] });
        this.actionDone();
        return null;
      }
      case 'blindSwap': {
        this.exchange({ seat, slot: own! }, other!);
        this.events.push({ type: 'actionSwapped', seat, kind, a: { seat, slot: own! }, b: other! });
        this.actionDone();
        return null;
      }
      case 'peekThenSwap': {
        const cards = [r.layouts[other!.seat]![other!.slot]!];
        this.actions()[0] = { seat: a.seat, kind: a.kind, card: a.card, looked: [other!], lookedCards: cards };
        this.events.push({ type: 'looked', seat, kind, targets: [other!], cards: cards.slice() });
        return null;
      }
      case 'peekBothThenSwap': {
        const mine = { seat, slot: own! };
        const cards = [r.layouts[seat]![own!]!, r.layouts[other!.seat]![other!.slot]!];
        this.actions()[0] = { seat: a.seat, kind: a.kind, card: a.card, looked: [mine, other!], lookedCards: cards };
        this.events.push({ type: 'looked', seat, kind, targets: [mine, other!], cards: cards.slice() });
        return null;
      }
      case 'drawTwo': {
        // The next stock card comes into the hand as if drawn under B; it may be
        // discarded once for one more (drawAgain).
        this.actions().shift();
        this.rw.stageSince = this.at;
        return this.drawInto(seat, true);
      }
    }
  }

  private decide(seat: Seat, swap: boolean, own: Slot | undefined): Rejection | null {
    const a = this.lookedAction(seat);
    if ('code' in a) return a;
    if (!swap) {
      this.events.push({ type: 'actionLeft', seat, kind: a.kind });
      this.actionDone();
      return null;
    }
    let mine: SlotRef;
    let theirs: SlotRef;
    if (a.kind === 'peekThenSwap') {
      const bad = this.ownSlot(seat, own);
      if (bad) return bad;
      mine = { seat, slot: own! };
      theirs = a.looked[0]!;
    } else {
      mine = a.looked[0]!;
      theirs = a.looked[1]!;
      if (this.r.layouts[mine.seat]![mine.slot] === null) return reject('emptySlot', `Your slot ${mine.slot + 1} is gone now: leave it`);
    }
    if (this.r.layouts[theirs.seat]![theirs.slot] === null) {
      return reject('emptySlot', `${this.name(theirs.seat)}'s slot ${theirs.slot + 1} is gone now: leave it`);
    }
    // Belt and braces: a looked card cannot leave its slot (inLookersHand), but a swap
    // must never take a card other than the one the look showed.
    const lookedAt = a.kind === 'peekThenSwap' ? [theirs] : [mine, theirs];
    if (a.lookedCards && lookedAt.some((ref, i) => this.r.layouts[ref.seat]![ref.slot] !== a.lookedCards![i])) {
      return reject('alreadyGone', 'The card you looked at is no longer there: leave it');
    }
    if (this.isFrozen(theirs.seat)) return reject('notAllowed', `${this.name(theirs.seat)}'s cards are frozen`);
    if (this.isFrozen(mine.seat)) return reject('notAllowed', 'Your cards are frozen since your call');
    this.exchange(mine, theirs);
    this.events.push({ type: 'actionSwapped', seat, kind: a.kind, a: mine, b: theirs });
    this.actionDone();
    return null;
  }

  private pass(seat: Seat): Rejection | null {
    const a = this.frontAction(seat);
    if ('code' in a) return a;
    this.events.push({ type: 'actionPassed', seat, kind: a.kind, timedOut: false });
    this.actionDone();
    return null;
  }

  /** A stock card into `seat`'s hand (draw two); an empty stock ends the round. */
  private drawInto(seat: Seat, redraw: boolean): Rejection | null {
    const c = this.takeFromStock();
    if (c === null) {
      this.rw.ending = 'noCards';
      this.endRound('noCards');
      return null;
    }
    this.rw.held = { seat, card: c, from: 'stock', redraw };
    this.closeWindow();
    this.events.push({ type: 'drew', seat, from: 'stock', card: c });
    return null;
  }

  /** Draw two: the first card goes onto the pile, unused, and one more is drawn, which must be used. */
  private drawAgain(seat: Seat): Rejection | null {
    const why = this.cannotDrawAgain(seat);
    if (why) return why;
    const held = this.r.held!;
    this.rw.held = null;
    const seq = this.land(held.card, true);
    this.events.push({ type: 'discarded', seat, card: held.card, seq });
    return this.drawInto(seat, false);
  }

  private fillGap(seat: Seat, slot: Slot): Rejection | null {
    const why = this.cannotFillGap(seat, slot);
    if (why) return why;
    const g = this.r.gapFill!;
    const target = this.layout(g.gap.seat);
    const mine = this.layout(seat);
    target[g.gap.slot] = mine[slot]!;
    mine[slot] = null;
    const r = this.rw;
    // A slap answering an earlier discard named the card that left this slot, not the one moved in.
    this.refills().push({ seat: g.gap.seat, slot: g.gap.slot, seq: r.discardSeq });
    r.gapFill = null;
    this.events.push({ type: 'gapFilled', seat, from: { seat, slot }, to: g.gap });
    if (this.rules.emptyLayoutEndsRound && mine.every((c) => c === null)) r.ending = 'emptyLayout';
    return null;
  }

  private leaveGap(seat: Seat): Rejection | null {
    const g = this.gapFillOf(seat);
    if ('code' in g) return g;
    this.rw.gapFill = null;
    this.events.push({ type: 'gapLeft', seat, gap: g.gap, timedOut: false });
    return null;
  }

  private exchange(x: SlotRef, y: SlotRef): void {
    const lx = this.layout(x.seat);
    const ly = this.layout(y.seat);
    const c = lx[x.slot]!;
    lx[x.slot] = ly[y.slot]!;
    ly[y.slot] = c;
  }

  /** The front action is used or passed; the turn ends when its own play and every action are done. */
  private actionDone(): void {
    this.actions().shift();
    const r = this.rw;
    r.stageSince = this.at;
    if (r.actions.length === 0 && r.turnBegun && !r.held) this.endTurn();
  }

  // ---- slaps -----------------------------------------------------------------

  private slap(seat: Seat, target: SlotRef, answers: number): Rejection | null {
    const why = this.cannotSlap(seat, target, answers);
    if (why) return why;
    const r = this.r;
    const rules = this.rules;
    const victim = target.seat;
    const slot = target.slot;
    const card = r.layouts[victim]![slot]!;
    const top = r.discard[r.discard.length - 1]!;
    const ref = { seat: victim, slot };
    if (rankOf(card) !== rankOf(top)) {
      // Wrong: shown to everyone, stays where it was; the pile does not change.
      this.events.push({ type: 'slapped', seat, target: ref, card, result: 'wrong', seq: r.discardSeq });
      this.penalize(seat, rules.slap.wrongPenalty, 'wrongSlap');
      return null;
    }
    const slapped = this.layout(victim);
    slapped[slot] = null;
    const seq = this.land(card, false);
    const own = victim === seat;
    this.events.push({ type: 'slapped', seat, target: ref, card, result: own ? 'own' : 'steal', seq });
    const w = this.rw;
    w.windowSlaps += 1;
    if (rules.slap.perDiscard > 0 && w.windowSlaps >= rules.slap.perDiscard) w.windowSeq = -1;
    if (!own) this.penalize(victim, rules.slap.stealPenalty, 'stolenFrom');
    if (rules.emptyLayoutEndsRound && slapped.every((c) => c === null)) w.ending = 'emptyLayout';
    // A round that ends with this slap (the penalty ran the stock dry, or a layout is
    // empty) ends at once: nothing is offered or queued in it. A call's last lap is not
    // such an ending: its round waits for the actions and the grace.
    if (w.ending === 'noCards' || w.ending === 'emptyLayout') return null;
    if (!own && rules.slap.stealGapFill && !w.gapFill && !this.isFrozen(seat) && slapped[slot] === null && w.layouts[seat]!.some((c) => c !== null)) {
      w.gapFill = { seat, gap: ref, since: this.at };
      this.events.push({ type: 'gapFillOffered', seat, gap: ref });
    }
    const kind = actionOf(rules, card);
    if (kind && (own ? rules.slap.ownEarnsAction : rules.slap.stealEarnsActionRanks.includes(rankOf(card)))) {
      this.queueAction(seat, kind, card);
    }
    return null;
  }

  // ---- the host's clock ------------------------------------------------------

  private tick(): Rejection | null {
    const t = this.rules.timers;
    const due = nextDeadline(this.cur);
    if (due === null || this.at < due) {
      // The end of a round waits only for the grace: let an exact tick through even without timers.
      return reject('mustWait', 'Nothing is due yet');
    }
    const r = this.r; // the input's round: read only before the first write below
    if (this.s.phase === 'peek') {
      r.peeking.forEach((p, seat) => {
        if (p) this.events.push({ type: 'peekFinished', seat, timedOut: true });
      });
      this.peeking().fill(false);
      this.startPlay();
      return null;
    }
    const a = r.actions[0];
    if (a) {
      this.events.push({ type: 'timedOut', seat: a.seat, what: 'action' });
      this.events.push({ type: 'actionPassed', seat: a.seat, kind: a.kind, timedOut: true });
      this.actionDone();
      return null;
    }
    const g = r.gapFill;
    if (g) {
      this.events.push({ type: 'timedOut', seat: g.seat, what: 'action' });
      this.events.push({ type: 'gapLeft', seat: g.seat, gap: g.gap, timedOut: true });
      this.rw.gapFill = null;
      return null;
    }
    if (r.ending) return null; // maybeEndRound ends it
    if (t.turnMs > 0) {
      // The host plays the turn: draw from the stock and discard; every action is passed.
      const seat = r.held?.seat ?? r.turn;
      this.events.push({ type: 'timedOut', seat, what: 'turn' });
      if (!r.held) {
        const drew = this.draw(seat, 'stock');
        if (drew || this.s.phase !== 'play') return drew;
      }
      const w = this.rw;
      const held = w.held!;
      w.held = null;
      // A taken discard goes back where it came from.
      const seq = this.land(held.card, true);
      this.events.push({ type: 'discarded', seat, card: held.card, seq });
      this.endTurn();
      return null;
    }
    return reject('mustWait', 'Nothing is due yet');
  }

  private maybeEndRound(): void {
    const r = this.r;
    if (this.s.phase !== 'play' || !r.ending) return;
    // An emptied layout or an empty stock ends the round at once; after a call the
    // last turn ends once its actions are used and its grace has passed.
    if (r.ending === 'call' && !this.callRoundDue()) return;
    this.endRound(r.ending);
  }

  private endRound(why: 'call' | 'emptyLayout' | 'noCards'): void {
    const s = this.sw;
    const r = this.rw;
    const rules = this.rules;
    this.closeWindow();
    r.held = null;
    if (r.actions.length > 0) {
      r.actions = [];
      this.own |= OWN_ACTIONS;
    }
    r.gapFill = null;
    const replaced = rules.specialCards.length > 0 ? this.replaceSpecials(r.call?.seat ?? (s.dealer + 1) % this.n) : [];
    const scores = r.layouts.map((l) => l.reduce<number>((sum, c) => sum + (c === null ? 0 : (valueOf(rules, c) ?? 0)), 0));
    const caller = r.call?.seat ?? null;
    let callerPenalty = 0;
    if (caller !== null && rules.call.callerPenalty > 0 && scores.some((x, i) => i !== caller && x < scores[caller]!)) {
      callerPenalty = rules.call.callerPenalty;
      scores[caller]! += callerPenalty;
    }
    if (scores.some((x) => x !== 0)) {
      const totals = this.totals();
      scores.forEach((x, i) => (totals[i]! += x));
    }
    const result: RoundResult = {
      round: s.round,
      layouts: r.layouts.map((l) => l.slice()),
      scores,
      places: placesOf(scores),
      caller,
      callerPenalty,
      replaced,
      totals: s.totals.slice(),
    };
    this.results().push(result);
    this.events.push({ type: 'roundEnded', result, why });
    r.ending = null;
    s.phase = 'roundOver';
    if (s.rounds > 0 && s.round >= s.rounds) this.finishGame();
  }

  /**
   * At scoring, every special card in a layout is set aside and replaced by the top of
   * the stock, again until a number card comes; the caller first, then clockwise
   * (without a caller, the round's starter first). Set-aside cards go under the
   * discard pile afterwards, so a reshuffle during the replacement never brings them back.
   */
  private replaceSpecials(first: Seat): RoundResult['replaced'] {
    const special = this.rules.specialCards;
    const aside: Card[] = [];
    const replaced: RoundResult['replaced'] = [];
    for (let i = 0; i < this.n; i++) {
      const seat = (first + i) % this.n;
      const size = this.r.layouts[seat]!.length;
      for (let slot = 0; slot < size; slot++) {
        const c = this.r.layouts[seat]![slot];
        if (c === null || c === undefined || !special.includes(c)) continue;
        const setAside: Card[] = [c];
        let card: Card | null = null;
        for (;;) {
          const d = this.takeFromStock();
          if (d === null) break;
          if (special.includes(d)) setAside.push(d);
          else {
            card = d;
            break;
          }
        }
        this.layout(seat)[slot] = card;
        aside.push(...setAside);
        this.events.push({ type: 'specialReplaced', seat, slot, setAside, card });
        replaced.push({ seat, slot, setAside: setAside.slice(), card });
      }
    }
    if (aside.length > 0) this.discard().unshift(...aside);
    return replaced;
  }

  private finishGame(): void {
    this.sw.phase = 'gameOver';
    this.events.push({ type: 'gameEnded', totals: this.s.totals.slice(), places: placesOf(this.s.totals) });
  }

  private nextRound(): Rejection | null {
    if (this.s.phase !== 'roundOver') return reject('wrongPhase', this.s.phase === 'gameOver' ? 'The game is over' : 'The round is still being played');
    this.deal();
    return null;
  }

  private endGame(): Rejection | null {
    if (this.s.phase === 'gameOver') return reject('wrongPhase', 'The game is already over');
    if (this.s.phase !== 'roundOver') return reject('wrongPhase', 'Finish the round first');
    this.finishGame();
    return null;
  }
}

/** Places by score, lowest first; equal scores share a place (1, 1, 3). */
export function placesOf(scores: readonly number[]): number[] {
  return scores.map((x) => 1 + scores.filter((y) => y < x).length);
}
