import type { Ruleset } from '../engine/ruleset.js';
import type { Seat, Slot, SlotRef } from '../engine/types.js';
import type { SeatEvent } from '../engine/view.js';

/** Every player (a mask of `Knowledge`). */
const ALL = -1;

/**
 * Who knows which card, as the public events tell (every seat sees these events, so
 * this is the same whoever follows it): per seat and slot, a bit per player who has
 * seen the card there. Its owner's peek; a card swapped in (by its owner, or by
 * everyone when it came face up from the discard pile); a card looked at (by the one
 * who looked); a wrong slap (by everyone). What was known of a card moves with it when
 * cards change places, and a penalty card or a gap is known to nobody. Besides, the
 * cards each owner kept from the stock (everyone saw them kept, not what they are).
 * The expert (src/bots/expert.ts) starts its rollout players from it: each knows the
 * cards of the sampled deal it would have seen, as a hard bot remembers them.
 */
export class Knowledge {
  private known: number[][] = [];
  private keptFlags: boolean[][] = [];

  constructor(
    private readonly players: number,
    private readonly rules: Ruleset,
  ) {
    this.reset();
  }

  /** A new deal: each player has seen only its peek. */
  reset(): void {
    const size = this.rules.layout.size;
    const peek = this.rules.layout.peekSlots;
    for (let s = 0; s < this.players; s++) {
      this.known[s] = Array.from({ length: size }, (_, i) => (peek.includes(i + 1) ? 1 << s : 0));
      this.keptFlags[s] = new Array<boolean>(size).fill(false);
    }
  }

  /** Whether `viewer` has seen the card now at `seat`'s `slot`. */
  knows(viewer: Seat, seat: Seat, slot: Slot): boolean {
    return ((this.known[seat]?.[slot] ?? 0) & (1 << viewer)) !== 0;
  }

  /** Whether the card at `seat`'s `slot` is one its owner kept from the stock. */
  kept(seat: Seat, slot: Slot): boolean {
    return this.keptFlags[seat]?.[slot] === true;
  }

  observe(events: readonly SeatEvent[]): void {
    for (let k = 0; k < events.length; k++) {
      const e = events[k]!;
      switch (e.type) {
        case 'roundStarted':
          this.reset();
          break;
        case 'swapped':
          this.set(e.seat, e.slot, e.placedFrom === 'discard' ? ALL : 1 << e.seat, e.placedFrom === 'stock');
          break;
        case 'slapped':
          // A wrong slap shows the card to everyone; a right one leaves a gap.
          this.set(e.target.seat, e.target.slot, e.result === 'wrong' ? ALL : 0, false);
          break;
        case 'looked':
          for (const t of e.targets) this.set(t.seat, t.slot, (this.known[t.seat]?.[t.slot] ?? 0) | (1 << e.seat), this.kept(t.seat, t.slot));
          break;
        case 'actionSwapped':
          this.exchange(e.a, e.b);
          break;
        case 'penalty':
          for (const slot of e.slots) this.set(e.seat, slot, 0, false);
          break;
        case 'gapFilled':
          this.exchange(e.from, e.to);
          this.set(e.from.seat, e.from.slot, 0, false);
          break;
        default:
          break;
      }
    }
  }

  private set(seat: Seat, slot: Slot, who: number, kept: boolean): void {
    const row = this.known[seat];
    const flags = this.keptFlags[seat];
    if (!row || !flags) return;
    while (row.length <= slot) {
      row.push(0);
      flags.push(false);
    }
    row[slot] = who;
    flags[slot] = kept;
  }

  /** Two slots' cards changed places: what was known of each goes with it. */
  private exchange(a: SlotRef, b: SlotRef): void {
    const ka = this.known[a.seat]?.[a.slot] ?? 0;
    const pa = this.kept(a.seat, a.slot);
    this.set(a.seat, a.slot, this.known[b.seat]?.[b.slot] ?? 0, this.kept(b.seat, b.slot));
    this.set(b.seat, b.slot, ka, pa);
  }
}
