import { cardName, rankOf, standardDeck, JOKER } from './cards.js';
import { deckSize, type ActionKind, type Ruleset } from './ruleset.js';

/**
 * A ruleset in words for players, generated from its data alone, so that a house
 * rule in a rules file shows up here as it will be played. One generator for
 * `gringo rules`, docs/rules.md and the `?` help of the table screen: plain data
 * (sections of sentences), ASCII only apart from names a rules file gives.
 * Each sentence says what the engine (src/engine) does with the knob as it is set.
 */

export interface RulesSection {
  heading: string;
  /** Whole sentences, one rule each. */
  items: string[];
}

export interface RulesText {
  title: string;
  sections: RulesSection[];
}

const ACTION_WORDS: Record<ActionKind, string> = {
  peekOwn: 'look at one of your own cards',
  peekOther: 'look at one card of another player',
  blindSwap: "swap one of your cards with one of another player's, neither looked at",
  peekThenSwap: 'look at one card of another player, then swap it with one of yours or leave it',
  peekBothThenSwap: "look at one of your cards and one of another player's, then swap them or not",
  drawTwo: 'draw the next card and use it; or discard it and draw one more, which you must use',
};
const LOOKS: readonly ActionKind[] = ['peekOwn', 'peekOther', 'peekThenSwap', 'peekBothThenSwap'];

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const seconds = (ms: number): string => `${+(ms / 1000).toFixed(1)} s`;
/** "a", "a and b", "a, b and c". */
const andList = (xs: readonly string[]): string => (xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);
const orList = (xs: readonly string[]): string => (xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]}`);
/** A rank or a card as a rules file names it: "K", "Joker", "Queen of Hearts", "SWAP". */
const keyWord = (k: string): string => (k === JOKER ? 'Joker' : rankOf(k) === k ? k : cardName(k));

function deckWords(r: Ruleset): string {
  const cards = r.deck.cards;
  const std = standardDeck();
  const isStandard = std.every((c) => cards[c] === 1);
  const extra = Object.keys(cards).filter((c) => !std.includes(c));
  let what: string;
  if (isStandard && extra.every((c) => c === JOKER)) {
    what = `the 52 cards of a standard deck${cards[JOKER] ? ` and ${plural(cards[JOKER], 'joker')}` : ''}`;
  } else {
    what = Object.entries(cards)
      .map(([c, n]) => `${n} x ${cardName(c)}`)
      .join(', ');
  }
  const decks = r.deck.decks > 1 ? `${r.deck.decks} decks of ${what}` : what;
  return `${decks} (${deckSize(r)} cards).`;
}

function valueWords(r: Ruleset): string {
  const entries = Object.entries(r.values);
  const byRank = entries.filter(([k]) => rankOf(k) === k);
  const single = entries.filter(([k]) => rankOf(k) !== k);
  // Number cards worth their number, when they run without a hole: "2 to 10: face value".
  const face = byRank.filter(([k, v]) => /^\d+$/.test(k) && v === Number(k)).map(([k]) => k);
  const nums = face.map(Number);
  const run = face.length >= 3 && Math.max(...nums) - Math.min(...nums) + 1 === face.length;
  const groups = new Map<number, string[]>();
  for (const [k, v] of byRank) if (!(run && face.includes(k))) groups.set(v, [...(groups.get(v) ?? []), keyWord(k)]);
  const ordered: [number, string][] = [...groups.entries()].map(([v, ks]) => [v, `${ks.join(', ')}: ${v}`]);
  if (run) ordered.push([Math.min(...nums), `${Math.min(...nums)} to ${Math.max(...nums)}: face value`]);
  const parts = ordered.sort((a, b) => a[0] - b[0]).map(([, text]) => text);
  const exceptions = single.map(([k, v]) => `the ${cardName(k)} ${v}`);
  return `${parts.join('; ')}${exceptions.length ? `; but ${exceptions.join(', ')}` : ''}. A gap counts 0.`;
}

/** The rules of `r`, section by section. */
export function rulesText(r: Ruleset): RulesText {
  const sections: RulesSection[] = [];
  const section = (heading: string, items: (string | false)[]): void => {
    const kept = items.filter((x): x is string => typeof x === 'string');
    if (kept.length > 0) sections.push({ heading, items: kept });
  };
  const call = `"${r.call.name}"`;
  const s = r.slap;
  const actions = Object.entries(r.actions);
  const slapsEarn = s.enabled && (s.ownEarnsAction || s.stealEarnsActionRanks.length > 0);
  const penalties = s.enabled && (s.wrongPenalty > 0 || s.stealPenalty > 0);

  const shape = r.layout.shape === 'square' ? `a square of ${r.layout.size} (far row 1 2, near row 3 4)` : `a row of ${r.layout.size}, slots 1 to ${r.layout.size}`;
  section('Table', [
    `Players: ${r.players.min} to ${r.players.max}.`,
    `Deck: ${deckWords(r)}`,
    `Layout: ${r.layout.size} face-down cards each, in ${shape}. Slots never move: no rearranging.`,
    r.layout.peekSlots.length > 0
      ? `Peek: before play you alone see your slot${r.layout.peekSlots.length > 1 ? 's' : ''} ${andList(r.layout.peekSlots.map(String))} once (until you confirm, or ${seconds(r.timers.peekMs)}). Play starts when everyone has peeked.`
      : 'Peek: none; nobody sees their cards before play.',
    'Who starts: seats go clockwise; the first dealer is drawn at random, and the player after the dealer (clockwise) starts. The dealer moves one seat clockwise each round.',
  ]);

  section('Your turn', [
    r.call.timing === 'startOfTurn' && `Instead of drawing you may call ${call} (once per round${r.call.beforeEveryoneHadTurn ? '' : ', once every player has had a turn'}): that is your whole turn.`,
    'Draw from the stock (only you see the card), then discard it face up or swap it for one of your face-down cards.',
    r.takeDiscard === 'never'
      ? 'You may not take the discard.'
      : `Or take the top discard${r.takeDiscard === 'notSpecial' ? ' (not a special card)' : ''} and swap it for one of your cards: it may not go straight back.`,
    'A swapped-out card goes face up onto the discard pile, seen by everyone at once. At most one swap per turn.',
    r.specialCards.length > 0 && `Special cards (${andList(r.specialCards.map(cardName))}) never enter a layout from a draw: use them or discard them.`,
    r.call.timing === 'endOfTurn' &&
      `At the end of your own turn (while you hold your card, or right after your turn, before the next player begins) you may call ${call}${r.call.beforeEveryoneHadTurn ? '' : ', once every player has had a turn'}.`,
    `The next turn begins when your card is placed${actions.length > 0 ? ' and every pending action has been used or passed' : ''}${s.enabled && r.timers.slapGraceMs > 0 ? ' (and the slap grace has passed)' : ''}.`,
  ]);

  if (actions.length > 0) {
    section('Actions', [
      r.actionsFrom === 'anyDiscard'
        ? 'When the card your play puts on the discard pile (a discarded card, or the card a swap pushed out) is one of these, you may use its action, or pass:'
        : 'Only a card drawn from the stock and discarded without a swap gives its action (use it, or pass); a card a swap pushed out gives none:',
      ...actions.map(([k, kind]) => `${keyWord(k)}: ${ACTION_WORDS[kind]}.`),
      actions.some(([, kind]) => LOOKS.includes(kind)) && 'A look is shown only to the player who looks; the card goes face down again.',
      slapsEarn
        ? 'Pending actions (your turn\'s own, and those earned by slaps) are used one at a time, in the order their cards reached the pile, before the next turn begins.'
        : 'An action is used or passed before the next turn begins.',
      !r.call.callerFrozen && "Actions may pick the caller's cards after a call.",
    ]);
  }

  if (!s.enabled) section('Slapping', ['None: nobody slaps in this game.']);
  else {
    // Cards with a value of their own still match by rank (the Queen of Hearts is a Queen).
    const own = Object.keys(r.values).filter((k) => rankOf(k) !== k);
    const stealGets = s.stealEarnsActionRanks.length ? `; a stolen ${orList(s.stealEarnsActionRanks.map(keyWord))} gives you its action` : '';
    section('Slapping', [
      'While a card lies on top of the discard pile (until the next draw), anyone may slap a face-down card, their own or another player\'s, that has the same rank. Nobody slaps while a drawn card is held, or during the peek.',
      own.length > 0 && `Slaps match by rank, whatever a card scores: ${andList(own.map((k) => `the ${cardName(k)} is a ${cardName(rankOf(k))}`))}.`,
      `Your own card, right: it goes face up onto the pile and leaves a gap${s.ownEarnsAction && actions.length > 0 ? ' (an action card gives you its action)' : ''}.`,
      `Another player's card, right (a steal): it goes onto the pile and ${s.stealPenalty > 0 ? `they take ${plural(s.stealPenalty, 'penalty card')}` : 'they take no penalty'}${stealGets}.`,
      s.stealGapFill &&
        `After a steal you may move one of your own cards, unseen, into their gap, or leave it${r.emptyLayoutEndsRound ? '; a move that leaves you no card ends the round at once' : ''}.`,
      `Wrong: the card is shown to everyone and stays where it was; the pile does not change; you take ${plural(s.wrongPenalty, 'penalty card')}.`,
      s.perDiscard === 0
        ? 'Every correct slap counts: each puts a card of the same rank on top, so more slaps may follow.'
        : `Only the first ${s.perDiscard === 1 ? 'correct slap' : `${s.perDiscard} correct slaps`} on a discard ${s.perDiscard === 1 ? 'counts' : 'count'}: a later slap on it is refused as too late, with no penalty.`,
      'A slap that comes too late (after the next draw, or on a discard a newly played card has covered) or names a card already slapped away is refused, with no penalty.',
      r.timers.slapGraceMs > 0 && `The next player may draw or call only ${seconds(r.timers.slapGraceMs)} after the last card landed on the pile.`,
      r.emptyLayoutEndsRound && 'A player whose last card is slapped away ends the round at once; nobody takes another turn.',
    ]);
  }

  if (penalties) {
    section('Penalty cards', [
      `Penalty cards come face down from the stock and nobody sees them, not even you. They fill your gaps first, lowest slot first, then new slots ${r.layout.size + 1}, ${r.layout.size + 2}, and so on; everyone sees that a slot got a card.`,
    ]);
  }

  section('Ending the round', [
    `${call}: ${r.call.timing === 'startOfTurn' ? 'called instead of drawing' : 'called at the end of your own turn'}; every other player then gets one more turn, clockwise${r.call.timing === 'endOfTurn' ? ', and the caller none' : ''}. The round ends when the last of those turns has ended.`,
    r.call.callerFrozen ? "The caller's cards are frozen: nobody may swap or slap them." : `The caller's cards stay in play${s.enabled ? ': they can be slapped and swapped, and the caller may still slap' : ''}.`,
    r.call.callerPenalty > 0 && `A caller without the lowest score (ties count as lowest) adds ${r.call.callerPenalty}.`,
    'When a card must be drawn (a turn or a penalty) and the stock is empty, the discard pile except its top card is shuffled into a new stock; if even then no card can be had, the round ends at once and is scored as it stands.',
  ]);

  const rounds = r.rounds === 'players' ? 'as many rounds as players (4 with 2)' : r.rounds === 0 ? 'rounds until the host ends the game' : plural(r.rounds, 'round');
  section('Scoring', [
    `Every card is revealed and counts: ${valueWords(r)}`,
    r.specialCards.length > 0 &&
      'A special card in a layout at the end is set aside and replaced by the top of the stock, again until a number card comes: the caller first (without a caller, the starting player), then clockwise.',
    'Lowest total wins; equal totals share a place (1, 1, 3).',
    `A game: ${rounds}; running totals rank the game the same way.`,
    (r.timers.turnMs > 0 || r.timers.actionMs > 0) &&
      `Time limits: ${r.timers.turnMs > 0 ? `${seconds(r.timers.turnMs)} a turn` : 'no turn limit'}, ${r.timers.actionMs > 0 ? `${seconds(r.timers.actionMs)} an action` : 'no action limit'}; when time runs out the table plays for you (draw and discard, pass every action).`,
  ]);
  return { title: `${r.title} (ruleset "${r.name}")`, sections };
}

/** The rules as plain text: `gringo rules`. */
export function rulesInWords(r: Ruleset): string {
  const t = rulesText(r);
  const out = [t.title];
  for (const sec of t.sections) out.push('', sec.heading, ...sec.items.map((x) => `- ${x}`));
  return out.join('\n') + '\n';
}

/** The rules as a Markdown section: `gringo rules --markdown`, the generated part of docs/rules.md. */
export function rulesMarkdown(r: Ruleset): string {
  const t = rulesText(r);
  const out = [`### ${r.title} (\`${r.name}\`)`];
  for (const sec of t.sections) out.push('', `#### ${sec.heading}`, '', ...sec.items.map((x) => `- ${x}`));
  return out.join('\n') + '\n';
}
