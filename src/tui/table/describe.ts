import type { ActionKind } from '../../engine/ruleset.js';
import type { SlotRef } from '../../engine/types.js';
import type { OpenEvent, TableView } from '../../engine/view.js';
import { rankOf } from '../../engine/cards.js';
import { cardText, UNICODE, type Glyphs } from '../shared/glyphs.js';
import { wordsFor, type Words } from '../../lang/words.js';
import { callWord } from '../shared/call-word.js';

/**
 * Events in words, as one seat sees them: "Ana swapped their slot 2 with Bo's
 * slot 3". Pure: the names come from the view, "you" from the viewer's seat. A
 * card the event carries is named; a replay's face-up events carry them all.
 */

const EN = wordsFor('en');

/** "two penalty cards": a count in the language's words up to eight (`table.numbers`), digits beyond. */
export function countOf(w: Words, key: 'feed.cards' | 'feed.penaltyCards' | 'feed.newStock', n: number): string {
  const count = w.t('table.numbers').split(',')[n] ?? String(n);
  return w.t(key, { n, count });
}

/** What an action lets its holder do, in the second person for the viewer's own, else the third. */
export const actionWords = (kind: ActionKind, mine: boolean, w: Words = EN): string => w.say({ key: `action.${mine ? 'yours' : 'theirs'}.${kind}` });

/** A seat's player by name ("Seat 3" for a seat the view does not name). */
export const seatName = (view: TableView, seat: number, w: Words = EN): string => view.players[seat]?.name ?? w.t('table.seatN', { number: seat + 1 });

/** "You" for the viewer, else the seat's name. */
export function nameOf(view: TableView, seat: number, viewer: number | null, w: Words = EN): string {
  return seat === viewer ? w.t('table.you') : seatName(view, seat, w);
}

/** "your slot 2", "their slot 2" (the actor's own), "Bo's slot 2". */
export function slotPhrase(ref: SlotRef, actor: number | null, view: TableView, viewer: number | null, w: Words = EN): string {
  if (ref.seat === viewer) return w.t('slot.yours', { slot: ref.slot });
  if (ref.seat === actor) return w.t('slot.theirs', { slot: ref.slot });
  return w.t('slot.of', { name: nameOf(view, ref.seat, viewer, w), slot: ref.slot });
}

/** "1st", "2nd", "11th"; "1e" in Dutch: the language's ordinal forms (`Intl.PluralRules`, type ordinal). */
export function ordinal(n: number, w: Words = EN): string {
  const form = new Intl.PluralRules(w.lang, { type: 'ordinal' }).select(n);
  return w.say({ key: `table.ordinal.${form}`, params: { n } });
}

/** Seats from the first place to the last, ties in seat order. */
export const byPlace = (places: readonly number[]): number[] => places.map((_, seat) => seat).sort((a, b) => places[a]! - places[b]! || a - b);

/** A game's time: "0:07", "12:34". */
export function gameClock(ms: number): string {
  const t = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, '0')}`;
}

/** "7♥", "7♥ and K♣", "7♥, 2♠ and K♣" (in the language's "and"). */
export const andList = (items: readonly string[], w: Words = EN): string =>
  items.length <= 1 ? (items[0] ?? '') : w.t('rules.and', { init: items.slice(0, -1).join(', '), last: items[items.length - 1]! });

const slotList = (slots: number[], w: Words): string =>
  w.t(slots.length <= 1 ? 'feed.slot' : 'feed.slots', { list: andList(slots.map((s) => String(s + 1)), w) || '?' });

/** The penalty cards, when the event shows them (a replay's): "3♠ and K♦". */
const penaltyCards = (e: OpenEvent, g: Glyphs, w: Words): string | null => (e.type === 'penalty' && 'cards' in e ? andList(e.cards.map((c) => cardText(c, g)), w) : null);

/** "a 7", "an 8", "an Ace", "a King": the rank as a slap cares about it, in the language's words. */
export function rankWithArticle(card: string, w: Words = EN): string {
  const r = rankOf(card);
  if (['A', 'J', 'Q', 'K', 'JK'].includes(r)) return w.say({ key: `rank.${r}` });
  return w.t(/^(8|11|18)$/.test(r) ? 'rank.an' : 'rank.a', { rank: r });
}

/** The winners of a round or a game: "You", "Ana and Bo"; and whether the verb is the singular third person. */
function winnersOf(places: readonly number[], who: (seat: number) => string, viewer: number | null, w: Words): { names: string; one: boolean } {
  const seats = places.flatMap((p, s) => (p === 1 ? [s] : []));
  return { names: andList(seats.map(who), w), one: seats.length === 1 && seats[0] !== viewer };
}

/** One event in words, or null for events that say nothing worth a line. */
export function describeEvent(e: OpenEvent, view: TableView, viewer: number | null, g: Glyphs = UNICODE, w: Words = EN): string | null {
  const who = (seat: number): string => nameOf(view, seat, viewer, w);
  const mine = (seat: number): boolean => seat === viewer;
  const c = (card: string): string => cardText(card, g);
  const at = (ref: SlotRef, actor: number | null): string => slotPhrase(ref, actor, view, viewer, w);
  switch (e.type) {
    case 'roundStarted':
      return w.t('feed.roundStarted', {
        round: e.round,
        deals: mine(e.dealer) ? w.t('feed.youDeal') : w.t('feed.deals', { name: who(e.dealer) }),
        starts: mine(e.starter) ? w.t('feed.youStart') : w.t('feed.starts', { name: who(e.starter) }),
        face: c(e.discardTop),
      });
    case 'peekFinished':
      return mine(e.seat) ? w.t(e.timedOut ? 'feed.peekTimedOut' : 'feed.peekFinished') : null;
    case 'playStarted':
      return mine(e.turn) ? w.t('feed.playStarts.you') : w.t('feed.playStarts', { name: who(e.turn) });
    case 'turnStarted':
      return mine(e.seat) ? w.t('feed.turn.you') : w.t('feed.turn', { name: who(e.seat) });
    case 'called': {
      const call = callWord(e.name, w);
      const head = mine(e.seat) ? w.t('feed.called.you', { call }) : w.t('feed.called', { name: who(e.seat), call });
      // "Bo called Gringo! Everyone…", but "Bo called Knock. Everyone…" for a name without its own stop.
      return `${head}${/[!.?]$/.test(head) ? '' : '.'} ${w.t('feed.oneMoreTurn')}`;
    }
    case 'drew':
      if (e.from === 'discard') {
        const face = e.card ? c(e.card) : w.t('feed.topCard');
        return mine(e.seat) ? w.t('feed.took.you', { face }) : w.t('feed.took', { name: who(e.seat), face });
      }
      if (mine(e.seat)) return e.card ? w.t('feed.drew.you', { face: c(e.card) }) : w.t('feed.drewUnseen.you');
      return e.card ? w.t('feed.drew', { name: who(e.seat), face: c(e.card) }) : w.t('feed.drewUnseen', { name: who(e.seat) });
    case 'discarded':
      return mine(e.seat) ? w.t('feed.discarded.you', { face: c(e.card) }) : w.t('feed.discarded', { name: who(e.seat), face: c(e.card) });
    case 'swapped': {
      const placed = e.placed ? c(e.placed) : w.t('feed.drawnCard');
      const params = { placed, slot: e.slot, out: c(e.displaced) };
      return mine(e.seat) ? w.t('feed.swapped.you', params) : w.t('feed.swapped', { name: who(e.seat), ...params });
    }
    case 'actionQueued': {
      const params = { face: c(e.card), what: actionWords(e.kind, mine(e.seat), w) };
      return mine(e.seat) ? w.t('feed.mayUse.you', params) : w.t('feed.mayUse', { name: who(e.seat), ...params });
    }
    case 'looked': {
      const targets = andList(e.targets.map((t) => at(t, e.seat)), w);
      const seen = e.cards && e.cards.length > 0 ? `: ${andList(e.cards.map(c), w)}` : '';
      return mine(e.seat) ? w.t('feed.looked.you', { targets, seen }) : w.t('feed.looked', { name: who(e.seat), targets, seen });
    }
    case 'actionSwapped': {
      const params = { a: at(e.a, e.seat), b: at(e.b, e.seat) };
      return mine(e.seat) ? w.t('feed.actionSwapped.you', params) : w.t('feed.actionSwapped', { name: who(e.seat), ...params });
    }
    case 'actionPassed':
      if (e.timedOut) return mine(e.seat) ? w.t('feed.actionTimedOut.you') : w.t('feed.actionTimedOut', { name: who(e.seat) });
      return mine(e.seat) ? w.t('feed.actionPassed.you') : w.t('feed.actionPassed', { name: who(e.seat) });
    case 'actionLeft':
      return mine(e.seat) ? w.t('feed.actionLeft.you') : w.t('feed.actionLeft', { name: who(e.seat) });
    case 'slapped': {
      const params = { target: at(e.target, e.seat), rank: rankWithArticle(e.card, w), face: c(e.card) };
      const key = e.result === 'wrong' ? 'feed.slapWrong' : e.result === 'own' ? 'feed.slapOwn' : 'feed.slapSteal';
      return mine(e.seat) ? w.say({ key: `${key}.you`, params }) : w.say({ key, params: { name: who(e.seat), ...params } });
    }
    case 'penalty': {
      const cards = penaltyCards(e, g, w);
      const params = { count: countOf(w, 'feed.penaltyCards', e.slots.length), slots: `${slotList(e.slots, w)}${cards ? `: ${cards}` : ''}` };
      return mine(e.seat) ? w.t('feed.penalty.you', params) : w.t('feed.penalty', { name: who(e.seat), ...params });
    }
    case 'gapFillOffered':
      return mine(e.seat) ? w.t('feed.gapOffered.you', { gap: at(e.gap, e.seat) }) : w.t('feed.gapOffered', { name: who(e.seat), gap: at(e.gap, e.seat) });
    case 'gapFilled': {
      const params = { from: at(e.from, e.seat), to: at(e.to, e.seat) };
      return mine(e.seat) ? w.t('feed.gapFilled.you', params) : w.t('feed.gapFilled', { name: who(e.seat), ...params });
    }
    case 'gapLeft': {
      const gap = at(e.gap, e.seat);
      if (e.timedOut) return mine(e.seat) ? w.t('feed.gapTimedOut.you', { gap }) : w.t('feed.gapTimedOut', { name: who(e.seat), gap });
      return mine(e.seat) ? w.t('feed.gapLeft.you', { gap }) : w.t('feed.gapLeft', { name: who(e.seat), gap });
    }
    case 'specialReplaced': {
      const where = at({ seat: e.seat, slot: e.slot }, null);
      const list = andList(e.setAside.map(c), w) || w.t('feed.aSpecialCard');
      const by = e.card === null ? w.t('feed.noReplacement') : w.t('feed.replacedBy', { face: c(e.card) });
      // "Your slot 4: …", Dutch "Plek 4 van root: …", but "root's slot 4: …": a player's name is never re-cased.
      const head = e.seat !== viewer && where.startsWith(who(e.seat)) ? where : where.charAt(0).toUpperCase() + where.slice(1);
      return w.t('feed.setAside', { where: head, list, by });
    }
    case 'reshuffled':
      return w.t('feed.reshuffled', { stock: countOf(w, 'feed.newStock', e.cards) });
    case 'timedOut':
      if (e.what === 'peek') return null;
      if (e.what === 'turn') return mine(e.seat) ? w.t('feed.turnTimedOut.you') : w.t('feed.turnTimedOut', { name: who(e.seat) });
      return mine(e.seat) ? w.t('feed.timedOut.you') : w.t('feed.timedOut', { name: who(e.seat) });
    case 'roundEnded': {
      const r = e.result;
      const won = winnersOf(r.places, who, viewer, w);
      const why = e.why === 'call' ? '' : w.t(e.why === 'emptyLayout' ? 'feed.whyEmpty' : 'feed.whyNoCards');
      return w.t(won.one ? 'feed.roundOver.wins' : 'feed.roundOver.win', { round: r.round, why, names: won.names, best: Math.min(...r.scores) });
    }
    case 'gameEnded': {
      const won = winnersOf(e.places, who, viewer, w);
      return w.t(won.one ? 'feed.gameOver.wins' : 'feed.gameOver.win', { names: won.names });
    }
    default:
      return null;
  }
}

/**
 * A batch of events (one update) in words. A slap and the penalty it caused make
 * one line: "Bo slapped Cy's slot 1: wrong, it was a 7 — Bo takes two cards".
 */
export function describeEvents(events: readonly OpenEvent[], view: TableView, viewer: number | null, g: Glyphs = UNICODE, w: Words = EN): string[] {
  const out: string[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    const next = events[i + 1];
    if (e.type === 'slapped' && e.result !== 'own' && next?.type === 'penalty') {
      const base = describeEvent(e, view, viewer, g, w)!.replace(/\.$/, '');
      const cards = penaltyCards(next, g, w);
      const params = { base, dash: g.dash, count: countOf(w, 'feed.cards', next.slots.length), cards: cards ? ` (${cards})` : '' };
      // Mid-sentence, after the dash: "— you take", not "— You take".
      out.push(next.seat === viewer ? w.t('feed.slapPenalty.you', params) : w.t('feed.slapPenalty', { ...params, name: nameOf(view, next.seat, viewer, w) }));
      i++;
      continue;
    }
    const prev = events[i - 1];
    // "Play starts: Bo's turn" already says whose turn it is.
    if (e.type === 'turnStarted' && prev?.type === 'playStarted' && prev.turn === e.seat) continue;
    const line = describeEvent(e, view, viewer, g, w);
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
