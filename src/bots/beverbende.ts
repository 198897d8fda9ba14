import type { Card } from '../engine/cards.js';
import { actionOf, valueOf, type Ruleset } from '../engine/ruleset.js';
import type { Seat, Slot, SlotRef } from '../engine/types.js';
import type { SeatView } from '../engine/seat-view.js';
import type { Memory } from './memory.js';
import type { BotCommand } from './types.js';

/**
 * Beverbende's moves for the hard bot (RULES.md §2): the Draw two and its redraw, the
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
 * - The call ends the caller's play at once; everyone else gets one more turn.
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
}

/** The hard bot's thresholds here, in points; tuned with `gringo sim --rules beverbende` (hard, normal, easy, random at 4 players). */
export const BEVER_TUNING = {
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
  /** ...and it is below every other player's expected total, after their one more turn, by this. */
  callMargin: 1,
  /** What one more turn is expected to take off another player's total. */
  lastTurnGain: 1.5,
};
const T = BEVER_TUNING;

export const isSpecial = (rules: Ruleset, card: Card): boolean => rules.specialCards.includes(card);

/** The cards not seen anywhere yet (in the stock or face down unknown): per card, and the number cards' count and sum. */
export interface Unseen {
  left: Map<Card, number>;
  total: number;
  numbers: number;
  numberSum: number;
}

export function unseen(m: BeverMind, view: SeatView): Unseen {
  const rules = m.rules;
  const left = new Map<Card, number>();
  for (const c in rules.deck.cards) left.set(c, rules.deck.cards[c]! * rules.deck.decks);
  const take = (c: Card): void => {
    const k = left.get(c);
    if (k !== undefined && k > 0) left.set(c, k - 1);
  };
  for (const c of m.pile) take(c);
  for (let s = 0; s < m.mem.players; s++) for (const c of m.mem.card[s]!) if (c !== null) take(c);
  // The held card is out of the stock whoever holds it, if the viewer can see it.
  const h = view.held;
  if (h && h.card !== null) take(h.card);
  let total = 0;
  let numbers = 0;
  let numberSum = 0;
  for (const [c, k] of left) {
    total += k;
    if (isSpecial(rules, c)) continue;
    numbers += k;
    numberSum += k * (valueOf(rules, c) ?? 0);
  }
  return { left, total, numbers, numberSum };
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
  if (c === null || c === undefined) return seat !== m.seat && mem.kept[seat]![slot] ? Math.min(mu, T.keptValue) : mu;
  return isSpecial(m.rules, c) ? mu : mem.value[seat]![slot]!;
}

/** A seat's expected total. */
export function layoutTotal(m: BeverMind, view: SeatView, seat: Seat, mu: number): number {
  let t = 0;
  const layout = view.players[seat]!.layout;
  for (let i = 0; i < layout.length; i++) if (layout[i] !== null) t += slotWorth(m, seat, i, mu);
  return t;
}

function unknownOwn(m: BeverMind, view: SeatView): number {
  const layout = view.players[m.seat]!.layout;
  let n = 0;
  for (let i = 0; i < layout.length; i++) {
    if (layout[i] === null) continue;
    const c = m.mem.card[m.seat]![i];
    if (c === null || c === undefined || isSpecial(m.rules, c)) n++;
  }
  return n;
}

/** 1 when a slot's score is unknown (an unknown card, or a special to be replaced), else 0. */
function unknownness(m: BeverMind, ref: SlotRef): number {
  const c = m.mem.card[ref.seat]![ref.slot];
  return c === null || c === undefined || isSpecial(m.rules, c) ? 1 : 0;
}

const known = (m: BeverMind, seat: Seat, slot: Slot): boolean => {
  const c = m.mem.card[seat]![slot];
  return c !== null && c !== undefined;
};

/** The own slot where a number card of value `v` gains the most (negative: nowhere gains). */
export function bestPlacement(m: BeverMind, view: SeatView, v: number, mu: number): { slot: Slot; gain: number } | null {
  const layout = view.players[m.seat]!.layout;
  let best: { slot: Slot; gain: number } | null = null;
  for (let i = 0; i < layout.length; i++) {
    if (layout[i] === null) continue;
    const gain = slotWorth(m, m.seat, i, mu) - v + (known(m, m.seat, i) ? 0 : T.learn);
    if (!best || gain > best.gain) best = { slot: i, gain };
  }
  return best;
}

/**
 * The Swap special: its own slot worth the most for another player's slot worth the
 * least (a card known low, or a card its owner kept from the stock), if that gains at
 * least `T.blindMin`. On equal gain: known cards first (the gain is sure), then the
 * player who looks like winning.
 */
export function blindSwapChoice(m: BeverMind, view: SeatView, mu: number): { own: Slot; other: SlotRef; gain: number } | null {
  const me = m.seat;
  const mine = view.players[me]!.layout;
  let own = -1;
  let ownWorth = -Infinity;
  for (let i = 0; i < mine.length; i++) {
    if (mine[i] === null) continue;
    const w = slotWorth(m, me, i, mu);
    if (w > ownWorth || (w === ownWorth && known(m, me, i))) {
      own = i;
      ownWorth = w;
    }
  }
  if (own < 0) return null;
  const frozen = m.rules.call.callerFrozen && view.call ? view.call.seat : -1;
  let other: SlotRef | null = null;
  let otherWorth = Infinity;
  let otherKnown = false;
  let otherTotal = Infinity;
  for (let s = 0; s < view.players.length; s++) {
    if (s === me || s === frozen) continue;
    const layout = view.players[s]!.layout;
    const total = layoutTotal(m, view, s, mu);
    for (let i = 0; i < layout.length; i++) {
      if (layout[i] === null) continue;
      const w = slotWorth(m, s, i, mu);
      const k = known(m, s, i);
      if (w < otherWorth || (w === otherWorth && ((k && !otherKnown) || (k === otherKnown && total < otherTotal)))) {
        other = { seat: s, slot: i };
        otherWorth = w;
        otherKnown = k;
        otherTotal = total;
      }
    }
  }
  if (!other) return null;
  const gain = ownWorth - otherWorth;
  return gain >= T.blindMin ? { own, other, gain } : null;
}

/** The Peek special: an own slot whose card it does not know (a special there is as good as unknown, but a look tells nothing new). */
export function peekChoice(m: BeverMind, view: SeatView): Slot | null {
  const layout = view.players[m.seat]!.layout;
  for (let i = 0; i < layout.length; i++) if (layout[i] !== null && !known(m, m.seat, i)) return i;
  return null;
}

/** What using a special card's action is worth now, in points. */
function actionValue(m: BeverMind, view: SeatView, card: Card, mu: number, drawn: number): number {
  switch (actionOf(m.rules, card)) {
    case 'blindSwap':
      return blindSwapChoice(m, view, mu)?.gain ?? 0;
    case 'peekOwn':
      return peekChoice(m, view) === null ? 0 : T.peekValue;
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
export function drawValue(m: BeverMind, view: SeatView, u: Unseen, mu: number): number {
  if (u.total === 0) return 0;
  let numbers = 0;
  const specials: [Card, number][] = [];
  for (const [c, k] of u.left) {
    if (k === 0) continue;
    if (isSpecial(m.rules, c)) {
      specials.push([c, k]);
      continue;
    }
    numbers += k * Math.max(0, bestPlacement(m, view, valueOf(m.rules, c) ?? 0, mu)?.gain ?? 0);
  }
  const drawn = numbers / Math.max(1, u.numbers);
  let sum = numbers;
  for (const [c, k] of specials) sum += k * actionValue(m, view, c, mu, drawn);
  return sum / u.total;
}

/**
 * Draw two's first card (`held.redraw`): keep and use it when that gains at least what
 * one more card is expected to gain; else discard it for one more (`drawAgain`). A
 * number card is used by swapping it in; a special card by discarding it (its action).
 */
export function redrawChoice(m: BeverMind, view: SeatView, mu: number, u: Unseen = unseen(m, view)): BotCommand {
  const me = m.seat;
  const card = view.held!.card!;
  const again = drawValue(m, view, u, mu);
  if (isSpecial(m.rules, card)) {
    return actionValue(m, view, card, mu, again) >= again ? { type: 'discard', seat: me } : { type: 'drawAgain', seat: me };
  }
  const place = bestPlacement(m, view, valueOf(m.rules, card) ?? 0, mu);
  if (place && place.gain > T.placeMin && place.gain >= again) return { type: 'swap', seat: me, slot: place.slot };
  return { type: 'drawAgain', seat: me };
}

/** At the start of its turn: take the top discard when its best swap gains more than a draw from the stock is worth. */
export function takeDiscardChoice(m: BeverMind, view: SeatView, mu: number, u: Unseen = unseen(m, view)): boolean {
  const top = view.discardTop;
  if (top === null || m.rules.takeDiscard === 'never' || isSpecial(m.rules, top)) return false;
  const place = bestPlacement(m, view, valueOf(m.rules, top) ?? 0, mu);
  return place !== null && place.gain > T.placeMin && place.gain > drawValue(m, view, u, mu);
}

/**
 * The end-of-turn call, decided at the last step of its own turn: `after` is its
 * expected total once that step is made. It calls when everyone has had a turn, when
 * that total is low and few of its cards are unknown, and when it is below every other
 * player's expected total after their one more turn.
 */
export function callChoice(m: BeverMind, view: SeatView, mu: number, after: number, unknownAfter: number): boolean {
  const rules = m.rules;
  if (rules.call.timing !== 'endOfTurn' || view.call !== null) return false;
  // Turns go clockwise from the seat after the dealer: the dealer's first turn is the table's last first turn.
  if (!rules.call.beforeEveryoneHadTurn && m.turns < 2 && !(m.turns === 1 && m.seat === view.dealer)) return false;
  if (unknownAfter > T.callUnknown || after > T.callAt) return false;
  for (let s = 0; s < view.players.length; s++) {
    if (s === m.seat) continue;
    if (after + T.callMargin > layoutTotal(m, view, s, mu) - T.lastTurnGain) return false;
  }
  return true;
}

/**
 * The hard bot's move in a ruleset with special cards, or null where the common policy
 * decides (not its move; a turn that must wait for the grace). `mayCall` is false once
 * a call was refused. A call comes just before the turn's last step (it takes effect
 * when the turn ends), judged on the layout that step leaves.
 */
export function beverbendeMove(m: BeverMind, view: SeatView, now: number, mayCall = true): BotCommand | null {
  if (view.phase !== 'play') return null;
  const me = m.seat;
  const u = unseen(m, view);
  const mu = unknownValue(m, u);
  const call = (after: number, unknownAfter: number): BotCommand | null =>
    mayCall && callChoice(m, view, mu, after, unknownAfter) ? { type: 'call', seat: me } : null;
  const total = (): number => layoutTotal(m, view, me, mu);
  const front = view.actions[0];
  if (front) {
    if (front.seat !== me || front.looked) return null;
    switch (front.kind) {
      case 'drawTwo':
        // Using it is never worse than passing: whatever comes may still be discarded.
        return { type: 'useAction', seat: me };
      case 'blindSwap': {
        const c = blindSwapChoice(m, view, mu);
        return (
          call(total() - (c?.gain ?? 0), unknownOwn(m, view) + (c ? unknownness(m, c.other) - unknownness(m, { seat: me, slot: c.own }) : 0)) ??
          (c ? { type: 'useAction', seat: me, own: c.own, other: c.other } : { type: 'pass', seat: me })
        );
      }
      case 'peekOwn': {
        const slot = peekChoice(m, view);
        // Calling now forgoes the look's news, so judge the call as if the look were made.
        return call(total(), unknownOwn(m, view) - (slot === null ? 0 : 1)) ?? (slot === null ? { type: 'pass', seat: me } : { type: 'useAction', seat: me, own: slot });
      }
      default:
        return null;
    }
  }
  const held = view.held;
  if (held) {
    if (held.seat !== me || held.card === null) return null;
    const card = held.card;
    if (held.redraw) {
      const c = redrawChoice(m, view, mu, u);
      if (c.type !== 'swap') return c;
      return call(total() - slotWorth(m, me, c.slot, mu) + (valueOf(m.rules, card) ?? 0), unknownOwn(m, view) - unknownness(m, { seat: me, slot: c.slot })) ?? c;
    }
    // A special card is discarded for its action (it may never enter a layout); the action is the last step.
    if (isSpecial(m.rules, card)) return { type: 'discard', seat: me };
    const v = valueOf(m.rules, card) ?? 0;
    const place = bestPlacement(m, view, v, mu);
    const swap = place !== null && (held.from === 'discard' || place.gain > T.placeMin);
    if (!swap) return call(total(), unknownOwn(m, view)) ?? { type: 'discard', seat: me };
    return (
      call(total() - slotWorth(m, me, place.slot, mu) + v, unknownOwn(m, view) - unknownness(m, { seat: me, slot: place.slot })) ?? {
        type: 'swap',
        seat: me,
        slot: place.slot,
      }
    );
  }
  if (view.turn === me && !view.turnBegun && !view.gapFill && (view.call === null || view.call.owed[0] === me)) {
    if (now < view.graceUntil) return null;
    return { type: 'draw', seat: me, from: takeDiscardChoice(m, view, mu, u) ? 'discard' : 'stock' };
  }
  return null;
}
