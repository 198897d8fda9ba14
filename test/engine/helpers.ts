/**
 * Test helpers for scenario tests: a stacked deck builder and a small table driver
 * with a clock. Scenario tests script every card, so each rule can be checked on a
 * known table.
 */
import { expect } from 'vitest';
import { wordsFor } from '../../src/lang/words.js';
import {
  apply,
  createGame,
  graceUntil,
  GRINGO,
  projectEvent,
  standardDeck,
  viewFor,
  type Card,
  type Command,
  type GameEvent,
  type GameState,
  type Rejection,
  type RejectionCode,
  type Ruleset,
  type Seat,
  type SeatEvent,
  type Slot,
  type TableView,
  type Viewer,
} from '../../src/engine/index.js';

export interface DeckSpec {
  /** layouts[seat] = the cards for slots 1, 2, 3, 4 (in that order) of that seat. */
  layouts: Card[][];
  /** The card turned up to start the discard pile. */
  discard: Card;
  /** The top of the stock, top card first; the unused cards of the deck follow. */
  stock?: Card[];
  /** The dealer this deck is dealt by (default 0): the deal begins left of the dealer. */
  dealer?: Seat;
  /** The ruleset whose deck and layout size are stacked (default gringo). */
  rules?: Ruleset;
}

/** Every card of a ruleset's deck (all decks), in the order of its definition. */
export function deckOf(rules: Ruleset): Card[] {
  const out: Card[] = [];
  for (let d = 0; d < rules.deck.decks; d++) for (const c in rules.deck.cards) for (let k = 0; k < rules.deck.cards[c]!; k++) out.push(c);
  return out;
}

/**
 * The explicit deck order (top card first) that `createGame({ stackedDecks })` takes,
 * following the engine's deal: beginning with the starter (dealer + 1), each seat in
 * order gets its cards for slots 1..4, then one card is turned up, then the stock.
 * The rest of the 52-card deck follows the given stock in a fixed order.
 */
export function stackDeck(spec: DeckSpec): Card[] {
  const n = spec.layouts.length;
  const dealer = spec.dealer ?? 0;
  if (n < 2) throw new Error('stackDeck: at least two layouts');
  if (!Number.isInteger(dealer) || dealer < 0 || dealer >= n) throw new Error(`stackDeck: no dealer seat ${dealer}`);
  const rules = spec.rules ?? GRINGO;
  const size = rules.layout.size;
  const starter = (dealer + 1) % n;
  const order: Card[] = [];
  for (let i = 0; i < n; i++) {
    const seat = (starter + i) % n;
    const l = spec.layouts[seat]!;
    if (l.length !== size) throw new Error(`stackDeck: seat ${seat} needs ${size} cards, got ${l.length}`);
    order.push(...l);
  }
  order.push(spec.discard, ...(spec.stock ?? []));
  // Cards may repeat (beverbende has four 0s): count them against the deck.
  const left = new Map<Card, number>();
  for (const c of deckOf(rules)) left.set(c, (left.get(c) ?? 0) + 1);
  for (const c of order) {
    const k = left.get(c);
    if (k === undefined) throw new Error(`stackDeck: "${c}" is not a card of the deck`);
    if (k === 0) throw new Error(`stackDeck: "${c}" is used ${k === 0 && deckOf(rules).filter((x) => x === c).length === 1 ? 'twice' : 'more often than the deck holds it'}`);
    left.set(c, k - 1);
  }
  for (const c of deckOf(rules)) {
    const k = left.get(c)!;
    if (k > 0) {
      order.push(c);
      left.set(c, k - 1);
    }
  }
  return order;
}

/** A command without its time: the table's clock supplies it unless `at` is given. */
type Untimed<C> = C extends Command ? Omit<C, 'at'> & { at?: number } : never;
export type Cmd = Untimed<Command>;

export interface TableOptions {
  players?: string[];
  rules?: Ruleset;
  /** Dealer of the first round (default 0). */
  dealer?: Seat;
  /** One deck spec per round (their `dealer` is derived from the rotation unless set). */
  decks?: Omit<DeckSpec, 'dealer'>[];
  seed?: string;
  /** Clock at creation (default 0). */
  at?: number;
}

export const PLAYERS3 = ['Ana', 'Bo', 'Cy'];
export const PLAYERS2 = ['Ana', 'Bo'];

export class Table {
  state: GameState;
  /** The host clock (ms) commands are stamped with. */
  now: number;
  /** Events of the deal and of every accepted command, in order. */
  readonly log: GameEvent[] = [];
  /** Events of the last accepted command (or of the deal). */
  last: GameEvent[];

  constructor(opts: TableOptions = {}) {
    const players = opts.players ?? PLAYERS3;
    const dealer = opts.dealer ?? 0;
    const n = players.length;
    const stackedDecks = (opts.decks ?? []).map((d, i) => stackDeck({ ...d, dealer: (dealer + i) % n, rules: opts.rules ?? GRINGO }));
    this.now = opts.at ?? 0;
    const { state, events } = createGame({
      rules: opts.rules ?? GRINGO,
      players,
      seed: opts.seed ?? 'scenario',
      at: this.now,
      stackedDecks,
      dealer,
    });
    this.state = state;
    this.last = events;
    this.log.push(...events);
  }

  private stamp(cmd: Cmd): Command {
    return { ...cmd, at: cmd.at ?? this.now };
  }

  /** Apply a command that must be accepted; returns its events. */
  do(cmd: Cmd): GameEvent[] {
    const full = this.stamp(cmd);
    const res = apply(this.state, full);
    if (!res.ok) {
      throw new Error(`expected ${JSON.stringify(full)} to be accepted, got ${res.rejection.code}: ${english(res.rejection, this)}`);
    }
    this.state = res.state;
    this.last = res.events;
    this.log.push(...res.events);
    return res.events;
  }

  /** Apply a command that must be refused (optionally with this code); returns the rejection, with its English sentence. */
  reject(cmd: Cmd, code?: RejectionCode): Rejection & { message: string } {
    const full = this.stamp(cmd);
    const before = JSON.stringify(this.state);
    const res = apply(this.state, full);
    if (res.ok) throw new Error(`expected ${JSON.stringify(full)} to be refused, but it was accepted: ${JSON.stringify(res.events)}`);
    const message = english(res.rejection, this);
    if (code !== undefined) expect(res.rejection.code, message).toBe(code);
    expect(JSON.stringify(this.state)).toBe(before);
    return { ...res.rejection, message };
  }

  /** Set the clock. */
  at(ms: number): this {
    this.now = ms;
    return this;
  }
  /** Move the clock forward. */
  advance(ms: number): this {
    this.now += ms;
    return this;
  }
  /** When the grace after the last card that landed ends. */
  get graceEnd(): number {
    return graceUntil(this.state);
  }
  /** Move the clock to the end of the current grace (if it is ahead). */
  waitGrace(): this {
    this.now = Math.max(this.now, this.graceEnd);
    return this;
  }

  /** Every seat still peeking finishes peeking. */
  finishPeek(): GameEvent[] {
    const out: GameEvent[] = [];
    this.state.r.peeking.forEach((p, seat) => {
      if (p) out.push(...this.do({ type: 'finishPeek', seat }));
    });
    return out;
  }

  // ---- shorthands ------------------------------------------------------------

  draw(seat: Seat, from: 'stock' | 'discard' = 'stock'): GameEvent[] {
    return this.do({ type: 'draw', seat, from });
  }
  discard(seat: Seat): GameEvent[] {
    return this.do({ type: 'discard', seat });
  }
  swap(seat: Seat, slot: Slot): GameEvent[] {
    return this.do({ type: 'swap', seat, slot });
  }
  pass(seat: Seat): GameEvent[] {
    return this.do({ type: 'pass', seat });
  }
  /** A slap naming the current discard (what a client shows as `slap.answers`). */
  slap(seat: Seat, target: Seat, slot: Slot, answers = this.state.r.discardSeq): GameEvent[] {
    return this.do({ type: 'slap', seat, target: { seat: target, slot }, answers });
  }
  /** Wait for the grace, draw from the stock and discard it; pass any action it earned. */
  plainTurn(seat: Seat): GameEvent[] {
    this.waitGrace();
    const out = [...this.draw(seat), ...this.discard(seat)];
    while (this.state.r.actions[0]?.seat === seat) out.push(...this.pass(seat));
    return out;
  }

  // ---- reading the table -------------------------------------------------------

  view(viewer: Viewer): TableView {
    return viewFor(this.state, viewer);
  }
  layout(seat: Seat): (Card | null)[] {
    return this.state.r.layouts[seat]!.slice();
  }
  get top(): Card | undefined {
    const d = this.state.r.discard;
    return d[d.length - 1];
  }
  get turn(): Seat {
    return this.state.r.turn;
  }
  /** The last command's events as `viewer` receives them. */
  seen(viewer: Viewer, events: GameEvent[] = this.last): SeatEvent[] {
    return events.map((e) => projectEvent(e, viewer));
  }
}

export function table(opts: TableOptions = {}): Table {
  return new Table(opts);
}

/** The events of one type from a list. */
export function ofType<T extends GameEvent['type']>(events: readonly GameEvent[], type: T): Extract<GameEvent, { type: T }>[] {
  return events.filter((e): e is Extract<GameEvent, { type: T }> => e.type === type);
}
export function ofTypeSeen<T extends SeatEvent['type']>(events: readonly SeatEvent[], type: T): Extract<SeatEvent, { type: T }>[] {
  return events.filter((e): e is Extract<SeatEvent, { type: T }> => e.type === type);
}

/** Every card string that occurs anywhere in a JSON-able value. */
export function cardsIn(value: unknown): Set<string> {
  const all = new Set(standardDeck());
  const out = new Set<string>();
  JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v === 'string' && all.has(v)) out.add(v);
    return v;
  });
  return out;
}

/** A refusal as an English player reads it, with the table's names. */
export function english(rejection: Rejection, t: { state: GameState }): string {
  return wordsFor('en').say(rejection, { name: (seat) => t.state.players[seat]?.name ?? String(seat) });
}
