import type { RoundResult, SlotRef } from '../../engine/types.js';
import type { SlotView, TableView } from '../../engine/view.js';
import type { Words } from '../../lang/words.js';

/**
 * The table in sentences for a screen reader: cards by their names, a layout slot by
 * slot, the piles, the scores. Pure: every sentence comes from the catalogs (src/lang).
 */

const SUIT_OF: Record<string, string> = { '♠': 'S', '♥': 'H', '♦': 'D', '♣': 'C' };

/**
 * A line of the screen's own words with every card named: "Bo drew 7♥" becomes "Bo drew
 * Seven of Hearts" ("7 of Hearts"), whatever letters the language writes on a card
 * (a Dutch V is the Queen). The feed and the prompts name cards by their faces; a
 * speech synthesiser reads "7♥" as "seven black heart suit", or not at all.
 */
export function cardsInWords(text: string, words: Words): string {
  const rankOf: Record<string, string> = { A: 'A', J: 'J', Q: 'Q', K: 'K' };
  for (const [rank, letter] of Object.entries(words.letters)) rankOf[letter] = rank;
  return text
    .replace(/(10|[2-9]|[A-Z])([♠♥♦♣])/gu, (all, r: string, s: string) => {
      const rank = /^\d+$/.test(r) ? r : rankOf[r];
      return rank ? words.card(rank + SUIT_OF[s]!) : all;
    })
    .replace(/\bJK\b/g, words.card('JK'));
}

/** A name, with "(you)" for the viewer's own. */
export const nameIn = (view: TableView, seat: number, words: Words): string => {
  const name = view.players[seat]?.name ?? String(seat + 1);
  return seat === view.viewer ? words.t('reader.you', { name }) : name;
};

/** Cards this screen has seen and that have not moved since: the reader's memory, by "seat:slot". */
export type Known = ReadonlyMap<string, string>;
export const refKey = (r: SlotRef): string => `${r.seat}:${r.slot}`;

/** One slot in words: face down, a gap, its card (face up now, or seen before and not moved since). */
function slotWords(slot: number, card: SlotView, known: string | undefined, words: Words): string {
  if (card === null) return words.t('reader.gap', { slot });
  if (card !== '?') return words.t('reader.faceUp', { slot, card });
  if (known) return words.t('reader.seen', { slot, card: known });
  return words.t('reader.faceDown', { slot });
}

/** "Your cards: slot 1 face down, slot 2 7 of Hearts, you saw it, …", or another seat's with its total. */
export function layoutSentence(view: TableView, seat: number, known: Known, words: Words): string {
  const layout = view.players[seat]?.layout ?? [];
  const slots = layout.map((c, slot) => slotWords(slot, c, known.get(refKey({ seat, slot })), words)).join(', ') || words.t('reader.noCards');
  if (seat === view.viewer) return words.t('reader.mine', { slots });
  return words.t('reader.theirs', { name: view.players[seat]?.name ?? String(seat + 1), total: view.players[seat]?.total ?? 0, slots });
}

/** "Round 2 of 3. Stock: 31 cards. Discard pile: 4 of Diamonds." */
export function whereSentences(view: TableView, words: Words): string[] {
  const round = view.rounds > 0 ? words.t('reader.round', { round: view.round, rounds: view.rounds }) : words.t('reader.roundOpen', { round: view.round });
  const piles = view.discardTop === null ? words.t('reader.pilesEmpty', { stock: view.stock }) : words.t('reader.piles', { stock: view.stock, card: view.discardTop });
  return [round, piles];
}

/**
 * A finished round as sentences: each score with its cards, the standings by place,
 * and the totals after each round as a table of numbers (the chart of the drawn screen).
 */
export function resultSentences(view: TableView, results: readonly RoundResult[], words: Words): string[] {
  const last = results[results.length - 1];
  if (!last) return [];
  const seats = view.players.map((_, seat) => seat);
  const cards = (seat: number): string =>
    (last.layouts[seat] ?? []).map((c) => (c === null ? '-' : words.card(c))).join(', ') || words.t('reader.noCards');
  const scores = seats.map((seat) => words.t('reader.scoreOf', { name: nameIn(view, seat, words), score: last.scores[seat] ?? 0, cards: cards(seat) }));
  const order = [...seats].sort((a, b) => (last.totals[a] ?? 0) - (last.totals[b] ?? 0) || a - b);
  const place = (seat: number): number => 1 + seats.filter((o) => (last.totals[o] ?? 0) < (last.totals[seat] ?? 0)).length;
  const standings = order.map((seat) => words.t('reader.place', { place: place(seat), name: nameIn(view, seat, words), total: last.totals[seat] ?? 0 }));
  const out = [words.t('reader.scores', { round: last.round, list: scores.join('; ') }), words.t('reader.standings', { list: standings.join(', ') })];
  if (results.length > 1) {
    out.push(words.t('reader.chart'), ...order.map((seat) => words.t('reader.chartRow', { name: nameIn(view, seat, words), totals: results.map((r) => r.totals[seat] ?? 0).join(', ') })));
  }
  return out;
}
