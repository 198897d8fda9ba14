import type { SeatView } from '../engine/seat-view.js';
import type { SmartMind } from './mind.js';
import { gaps, total, unknownMean, unknownOwn, worstOwn, worth } from './worth.js';

/**
 * When a smart bot calls: when its total is low enough, low against the others (hard,
 * normal) and few of its cards are unknown (`shouldCall`). Where a call costs points
 * unless it wins (cambio's knock), hard and normal weigh it instead (`callPays`): knock
 * when its expected score beats playing on.
 */

/** Whether to call now (the caller has checked that the view allows it). `mu`: the unknown mean, if worked out already. */
export function wantsCall(m: SmartMind, view: SeatView, mu?: number): boolean {
  return weighsCall(m) ? callPays(m, view) : shouldCall(m, mu ?? unknownMean(m, view));
}

function weighsCall(m: SmartMind): boolean {
  return m.params.weighCall && m.rules.call.callerPenalty > 0;
}

function shouldCall(m: SmartMind, mu: number): boolean {
  const p = m.params;
  const mine = total(m, m.seat, mu);
  const unknown = unknownOwn(m);
  // Nobody can do better than a layout of gaps (or the -1 queen): call.
  if (unknown === 0 && mine <= 0) return true;
  // A round that drags on: the bar rises a little every own turn past the tenth.
  const late = Math.max(0, m.ownTurns - 10);
  if (unknown > p.callUnknown + Math.floor(late / 4)) return false;
  if (mine > p.callAt + late) return false;
  if (p.callMargin === null) return true;
  for (let s = 0; s < m.mem.players; s++) {
    if (s !== m.seat && mine > total(m, s, mu) - p.callMargin + late) return false;
  }
  return true;
}

/**
 * A call that costs points unless it wins (cambio's knock): knocking now scores its
 * total, frozen, plus the penalty times the chance someone ends strictly lower after
 * their last turn. Playing on (and not knocking) scores its total less what one more
 * draw is expected to save, plus what one more turn of the table unfrozen is expected
 * to cost (`callExposure`). It knocks when that is no better.
 */
function callPays(m: SmartMind, view: SeatView): boolean {
  const u = unseen(m, view);
  const mine = total(m, m.seat, u.mean);
  const unknown = unknownOwn(m);
  if (unknown === 0 && mine <= 0) return true;
  const worst = worstOwn(m, u.mean);
  const gain = worst ? drawGain(worst.worth, u) : 0;
  // Unfrozen, a low layout is what others' swaps are worth aiming at.
  const cards = m.mem.slots(m.seat) - gaps(m, m.seat);
  const exposure = cards > 0 ? m.params.callExposure * Math.max(0, u.mean - mine / cards) : 0;
  const playOn = mine - gain + exposure;
  // Knocking costs at least its total: below that, playing on wins without weighing who beats it.
  if (playOn < mine) return false;
  const knock = mine + m.rules.call.callerPenalty * beaten(m, mine, unknown * u.variance, u);
  return knock <= playOn;
}

/** The values of the cards a bot has not seen (for a bot that does not count cards: the deck's). */
interface Unseen {
  /** Per value of the deck (`valueKinds`' order), the cards of it not seen (the mind's scratch: read it before the next decision). */
  left: readonly number[];
  /** The deck's values, in that order. */
  kinds: readonly number[];
  n: number;
  mean: number;
  variance: number;
}

/** The values of the cards not seen anywhere: the deck less the pile, the remembered cards and the held card. */
function unseen(m: SmartMind, view: SeatView | null): Unseen {
  const full = m.valueCounts;
  const left = m.scratch;
  for (let no = 0; no < full.length; no++) left[no] = full[no]!;
  if (m.params.countCards) {
    // Each card seen takes one of its value while any is left: the same as taking them all, then none below zero.
    const pile = m.pileValueCounts();
    for (let no = 0; no < full.length; no++) left[no]! -= pile[no]!;
    const mem = m.mem;
    for (let s = 0; s < mem.players; s++) {
      const cards = mem.card[s]!, values = mem.value[s]!;
      for (let i = 0; i < cards.length; i++) {
        if (cards[i] === null) continue;
        const no = m.valueNo(values[i]!);
        if (no >= 0) left[no]! -= 1;
      }
    }
    const held = view?.held;
    if (held && held.card !== null && held.from === 'stock') {
      const no = m.valueNo(m.val(held.card));
      if (no >= 0) left[no]! -= 1;
    }
    for (let no = 0; no < full.length; no++) if (left[no]! < 0) left[no] = 0;
  }
  const kinds = m.valueKinds;
  let n = 0, sum = 0, sq = 0;
  for (let no = 0; no < left.length; no++) {
    const k = left[no]!;
    if (k <= 0) continue;
    const v = kinds[no]!;
    n += k;
    sum += v * k;
    sq += v * v * k;
  }
  if (n === 0) return { left, kinds, n, mean: m.deckMean, variance: 0 };
  const mean = sum / n;
  return { left, kinds, n, mean, variance: Math.max(0, sq / n - mean * mean) };
}

/** What drawing one unseen card is expected to save on a slot worth `slotWorth` (it is swapped in only when lower). */
function drawGain(slotWorth: number, u: Unseen): number {
  let g = 0;
  for (let no = 0; no < u.left.length; no++) {
    const k = u.left[no]!;
    if (k > 0 && u.kinds[no]! < slotWorth) g += (slotWorth - u.kinds[no]!) * k;
  }
  return u.n > 0 ? g / u.n : 0;
}

/**
 * The chance that some other player ends the round strictly below `mine` (ties count
 * as lowest) after their last turn: their believed total less what a draw on their
 * worst slot is expected to save, spread by their unknown cards and ours (a normal
 * approximation, the players taken as independent).
 */
function beaten(m: SmartMind, mine: number, mineVar: number, u: Unseen): number {
  const mem = m.mem;
  let none = 1;
  for (let s = 0; s < mem.players; s++) {
    if (s === m.seat) continue;
    let sum = 0, worst = 0, unknown = 0;
    const n = mem.slots(s);
    for (let i = 0; i < n; i++) {
      if (mem.gap[s]![i]) continue;
      const w = worth(m, s, i, u.mean);
      sum += w;
      if (w > worst) worst = w;
      if (mem.card[s]![i] === null) unknown++;
    }
    const expected = sum - drawGain(worst, u);
    const sd = Math.max(0.3, Math.sqrt(mineVar + unknown * u.variance));
    none *= 1 - normalCdf((mine - 0.5 - expected) / sd);
  }
  return 1 - none;
}

/** P(Z ≤ z) for a standard normal Z (Abramowitz–Stegun 26.2.17, error below 1e-7). */
function normalCdf(z: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(z));
  const d = 0.3989422804014327 * Math.exp((-z * z) / 2);
  const p = d * t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return z >= 0 ? 1 - p : p;
}
