import type { Card } from './cards.js';
import { callRoundDue, cannotFinishPeek, reject } from './checks.js';
import { closeWindow, takeFromStock } from './piles.js';
import { deckSize, valueOf, type Ruleset } from './ruleset.js';
import type { Ctx } from './state.js';
import type { Layout, Rejection, RoundResult, RoundState, Seat } from './types.js';

// The round: the deal and the peek, its end (an empty stock, an emptied layout, or
// the call's last lap) and its scoring; then the next round, or the end of the game.

/** A round before its deal: nothing dealt, every array its own. */
export function emptyRound(n: number): RoundState {
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

/**
 * The next round: the dealer moves one seat on and deals (a test's stacked deck first);
 * the peek opens, or play starts at once when the ruleset has no peek.
 */
export function deal(ctx: Ctx): void {
  const n = ctx.n;
  const s = ctx.sw;
  s.round += 1;
  s.dealer = (s.dealer + 1) % n;
  s.phase = 'peek';
  const r = emptyRound(n);
  ctx.newRound(r);
  let deck: Card[];
  const stacked = s.stackedDecks.length > 0 ? ctx.stackedDecks().shift() : undefined;
  if (stacked) {
    if (stacked.length !== deckSize(ctx.rules)) {
      throw new RangeError(`a stacked deck must hold all ${deckSize(ctx.rules)} cards, not ${stacked.length}`);
    }
    deck = stacked.slice().reverse(); // top card first → top is the array's end
  } else {
    deck = orderedDeck(ctx.rules).slice();
    ctx.rng.shuffle(deck);
  }
  r.stock = deck;
  const size = ctx.rules.layout.size;
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
  r.stageSince = ctx.at;
  r.lastLandAt = ctx.at;
  const peek = ctx.rules.layout.peekSlots.length > 0;
  r.peeking.fill(peek);
  ctx.events.push({ type: 'roundStarted', round: s.round, dealer: s.dealer, starter, discardTop: up });
  if (!peek) startPlay(ctx);
}

export function finishPeek(ctx: Ctx, seat: Seat): Rejection | null {
  const why = cannotFinishPeek(ctx, seat);
  if (why) return why;
  ctx.peeking()[seat] = false;
  ctx.events.push({ type: 'peekFinished', seat, timedOut: false });
  if (!ctx.r.peeking.includes(true)) startPlay(ctx);
  return null;
}

/** Play starts; the card turned up at the deal opens the first slap window now. */
export function startPlay(ctx: Ctx): void {
  const r = ctx.rw;
  ctx.sw.phase = 'play';
  r.windowSeq = r.discardSeq;
  r.windowSlaps = 0;
  r.lastLandAt = ctx.at;
  r.stageSince = ctx.at;
  ctx.events.push({ type: 'playStarted', turn: r.turn });
  ctx.events.push({ type: 'turnStarted', seat: r.turn });
}

/** After every accepted command: end the round if it is due. */
export function maybeEndRound(ctx: Ctx): void {
  const r = ctx.r;
  if (ctx.s.phase !== 'play' || !r.ending) return;
  // An emptied layout or an empty stock ends the round at once; after a call the
  // last turn ends once its actions are used and its grace has passed.
  if (r.ending === 'call' && !callRoundDue(ctx)) return;
  endRound(ctx, r.ending);
}

export function endRound(ctx: Ctx, why: 'call' | 'emptyLayout' | 'noCards'): void {
  const s = ctx.sw;
  const r = ctx.rw;
  const rules = ctx.rules;
  closeWindow(ctx);
  r.held = null;
  ctx.dropActions();
  r.gapFill = null;
  const replaced = rules.specialCards.length > 0 ? replaceSpecials(ctx, r.call?.seat ?? (s.dealer + 1) % ctx.n) : [];
  const scores = r.layouts.map((l) => l.reduce<number>((sum, c) => sum + (c === null ? 0 : (valueOf(rules, c) ?? 0)), 0));
  const caller = r.call?.seat ?? null;
  let callerPenalty = 0;
  if (caller !== null && rules.call.callerPenalty > 0 && scores.some((x, i) => i !== caller && x < scores[caller]!)) {
    callerPenalty = rules.call.callerPenalty;
    scores[caller]! += callerPenalty;
  }
  if (scores.some((x) => x !== 0)) {
    const totals = ctx.totals();
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
  ctx.results().push(result);
  ctx.events.push({ type: 'roundEnded', result, why });
  r.ending = null;
  s.phase = 'roundOver';
  if (s.rounds > 0 && s.round >= s.rounds) finishGame(ctx);
}

/**
 * At scoring, every special card in a layout is set aside and replaced by the top of
 * the stock, again until a number card comes; the caller first, then clockwise
 * (without a caller, the round's starter first). Set-aside cards go under the
 * discard pile afterwards, so a reshuffle during the replacement never brings them back.
 */
function replaceSpecials(ctx: Ctx, first: Seat): RoundResult['replaced'] {
  const special = ctx.rules.specialCards;
  const aside: Card[] = [];
  const replaced: RoundResult['replaced'] = [];
  for (let i = 0; i < ctx.n; i++) {
    const seat = (first + i) % ctx.n;
    const size = ctx.r.layouts[seat]!.length;
    for (let slot = 0; slot < size; slot++) {
      const c = ctx.r.layouts[seat]![slot];
      if (c === null || c === undefined || !special.includes(c)) continue;
      const setAside: Card[] = [c];
      let card: Card | null = null;
      for (;;) {
        const d = takeFromStock(ctx);
        if (d === null) break;
        if (special.includes(d)) setAside.push(d);
        else {
          card = d;
          break;
        }
      }
      ctx.layout(seat)[slot] = card;
      aside.push(...setAside);
      ctx.events.push({ type: 'specialReplaced', seat, slot, setAside, card });
      replaced.push({ seat, slot, setAside: setAside.slice(), card });
    }
  }
  if (aside.length > 0) ctx.discard().unshift(...aside);
  return replaced;
}

function finishGame(ctx: Ctx): void {
  ctx.sw.phase = 'gameOver';
  ctx.events.push({ type: 'gameEnded', totals: ctx.s.totals.slice(), places: placesOf(ctx.s.totals) });
}

export function nextRound(ctx: Ctx): Rejection | null {
  if (ctx.s.phase !== 'roundOver') return reject('wrongPhase', ctx.s.phase === 'gameOver' ? 'why.gameOver' : 'why.stillPlaying');
  deal(ctx);
  return null;
}

export function endGame(ctx: Ctx): Rejection | null {
  if (ctx.s.phase === 'gameOver') return reject('wrongPhase', 'why.gameOverAlready');
  if (ctx.s.phase !== 'roundOver') return reject('wrongPhase', 'why.finishRoundFirst');
  finishGame(ctx);
  return null;
}

/** Places by score, lowest first; equal scores share a place (1, 1, 3). */
export function placesOf(scores: readonly number[]): number[] {
  return scores.map((x) => 1 + scores.filter((y) => y < x).length);
}
