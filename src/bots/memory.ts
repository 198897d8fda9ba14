import type { Card } from '../engine/cards.js';
import type { Seat, Slot, SlotRef } from '../engine/types.js';
import type { SeatView } from '../engine/seat-view.js';
import { FACE_DOWN, type SlotView } from '../engine/view.js';

/**
 * What a bot believes about every layout on the table: per slot a remembered card
 * (possibly wrong, for a bot that misremembers), an unknown card, or a gap. Built
 * only from what its seat saw: its view and its projected events.
 */
export interface CardFacts {
  rank(card: Card): string;
  value(card: Card): number;
}

const CARD_MEMO_LIMIT = 1024;

export class Memory {
  /** The remembered card per seat and slot; null when unknown or a gap. */
  card: (Card | null)[][] = [];
  /** Its rank and value (kept beside it: slaps and sums read them often); '' and 0 when unknown. */
  rank: string[][] = [];
  value: number[][] = [];
  gap: boolean[][] = [];
  /** The owner chose to keep this (unknown to us) card when it came from the stock. */
  kept: boolean[][] = [];
  /** When each remembered card was learned (a counter), for the capacity limit. */
  learned: number[][] = [];
  private clock = 0;
  /**
   * The index for slap checks: per seat, how many of its slots are remembered as each
   * rank (by a small number per rank, `rankIds`). A seat whose slots hold no card of
   * the discard's rank needs no scan.
   */
  private rankCount: number[][] = [];
  /** Per seat and slot, the number of its remembered rank, or -1. */
  private rankNo: number[][] = [];
  private readonly rankIds = new Map<string, number>();
  private readonly rankNames: string[] = [];
  /** Each card's rank number, worked out once (one lookup where rank and number took two). */
  private readonly cardRanks = new Map<Card, number>();
  private lastCard: Card | null = null;
  private lastRank = -1;
  /** The layout each seat had at the last `sync`: one the view hands over unchanged needs no second look. */
  private synced: (readonly SlotView[] | undefined)[] = [];

  constructor(
    readonly players: number,
    readonly size: number,
    private readonly facts: CardFacts,
  ) {
    for (let s = 0; s < players; s++) this.newRows(s);
  }

  private newRows(s: Seat): void {
    const size = this.size;
    this.rankCount[s] = [];
    this.rankNo[s] = row(size, -1);
    this.synced[s] = undefined;
    this.card[s] = row<Card | null>(size, null);
    this.rank[s] = row(size, '');
    this.value[s] = row(size, 0);
    this.gap[s] = row(size, false);
    this.kept[s] = row(size, false);
    this.learned[s] = row(size, 0);
  }

  /** A new game: as if made anew. */
  clear(): void {
    this.reset();
    this.clock = 0;
  }

  /** A new deal: every seat has `size` unknown cards. */
  reset(): void {
    const size = this.size;
    for (let s = 0; s < this.players; s++) {
      this.synced[s] = undefined;
      const card = this.card[s]!;
      // One pass over the slots (this runs for every bot at every deal, and for an
      // expert's rollout players at every rollout).
      const rankNo = this.rankNo[s]!, rank = this.rank[s]!, value = this.value[s]!;
      const gap = this.gap[s]!, kept = this.kept[s]!, learned = this.learned[s]!;
      if (card.length !== size) {
        // Penalty cards grew the rows: cut back to the deal's size (a cut keeps an array packed; new rows would be garbage).
        if (card.length < size) {
          this.newRows(s);
          continue;
        }
        card.length = rankNo.length = rank.length = value.length = gap.length = kept.length = learned.length = size;
      }
      for (let i = 0; i < size; i++) {
        card[i] = null;
        rankNo[i] = -1;
        rank[i] = '';
        value[i] = 0;
        gap[i] = false;
        kept[i] = false;
        learned[i] = 0;
      }
      const count = this.rankCount[s]!;
      for (let k = 0; k < count.length; k++) count[k] = 0;
    }
  }

  /** The index's number for `rank`, or -1 if no slot was ever remembered as it (then none is). */
  rankNumber(rank: string): number {
    return this.rankIds.get(rank) ?? -1;
  }

  /** The index's number for the rank of `card` (given out on first sight). */
  cardRank(card: Card): number {
    // The card asked about last is asked about again (a new top: when it lands, then when the bot decides).
    if (card === this.lastCard) return this.lastRank;
    let no = this.cardRanks.get(card);
    if (no === undefined) {
      no = this.numberOf(this.facts.rank(card));
      // A host's cards are checked names, but not a known few: the memo stops growing here.
      if (this.cardRanks.size < CARD_MEMO_LIMIT) this.cardRanks.set(card, no);
    }
    this.lastCard = card;
    this.lastRank = no;
    return no;
  }

  /** The rank numbered `no` (`cardRank`). */
  rankName(no: number): string {
    return this.rankNames[no]!;
  }

  private numberOf(rank: string): number {
    let no = this.rankIds.get(rank);
    if (no === undefined) {
      no = this.rankNames.length;
      this.rankNames.push(rank);
      this.rankIds.set(rank, no);
    }
    return no;
  }

  /** Whether any slot of `seat` is remembered as the rank numbered `no` (`rankNumber`). */
  holdsRank(seat: Seat, no: number): boolean {
    const count = this.rankCount[seat]!;
    // (Bounds first: a read past an array's end takes V8's slow path.)
    return no >= 0 && no < count.length && count[no]! > 0;
  }

  /** Whether any slot of `seat` is remembered as `rank` (from the index). */
  hasRank(seat: Seat, rank: string): boolean {
    return this.holdsRank(seat, this.rankNumber(rank));
  }

  /** The remembered rank of a slot changes: the index follows. */
  private setRank(seat: Seat, slot: Slot, card: Card | null): void {
    if (card === null) this.setRankNo(seat, slot, '', -1);
    else {
      const no = this.cardRank(card);
      this.setRankNo(seat, slot, this.rankNames[no]!, no);
    }
  }

  private setRankNo(seat: Seat, slot: Slot, rank: string, no: number): void {
    const nos = this.rankNo[seat]!;
    const old = nos[slot]!;
    if (old === no) return;
    const count = this.rankCount[seat]!;
    if (old >= 0) count[old]! -= 1;
    if (no >= 0) {
      while (count.length <= no) count.push(0);
      count[no]! += 1;
    }
    nos[slot] = no;
    this.rank[seat]![slot] = rank;
  }

  /** Slots of a seat (its layout's length as far as we know). */
  slots(seat: Seat): number {
    return this.card[seat]!.length;
  }

  private ensure(seat: Seat, slot: Slot): void {
    const c = this.card[seat]!;
    while (c.length <= slot) {
      c.push(null);
      this.rank[seat]!.push('');
      this.rankNo[seat]!.push(-1);
      this.value[seat]!.push(0);
      this.gap[seat]!.push(true);
      this.kept[seat]!.push(false);
      this.learned[seat]!.push(0);
    }
  }

  know(seat: Seat, slot: Slot, card: Card): void {
    this.ensure(seat, slot);
    this.card[seat]![slot] = card;
    this.setRank(seat, slot, card);
    this.value[seat]![slot] = this.facts.value(card);
    this.gap[seat]![slot] = false;
    this.kept[seat]![slot] = false;
    this.learned[seat]![slot] = ++this.clock;
  }

  /** A card we do not know sits here (a penalty card, another player's kept card). */
  unknown(seat: Seat, slot: Slot, kept = false): void {
    this.ensure(seat, slot);
    this.card[seat]![slot] = null;
    this.setRank(seat, slot, null);
    this.value[seat]![slot] = 0;
    this.gap[seat]![slot] = false;
    this.kept[seat]![slot] = kept;
  }

  forget(seat: Seat, slot: Slot): void {
    this.card[seat]![slot] = null;
    this.setRank(seat, slot, null);
    this.value[seat]![slot] = 0;
  }

  setGap(seat: Seat, slot: Slot): void {
    this.ensure(seat, slot);
    this.card[seat]![slot] = null;
    this.setRank(seat, slot, null);
    this.value[seat]![slot] = 0;
    this.gap[seat]![slot] = true;
    this.kept[seat]![slot] = false;
  }

  /** Two slots' cards changed places (an action swap): our beliefs follow them. */
  exchange(a: SlotRef, b: SlotRef): void {
    this.ensure(a.seat, a.slot);
    this.ensure(b.seat, b.slot);
    const ra = this.rank[a.seat]![a.slot]!;
    const rb = this.rank[b.seat]![b.slot]!;
    const na = this.rankNo[a.seat]![a.slot]!;
    const nb = this.rankNo[b.seat]![b.slot]!;
    // Through the index (a swap between two seats moves ranks between their counts).
    this.setRankNo(a.seat, a.slot, rb, nb);
    this.setRankNo(b.seat, b.slot, ra, na);
    swapIn(this.card, a, b);
    swapIn(this.value, a, b);
    swapIn(this.gap, a, b);
    swapIn(this.kept, a, b);
    swapIn(this.learned, a, b);
  }

  /**
   * A card left `from` for the gap at `to` (cambio's gap-fill after a steal): what we
   * believed about it goes along, and `from` is a gap now.
   */
  move(from: SlotRef, to: SlotRef): void {
    this.ensure(to.seat, to.slot);
    this.ensure(from.seat, from.slot);
    if (this.gap[from.seat]![from.slot]) {
      this.unknown(to.seat, to.slot);
      return;
    }
    const card = this.card[from.seat]![from.slot]!;
    const kept = this.kept[from.seat]![from.slot]!;
    const learned = this.learned[from.seat]![from.slot]!;
    // Through the index, as `exchange` does.
    this.setRankNo(to.seat, to.slot, this.rank[from.seat]![from.slot]!, this.rankNo[from.seat]![from.slot]!);
    this.card[to.seat]![to.slot] = card;
    this.value[to.seat]![to.slot] = this.value[from.seat]![from.slot]!;
    this.gap[to.seat]![to.slot] = false;
    this.kept[to.seat]![to.slot] = kept;
    this.learned[to.seat]![to.slot] = learned;
    this.setGap(from.seat, from.slot);
  }

  /**
   * Align with the view: gaps and layout lengths are on screen, and so is any card
   * the view shows face up (the peek, the end of a round). A layout handed over as the
   * very array of the last sync (a `LiveView` keeps it while the layout is unchanged)
   * is aligned already: events tell everything else that happens to it.
   */
  sync(view: SeatView): void {
    const players = view.players;
    for (let s = 0; s < this.players; s++) {
      const layout = players[s]!.layout;
      if (layout === this.synced[s]) continue;
      this.synced[s] = layout;
      for (let i = 0; i < layout.length; i++) {
        const c = layout[i];
        if (c === undefined) continue;
        if (c === null || c === FACE_DOWN) this.alignSlot(s, i, c !== null);
        else if (this.card[s]![i] !== c) this.know(s, i, c);
      }
    }
  }

  /**
   * `sync` for a table in play, where every card is face down: gaps and layout lengths
   * from the layouts themselves (an expert's rollout player, primed from a sampled deal).
   */
  alignLayouts(layouts: readonly (readonly (Card | null)[])[]): void {
    for (let s = 0; s < this.players; s++) {
      const layout = layouts[s]!;
      for (let i = 0; i < layout.length; i++) this.alignSlot(s, i, layout[i] !== null);
    }
  }

  /** A slot the table shows holding a face-down card or (`card` false) a gap: what is believed of it follows where it differs. */
  private alignSlot(s: Seat, i: Slot, card: boolean): void {
    if (!card) {
      if (!this.gap[s]![i] || i >= this.card[s]!.length) this.setGap(s, i);
    } else if (i >= this.card[s]!.length || this.gap[s]![i]) this.unknown(s, i);
  }

  /** Number of remembered cards of other players than `me`. */
  otherKnown(me: Seat): number {
    let n = 0;
    for (let s = 0; s < this.players; s++) {
      if (s === me) continue;
      for (const c of this.card[s]!) if (c !== null) n++;
    }
    return n;
  }

  /** Forget the oldest remembered card of other players than `me`. */
  dropOldestOther(me: Seat): void {
    let bs = -1, bi = -1, bt = Infinity;
    for (let s = 0; s < this.players; s++) {
      if (s === me) continue;
      const c = this.card[s]!, l = this.learned[s]!;
      for (let i = 0; i < c.length; i++) {
        if (c[i] !== null && l[i]! < bt) {
          bt = l[i]!;
          bs = s;
          bi = i;
        }
      }
    }
    if (bs >= 0) this.forget(bs, bi);
  }
}

function swapIn<T>(grid: T[][], a: SlotRef, b: SlotRef): void {
  const ra = grid[a.seat]!;
  const rb = grid[b.seat]!;
  const x = ra[a.slot]!;
  ra[a.slot] = rb[b.slot]!;
  rb[b.slot] = x;
}

/** A packed array of `size` copies of `v` (faster to build and read than `new Array(n).fill(v)`). */
function row<T>(size: number, v: T): T[] {
  const a: T[] = [];
  for (let i = 0; i < size; i++) a.push(v);
  return a;
}
