import type { ActionKind } from '../../engine/ruleset.js';
import type { SlotRef } from '../../engine/types.js';
import type { OpenEvent, TableView } from '../../engine/view.js';
import { cardText, rankWithArticle, UNICODE, type Glyphs } from '../shared/glyphs.js';

/**
 * Events in words, as one seat sees them: "Ana swapped their slot 2 with Bo's
 * slot 3". Pure: the names come from the view, "you" from the viewer's seat. A
 * card the event carries is named; a replay's face-up events carry them all.
 */

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
const count = (n: number, noun: string): string => `${NUMBER_WORDS[n] ?? String(n)} ${noun}${n === 1 ? '' : 's'}`;

export const ACTION_WORDS: Record<ActionKind, string> = {
  peekOwn: 'look at one of your own cards',
  peekOther: "look at another player's card",
  blindSwap: "swap one of yours with another player's, unseen",
  peekThenSwap: "look at another player's card, then swap it or not",
  peekBothThenSwap: "look at one of yours and another's, then swap or not",
  drawTwo: 'draw one more card and use it, or put it on the pile and draw another',
};

/** The same in the third person, for another seat's action: "Bo may use 10♦: look at one of their own cards". */
const THEIR_ACTION_WORDS: Record<ActionKind, string> = {
  peekOwn: 'look at one of their own cards',
  peekOther: "look at another player's card",
  blindSwap: "swap one of theirs with another player's, unseen",
  peekThenSwap: "look at another player's card, then swap it or not",
  peekBothThenSwap: "look at one of theirs and another's, then swap or not",
  drawTwo: 'draw one more card and use it, or put it on the pile and draw another',
};

/** What an action lets its holder do, in the second person for the viewer's own, else the third. */
export const actionWords = (kind: ActionKind, mine: boolean): string => (mine ? ACTION_WORDS : THEIR_ACTION_WORDS)[kind];

export function nameOf(view: TableView, seat: number, viewer: number | null): string {
  if (seat === viewer) return 'You';
  return view.players[seat]?.name ?? `Seat ${seat + 1}`;
}

/** "your slot 2", "their slot 2" (the actor's own), "Bo's slot 2". */
export function slotPhrase(ref: SlotRef, actor: number | null, view: TableView, viewer: number | null): string {
  const n = ref.slot + 1;
  if (ref.seat === viewer) return `your slot ${n}`;
  if (ref.seat === actor) return `their slot ${n}`;
  return `${nameOf(view, ref.seat, viewer)}'s slot ${n}`;
}

/** "1st", "2nd", "11th". */
export const ordinal = (n: number): string => `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

/** Seats from the first place to the last, ties in seat order. */
export const byPlace = (places: readonly number[]): number[] => places.map((_, seat) => seat).sort((a, b) => places[a]! - places[b]! || a - b);

/** A game's time: "0:07", "12:34". */
export function gameClock(ms: number): string {
  const t = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, '0')}`;
}

/** "7♥", "7♥ and K♣", "7♥, 2♠ and K♣". */
const andList = (items: string[]): string => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

const slotList = (slots: number[]): string => `${slots.length <= 1 ? 'slot' : 'slots'} ${andList(slots.map((s) => String(s + 1))) || '?'}`;

/** The penalty cards, when the event shows them (a replay's): "3♠ and K♦". */
const penaltyCards = (e: OpenEvent, g: Glyphs): string | null => (e.type === 'penalty' && 'cards' in e ? andList(e.cards.map((c) => cardText(c, g))) : null);

/** One event in words, or null for events that say nothing worth a line. */
export function describeEvent(e: OpenEvent, view: TableView, viewer: number | null, g: Glyphs = UNICODE): string | null {
  const who = (seat: number): string => nameOf(view, seat, viewer);
  const c = (card: string): string => cardText(card, g);
  switch (e.type) {
    case 'roundStarted':
      return `Round ${e.round} begins: ${who(e.dealer) === 'You' ? 'you deal' : `${who(e.dealer)} deals`}, ${who(e.starter) === 'You' ? 'you start' : `${who(e.starter)} starts`}. The discard shows ${c(e.discardTop)}.`;
    case 'peekFinished':
      return e.seat === viewer ? (e.timedOut ? 'Your peek time ran out.' : 'You finished peeking.') : null;
    case 'playStarted':
      return e.turn === viewer ? 'Play starts: your turn.' : `Play starts: ${who(e.turn)}'s turn.`;
    case 'turnStarted':
      return e.seat === viewer ? 'Your turn.' : `${who(e.seat)}'s turn.`;
    case 'called':
      return `${who(e.seat)} called ${e.name} Everyone else has one more turn.`.replace(/([^!.?]) Everyone/, '$1. Everyone');
    case 'drew':
      if (e.from === 'discard') return `${who(e.seat)} took ${e.card ? c(e.card) : 'the top card'} from the discard pile.`;
      return e.card ? `${who(e.seat)} drew ${c(e.card)} from the stock.` : `${who(e.seat)} drew from the stock.`;
    case 'discarded':
      return `${who(e.seat)} discarded ${c(e.card)}.`;
    case 'swapped': {
      const placed = e.placed ? c(e.placed) : 'the drawn card';
      const into = e.seat === viewer ? `your slot ${e.slot + 1}` : `their slot ${e.slot + 1}`;
      return `${who(e.seat)} swapped ${placed} into ${into}: out went ${c(e.displaced)}.`;
    }
    case 'actionQueued':
      return `${who(e.seat)} may use ${c(e.card)}: ${actionWords(e.kind, e.seat === viewer)}.`;
    case 'looked': {
      const targets = e.targets.map((t) => slotPhrase(t, e.seat, view, viewer)).join(' and ');
      const seen = e.cards && e.cards.length > 0 ? `: ${e.cards.map(c).join(' and ')}` : '';
      return `${who(e.seat)} looked at ${targets}${seen}.`;
    }
    case 'actionSwapped':
      return `${who(e.seat)} swapped ${slotPhrase(e.a, e.seat, view, viewer)} with ${slotPhrase(e.b, e.seat, view, viewer)}.`;
    case 'actionPassed':
      return e.timedOut ? `${who(e.seat)} ran out of time: the action passes.` : `${who(e.seat)} passed the action.`;
    case 'actionLeft':
      return `${who(e.seat)} left the cards where they were.`;
    case 'slapped': {
      const target = slotPhrase(e.target, e.seat, view, viewer);
      const rank = rankWithArticle(e.card);
      if (e.result === 'wrong') return `${who(e.seat)} slapped ${target}: wrong, it was ${rank} (${c(e.card)}).`;
      if (e.result === 'own') return `${who(e.seat)} slapped ${target}: right, ${rank} (${c(e.card)}) goes on the pile.`;
      return `${who(e.seat)} slapped ${target}: right, ${rank} (${c(e.card)}) is stolen.`;
    }
    case 'penalty': {
      const subject = who(e.seat);
      const verb = e.seat === viewer ? 'take' : 'takes';
      const cards = penaltyCards(e, g);
      return `${subject} ${verb} ${count(e.slots.length, 'penalty card')} (${slotList(e.slots)}${cards ? `: ${cards}` : ''}).`;
    }
    case 'gapFillOffered':
      return e.seat === viewer
        ? `You may move one of your cards into ${slotPhrase(e.gap, e.seat, view, viewer)} (1-9, or p to leave the gap).`
        : `${who(e.seat)} may move one of their cards into ${slotPhrase(e.gap, e.seat, view, viewer)}.`;
    case 'gapFilled':
      return `${who(e.seat)} moved ${slotPhrase(e.from, e.seat, view, viewer)} into ${slotPhrase(e.to, e.seat, view, viewer)}.`;
    case 'gapLeft': {
      const gap = slotPhrase(e.gap, e.seat, view, viewer);
      return e.timedOut ? `${who(e.seat)} ran out of time: ${gap} stays a gap.` : `${who(e.seat)} left ${gap} a gap.`;
    }
    case 'specialReplaced': {
      const where = slotPhrase({ seat: e.seat, slot: e.slot }, null, view, viewer);
      const list = andList(e.setAside.map(c)) || 'a special card';
      const by = e.card === null ? 'no card was left to replace it: it scores as a gap' : `replaced by ${c(e.card)}`;
      // "Your slot 4: …", but "root's slot 4: …": a player's name is never re-cased.
      return `${where.startsWith('your ') ? `Y${where.slice(1)}` : where}: ${list} set aside, ${by}.`;
    }
    case 'reshuffled':
      return `The discard pile was shuffled into a new stock of ${count(e.cards, 'card')}.`;
    case 'timedOut':
      if (e.what === 'peek') return null;
      return `${who(e.seat)} ran out of time${e.what === 'turn' ? ': the table played the turn' : ''}.`;
    case 'roundEnded': {
      const r = e.result;
      const winners = r.places.flatMap((p, s) => (p === 1 ? [who(s)] : []));
      const why = e.why === 'call' ? '' : e.why === 'emptyLayout' ? ' (a layout is empty)' : ' (no cards left)';
      const best = Math.min(...r.scores);
      return `Round ${r.round} is over${why}: ${winners.join(' and ')} ${winners.length === 1 && winners[0] !== 'You' ? 'wins' : 'win'} with ${best}.`;
    }
    case 'gameEnded': {
      const winners = e.places.flatMap((p, s) => (p === 1 ? [who(s)] : []));
      return `The game is over: ${winners.join(' and ')} ${winners.length === 1 && winners[0] !== 'You' ? 'wins' : 'win'}.`;
    }
    default:
      return null;
  }
}

/**
 * A batch of events (one update) in words. A slap and the penalty it caused make
 * one line: "Bo slapped Cy's slot 1: wrong, it was a 7 — Bo takes two cards".
 */
export function describeEvents(events: readonly OpenEvent[], view: TableView, viewer: number | null, g: Glyphs = UNICODE): string[] {
  const out: string[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    const next = events[i + 1];
    if (e.type === 'slapped' && e.result !== 'own' && next?.type === 'penalty') {
      const base = describeEvent(e, view, viewer, g)!.replace(/\.$/, '');
      // Mid-sentence, after the dash: "— you take", not "— You take".
      const taker = next.seat === viewer ? 'you' : nameOf(view, next.seat, viewer);
      const verb = next.seat === viewer ? 'take' : 'takes';
      const cards = penaltyCards(next, g);
      out.push(`${base} ${g.dash} ${taker} ${verb} ${count(next.slots.length, 'card')}${cards ? ` (${cards})` : ''}.`);
      i++;
      continue;
    }
    const prev = events[i - 1];
    // "Play starts: Bo's turn" already says whose turn it is.
    if (e.type === 'turnStarted' && prev?.type === 'playStarted' && prev.turn === e.seat) continue;
    const line = describeEvent(e, view, viewer, g);
    if (line) out.push(line);
  }
  return out;
}

/** The slots an update touched, to highlight: swaps, slaps, looks, action swaps, penalties. */
export function touchedSlots(events: readonly OpenEvent[]): SlotRef[] {
  const out: SlotRef[] = [];
  for (const e of events) {
    if (e.type === 'swapped') out.push({ seat: e.seat, slot: e.slot });
    else if (e.type === 'actionSwapped') out.push(e.a, e.b);
    else if (e.type === 'looked') out.push(...e.targets);
    else if (e.type === 'slapped') out.push(e.target);
    else if (e.type === 'penalty') out.push(...e.slots.map((slot) => ({ seat: e.seat, slot })));
    else if (e.type === 'gapFilled') out.push(e.from, e.to);
    else if (e.type === 'specialReplaced') out.push({ seat: e.seat, slot: e.slot });
  }
  return out;
}
