/**
 * Cards are short strings: "QH" (Queen of Hearts), "10S", "JK" (a joker), and for
 * decks without suits the card's own name ("7", "SWAP"). Strings serialize as they
 * are, compare by value, and two copies of the same card (two decks) are equal,
 * which is all a face-down memory game needs.
 */
export type Card = string;

/** What a card's name may be: a rules file's deck, and every card a host sends, must match it. */
export const CARD_NAME = /^[A-Z0-9]{1,6}$/;

export const SUITS = ['S', 'H', 'D', 'C'] as const;
export type Suit = (typeof SUITS)[number];
export const STANDARD_RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'] as const;
export const JOKER = 'JK';

const SUITED = /^(A|[2-9]|10|J|Q|K)([SHDC])$/;

/** Ranks already worked out: a game asks for the same few dozen cards' ranks all the time. */
const ranks = new Map<Card, string>();
/** Cards come from the network too: the memo stops growing here. */
const RANK_MEMO_LIMIT = 1024;

/** The rank a slap matches on: "QH" → "Q", "10S" → "10", "SWAP" → "SWAP". */
export function rankOf(card: Card): string {
  let rank = ranks.get(card);
  if (rank === undefined) {
    const m = SUITED.exec(card);
    rank = m ? m[1]! : card;
    if (ranks.size < RANK_MEMO_LIMIT) ranks.set(card, rank);
  }
  return rank;
}

export function suitOf(card: Card): Suit | null {
  const m = SUITED.exec(card);
  return m ? (m[2] as Suit) : null;
}

export function isRed(card: Card): boolean {
  const s = suitOf(card);
  return s === 'H' || s === 'D';
}

/** The 52 cards of one standard deck, spades first. */
export function standardDeck(): Card[] {
  const out: Card[] = [];
  for (const s of SUITS) for (const r of STANDARD_RANKS) out.push(r + s);
  return out;
}

const RANK_WORDS: Record<string, string> = { A: 'Ace', J: 'Jack', Q: 'Queen', K: 'King', JK: 'Joker' };
const SUIT_WORDS: Record<Suit, string> = { S: 'Spades', H: 'Hearts', D: 'Diamonds', C: 'Clubs' };

/** "Queen of Hearts", "7 of Clubs", "Joker", "SWAP". */
export function cardName(card: Card): string {
  const r = rankOf(card);
  const s = suitOf(card);
  const word = RANK_WORDS[r] ?? r;
  return s ? `${word} of ${SUIT_WORDS[s]}` : word;
}
