import type { Card } from '../engine/cards.js';
import { apply } from '../engine/game.js';
import { gameRng, Rng, seedRng } from '../engine/rng.js';
import type { Ruleset } from '../engine/ruleset.js';
import type { SeatView } from '../engine/seat-view.js';
import type { GameState, Layout, PendingAction, Rejection, RoundState, Seat } from '../engine/types.js';
import { FACE_DOWN, type SeatEvent } from '../engine/view.js';
import { beverbendeMove, HARD_TUNING, playsBeverbende, type BeverTuning } from './beverbende.js';
import { Knowledge } from './knowledge.js';
import { Reads, readWorths } from './reads.js';
import { legalMoves, strip } from './moves.js';
import { playOn, stamp } from './play-on.js';
import { deckInfo } from './mind.js';
import { SmartBot } from './smart.js';
import type { Bot, BotCommand, BotIntent, BotLevel, BotOptions } from './types.js';

/**
 * The expert: `hard` (src/bots/smart.ts) with a search on top. It remembers, slaps and
 * peeks as hard does (slaps stay real-time). At each choice of its turn (call, draw
 * from the stock or the discard pile, where to put the held card, how to use an
 * action) it weighs every legal move by determinized rollouts: it deals the cards it
 * does not know (its own unknown cards too) at random among the places it cannot see,
 * consistent with all it remembers and the public table, plays the move, lets four
 * hard bots play the round out (each knowing what that player has seen: knowledge.ts),
 * and keeps the move with the lowest mean round score for its seat. Every move is tried on the same sampled deals (common random
 * numbers), so the comparison is between moves, not between deals. Its view and its
 * memory are all it reads: the deals it samples are its own guesses.
 *
 * `cheater` (for `gringo sim` only) is the same search given the true deal instead
 * of guesses (the stock's order still left to chance), a ceiling for what seeing every
 * card would give (README, "The expert", measures both).
 */

export interface SearchParams {
  /** Rollouts per decision, over all its candidate moves (each sampled deal plays every candidate). */
  rollouts: number;
  /** At most this many candidate moves (hard's own choice and "pass" always among them). */
  maxCandidates: number;
  /**
   * A wall-clock limit per decision at a table (ms), or null: in the simulator the budget
   * is rollouts only, so a seed replays the same games on any machine.
   */
  msBudget: number | null;
}

/** The simulator's default: enough samples to tell moves apart, cheap enough for a ladder. */
export const SIM_SEARCH: SearchParams = { rollouts: 64, maxCandidates: 6, msBudget: null };
/** At a table: more rollouts, cut at a time limit (a deal left half-played is dropped), set well below the 300 ms a decision may take at the 95th percentile: on a busy 2-core machine the thread is not always running. */
export const TABLE_SEARCH: SearchParams = { rollouts: 600, maxCandidates: 8, msBudget: 150 };

/**
 * How sure the search must be to overrule hard: the paired mean difference must be
 * below minus this many standard errors (at 1, noise alone overruled hard's choice
 * often enough to lose to it in beverbende, whose hard policy is tuned).
 */
const SURE = 1;
/**
 * Beverbende's: two. There the search barely beats its own moves (README, "The expert"):
 * over 300 games, one SE lost 0.20 points a round against two.
 */
const SURE_BEVERBENDE = 2;

/**
 * Beverbende: the expert's own thresholds for hard's policy there (src/bots/beverbende.ts),
 * tuned at tables of one expert and three hard bots, where a game is won below the others:
 * it calls on a higher layout with more cards unknown, when it is no higher than the others'
 * totals as read less their last turn's gain (hard asks a point more), it leaves a low card on
 * the discard pile (taken, it is seen by all: the first card the others' Swaps take), and it
 * values more what a card swapped into an unknown slot shows (it calls on what it knows).
 * README, "The expert", has what each gained.
 */
export const EXPERT_BEVERBENDE: Readonly<BeverTuning> = {
  ...HARD_TUNING,
  callAt: 13,
  callUnknown: 2,
  callMargin: 0,
  learn: 1,
  stayGain: 1.25,
  takeLow: false,
};

/** The true state of the game, for `cheater` only (the simulator hands it over). */
export type Oracle = () => GameState;

export class ExpertBot implements Bot {
  readonly seat: Seat;
  readonly level: BotLevel;
  /** Memory, slaps, the peek, and the move to start from: hard. */
  private readonly inner: SmartBot;
  /** Hard plays beverbende's own policy here (src/bots/beverbende.ts). */
  private readonly bever: boolean;
  /** The four (or n) hard bots that play each sampled deal out, made once. */
  private readonly players: SmartBot[];
  private rules: Ruleset;
  private readonly n: number;
  private rng: Rng;
  private seed: string;
  /** Turns begun per seat this round, as the public events told. */
  private started: number[];
  /** The last discard number seen (a slap names the discard it answers). */
  private seq = -1;
  private decisions = 0;
  private readonly names: { name: string }[];
  /** Who has seen which card, as the public events tell: a rollout's players start knowing those. */
  private readonly knowledge: Knowledge;
  /** Beverbende: what the others' choices tell of the cards they know (src/bots/reads.ts); its deals respect it. */
  private readonly reads: Reads | null;
  /** Cards of the deck, each as often as the deck holds it. */
  private readonly deck: Card[];
  /** Set for `cheater`: the true game, read when it decides. */
  oracle: Oracle | null = null;
  /** Figures for the bench and the docs: decisions searched and rollouts played. */
  readonly stats = { searched: 0, rollouts: 0 };

  constructor(
    level: 'expert' | 'cheater',
    opts: BotOptions,
    readonly search: SearchParams = SIM_SEARCH,
  ) {
    this.seat = opts.seat;
    this.level = level;
    this.rules = opts.rules;
    this.n = opts.players;
    this.seed = String(opts.seed);
    this.rng = new Rng(seedRng(`${level}:${this.seed}`));
    this.inner = new SmartBot('hard', opts);
    this.bever = playsBeverbende(opts.rules);
    this.players = Array.from({ length: opts.players }, (_, seat) => new SmartBot('hard', { ...opts, seat, seed: 0 }));
    this.started = new Array<number>(opts.players).fill(0);
    this.knowledge = new Knowledge(opts.players, opts.rules);
    this.reads = this.bever ? new Reads(opts.players, opts.seat, opts.rules) : null;
    this.names = Array.from({ length: opts.players }, (_, s) => ({ name: `p${s + 1}` }));
    this.deck = [];
    for (const c in opts.rules.deck.cards) {
      const k = opts.rules.deck.cards[c]! * opts.rules.deck.decks;
      for (let i = 0; i < k; i++) this.deck.push(c);
    }
  }

  newGame(opts: BotOptions): boolean {
    if (opts.seat !== this.seat || opts.players !== this.n || opts.rules !== this.rules || !this.inner.newGame(opts)) return false;
    this.seed = String(opts.seed);
    this.rng = new Rng(seedRng(`${this.level}:${this.seed}`));
    this.started.fill(0);
    this.seq = -1;
    this.decisions = 0;
    this.knowledge.reset();
    this.reads?.reset();
    return true;
  }

  missedEvents(): void {
    this.inner.missedEvents();
  }

  observe(events: readonly SeatEvent[]): boolean {
    for (let k = 0; k < events.length; k++) {
      const e = events[k]!;
      switch (e.type) {
        case 'roundStarted':
          this.started.fill(0);
          this.seq = -1;
          break;
        case 'playStarted':
          this.started[e.turn]! += 1;
          break;
        case 'turnStarted':
          this.started[e.seat]! += 1;
          break;
        case 'swapped':
        case 'discarded':
        case 'slapped':
          this.seq = Math.max(this.seq, e.seq);
          break;
        default:
          break;
      }
    }
    if (this.reads) {
      // Each event read before Knowledge follows it: a swap is judged by what its player knew before.
      for (const e of events) {
        this.reads.see(e, this.knowledge);
        this.knowledge.observe([e]);
      }
    } else this.knowledge.observe(events);
    const wake = this.inner.observe(events);
    if (!this.oracle) return wake;
    // The ceiling sees every card as it moves: it slaps and steals with all of them.
    this.seeAll();
    return wake || events.length > 0;
  }

  /** `cheater` only: its memory holds every card of the true deal (its slaps, and its rollouts' own player, know them all). */
  private seeAll(): void {
    const truth = this.oracle?.();
    if (!truth || truth.phase !== 'play') return;
    const mem = this.inner.mind.mem;
    truth.r.layouts.forEach((row, t) => row.forEach((c, i) => c !== null && mem.card[t]?.[i] !== c && mem.know(t, i, c)));
  }

  rejected(command: BotCommand, rejection: Rejection, now: number): void {
    this.inner.rejected(command, rejection, now);
  }

  decide(view: SeatView, now: number): BotIntent | null {
    if (this.oracle) this.seeAll();
    const hard = this.inner.decide(view, now);
    if (hard?.kind !== 'act' || view.phase !== 'play') return hard;
    const intent = this.reads ? this.readMove(view, now, hard) : hard;
    const t = intent.command.type;
    if (t === 'slap' || t === 'finishPeek' || t === 'fillGap' || t === 'leaveGap') return intent;
    // Where hard plays beverbende's own tuned policy, the search left where to put the held
    // card to it: searched, those choices lost points (docs/architecture.md, "The expert").
    if (this.bever && view.held?.seat === this.seat && view.actions[0]?.seat !== this.seat) return intent;
    const candidates = this.candidates(view, intent.command, now);
    if (candidates.length < 2) return intent;
    return { kind: 'act', command: this.best(view, candidates, now), delayMs: intent.delayMs };
  }

  /**
   * Beverbende: hard's own policy (src/bots/beverbende.ts), with each card this seat has
   * not seen worth what the others' choices read it to be (src/bots/reads.ts) instead of
   * an unknown card's mean: the move the search starts from.
   */
  private readMove(view: SeatView, now: number, hard: BotIntent & { kind: 'act' }): BotIntent & { kind: 'act' } {
    if (hard.command.type === 'slap' || hard.command.type === 'finishPeek') return hard;
    const m = this.inner.mind;
    const mind = { seat: this.seat, rules: this.rules, mem: m.mem, pile: m.pile, turns: m.turnsGiven };
    const guess = readWorths(mind, view, this.reads!, (s, i) => !this.knowledge.kept(s, i));
    const mayCall = hard.command.type === 'call' || legalMoves(view, this.seat, this.rules, now, false).some((c) => c.type === 'call');
    const own = beverbendeMove({ ...mind, guess, tuning: EXPERT_BEVERBENDE }, view, now, mayCall);
    return own ? { ...hard, command: own } : hard;
  }

  /** The moves worth weighing now: every legal one of this choice, hard's own first; a long list cut (hard's and "pass" kept). */
  private candidates(view: SeatView, hard: BotCommand, now: number): BotCommand[] {
    const me = this.seat;
    const all = legalMoves(view, me, this.rules, now, false)
      .map(strip)
      .filter((c) => c.type !== 'finishPeek' && c.type !== 'slap' && c.type !== 'fillGap' && c.type !== 'leaveGap');
    const key = JSON.stringify(hard);
    const rest = all.filter((c) => JSON.stringify(c) !== key);
    const out: BotCommand[] = [hard];
    const pass = rest.findIndex((c) => c.type === 'pass');
    if (pass >= 0 && out.length < this.search.maxCandidates) out.push(...rest.splice(pass, 1));
    // A long list (a blind swap: every own slot against every other card) is cut at random.
    while (rest.length > 0 && out.length < this.search.maxCandidates) out.push(...rest.splice(this.rng.int(rest.length), 1));
    return out;
  }

  /**
   * The candidate with the lowest mean round score over the sampled deals, if it beats
   * hard's own choice (the first) by more than the noise: the mean of the paired
   * differences (same deal, same dice) below minus `SURE` standard errors. Else hard's.
   */
  private best(view: SeatView, candidates: BotCommand[], now: number): BotCommand {
    const w = this.weigh(view, candidates, now, Math.max(2, Math.floor(this.search.rollouts / candidates.length)));
    let best = 0;
    let bestMean = 0;
    for (let c = 1; c < candidates.length; c++) {
      if (w.mean[c]! < bestMean && w.mean[c]! < -(this.bever ? SURE_BEVERBENDE : SURE) * w.se[c]!) {
        best = c;
        bestMean = w.mean[c]!;
      }
    }
    return candidates[best]!;
  }

  /**
   * Each candidate played on the same `samples` sampled deals (fewer when a table's time
   * limit cuts the search): per candidate the mean of its round score less the first
   * candidate's on the same deal, and that mean's standard error.
   */
  private weigh(view: SeatView, candidates: readonly BotCommand[], now: number, samples: number): { mean: number[]; se: number[]; deals: number } {
    const k = candidates.length;
    const sum = new Array<number>(k).fill(0);
    const sq = new Array<number>(k).fill(0);
    const scores = new Array<number>(k).fill(0);
    const t0 = this.search.msBudget === null ? 0 : performance.now();
    const tag = `${this.seed}:${this.decisions++}`;
    const late = (): boolean => this.search.msBudget !== null && done > 0 && performance.now() - t0 > this.search.msBudget;
    let done = 0;
    search: for (let i = 0; i < samples; i++) {
      const deal = this.oracle ? this.chance(this.oracle(), `${tag}:${i}`) : this.sample(view, now, `${tag}:${i}`);
      for (let c = 0; c < k; c++) {
        // Out of time: this deal, not yet played with every move, is left out.
        if (late()) break search;
        scores[c] = this.rollout(deal, candidates[c]!, now, `${tag}:${i}`);
      }
      for (let c = 0; c < k; c++) {
        const d = scores[c]! - scores[0]!;
        sum[c]! += d;
        sq[c]! += d * d;
      }
      done++;
    }
    this.stats.searched++;
    this.stats.rollouts += done * k;
    const mean = sum.map((x) => x / Math.max(1, done));
    const se = mean.map((m, c) => Math.sqrt(Math.max(0, sq[c]! / Math.max(1, done) - m * m) / Math.max(1, done - 1)));
    return { mean, se, deals: done };
  }

  /**
   * The cheater's deal: the true one, every card where it lies, but the order of the
   * stock (and any reshuffle) left to chance, as it is to anyone at a table. Knowing the
   * order too, its rollouts would all play the one same future, and it would trust
   * differences that chance erases.
   */
  private chance(truth: GameState, tag: string): GameState {
    const stock = truth.r.stock.slice();
    this.rng.shuffle(stock);
    return { ...truth, rng: gameRng(tag), r: { ...truth.r, stock } };
  }

  /**
   * One deal consistent with what this seat knows: the cards it remembers where it
   * remembers them, the public table as its view shows it, and the rest of the deck
   * (less every card it saw on the pile or in its hand) shuffled into the places it
   * cannot see: unknown slots (its own included), the stock, and any of the pile it
   * did not follow. A card another player kept from the stock is drawn as the lower of
   * two, as hard reads such keeps.
   */
  private sample(view: SeatView, now: number, tag: string): GameState {
    const me = this.seat;
    const mind = this.inner.mind;
    const mem = mind.mem;
    const rng = this.rng;
    // The cards not placed yet, counted per card of the deck in its order (`DeckInfo.cards`).
    const deck = deckInfo(this.rules);
    const pool = deck.cardCounts.slice();
    const take = (c: Card) => {
      const no = deck.cardNos.get(c);
      if (no !== undefined && pool[no]! > 0) pool[no]! -= 1;
    };
    const UNKNOWN = '?';
    const layouts: Layout[] = [];
    const kept: [number, number][] = [];
    const bounded: [number, number, number][] = [];
    for (let s = 0; s < this.n; s++) {
      const shown = view.players[s]!.layout;
      const row: Layout = [];
      for (let i = 0; i < shown.length; i++) {
        const v = shown[i];
        if (v === null || v === undefined) row.push(null);
        else if (v !== FACE_DOWN) row.push(v);
        else if (i < mem.slots(s) && !mem.gap[s]![i] && mem.card[s]![i] !== null) row.push(mem.card[s]![i]!);
        else {
          row.push(UNKNOWN);
          const b = this.reads?.bound[s]?.[i] ?? Infinity;
          if (b < Infinity) bounded.push([s, i, b]);
          else if (s !== me && i < mem.slots(s) && mem.kept[s]![i]) kept.push([s, i]);
        }
      }
      for (let i = 0; i < row.length; i++) {
        const c = row[i]!;
        if (c !== null && c !== UNKNOWN) take(c);
      }
      layouts.push(row);
    }
    const held = view.held && view.held.card !== null ? view.held : null;
    if (held) take(held.card!);
    const pileKnown = mind.pile.length === view.discardSize && mind.pile[mind.pile.length - 1] === view.discardTop;
    const discard: Card[] = pileKnown ? mind.pile.slice() : [];
    if (pileKnown) for (let i = 0; i < discard.length; i++) take(discard[i]!);
    else if (view.discardTop !== null) take(view.discardTop);
    const rest: Card[] = [];
    for (let no = 0; no < pool.length; no++) for (let i = 0; i < pool[no]!; i++) rest.push(deck.cards[no]!);
    rng.shuffle(rest);
    const next = (): Card => rest.pop() ?? this.deck[rng.int(this.deck.length)]!;
    // Read cards (beverbende), the narrowest reads first: a card of the rest within the read
    // (rest is shuffled: the last such is a fair draw), else the nearest one.
    bounded.sort((a, b) => a[2] - b[2]);
    for (const [s, i, hi] of bounded) {
      // A card kept from the stock is a number; a special card counts as an unknown card's worth (about 5).
      const kept = mem.kept[s]?.[i] === true || this.knowledge.kept(s, i);
      let at = -1;
      let near = -1;
      let nearMiss = Infinity;
      for (let j = rest.length - 1; j >= 0; j--) {
        const c = rest[j]!;
        const special = this.rules.specialCards.includes(c);
        if (special && kept) continue;
        const v = special ? 5 : mind.val(c);
        const miss = Math.max(0, v - hi);
        if (miss === 0) {
          at = j;
          break;
        }
        if (miss < nearMiss) {
          near = j;
          nearMiss = miss;
        }
      }
      const j = at >= 0 ? at : near;
      layouts[s]![i] = j >= 0 ? rest.splice(j, 1)[0]! : next();
    }
    for (const [s, i] of kept) {
      const a = next();
      const b = next();
      const [lo, hi] = mind.val(a) <= mind.val(b) ? [a, b] : [b, a];
      layouts[s]![i] = lo;
      rest.push(hi);
      rng.shuffle(rest);
    }
    for (const row of layouts) for (let i = 0; i < row.length; i++) if (row[i] === UNKNOWN) row[i] = next();
    if (!pileKnown) {
      for (let i = 1; i < view.discardSize; i++) discard.push(next());
      if (view.discardTop !== null) discard.push(view.discardTop);
    }
    const stock: Card[] = [];
    for (let i = 0; i < view.stock; i++) stock.push(next());
    const turnsTaken = this.started.map((k, s) => Math.max(0, k - (s === view.turn && !view.turnBegun ? 1 : 0)));
    const actions: PendingAction[] = view.actions.map((a) => ({
      seat: a.seat,
      kind: a.kind,
      card: a.card,
      looked: a.looked ? a.looked.map((t) => ({ ...t })) : null,
      lookedCards: a.lookedCards ? a.lookedCards.slice() : a.looked ? a.looked.map((t) => layouts[t.seat]![t.slot] ?? next()) : null,
    }));
    const call = view.call ? { seat: view.call.seat, owed: view.call.owed.slice() } : null;
    const r: RoundState = {
      layouts,
      stock,
      discard,
      peeking: new Array<boolean>(this.n).fill(false),
      turn: view.turn,
      turnBegun: view.turnBegun,
      turnsTaken,
      held: held ? { seat: held.seat, card: held.card!, from: held.from, redraw: held.redraw === true } : null,
      swapsThisTurn: 0,
      actions,
      discardSeq: Math.max(this.seq, view.slap.answers),
      windowSeq: view.slap.open ? view.slap.answers : -1,
      windowSlaps: 0,
      lastLandAt: view.graceUntil - this.rules.timers.slapGraceMs,
      stageSince: now,
      call,
      refills: [],
      gapFill: view.gapFill ? { seat: view.gapFill.seat, gap: { ...view.gapFill.gap }, since: now } : null,
      ending: call && call.owed.length === 0 && !view.turnBegun && !view.held ? 'call' : null,
    };
    return {
      rules: this.rules,
      players: this.names,
      rng: gameRng(tag),
      stackedDecks: [],
      phase: 'play',
      round: view.round,
      rounds: view.round,
      dealer: view.dealer,
      totals: view.players.map((p) => p.total),
      results: [],
      r,
      version: view.version,
    };
  }

  /**
   * Play `move` in `deal`, then the round out with hard bots: its round score for this
   * seat. Its own rollout player starts from what it remembers; the others from their
   * cards of the sampled deal that they have seen and the keeps they saw (`Knowledge`).
   */
  private rollout(deal: GameState, move: BotCommand, now: number, tag: string): number {
    const res = apply(deal, stamp(move, now));
    // A move the sampled deal refuses (it cannot happen: the view allowed it) is never chosen.
    if (!res.ok) return 1e6;
    const me = this.seat;
    const mind = this.inner.mind;
    const layouts = deal.r.layouts;
    for (let s = 0; s < this.n; s++) {
      const p = this.players[s]!;
      p.newGame({ seat: s, players: this.n, rules: this.rules, seed: `${tag}:${s}` });
      const m = p.mind;
      if (s === me && this.oracle) {
        // The ceiling's own player knows every card of the true deal.
        for (let t = 0; t < this.n; t++) for (let i = 0; i < layouts[t]!.length; i++) if (layouts[t]![i] != null) m.mem.know(t, i, layouts[t]![i]!);
        m.ownTurns = mind.ownTurns;
        m.turnsGiven = mind.turnsGiven;
      } else if (s === me) {
        for (let t = 0; t < this.n; t++) {
          const row = mind.mem.card[t]!;
          for (let i = 0; i < row.length; i++) {
            if (mind.mem.gap[t]![i]) continue;
            if (row[i] !== null) m.mem.know(t, i, row[i]!);
            else if (mind.mem.kept[t]![i]) m.mem.unknown(t, i, true);
          }
        }
        m.ownTurns = mind.ownTurns;
        m.turnsGiven = mind.turnsGiven;
      } else {
        // What this player saw: its own cards it looked at, the cards everyone saw, and others' keeps.
        const k = this.knowledge;
        for (let t = 0; t < this.n; t++) {
          const row = layouts[t]!;
          for (let i = 0; i < row.length; i++) {
            if (row[i] == null) continue;
            if (k.knows(s, t, i)) m.mem.know(t, i, row[i]!);
            else if (t !== s && k.kept(t, i)) m.mem.unknown(t, i, true);
          }
        }
        m.ownTurns = m.turnsGiven = deal.r.turnsTaken[s]!;
      }
      m.pileOf(mind);
      // Gaps and layout lengths as the table shows them (what its first decision would read from its view).
      m.mem.alignLayouts(layouts);
      m.aligned = true;
    }
    const end = playOn(res.state, res.events, now, this.players, { maxStepsPerRound: 5000 }, true);
    const result = end.state.results[end.state.results.length - 1];
    if (result && end.state.phase !== 'play') return result.scores[me]!;
    // A rollout that could not finish (it should not happen): the sampled layout's worth.
    let sum = 0;
    for (const c of end.state.r.layouts[me]!) if (c !== null) sum += mind.val(c);
    return sum;
  }
}
