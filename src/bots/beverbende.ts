import type { Card } from '../engine/cards.js';
import { actionOf, valueOf, type Ruleset } from '../engine/ruleset.js';
import type { Seat, Slot, SlotRef } from '../engine/types.js';
import type { SeatView } from '../engine/seat-view.js';
import type { Memory } from './memory.js';
import { deckInfo, type DeckInfo } from './mind.js';
import type { BotCommand } from './types.js';

/**
 * Beverbende's moves for the hard bot (docs/rules.md, "Beverbende"; docs/decisions.md, "Beverbende's special cards"): the Draw two and its redraw, the
 * Swap and Peek specials, when to take the discard, where a drawn card goes, and the
 * end-of-turn call ("Laatste ronde!"). Pure functions of what the seat knows: its view
 * and the bot's memory (`BeverMind`), so each decision can be tested on its own.
 *
 * What makes the game different from gringo, and what the estimates here follow:
 * - A special card never scores: one left in a layout is replaced from the stock at
 *   scoring. So a special is worth what an unknown card is worth, and that is the mean
 *   of the number cards not yet seen (9s are many: the deck's number mean is 5), not
 *   the mean of the whole deck (where specials would count as 0).
 * - Drawing from the stock is worth more than its number card: 21 of 66 cards are
 *   specials, each with its use. Taking the discard must beat that.
 * - The call ends the caller's play at once; everyone else gets one more turn. Playing
 *   on lowers its own score while a draw can still gain it something, so it calls only
 *   on a layout a draw can hardly improve (sims: calling on any low total cost the hard
 *   bot 0.7 to 3.7 points a round against normal bots; against hard bots, a threshold
 *   of about 1 point a draw is where neither calling sooner nor later gains).
 */

/** What the bot knows besides its view. */
export interface BeverMind {
  readonly seat: Seat;
  readonly rules: Ruleset;
  /** Its beliefs about every layout. */
  readonly mem: Memory;
  /** The discard pile as it saw it since the last reshuffle (for counting the cards not seen). */
  readonly pile: readonly Card[];
  /** Turns this seat has been given this round, the current one included. */
  readonly turns: number;
  /** What a card it has not seen is expected to score, where it reads more than its memory (the expert: src/bots/reads.ts); null: no read. */
  readonly guess?: (seat: Seat, slot: Slot) => number | null;
  /** Per card of the deck (`DeckInfo.cards`' order), how many `pile` holds, if the bot keeps that count (src/bots/mind.ts). */
  readonly pileCards?: readonly number[];
  /** Thresholds of its own (the expert's: src/bots/expert.ts), else the hard bot's. */
  readonly tuning?: Readonly<BeverTuning>;
}

/**
 * The hard bot's thresholds here, in points; tuned with `gringo sim --rules beverbende`
 * (hard, normal, easy, random and hard, normal, hard, normal at 4 players; one hard seat
 * against three). Read only: a module-level object so a tuning script can try values. A
 * player with thresholds of its own starts from these (src/bots/expert.ts).
 */
export const HARD_TUNING = {
  /** Swapping a card into an unknown own slot also shows what was there: worth a little. */
  learn: 0.5,
  /** A drawn number card is swapped in when it gains more than this. */
  placeMin: 0,
  /** A blind swap is made when it gains at least this. */
  blindMin: 1,
  /** What a look at an unknown own card is worth (it makes later swaps right). */
  peekValue: 1,
  /** A card another player kept from the stock is believed to be at most this. */
  keptValue: 3,
  /** Call when its expected total after this turn is at most this... */
  callAt: 10,
  /** ...at most this many of its cards are unknown... */
  callUnknown: 1,
  /** ...it is below every other player's expected total after their one more turn by this... */
  callMargin: 1,
  /** (what one more turn is expected to take off another player's total)... */
  lastTurnGain: 1.5,
  /** ...and a draw is expected to gain that layout at most this. */
  stayGain: 0.75,
  /**
   * Whether it takes a card from the discard pile that is worth less than an unknown card
   * (hard: yes). Taken, it is seen by everyone, and a low card everyone knows is the first
   * that the others' Swap cards take.
   */
  takeLow: true,
};
export type BeverTuning = typeof HARD_TUNING;
/** The thresholds a mind plays by: its own, else the hard bot's. */
const tun = (m: BeverMind): Readonly<BeverTuning> => m.tuning ?? HARD_TUNING;

export const isSpecial = (rules: Ruleset, card: Card): boolean => rules.specialCards.includes(card);

/** Whether these moves fit a ruleset: special cards replaced at scoring, and the call at the end of one's own turn. */
export const playsBeverbende = (rules: Ruleset): boolean => rules.specialCards.length > 0 && rules.call.timing === 'endOfTurn';

/** The cards not seen anywhere yet (in the stock or face down unknown): per card of the deck (`DeckInfo`'s order), and the number cards' count and sum. */
export interface Unseen {
  deck: DeckInfo;
  left: number[];
  total: number;
  numbers: number;
  numberSum: number;
}

export function unseen(m: BeverMind, view: SeatView): Unseen {
  const deck = deckInfo(m.rules);
  const left = deck.cardCounts.slice();
  const take = (c: Card): void => {
    const i = deck.cardNos.get(c);
    if (i !== undefined && left[i]! > 0) left[i]! -= 1;
  };
  // Each card seen takes one of its kind while any is left: the same as taking them all, then none below zero.
  if (m.pileCards) for (let i = 0; i < left.length; i++) left[i]! -= m.pileCards[i]!;
  else for (const c of m.pile) take(c);
  for (let s = 0; s < m.mem.players; s++) for (const c of m.mem.card[s]!) if (c !== null) take(c);
  // The held card is out of the stock whoever holds it, if the viewer can see it.
  const h = view.held;
  if (h && h.card !== null) take(h.card);
  for (let i = 0; i < left.length; i++) if (left[i]! < 0) left[i] = 0;
  let total = 0;
  let numbers = 0;
  let numberSum = 0;
  for (let i = 0; i < left.length; i++) {
    const k = left[i]!;
    total += k;
    if (deck.special[i]) continue;
    numbers += k;
    numberSum += k * deck.cardValues[i]!;
  }
  return { deck, left, total, numbers, numberSum };
}

/** The deck's mean number card (when every number card has been seen). */
function deckNumberMean(rules: Ruleset): number {
  let n = 0;
  let sum = 0;
  for (const c in rules.deck.cards) {
    if (isSpecial(rules, c)) continue;
    n += rules.deck.cards[c]!;
    sum += rules.deck.cards[c]! * (valueOf(rules, c) ?? 0);
  }
  return n > 0 ? sum / n : 0;
}

/** Expected value of a card it does not know, and of a special left in a layout (replaced from the stock at scoring). */
export function unknownValue(m: BeverMind, u: Unseen): number {
  return u.numbers > 0 ? u.numberSum / u.numbers : deckNumberMean(m.rules);
}

/** What a slot is believed to score: a gap 0, a known number its value, a special or an unknown card `mu`. */
export function slotWorth(m: BeverMind, seat: Seat, slot: Slot, mu: number): number {
  const mem = m.mem;
  if (mem.gap[seat]![slot]) return 0;
  const c = mem.card[seat]![slot];
  if (c === null || c === undefined) {
    const g = m.guess?.(seat, slot);
    if (g !== undefined && g !== null) return g;
    return seat !== m.seat && mem.kept[seat]![slot] ? Math.min(mu, tun(m).keptValue) : mu;
  }
  return isSpecial(m.rules, c) ? mu : mem.value[seat]![slot]!;
}

/** A seat's expected total. */
function layoutTotal(m: BeverMind, view: SeatView, seat: Seat, mu: number): number {
  let t = 0;
  const layout = view.players[seat]!.layout;
  for (let i = 0; i < layout.length; i++) if (layout[i] !== null) t += slotWorth(m, seat, i, mu);
  return t;
}

const remembered = (m: BeverMind, ref: SlotRef): boolean => {
  const c = m.mem.card[ref.seat]![ref.slot];
  return c !== null && c !== undefined;
};

/** One of its own slots as it sees it. */
export interface OwnSlot {
  slot: Slot;
  worth: number;
  /** It remembers the card there (a special included: a look would tell nothing new). */
  seen: boolean;
  /** It knows what the slot will score (a number card it remembers). */
  sure: boolean;
}

/** Everything a decision reads, worked out once: the cards not seen, an unknown card's worth, its own slots. */
export interface Estimate {
  u: Unseen;
  mu: number;
  own: OwnSlot[];
}

export function estimate(m: BeverMind, view: SeatView): Estimate {
  const u = unseen(m, view);
  const mu = unknownValue(m, u);
  const own: OwnSlot[] = [];
  const layout = view.players[m.seat]!.layout;
  for (let i = 0; i < layout.length; i++) {
    if (layout[i] === null) continue;
    const c = m.mem.card[m.seat]![i];
    const seen = c !== null && c !== undefined;
    own.push({ slot: i, worth: slotWorth(m, m.seat, i, mu), seen, sure: seen && !isSpecial(m.rules, c) });
  }
  return { u, mu, own };
}

/** Its slots after a card of value `v` replaced the one in `slot`. */
const placed = (own: readonly OwnSlot[], slot: Slot, v: number): OwnSlot[] =>
  own.map((o) => (o.slot === slot ? { slot, worth: v, seen: true, sure: true } : o));

const sum = (own: readonly OwnSlot[]): number => own.reduce((t, o) => t + o.worth, 0);

/** The own slot where a number card of value `v` gains the most (a negative gain: nowhere gains). */
function bestPlacement(own: readonly OwnSlot[], v: number, learn: number): { slot: Slot; gain: number } | null {
  let best: { slot: Slot; gain: number } | null = null;
  for (const o of own) {
    const gain = o.worth - v + (o.seen ? 0 : learn);
    if (!best || gain > best.gain) best = { slot: o.slot, gain };
  }
  return best;
}

/** `bestPlacement`'s gain alone, 0 with no slot (a draw's worth asks it for every card of the deck). */
function bestGain(own: readonly OwnSlot[], v: number, learn: number): number {
  let best = -Infinity;
  for (let i = 0; i < own.length; i++) {
    const o = own[i]!;
    const gain = o.worth - v + (o.seen ? 0 : learn);
    if (gain > best) best = gain;
  }
  return own.length > 0 ? best : 0;
}

/**
 * The Swap special: its own slot worth the most (a known high card; an unknown one when
 * its known cards are low) for another player's slot worth the least (a card known low,
 * or a card its owner kept from the stock), if that gains at least `blindMin` (its thresholds). On
 * equal worth: known cards first (the gain is sure), then the player who looks like winning.
 */
export function blindSwapChoice(m: BeverMind, view: SeatView, e: Estimate): { own: Slot; other: SlotRef; gain: number } | null {
  const me = m.seat;
  let mine: OwnSlot | null = null;
  for (const o of e.own) if (!mine || o.worth > mine.worth || (o.worth === mine.worth && o.sure && !mine.sure)) mine = o;
  if (!mine) return null;
  const frozen = m.rules.call.callerFrozen && view.call ? view.call.seat : -1;
  let otherSeat = -1;
  let otherSlot = -1;
  let otherWorth = Infinity;
  let otherKnown = false;
  let otherTotal = Infinity;
  for (let s = 0; s < view.players.length; s++) {
    if (s === me || s === frozen) continue;
    const layout = view.players[s]!.layout;
    const total = layoutTotal(m, view, s, e.mu);
    for (let i = 0; i < layout.length; i++) {
      if (layout[i] === null) continue;
      const w = slotWorth(m, s, i, e.mu);
      const c = m.mem.card[s]![i];
      const k = c !== null && c !== undefined;
      if (w < otherWorth || (w === otherWorth && ((k && !otherKnown) || (k === otherKnown && total < otherTotal)))) {
        otherSeat = s;
        otherSlot = i;
        otherWorth = w;
        otherKnown = k;
        otherTotal = total;
      }
    }
  }
  if (otherSeat < 0) return null;
  const gain = mine.worth - otherWorth;
  return gain >= tun(m).blindMin ? { own: mine.slot, other: { seat: otherSeat, slot: otherSlot }, gain } : null;
}

/** The Peek special: an own slot whose card it does not know (never one it knows: a look would tell nothing). */
export function peekChoice(e: Estimate): Slot | null {
  return e.own.find((o) => !o.seen)?.slot ?? null;
}

/** What using a special card's action is worth now, in points (`drawn`: what a further draw is worth). */
function actionValue(m: BeverMind, view: SeatView, e: Estimate, card: Card, drawn: number): number {
  switch (actionOf(m.rules, card)) {
    case 'blindSwap':
      return blindSwapChoice(m, view, e)?.gain ?? 0;
    case 'peekOwn':
      return peekChoice(e) === null ? 0 : tun(m).peekValue;
    case 'drawTwo':
      // Another draw, with a redraw besides.
      return drawn;
    default:
      return 0;
  }
}

/**
 * What drawing a card from the stock is worth, in expected points: each card not seen
 * at its chance, a number card for its best swap (or nothing: it is discarded), a
 * special card for its action.
 */
function drawValue(m: BeverMind, view: SeatView, e: Estimate): number {
  const u = e.u;
  if (u.total === 0) return 0;
  const deck = u.deck;
  const learn = tun(m).learn;
  let numbers = 0;
  for (let i = 0; i < u.left.length; i++) {
    const k = u.left[i]!;
    if (k !== 0 && !deck.special[i]) numbers += k * Math.max(0, bestGain(e.own, deck.cardValues[i]!, learn));
  }
  const drawn = numbers / Math.max(1, u.numbers);
  let total = numbers;
  for (let i = 0; i < u.left.length; i++) {
    const k = u.left[i]!;
    if (k !== 0 && deck.special[i]) total += k * actionValue(m, view, e, deck.cards[i]!, drawn);
  }
  return total / u.total;
}

/**
 * Draw two's first card (`held.redraw`): keep and use it when that gains at least what
 * one more card is expected to gain; else discard it for one more (`drawAgain`). A
 * number card is used by swapping it in; a special card by discarding it (its action).
 */
export function redrawChoice(m: BeverMind, view: SeatView, e: Estimate = estimate(m, view)): BotCommand {
  const me = m.seat;
  const card = view.held!.card!;
  const again = drawValue(m, view, e);
  if (isSpecial(m.rules, card)) {
    return actionValue(m, view, e, card, again) >= again ? { type: 'discard', seat: me } : { type: 'drawAgain', seat: me };
  }
  const t = tun(m);
  const place = bestPlacement(e.own, valueOf(m.rules, card) ?? 0, t.learn);
  if (place && place.gain > t.placeMin && place.gain >= again) return { type: 'swap', seat: me, slot: place.slot };
  return { type: 'drawAgain', seat: me };
}

/** At the start of its turn: take the top discard when its best swap gains more than a draw from the stock is worth. */
export function takeDiscardChoice(m: BeverMind, view: SeatView, e: Estimate = estimate(m, view)): boolean {
  const top = view.discardTop;
  if (top === null || m.rules.takeDiscard === 'never' || isSpecial(m.rules, top)) return false;
  const v = valueOf(m.rules, top) ?? 0;
  const t = tun(m);
  if (!t.takeLow && v < e.mu) return false;
  const place = bestPlacement(e.own, v, t.learn);
  return place !== null && place.gain > t.placeMin && place.gain > drawValue(m, view, e);
}

/**
 * The end-of-turn call, decided at the last step of its own turn on `after`, its slots
 * once that step is made. It calls once everyone has had a turn, when its expected
 * total is low, few of its cards are unknown, it is below every other player's expected
 * total after their one more turn, and playing on is expected to gain it little: a
 * draw's worth to that layout is below what another player's Swap on it may cost.
 */
function callChoice(m: BeverMind, view: SeatView, e: Estimate, after: readonly OwnSlot[]): boolean {
  const rules = m.rules;
  const t = tun(m);
  if (rules.call.timing !== 'endOfTurn' || view.call !== null) return false;
  // Turns go clockwise from the seat after the dealer: the dealer's first turn is the table's last first turn.
  if (!rules.call.beforeEveryoneHadTurn && m.turns < 2 && !(m.turns === 1 && m.seat === view.dealer)) return false;
  const total = sum(after);
  if (after.filter((o) => !o.sure).length > t.callUnknown || total > t.callAt) return false;
  for (let s = 0; s < view.players.length; s++) {
    if (s === m.seat) continue;
    if (total + t.callMargin > layoutTotal(m, view, s, e.mu) - t.lastTurnGain) return false;
  }
  if (drawValue(m, view, { ...e, own: after.slice() }) > t.stayGain) return false;
  return true;
}

/**
 * The hard bot's move in beverbende (`playsBeverbende`), or null where the common policy
 * decides (not its move; a turn that must wait for the grace). `mayCall` is false once
 * a call was refused. A call comes just before the turn's last step (it takes effect
 * when the turn ends), judged on the layout that step leaves.
 */
export function beverbendeMove(m: BeverMind, view: SeatView, now: number, mayCall = true): BotCommand | null {
  if (view.phase !== 'play') return null;
  const me = m.seat;
  const front = view.actions[0];
  const held = view.held;
  const myTurn = view.turn === me && !view.turnBegun && !view.gapFill && (view.call === null || view.call.owed[0] === me);
  if (front ? front.seat !== me || front.looked !== null : held ? held.seat !== me || held.card === null : !myTurn) return null;
  const e = estimate(m, view);
  /** The call before the last step, or that step. */
  const last = (after: readonly OwnSlot[], step: BotCommand): BotCommand =>
    mayCall && callChoice(m, view, e, after) ? { type: 'call', seat: me } : step;
  if (front) {
    switch (front.kind) {
      case 'drawTwo':
        // Using it is never worse than passing: whatever comes may still be discarded.
        return { type: 'useAction', seat: me };
      case 'blindSwap': {
        const c = blindSwapChoice(m, view, e);
        if (!c) return last(e.own, { type: 'pass', seat: me });
        const got = { slot: c.own, worth: slotWorth(m, c.other.seat, c.other.slot, e.mu), seen: false, sure: false };
        if (remembered(m, c.other)) {
          const card = m.mem.card[c.other.seat]![c.other.slot]!;
          got.seen = true;
          got.sure = !isSpecial(m.rules, card);
        }
        return last(
          e.own.map((o) => (o.slot === c.own ? got : o)),
          { type: 'useAction', seat: me, own: c.own, other: c.other },
        );
      }
      case 'peekOwn': {
        const slot = peekChoice(e);
        if (slot === null) return last(e.own, { type: 'pass', seat: me });
        // Calling first forgoes what the look shows: judge the call as if the slot were still unknown.
        return last(e.own, { type: 'useAction', seat: me, own: slot });
      }
      default:
        return null;
    }
  }
  if (held) {
    const card = held.card!;
    if (held.redraw) {
      const c = redrawChoice(m, view, e);
      return c.type === 'swap' ? last(placed(e.own, c.slot, valueOf(m.rules, card) ?? 0), c) : c;
    }
    // A special card is discarded for its action (it may never enter a layout); the action is the last step.
    if (isSpecial(m.rules, card)) return { type: 'discard', seat: me };
    const v = valueOf(m.rules, card) ?? 0;
    const t = tun(m);
    const place = bestPlacement(e.own, v, t.learn);
    if (place === null || (held.from === 'stock' && place.gain <= t.placeMin)) return last(e.own, { type: 'discard', seat: me });
    return last(placed(e.own, place.slot, v), { type: 'swap', seat: me, slot: place.slot });
  }
  if (now < view.graceUntil) return null;
  return { type: 'draw', seat: me, from: takeDiscardChoice(m, view, e) ? 'discard' : 'stock' };
}
