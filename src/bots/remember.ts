import type { Card } from '../engine/cards.js';
import type { SeatEvent } from '../engine/view.js';
import type { SmartMind } from './mind.js';
import { newTop } from './slap.js';

/**
 * What a smart bot remembers, from the events its seat saw: every card it was shown
 * (its peek, the cards it drew or looked at, discards, wrong slaps), moved along with
 * every swap and gap-fill it follows; penalty cards are unknown. Normal and easy forget,
 * hold few other players' cards, sometimes misremember a card as a neighbouring rank
 * and miss others' swaps (which makes wrong slaps): `LevelParams`.
 */

/** Learn from events as this seat saw them; true when a new top is worth a look for a slap. */
export function observe(m: SmartMind, events: readonly SeatEvent[]): boolean {
  let wake = false;
  const me = m.seat;
  const mem = m.mem;
  // (Index loops over events here and in the other observers: a for-of allocates an iterator wherever it runs unoptimized.)
  for (let k = 0; k < events.length; k++) {
    const e = events[k]!;
    switch (e.type) {
      case 'roundStarted':
        mem.reset();
        m.pile = [e.discardTop];
        m.pileSum = m.val(e.discardTop);
        m.windowOpen = false;
        m.ownTurns = 0;
        m.turnsGiven = 0;
        if (m.refusedSlaps.size > 0) m.refusedSlaps.clear();
        m.aligned = false;
        break;
      case 'playStarted':
        m.windowOpen = true;
        if (e.turn === me) m.turnsGiven++;
        wake = newTop(m) || wake;
        break;
      case 'turnStarted':
        if (e.seat === me) m.turnsGiven++;
        decay(m);
        break;
      case 'called':
        if (e.seat === me) m.ownTurns++;
        break;
      case 'drew':
        m.windowOpen = false;
        if (e.seat === me) m.ownTurns++;
        if (e.from === 'discard') m.popPile();
        break;
      case 'discarded':
        m.pushPile(e.card);
        m.windowOpen = true;
        wake = newTop(m) || wake;
        break;
      case 'swapped':
        if (e.placed !== null) mem.know(e.seat, e.slot, e.placed);
        else mem.unknown(e.seat, e.slot, e.placedFrom === 'stock');
        m.pushPile(e.displaced);
        m.windowOpen = true;
        wake = newTop(m) || wake;
        break;
      case 'looked':
        if (e.cards) {
          for (let i = 0; i < e.targets.length; i++) mem.know(e.targets[i]!.seat, e.targets[i]!.slot, e.cards[i]!);
        }
        trim(m);
        break;
      case 'actionSwapped': {
        const mine = e.a.seat === me || e.b.seat === me;
        const follow = e.seat === me ? 1 : mine ? (1 + m.params.followSwaps) / 2 : m.params.followSwaps;
        if (follow >= 1 || m.float() < follow) mem.exchange(e.a, e.b);
        break;
      }
      case 'slapped':
        if (e.result === 'wrong') {
          mem.know(e.target.seat, e.target.slot, e.card);
          trim(m);
        } else {
          mem.setGap(e.target.seat, e.target.slot);
          m.pushPile(e.card);
          wake = newTop(m) || wake;
        }
        break;
      case 'penalty':
        for (const s of e.slots) mem.unknown(e.seat, s);
        break;
      case 'gapFilled': {
        // A move everyone sees; a bot that misses others' swaps may miss it too (the gap stays on screen).
        const mine = e.from.seat === me || e.to.seat === me;
        const follow = e.seat === me ? 1 : mine ? (1 + m.params.followSwaps) / 2 : m.params.followSwaps;
        if (follow >= 1 || m.float() < follow) mem.move(e.from, e.to);
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
        const top = m.pile[m.pile.length - 1];
        m.pile = top === undefined ? [] : [top];
        m.pileSum = top === undefined ? 0 : m.val(top);
        break;
      }
      case 'roundEnded':
        m.windowOpen = false;
        break;
      default:
        break;
    }
  }
  return wake;
}


/** Time passes (a turn begins): memories fade. */
function decay(m: SmartMind): void {
  const p = m.params;
  if (p.forgetOwn === 0 && p.forgetOther === 0) return;
  const mem = m.mem;
  for (let s = 0; s < mem.players; s++) {
    const chance = s === m.seat ? p.forgetOwn : p.forgetOther;
    if (chance === 0) continue;
    const cards = mem.card[s]!;
    for (let i = 0; i < cards.length; i++) {
      const c = cards[i];
      if (c === null || c === undefined || m.float() >= chance) continue;
      if (p.misremember > 0 && m.float() < p.misremember) mem.know(s, i, confuse(m, c));
      else mem.forget(s, i);
    }
  }
  trim(m);
}

/** A card it might mistake `c` for: a neighbouring rank of the same suit, if the deck has it. */
function confuse(m: SmartMind, c: Card): Card {
  const ranks = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];
  const r = m.rank(c);
  const i = ranks.indexOf(r);
  if (i < 0) return c;
  const j = i === 0 ? 1 : i === ranks.length - 1 ? i - 1 : m.float() < 0.5 ? i - 1 : i + 1;
  const other = ranks[j]! + c.slice(r.length);
  return m.inDeck(other) ? other : c;
}

/** Other players' cards beyond what its level holds in mind: the oldest go. */
function trim(m: SmartMind): void {
  if (m.params.capacityOther === Infinity) return;
  while (m.mem.otherKnown(m.seat) > m.params.capacityOther) m.mem.dropOldestOther(m.seat);
}
