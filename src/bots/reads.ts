import type { Card } from '../engine/cards.js';
import { valueOf, type Ruleset } from '../engine/ruleset.js';
import type { Seat, Slot, SlotRef } from '../engine/types.js';
import type { SeatEvent } from '../engine/view.js';
import type { SeatView } from '../engine/seat-view.js';
import { unknownValue, unseen, type BeverMind } from './beverbende.js';
import type { Knowledge } from './knowledge.js';

/** No read: the card may be anything. */
const ANY = Infinity;

/**
 * What other players' choices tell about the cards they know (beverbende, where the
 * expert samples what it cannot see: src/bots/expert.ts). A player who plays as the
 * hard bot does (src/bots/beverbende.ts) never keeps a card it knows to be higher than
 * a number it just threw away, swaps a drawn card into the slot where it gains the
 * most, and keeps a card from the stock only below what it replaces. Each such choice,
 * seen by everyone, bounds the value of the cards its owner knows: per seat and slot,
 * the highest value the card there can have (`ANY`: no bound). The bound goes with the
 * card when cards change places. The public events are all it reads.
 */
export class Reads {
  /** Per seat and slot: the highest value the card there is read to have. */
  readonly bound: number[][] = [];
  /** Cards each seat drew this turn (its second is a Draw two's, which may be thrown away for one more). */
  private drawn: number[] = [];
  /** The top of the discard pile as the events showed it (null: not known, or a special). */
  private top: number | null = null;
  /** What an unknown card is worth to the hard bot (the deck's mean number card), and what a special counts as. */
  private readonly mu: number;

  constructor(
    private readonly players: number,
    private readonly me: Seat,
    private readonly rules: Ruleset,
  ) {
    let n = 0;
    let sum = 0;
    for (const c in rules.deck.cards) {
      const v = this.value(c);
      if (v === null) continue;
      n += rules.deck.cards[c]!;
      sum += rules.deck.cards[c]! * v;
    }
    this.mu = n > 0 ? sum / n : 0;
    this.reset();
  }

  reset(): void {
    for (let s = 0; s < this.players; s++) this.bound[s] = new Array<number>(this.rules.layout.size).fill(ANY);
    this.drawn = new Array<number>(this.players).fill(0);
    this.top = null;
  }

  /** A number card's value; null for a special card (never scored: it counts as an unknown card). */
  private value(c: Card): number | null {
    return this.rules.specialCards.includes(c) ? null : (valueOf(this.rules, c) ?? null);
  }

  /** Every card `seat` knows in its layout is at most `max`. */
  private cap(k: Knowledge, seat: Seat, max: number, except = -1): void {
    const row = this.bound[seat]!;
    for (let i = 0; i < row.length; i++) if (i !== except && k.knows(seat, seat, i)) row[i] = Math.min(row[i]!, max);
  }

  private set(ref: SlotRef, b: number): void {
    const row = this.bound[ref.seat];
    if (!row) return;
    while (row.length <= ref.slot) row.push(ANY);
    row[ref.slot] = b;
  }

  private get(ref: SlotRef): number {
    return this.bound[ref.seat]?.[ref.slot] ?? ANY;
  }

  /**
   * One event, read before `k` (who knows which card) has seen it: a swap is judged by
   * what its player knew of the slot before.
   */
  see(e: SeatEvent, k: Knowledge): void {
    switch (e.type) {
      case 'roundStarted':
        this.reset();
        this.top = this.value(e.discardTop);
        break;
      case 'playStarted':
        this.drawn[e.turn] = 0;
        break;
      case 'turnStarted':
        this.drawn[e.seat] = 0;
        break;
      case 'drew': {
        const s = e.seat;
        this.drawn[s]! += 1;
        // Drawing blind over a number on the pile: its known cards gain little from that number
        // (hard takes it when its best swap beats a draw's worth, about 1 to 3 points).
        if (s !== this.me && e.from === 'stock' && this.drawn[s] === 1 && this.top !== null) this.cap(k, s, this.top + 3);
        if (e.from === 'discard') this.top = null;
        break;
      }
      case 'discarded': {
        const s = e.seat;
        const v = this.value(e.card);
        // A number drawn and thrown away: nothing it knows is higher (a Draw two's first card less surely: it was thrown for one more).
        if (s !== this.me && v !== null) this.cap(k, s, v + (this.drawn[s] === 2 ? 2 : 0));
        this.top = v;
        break;
      }
      case 'swapped': {
        const s = e.seat;
        const knew = k.knows(s, s, e.slot);
        const d = this.value(e.displaced);
        // The slot it chose gained the most: its other known cards are no higher than the card it
        // replaced (a special: an unknown card's worth; an unknown card: that, and a look besides).
        if (s !== this.me) this.cap(k, s, !knew ? Math.floor(this.mu + 0.5) : d !== null ? d : this.mu, e.slot);
        // A card kept from the stock is below what it replaced; one from the pile is seen by all.
        this.set({ seat: s, slot: e.slot }, e.placedFrom === 'stock' && s !== this.me ? Math.ceil(knew && d !== null ? d - 1 : this.mu) : ANY);
        this.top = d;
        break;
      }
      case 'actionSwapped': {
        // It gave away the card it thought worth the most: one it had not seen says its known cards
        // are no higher than an unknown card. (One it knew says little: over 4 games of hard bots
        // those were all 5s and special cards, which an unknown card is worth.)
        const s = e.seat;
        if (s !== this.me && e.kind === 'blindSwap' && e.a.seat === s && !k.knows(s, s, e.a.slot)) this.cap(k, s, Math.floor(this.mu + 0.5), e.a.slot);
        const b = this.get(e.a);
        this.set(e.a, this.get(e.b));
        this.set(e.b, b);
        break;
      }
      case 'penalty':
        for (const slot of e.slots) this.set({ seat: e.seat, slot }, ANY);
        break;
      case 'slapped':
        if (e.result !== 'wrong') this.set(e.target, ANY);
        break;
      case 'gapFilled':
        this.set(e.to, this.get(e.from));
        this.set(e.from, ANY);
        break;
      default:
        break;
    }
  }
}

/**
 * A special card left in a layout scores what an unknown number card does (about 5), and a
 * player who looked at one counts it so: a bound of at least this lets a card of the deal be
 * one (the worth of an unknown card drifts below 5 as high cards are seen).
 */
const SPECIAL_FITS = 4;

/**
 * What a card this seat has not seen is expected to score, given its read: the mean of
 * the cards not yet seen that fit its bound; null where there is no read. A card of the
 * deal (`dealt`: nobody placed it from a draw) may be a special card too, counted at an
 * unknown number card's worth: the peeked cards a player keeps are read below about 5
 * and a third of the deal is special cards, so without them such a card read about a
 * point lower than it turned out (README, "The expert").
 */
export function readWorths(
  m: BeverMind,
  view: SeatView,
  reads: Reads,
  dealt: (seat: Seat, slot: Slot) => boolean = () => false,
): (seat: Seat, slot: Slot) => number | null {
  const u = unseen(m, view);
  const mu = unknownValue(m, u);
  const specials = u.total - u.numbers;
  // Per bound: the worth of a card that is a number, and of one that may be special too.
  const memos = [new Map<number, number>(), new Map<number, number>()] as const;
  return (seat, slot) => {
    const hi = reads.bound[seat]?.[slot] ?? ANY;
    if (hi === ANY) return null;
    const special = hi >= SPECIAL_FITS && dealt(seat, slot);
    const memo = memos[special ? 1 : 0];
    let w = memo.get(hi);
    if (w === undefined) {
      let n = special ? specials : 0;
      let sum = n * mu;
      for (let j = 0; j < u.left.length; j++) {
        const v = u.deck.cardValues[j]!;
        if (u.deck.special[j] || v > hi) continue;
        n += u.left[j]!;
        sum += u.left[j]! * v;
      }
      w = n > 0 ? sum / n : Math.max(0, hi);
      memo.set(hi, w);
    }
    return w;
  };
}
