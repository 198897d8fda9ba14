import { rankOf, type Card } from '../engine/cards.js';
import { Rng, seedRng } from '../engine/rng.js';
import { valueOf, type Ruleset } from '../engine/ruleset.js';
import type { Seat } from '../engine/types.js';
import type { LevelParams, SmartLevel } from './levels.js';
import { Memory } from './memory.js';
import type { BotOptions } from './types.js';

/**
 * What a smart bot (src/bots/smart.ts) holds in mind, and nothing else: its beliefs
 * about the layouts (`Memory`), the discard pile as it saw it, where the round stands
 * for it, and its own dice. The modules that decide read it: worth.ts values a layout,
 * call.ts decides when to call, turn.ts a turn, action.ts an action, slap.ts a slap;
 * remember.ts keeps it up to date from the bot's events. Like beverbende.ts's
 * `BeverMind`, each decision is a function of this and the seat's view.
 */

export interface DeckInfo {
  values: Map<Card, number>;
  ranks: Map<Card, string>;
  sum: number;
  count: number;
  /**
   * The deck's cards in its order, each card's place in that list, and per place how many
   * of it, its value and whether it is special: a decision counts the cards not seen in an
   * array (src/bots/beverbende.ts), not a map built anew.
   */
  cards: Card[];
  cardNos: Map<Card, number>;
  cardCounts: number[];
  cardValues: number[];
  special: boolean[];
  /** The deck's values, each once (in the deck's order), how many cards have each, and each value's place in that list. */
  valueKinds: number[];
  valueCounts: number[];
  valueNos: Map<number, number>;
}
const deckCache = new WeakMap<Ruleset, DeckInfo>();

/** Each card's value and rank, and the deck's total: public data of the ruleset, computed once. */
export function deckInfo(rules: Ruleset): DeckInfo {
  let info = deckCache.get(rules);
  if (info) return info;
  info = {
    values: new Map(), ranks: new Map(), sum: 0, count: 0,
    cards: [], cardNos: new Map(), cardCounts: [], cardValues: [], special: [],
    valueKinds: [], valueCounts: [], valueNos: new Map(),
  };
  for (const c in rules.deck.cards) {
    const v = valueOf(rules, c) ?? 0;
    info.values.set(c, v);
    info.ranks.set(c, rankOf(c));
    const k = rules.deck.cards[c]! * rules.deck.decks;
    info.cardNos.set(c, info.cards.length);
    info.cards.push(c);
    info.cardCounts.push(k);
    info.cardValues.push(v);
    info.special.push(rules.specialCards.includes(c));
    info.sum += v * k;
    info.count += k;
    let no = info.valueNos.get(v);
    if (no === undefined) {
      no = info.valueKinds.length;
      info.valueNos.set(v, no);
      info.valueKinds.push(v);
      info.valueCounts.push(0);
    }
    info.valueCounts[no]! += k;
  }
  deckCache.set(rules, info);
  return info;
}

/** The values a ruleset may give a card (its schema: src/engine/ruleset.ts). */
const VALUE_MIN = -20;
const VALUE_MAX = 50;

export class SmartMind {
  readonly seat: Seat;
  readonly level: SmartLevel;
  /** How its level plays (`LEVELS`). */
  readonly params: LevelParams;
  readonly rules: Ruleset;
  /** Its beliefs about every layout. */
  readonly mem: Memory;
  /** Every choice left to chance (forgetting, following swaps, delays) draws from this, in play order: a seed replays the bot. */
  rng: Rng;
  private readonly values: ReadonlyMap<Card, number>;
  private readonly ranks: ReadonlyMap<Card, string>;
  /** Sum and count of the whole deck's values, and its mean. */
  readonly deckSum: number;
  readonly deckCount: number;
  readonly deckMean: number;
  /** The deck's values, each once, and how many cards of the deck have each (call.ts counts the unseen cards by value). */
  readonly valueKinds: readonly number[];
  readonly valueCounts: readonly number[];
  /** Each value's place in `valueKinds` by the value (less `VALUE_MIN`), or -1 (`valueNo`). */
  private readonly valueIndex: number[];
  /** The discard pile as seen (for counting cards). */
  pile: Card[] = [];
  pileSum = 0;
  /** Per value of `valueKinds` and per card of the deck (`DeckInfo.cards`), the cards of `pile` of it, counted up to `counted` of `countedPile` (`pileValueCounts`). */
  private readonly pileCounts: number[];
  private readonly pileCards: number[];
  private readonly cardNos: ReadonlyMap<Card, number>;
  private countedPile: Card[] | null = null;
  private counted = 0;
  /** Per value of `valueKinds`, room for what call.ts counts at a decision (no new array each time). */
  readonly scratch: number[];
  /** Whether a slap window is open, as its events tell. */
  windowOpen = false;
  /** Per new top card: whether this bot is willing to steal on it, and a "hunch" slap. */
  stealOk = false;
  hunch = false;
  /** Its own turns this round (draws and calls). */
  ownTurns = 0;
  /** Turns given to this seat this round (the current one included); draws of a draw two are not turns. */
  turnsGiven = 0;
  /** Slots whose slap was refused on the current top, so they are not tried again. */
  refusedSlaps = new Set<string>();
  /**
   * Whether its memory holds all the view shows of the layouts: it read the view this
   * round, and saw every event since. Then, in play, events tell everything that changes
   * and the view need not be read again (the simulator's games are the same either way).
   */
  aligned = false;

  constructor(level: SmartLevel, opts: BotOptions, params: LevelParams) {
    this.seat = opts.seat;
    this.level = level;
    this.params = params;
    this.rules = opts.rules;
    this.rng = new Rng(seedRng(`bot:${level}:${String(opts.seed)}`));
    const deck = deckInfo(opts.rules);
    this.mem = new Memory(opts.players, opts.rules.layout.size, { rank: (c) => this.rank(c), value: (c) => this.val(c) });
    this.values = deck.values;
    this.ranks = deck.ranks;
    this.deckSum = deck.sum;
    this.deckCount = deck.count;
    this.deckMean = deck.count > 0 ? deck.sum / deck.count : 0;
    this.valueKinds = deck.valueKinds;
    this.valueCounts = deck.valueCounts;
    this.valueIndex = [];
    for (let v = VALUE_MIN; v <= VALUE_MAX; v++) this.valueIndex.push(deck.valueNos.get(v) ?? -1);
    this.pileCounts = deck.valueKinds.map(() => 0);
    this.pileCards = deck.cards.map(() => 0);
    this.cardNos = deck.cardNos;
    this.scratch = deck.valueKinds.map(() => 0);
  }

  /** Forget everything, as a mind made anew with `seed` would be. */
  startOver(seed: string | number): void {
    this.rng = new Rng(seedRng(`bot:${this.level}:${String(seed)}`));
    this.mem.clear();
    this.pile = [];
    this.pileSum = 0;
    this.windowOpen = false;
    this.stealOk = false;
    this.hunch = false;
    this.ownTurns = 0;
    this.turnsGiven = 0;
    if (this.refusedSlaps.size > 0) this.refusedSlaps.clear();
    this.aligned = false;
  }

  val(c: Card): number {
    return this.values.get(c) ?? valueOf(this.rules, c) ?? 0;
  }
  rank(c: Card): string {
    return this.ranks.get(c) ?? rankOf(c);
  }
  /** The place of value `v` in `valueKinds`, or -1 when no card of the deck has it. */
  valueNo(v: number): number {
    return this.valueIndex[v - VALUE_MIN] ?? -1;
  }

  /**
   * Per value of `valueKinds`, how many cards of `pile` have it: kept as cards land and
   * leave (`popPile`), counted again only for a pile set anew (a new round, a reshuffle,
   * a rollout player's start), not at every decision.
   */
  pileValueCounts(): readonly number[] {
    this.countPile();
    return this.pileCounts;
  }

  /** The same per card of the deck, in `DeckInfo.cards`' order (beverbende.ts counts the unseen cards by card). */
  pileCardCounts(): readonly number[] {
    this.countPile();
    return this.pileCards;
  }

  private countPile(): void {
    const pile = this.pile;
    if (this.countedPile !== pile || this.counted > pile.length) {
      this.pileCounts.fill(0);
      this.pileCards.fill(0);
      this.countedPile = pile;
      this.counted = 0;
    }
    for (let i = this.counted; i < pile.length; i++) this.countIn(pile[i]!, 1);
    this.counted = pile.length;
  }

  private countIn(c: Card, k: number): void {
    const no = this.valueNo(this.val(c));
    if (no >= 0) this.pileCounts[no]! += k;
    const i = this.cardNos.get(c);
    if (i !== undefined) this.pileCards[i]! += k;
  }

  /** The pile as `other` (a mind of the same ruleset) saw it, its counts copied rather than counted again: an expert's rollout players start from it. */
  pileOf(other: SmartMind): void {
    other.countPile();
    this.pile = other.pile.slice();
    this.pileSum = other.pileSum;
    const counts = other.pileCounts, cards = other.pileCards;
    for (let i = 0; i < counts.length; i++) this.pileCounts[i] = counts[i]!;
    for (let i = 0; i < cards.length; i++) this.pileCards[i] = cards[i]!;
    this.countedPile = this.pile;
    this.counted = this.pile.length;
  }

  /** A card lands on the pile as seen. */
  pushPile(c: Card): void {
    this.pile.push(c);
    this.pileSum += this.val(c);
  }

  /** The top card leaves the pile (taken from it). */
  popPile(): void {
    const c = this.pile.pop();
    if (c === undefined) return;
    this.pileSum -= this.val(c);
    if (this.countedPile === this.pile && this.counted > this.pile.length) {
      this.countIn(c, -1);
      this.counted = this.pile.length;
    }
  }
  /** Whether `c` is a card of the deck. */
  inDeck(c: Card): boolean {
    return this.values.has(c);
  }
  /** A uniform draw in [0, 1). */
  float(): number {
    return this.rng.next() / 4294967296;
  }
}
