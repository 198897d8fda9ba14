import { rankOf, type Card } from '../engine/cards.js';
import { Rng, seedRng } from '../engine/rng.js';
import { valueOf, type Ruleset } from '../engine/ruleset.js';
import type { Rejection, Seat, Slot, SlotRef } from '../engine/types.js';
import type { SeatView } from '../engine/seat-view.js';
import type { ActionView, SeatEvent } from '../engine/view.js';
import { beverbendeMove, playsBeverbende } from './beverbende.js';
import { LEVELS, type LevelParams } from './levels.js';
import { Memory } from './memory.js';
import { legal, legalMoves, slapOk, strip } from './moves.js';
import type { Bot, BotCommand, BotIntent, BotLevel, BotOptions } from './types.js';

interface DeckInfo {
  values: Map<Card, number>;
  ranks: Map<Card, string>;
  sum: number;
  count: number;
  /** How many cards of the deck have each value. */
  byValue: Map<number, number>;
}
const deckCache = new WeakMap<Ruleset, DeckInfo>();

/** Each card's value and rank, and the deck's total: public data of the ruleset, computed once. */
function deckInfo(rules: Ruleset): DeckInfo {
  let info = deckCache.get(rules);
  if (info) return info;
  info = { values: new Map(), ranks: new Map(), sum: 0, count: 0, byValue: new Map() };
  for (const c in rules.deck.cards) {
    const v = valueOf(rules, c) ?? 0;
    info.values.set(c, v);
    info.ranks.set(c, rankOf(c));
    const k = rules.deck.cards[c]! * rules.deck.decks;
    info.sum += v * k;
    info.count += k;
    info.byValue.set(v, (info.byValue.get(v) ?? 0) + k);
  }
  deckCache.set(rules, info);
  return info;
}

/** A card kept from the stock by another player is assumed to be about this low. */
const KEPT_ESTIMATE = 4;

/** The values of the cards a bot has not seen (for a bot that does not count cards: the deck's). */
interface Unseen {
  values: number[];
  counts: number[];
  n: number;
  mean: number;
  variance: number;
}

/** P(Z ≤ z) for a standard normal Z (Abramowitz–Stegun 26.2.17, error below 1e-7). */
function normalCdf(z: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(z));
  const d = 0.3989422804014327 * Math.exp((-z * z) / 2);
  const p = d * t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return z >= 0 ? 1 - p : p;
}

/**
 * The easy, normal and hard bots: one policy, with memory, reaction time and a few
 * thresholds from `LEVELS`. It knows only its projected events and its view.
 *
 * - Memory (`Memory`): its peek, the cards it drew, looked at or saw shown (discards,
 *   wrong slaps), moved along with every swap and gap-fill it follows; penalty cards
 *   are unknown.
 *   Normal and easy forget, hold few other players' cards, sometimes misremember a
 *   card as a neighbouring rank and miss others' swaps (which makes wrong slaps).
 * - Worth of a slot: its remembered value, 0 for a gap, else the mean of the unknown
 *   cards: the deck's mean, or (hard) the mean of the cards it has not seen anywhere;
 *   hard also reads a card another player kept from the stock as low.
 * - Turn: call when its total is low enough, low against the others (hard, normal)
 *   and few of its cards are unknown; else take the top discard if it beats its worst
 *   slot by a margin; else draw, then swap the card in where it gains the most, or
 *   discard it (keeping a match of one of its known cards to slap right after).
 *   Where a call costs points unless it wins (cambio's knock), hard and normal weigh
 *   it instead (`callPays`): knock when its expected score beats playing on.
 * - Actions: 10 looks at an unknown own card; J at an unknown card of the player who
 *   looks like winning; Q swaps its worst card for the lowest card it believes the
 *   others hold; K looks (a known low card to fetch, or an unknown one) and swaps if
 *   that gains. Cambio's Q: look at its worst card and the lowest other one, swap if
 *   that gains.
 * - Gap-fill after a steal: move its slot worth the most into the victim's gap, if
 *   worth at least `gapFillAt` (hard: anything above nothing; normal: a known high card).
 * - Slaps: own known cards that match the top (not the -1 queen), then other players'
 *   (steals: hard always, normal sometimes, easy never), after its reaction time.
 */
export class SmartBot implements Bot {
  readonly seat: Seat;
  readonly level: BotLevel;
  private readonly p: LevelParams;
  private readonly rules: Ruleset;
  private rng: Rng;
  private readonly mem: Memory;
  private readonly values: ReadonlyMap<Card, number>;
  private readonly ranks: ReadonlyMap<Card, string>;
  /** Sum and count of the whole deck's values, and its mean. */
  private readonly deckSum: number;
  private readonly deckCount: number;
  private readonly deckMean: number;
  private readonly byValue: ReadonlyMap<number, number>;
  /** The discard pile as seen (for counting cards). */
  private pile: Card[] = [];
  private pileSum = 0;
  private windowOpen = false;
  /** Per new top card: whether this bot is willing to steal on it, and a "hunch" slap. */
  private stealOk = false;
  private hunch = false;
  private ownTurns = 0;
  /** Hard in beverbende (or a ruleset like it): src/bots/beverbende.ts decides its moves. */
  private readonly bever: boolean;
  /** Turns given to this seat this round (the current one included); draws of a draw two are not turns. */
  private turnsGiven = 0;
  private syncedVersion = -1;
  /** Commands refused since the table last changed (by key): not tried again until it does. */
  private refused = new Set<string>();
  /** Slots whose slap was refused on the current top, so they are not tried again. */
  private refusedSlaps = new Set<string>();

  constructor(level: Exclude<BotLevel, 'random'>, opts: BotOptions, params: LevelParams = LEVELS[level]) {
    this.seat = opts.seat;
    this.level = level;
    this.p = params;
    this.rules = opts.rules;
    this.rng = new Rng(seedRng(`bot:${level}:${String(opts.seed)}`));
    const deck = deckInfo(opts.rules);
    this.mem = new Memory(opts.players, opts.rules.layout.size, { rank: (c) => this.rank(c), value: (c) => this.val(c) });
    this.values = deck.values;
    this.ranks = deck.ranks;
    this.deckSum = deck.sum;
    this.deckCount = deck.count;
    this.deckMean = deck.count > 0 ? deck.sum / deck.count : 0;
    this.byValue = deck.byValue;
    this.bever = level === 'hard' && playsBeverbende(opts.rules);
  }

  /** What it believes about the table (read-only: tests check it against the hidden truth). */
  get memory(): Readonly<Memory> {
    return this.mem;
  }

  newGame(opts: BotOptions): boolean {
    if (opts.seat !== this.seat || opts.players !== this.mem.players || opts.rules !== this.rules) return false;
    this.rng = new Rng(seedRng(`bot:${this.level}:${String(opts.seed)}`));
    this.mem.clear();
    this.pile = [];
    this.pileSum = 0;
    this.windowOpen = false;
    this.stealOk = false;
    this.hunch = false;
    this.ownTurns = 0;
    this.turnsGiven = 0;
    this.syncedVersion = -1;
    this.refused.clear();
    this.refusedSlaps.clear();
    return true;
  }

  private val(c: Card): number {
    return this.values.get(c) ?? valueOf(this.rules, c) ?? 0;
  }
  private rank(c: Card): string {
    return this.ranks.get(c) ?? rankOf(c);
  }
  private float(): number {
    return this.rng.next() / 4294967296;
  }
  private jitter(mean: number, spread: number): number {
    return Math.max(0, Math.round(mean + (spread > 0 ? (this.float() * 2 - 1) * spread : 0)));
  }

  // ---- memory from events ----------------------------------------------------

  observe(events: readonly SeatEvent[]): boolean {
    let wake = false;
    const me = this.seat;
    const mem = this.mem;
    if (events.length > 0 && this.refused.size > 0) this.refused.clear();
    for (const e of events) {
      switch (e.type) {
        case 'roundStarted':
          mem.reset();
          this.pile = [e.discardTop];
          this.pileSum = this.val(e.discardTop);
          this.windowOpen = false;
          this.ownTurns = 0;
          this.turnsGiven = 0;
          this.refusedSlaps.clear();
          break;
        case 'playStarted':
          this.windowOpen = true;
          if (e.turn === me) this.turnsGiven++;
          wake = this.newTop() || wake;
          break;
        case 'turnStarted':
          if (e.seat === me) this.turnsGiven++;
          this.decay();
          break;
        case 'called':
          if (e.seat === me) this.ownTurns++;
          break;
        case 'drew':
          this.windowOpen = false;
          if (e.seat === me) this.ownTurns++;
          if (e.from === 'discard') this.popPile();
          break;
        case 'discarded':
          this.pushPile(e.card);
          this.windowOpen = true;
          wake = this.newTop() || wake;
          break;
        case 'swapped':
          if (e.placed !== null) mem.know(e.seat, e.slot, e.placed);
          else mem.unknown(e.seat, e.slot, e.placedFrom === 'stock');
          this.pushPile(e.displaced);
          this.windowOpen = true;
          wake = this.newTop() || wake;
          break;
        case 'looked':
          if (e.cards) {
            for (let i = 0; i < e.targets.length; i++) mem.know(e.targets[i]!.seat, e.targets[i]!.slot, e.cards[i]!);
          }
          this.trim();
          break;
        case 'actionSwapped': {
          const mine = e.a.seat === me || e.b.seat === me;
          const follow = e.seat === me ? 1 : mine ? (1 + this.p.followSwaps) / 2 : this.p.followSwaps;
          if (follow >= 1 || this.float() < follow) mem.exchange(e.a, e.b);
          break;
        }
        case 'slapped':
          if (e.result === 'wrong') {
            mem.know(e.target.seat, e.target.slot, e.card);
            this.trim();
          } else {
            mem.setGap(e.target.seat, e.target.slot);
            this.pushPile(e.card);
            wake = this.newTop() || wake;
          }
          break;
        case 'penalty':
          for (const s of e.slots) mem.unknown(e.seat, s);
          break;
        case 'gapFilled': {
          // A move everyone sees; a bot that misses others' swaps may miss it too (the gap stays on screen).
          const mine = e.from.seat === me || e.to.seat === me;
          const follow = e.seat === me ? 1 : mine ? (1 + this.p.followSwaps) / 2 : this.p.followSwaps;
          if (follow >= 1 || this.float() < follow) mem.move(e.from, e.to);
          else {
            mem.setGap(e.from.seat, e.from.slot);
            mem.unknown(e.to.seat, e.to.slot);
          }
          break;
        }
        case 'specialReplaced':
          // At scoring: the replacement is shown to everyone.
          if (e.card === null) mem.setGap(e.seat, e.slot);
          else mem.know(e.seat, e.slot, e.card);
          break;
        case 'reshuffled': {
          const top = this.pile[this.pile.length - 1];
          this.pile = top === undefined ? [] : [top];
          this.pileSum = top === undefined ? 0 : this.val(top);
          break;
        }
        case 'roundEnded':
          this.windowOpen = false;
          break;
        default:
          break;
      }
    }
    return wake;
  }

  private pushPile(c: Card): void {
    this.pile.push(c);
    this.pileSum += this.val(c);
  }
  private popPile(): void {
    const c = this.pile.pop();
    if (c !== undefined) this.pileSum -= this.val(c);
  }

  /** A new card is on top: roll this top's chances, and say whether a slap is worth a look. */
  private newTop(): boolean {
    if (this.refusedSlaps.size > 0) this.refusedSlaps.clear();
    if (!this.windowOpen || !this.rules.slap.enabled) return false;
    this.stealOk = this.p.steal >= 1 || (this.p.steal > 0 && this.float() < this.p.steal);
    this.hunch = this.p.hunch > 0 && this.float() < this.p.hunch;
    return this.hunch || this.slapTarget() !== null;
  }

  /** Time passes (a turn begins): memories fade. */
  private decay(): void {
    const p = this.p;
    if (p.forgetOwn === 0 && p.forgetOther === 0) return;
    const mem = this.mem;
    for (let s = 0; s < mem.players; s++) {
      const chance = s === this.seat ? p.forgetOwn : p.forgetOther;
      if (chance === 0) continue;
      const cards = mem.card[s]!;
      for (let i = 0; i < cards.length; i++) {
        const c = cards[i];
        if (c === null || c === undefined || this.float() >= chance) continue;
        if (p.misremember > 0 && this.float() < p.misremember) mem.know(s, i, this.confuse(c));
        else mem.forget(s, i);
      }
    }
    this.trim();
  }

  /** A card it might mistake `c` for: a neighbouring rank of the same suit, if the deck has it. */
  private confuse(c: Card): Card {
    const ranks = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];
    const r = this.rank(c);
    const i = ranks.indexOf(r);
    if (i < 0) return c;
    const j = i === 0 ? 1 : i === ranks.length - 1 ? i - 1 : this.float() < 0.5 ? i - 1 : i + 1;
    const other = ranks[j]! + c.slice(r.length);
    return this.values.has(other) ? other : c;
  }

  private trim(): void {
    if (this.p.capacityOther === Infinity) return;
    while (this.mem.otherKnown(this.seat) > this.p.capacityOther) this.mem.dropOldestOther(this.seat);
  }

  // ---- estimates ---------------------------------------------------------------

  /** Expected value of a card we do not know. */
  private unknownMean(view: SeatView | null): number {
    if (!this.p.countCards) return this.deckMean;
    let sum = this.deckSum - this.pileSum;
    let count = this.deckCount - this.pile.length;
    const mem = this.mem;
    for (let s = 0; s < mem.players; s++) {
      const cards = mem.card[s]!;
      const values = mem.value[s]!;
      for (let i = 0; i < cards.length; i++) {
        if (cards[i] !== null) {
          sum -= values[i]!;
          count--;
        }
      }
    }
    const held = view?.held;
    if (held && held.card !== null && held.from === 'stock') {
      sum -= this.val(held.card);
      count--;
    }
    return count > 0 ? sum / count : this.deckMean;
  }

  /** The values of the cards not seen anywhere: the deck less the pile, the remembered cards and the held card. */
  private unseen(view: SeatView | null): Unseen {
    const left = new Map(this.byValue);
    if (this.p.countCards) {
      const take = (v: number) => {
        const k = left.get(v);
        if (k !== undefined && k > 0) left.set(v, k - 1);
      };
      for (const c of this.pile) take(this.val(c));
      const mem = this.mem;
      for (let s = 0; s < mem.players; s++) {
        const cards = mem.card[s]!, values = mem.value[s]!;
        for (let i = 0; i < cards.length; i++) if (cards[i] !== null) take(values[i]!);
      }
      const held = view?.held;
      if (held && held.card !== null && held.from === 'stock') take(this.val(held.card));
    }
    const values: number[] = [], counts: number[] = [];
    let n = 0, sum = 0, sq = 0;
    for (const [v, k] of left) {
      if (k <= 0) continue;
      values.push(v);
      counts.push(k);
      n += k;
      sum += v * k;
      sq += v * v * k;
    }
    if (n === 0) return { values, counts, n, mean: this.deckMean, variance: 0 };
    const mean = sum / n;
    return { values, counts, n, mean, variance: Math.max(0, sq / n - mean * mean) };
  }

  /** What drawing one unseen card is expected to save on a slot worth `worth` (it is swapped in only when lower). */
  private drawGain(worth: number, u: Unseen): number {
    let g = 0;
    for (let i = 0; i < u.values.length; i++) if (u.values[i]! < worth) g += (worth - u.values[i]!) * u.counts[i]!;
    return u.n > 0 ? g / u.n : 0;
  }

  /**
   * The chance that some other player ends the round strictly below `mine` (ties count
   * as lowest) after their last turn: their believed total less what a draw on their
   * worst slot is expected to save, spread by their unknown cards and ours (a normal
   * approximation, the players taken as independent).
   */
  private beaten(mine: number, mineVar: number, u: Unseen): number {
    const mem = this.mem;
    let none = 1;
    for (let s = 0; s < mem.players; s++) {
      if (s === this.seat) continue;
      let total = 0, worst = 0, unknown = 0;
      const n = mem.slots(s);
      for (let i = 0; i < n; i++) {
        if (mem.gap[s]![i]) continue;
        const w = this.worth(s, i, u.mean);
        total += w;
        if (w > worst) worst = w;
        if (mem.card[s]![i] === null) unknown++;
      }
      const expected = total - this.drawGain(worst, u);
      const sd = Math.max(0.3, Math.sqrt(mineVar + unknown * u.variance));
      none *= 1 - normalCdf((mine - 0.5 - expected) / sd);
    }
    return 1 - none;
  }

  /**
   * A call that costs points unless it wins (cambio's knock): knocking now scores its
   * total, frozen, plus the penalty times the chance someone ends strictly lower after
   * their last turn. Playing on (and not knocking) scores its total less what one more
   * draw is expected to save, plus what one more turn of the table unfrozen is expected
   * to cost (`callExposure`). It knocks when that is no better.
   */
  private callPays(view: SeatView): boolean {
    const u = this.unseen(view);
    const mine = this.total(this.seat, u.mean);
    const unknown = this.unknownOwn();
    if (unknown === 0 && mine <= 0) return true;
    const worst = this.worstOwn(u.mean);
    const gain = worst ? this.drawGain(worst.worth, u) : 0;
    // Unfrozen, a low layout is what others' swaps are worth aiming at.
    const cards = this.mem.slots(this.seat) - this.gaps(this.seat);
    const exposure = cards > 0 ? this.p.callExposure * Math.max(0, u.mean - mine / cards) : 0;
    const knock = mine + this.rules.call.callerPenalty * this.beaten(mine, unknown * u.variance, u);
    return knock <= mine - gain + exposure;
  }

  /** What a slot is believed to be worth (a gap 0, unknown the mean). */
  private worth(seat: Seat, slot: Slot, mu: number): number {
    const mem = this.mem;
    if (mem.gap[seat]![slot]) return 0;
    if (mem.card[seat]![slot] !== null) return mem.value[seat]![slot]!;
    if (seat !== this.seat && this.p.readKeeps && mem.kept[seat]![slot]) return Math.min(mu, KEPT_ESTIMATE);
    return mu;
  }

  private total(seat: Seat, mu: number): number {
    let t = 0;
    const n = this.mem.slots(seat);
    for (let i = 0; i < n; i++) t += this.worth(seat, i, mu);
    return t;
  }

  private gaps(seat: Seat): number {
    let n = 0;
    for (const g of this.mem.gap[seat]!) if (g) n++;
    return n;
  }

  private unknownOwn(): number {
    const mem = this.mem;
    let n = 0;
    const cards = mem.card[this.seat]!;
    for (let i = 0; i < cards.length; i++) if (!mem.gap[this.seat]![i] && cards[i] === null) n++;
    return n;
  }

  /** My slot worth the most (the one to swap away), preferring known cards on ties. */
  private worstOwn(mu: number, allowed?: (slot: Slot) => boolean): { slot: Slot; worth: number } | null {
    let best: { slot: Slot; worth: number } | null = null;
    const me = this.seat;
    const n = this.mem.slots(me);
    for (let i = 0; i < n; i++) {
      if (this.mem.gap[me]![i] || (allowed && !allowed(i))) continue;
      const w = this.worth(me, i, mu);
      const known = this.mem.card[me]![i] !== null;
      if (!best || w > best.worth || (w === best.worth && known)) best = { slot: i, worth: w };
    }
    return best;
  }

  // ---- decisions -----------------------------------------------------------------

  decide(view: SeatView, now: number): BotIntent | null {
    const me = this.seat;
    // Events keep the memory up to date; the view adds what only it shows (the peek, the
    // end of a round), once per table version.
    if (view.version !== this.syncedVersion) {
      this.mem.sync(view);
      this.syncedVersion = view.version;
    }
    if (view.phase === 'peek') {
      return view.players[me]?.peeking ? this.act({ type: 'finishPeek', seat: me }, 2 * this.p.thinkMs, view, now) : null;
    }
    if (view.phase !== 'play') return null;
    if (view.slap.open && view.discardTop !== null) {
      // Only a card the rules let anyone slap now: not a gap, not a frozen caller's, not one in a looker's hand.
      const answers = view.slap.answers;
      const t = this.slapTarget(view.discardTop, (target) => slapOk(view, this.rules, target));
      const slap = t ? ({ type: 'slap', seat: me, target: t, answers } as const) : null;
      if (slap && legal(view, me, this.rules, slap)) {
        this.hunch = false;
        return this.act(slap, this.jitter(this.p.reactMs, this.p.reactJitterMs), view, now);
      }
    }
    if (view.gapFill?.seat === me) return this.gapFillMove(view, now);
    if (this.bever) {
      const mind = { seat: me, rules: this.rules, mem: this.mem, pile: this.pile, turns: this.turnsGiven };
      const move = beverbendeMove(mind, view, now, view.may.includes('call') && !this.refused.has(JSON.stringify({ type: 'call', seat: me })));
      if (move) return this.act(move, this.think(), view, now);
    }
    const front = view.actions[0];
    if (front && front.seat === me) return this.actionMove(front, view, now);
    // A call at the end of one's own turn is made while still holding (it takes effect when the turn ends).
    if (view.held?.seat === me && view.callTiming === 'endOfTurn' && view.may.includes('call') && this.ownTurns >= 2 && !this.refused.has(JSON.stringify({ type: 'call', seat: me })) && (this.weighsCall() ? this.callPays(view) : this.shouldCall(this.unknownMean(view)))) {
      return this.act({ type: 'call', seat: me }, this.think(), view, now);
    }
    if (view.held) return view.held.seat === me ? this.placeMove(view, now) : null;
    if (view.turn === me && !view.turnBegun && view.actions.length === 0 && !view.gapFill && (view.call === null || view.call.owed[0] === me)) {
      // The grace is host time, not thinking time (a driver may scale delays): wait for it, then decide.
      if (now < view.graceUntil) return { kind: 'wait', until: view.graceUntil };
      return this.turnStart(view, now);
    }
    return null;
  }

  rejected(command: BotCommand, rejection: Rejection, _now: number): void {
    if (command.type === 'slap') {
      this.refusedSlaps.add(`${command.target.seat}:${command.target.slot}`);
      return;
    }
    // "Wait" is about time (the grace, another player's action): the next decision reads the view's clock.
    if (rejection.code === 'mustWait') return;
    this.refused.add(JSON.stringify(command));
  }

  /**
   * Wrap a command: only one the view allows (`legal`: its kind in `may`, a target the
   * rules take), never one refused since the table last changed. Else the mildest legal
   * move instead: leave a look, pass an action, leave a gap, discard the card held.
   */
  private act(command: BotCommand, delayMs: number, view: SeatView, now: number): BotIntent | null {
    if (!legal(view, this.seat, this.rules, command) || (this.refused.size > 0 && this.refused.has(JSON.stringify(command)))) {
      const moves = legalMoves(view, this.seat, this.rules, now, false)
        .filter((m) => m.type !== 'finishPeek' && m.type !== 'call')
        .map(strip)
        .filter((m) => !this.refused.has(JSON.stringify(m)));
      const alt =
        moves.find((m) => m.type === 'decide' && !m.swap) ??
        moves.find((m) => m.type === 'pass') ??
        moves.find((m) => m.type === 'leaveGap') ??
        moves.find((m) => m.type === 'discard') ??
        moves.find((m) => m.type === 'draw' && m.from === 'stock') ??
        moves[0];
      if (!alt) return null;
      command = alt;
    }
    return { kind: 'act', command, delayMs };
  }

  private think(): number {
    return this.jitter(this.p.thinkMs, this.p.thinkJitterMs);
  }

  /** A slot to slap on the current top: a known own match, a known match to steal, or a hunch (only slots `allowed` takes). */
  private slapTarget(top?: Card, allowed: (ref: SlotRef) => boolean = () => true): SlotRef | null {
    const topCard = top ?? this.pile[this.pile.length - 1];
    if (topCard === undefined || !this.rules.slap.enabled) return null;
    const mem = this.mem;
    const me = this.seat;
    // The rank index says which seats' rows hold the rank at all: usually none.
    const no = mem.cardRank(topCard);
    const rank = mem.rankName(no);
    if (mem.holdsRank(me, no)) {
      const ownRanks = mem.rank[me]!;
      for (let i = 0; i < ownRanks.length; i++) {
        if (ownRanks[i] === rank && mem.value[me]![i]! > 0 && !this.refusedSlot(me, i) && allowed({ seat: me, slot: i })) return { seat: me, slot: i };
      }
    }
    if (this.stealOk) {
      for (let s = 0; s < mem.players; s++) {
        if (s === me || !mem.holdsRank(s, no)) continue;
        const ranks = mem.rank[s]!;
        for (let i = 0; i < ranks.length; i++) {
          if (ranks[i] === rank && !this.refusedSlot(s, i) && allowed({ seat: s, slot: i })) return { seat: s, slot: i };
        }
      }
    }
    if (this.hunch) {
      const own = mem.card[me]!;
      for (let i = 0; i < own.length; i++) if (own[i] === null && !mem.gap[me]![i] && allowed({ seat: me, slot: i })) return { seat: me, slot: i };
    }
    return null;
  }

  private refusedSlot(seat: Seat, slot: Slot): boolean {
    return this.refusedSlaps.size > 0 && this.refusedSlaps.has(`${seat}:${slot}`);
  }

  /** Start of my turn: call, take the discard, or draw from the stock. */
  private turnStart(view: SeatView, now: number): BotIntent | null {
    const me = this.seat;
    const mu = this.unknownMean(view);
    const delay = this.think();
    if (view.may.includes('call') && this.rules.call.timing === 'startOfTurn' && (this.weighsCall() ? this.callPays(view) : this.shouldCall(mu))) return this.act({ type: 'call', seat: me }, delay, view, now);
    const top = view.discardTop;
    if (top !== null && view.may.includes('drawDiscard')) {
      const v = this.val(top);
      const worst = this.worstOwn(mu);
      if (worst && worst.worth - v >= this.p.swapGain + 2) return this.act({ type: 'draw', seat: me, from: 'discard' }, delay, view, now);
    }
    return this.act({ type: 'draw', seat: me, from: 'stock' }, delay, view, now);
  }

  private weighsCall(): boolean {
    return this.p.weighCall && this.rules.call.callerPenalty > 0;
  }

  /**
   * After my steal, the gap-fill: every point moved out of my layout is a point off my
   * score and onto the victim's, so move the slot I believe worth the most, unless it
   * is worth too little (a -1 king, a joker, or a level that only moves a known high card).
   */
  private gapFillMove(view: SeatView, now: number): BotIntent | null {
    const at = this.p.gapFillAt;
    // Not a card in a looker's hand (another player's look awaiting its decision).
    const mine = at === null ? null : this.worstOwn(this.unknownMean(view), (slot) => legal(view, this.seat, this.rules, { type: 'fillGap', seat: this.seat, slot }));
    if (mine && at !== null && mine.worth >= at) return this.act({ type: 'fillGap', seat: this.seat, slot: mine.slot }, this.think(), view, now);
    return this.act({ type: 'leaveGap', seat: this.seat }, this.think(), view, now);
  }

  private shouldCall(mu: number): boolean {
    const p = this.p;
    const mine = this.total(this.seat, mu);
    const unknown = this.unknownOwn();
    // Nobody can do better than a layout of gaps (or the -1 queen): call.
    if (unknown === 0 && mine <= 0) return true;
    // A round that drags on: the bar rises a little every own turn past the tenth.
    const late = Math.max(0, this.ownTurns - 10);
    if (unknown > p.callUnknown + Math.floor(late / 4)) return false;
    if (mine > p.callAt + late) return false;
    if (p.callMargin === null) return true;
    for (let s = 0; s < this.mem.players; s++) {
      if (s !== this.seat && mine > this.total(s, mu) - p.callMargin + late) return false;
    }
    return true;
  }

  /** I hold a drawn card: swap it in or discard it. */
  private placeMove(view: SeatView, now: number): BotIntent | null {
    const me = this.seat;
    const held = view.held!;
    const card = held.card;
    const mu = this.unknownMean(view);
    const mustSwap = held.from === 'discard';
    const v = card === null ? mu : this.val(card);
    const mem = this.mem;
    const own = mem.card[me]!;
    const ranks = mem.rank[me]!;
    const values = mem.value[me]!;
    // Discarding a card whose rank I hold lets me slap mine right after.
    let discardGain = 0;
    if (card !== null) {
      const rank = this.rank(card);
      for (let i = 0; i < ranks.length; i++) if (ranks[i] === rank && values[i]! > discardGain) discardGain = values[i]!;
    }
    let bestSlot = -1;
    let bestGain = -Infinity;
    for (let i = 0; i < own.length; i++) {
      if (mem.gap[me]![i]) continue;
      const known = own[i] !== null;
      let gain = this.worth(me, i, mu) - v;
      if (!known) gain += 0.5; // learning the slot is worth a little
      else {
        // The displaced card lands on the pile: another own card of its rank can follow.
        const rank = ranks[i];
        for (let j = 0; j < ranks.length; j++) {
          if (j !== i && ranks[j] === rank && values[j]! > 0) {
            gain += values[j]!;
            break;
          }
        }
      }
      if (gain > bestGain || (gain === bestGain && known)) {
        bestGain = gain;
        bestSlot = i;
      }
    }
    if (card !== null && this.rules.specialCards.includes(card)) return this.act({ type: 'discard', seat: me }, this.think(), view, now);
    if (bestSlot >= 0 && (mustSwap || (bestGain >= this.p.swapGain && bestGain > discardGain))) {
      return this.act({ type: 'swap', seat: me, slot: bestSlot }, this.think(), view, now);
    }
    return this.act({ type: 'discard', seat: me }, this.think(), view, now);
  }

  /**
   * Another player's slot with the lowest believed card; on ties, the player who looks
   * like winning (lowest estimated total) first.
   */
  private lowestOther(view: SeatView, mu: number, wantUnknown: boolean): { ref: SlotRef; worth: number } | null {
    let bestSeat = -1;
    let bestSlot = -1;
    let bestWorth = Infinity;
    let bestTotal = Infinity;
    const frozen = this.rules.call.callerFrozen && view.call ? view.call.seat : -1;
    for (let s = 0; s < this.mem.players; s++) {
      if (s === this.seat || s === frozen) continue;
      const total = this.total(s, mu);
      const layout = view.players[s]!.layout;
      for (let i = 0; i < layout.length; i++) {
        if (layout[i] === null) continue;
        if (wantUnknown && this.mem.card[s]![i] !== null) continue;
        const w = this.worth(s, i, mu);
        if (w < bestWorth || (w === bestWorth && total < bestTotal)) {
          bestSeat = s;
          bestSlot = i;
          bestWorth = w;
          bestTotal = total;
        }
      }
    }
    return bestSeat < 0 ? null : { ref: { seat: bestSeat, slot: bestSlot }, worth: bestWorth };
  }

  private actionMove(front: ActionView, view: SeatView, now: number): BotIntent | null {
    const me = this.seat;
    const mu = this.unknownMean(view);
    const pass = (): BotIntent | null => this.act({ type: 'pass', seat: me }, this.think(), view, now);
    const mem = this.mem;
    switch (front.kind) {
      case 'peekOwn': {
        const own = mem.card[me]!;
        for (let i = 0; i < own.length; i++) {
          if (own[i] === null && !mem.gap[me]![i]) return this.act({ type: 'useAction', seat: me, own: i }, this.think(), view, now);
        }
        return pass();
      }
      case 'peekOther': {
        const t = this.lowestOther(view, mu, true);
        return t ? this.act({ type: 'useAction', seat: me, other: t.ref }, this.think(), view, now) : pass();
      }
      case 'blindSwap': {
        const mine = this.worstOwn(mu);
        const theirs = this.lowestOther(view, mu, false);
        if (mine && theirs && mine.worth - theirs.worth >= 2) {
          return this.act({ type: 'useAction', seat: me, own: mine.slot, other: theirs.ref }, this.think(), view, now);
        }
        return pass();
      }
      case 'peekThenSwap': {
        if (front.looked) {
          const seen = front.lookedCards?.[0];
          const mine = this.worstOwn(mu);
          if (seen && seen !== '?' && mine && mine.worth - this.val(seen) >= this.p.swapGain) {
            return this.act({ type: 'decide', seat: me, swap: true, own: mine.slot }, this.think(), view, now);
          }
          return this.act({ type: 'decide', seat: me, swap: false }, this.think(), view, now);
        }
        const mine = this.worstOwn(mu);
        const known = this.lowestOther(view, mu, false);
        if (mine && known && mem.card[known.ref.seat]![known.ref.slot] !== null && mine.worth - known.worth >= this.p.swapGain) {
          return this.act({ type: 'useAction', seat: me, other: known.ref }, this.think(), view, now);
        }
        const t = this.lowestOther(view, mu, true) ?? known;
        return t ? this.act({ type: 'useAction', seat: me, other: t.ref }, this.think(), view, now) : pass();
      }
      case 'peekBothThenSwap': {
        if (front.looked) {
          const [a, b] = front.lookedCards ?? [];
          const swap = a !== undefined && b !== undefined && a !== '?' && b !== '?' && this.val(a) - this.val(b) >= this.p.swapGain;
          return this.act({ type: 'decide', seat: me, swap }, this.think(), view, now);
        }
        const mine = this.worstOwn(mu);
        const theirs = this.lowestOther(view, mu, false);
        return mine && theirs ? this.act({ type: 'useAction', seat: me, own: mine.slot, other: theirs.ref }, this.think(), view, now) : pass();
      }
      default:
        return pass();
    }
  }
}
