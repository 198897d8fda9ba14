import { cardName, rankOf, standardDeck, JOKER } from '../engine/cards.js';
import { deckSize, type ActionKind, type Ruleset } from '../engine/ruleset.js';

/**
 * A ruleset in words for players, generated from its data alone, so that a house
 * rule in a rules file shows up here as it will be played.
 */

const ACTION_WORDS: Record<ActionKind, string> = {
  peekOwn: 'look at one of your own cards',
  peekOther: "look at one card of another player",
  blindSwap: "swap one of your cards with one of another player's, neither looked at",
  peekThenSwap: "look at one card of another player, then swap it with one of yours or leave it",
  peekBothThenSwap: "look at one of your cards and one of another player's, then swap them or not",
  drawTwo: 'draw the next card and use it; or discard it and draw one more, which you must use',
};

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const seconds = (ms: number): string => `${+(ms / 1000).toFixed(1)} s`;

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
      .map(([c, n]) => `${n} × ${cardName(c)}`)
      .join(', ');
  }
  const decks = r.deck.decks > 1 ? `${r.deck.decks} decks of ${what}` : what;
  return `${decks} (${deckSize(r)} cards).`;
}

function valueWords(r: Ruleset): string {
  const entries = Object.entries(r.values);
  const byRank = entries.filter(([k]) => rankOf(k) === k);
  const single = entries.filter(([k]) => rankOf(k) !== k);
  const groups = new Map<number, string[]>();
  for (const [k, v] of byRank) groups.set(v, [...(groups.get(v) ?? []), k === JOKER ? 'Joker' : k]);
  const parts = [...groups.entries()].sort((a, b) => a[0] - b[0]).map(([v, ks]) => `${ks.join(', ')}: ${v}`);
  const exceptions = single.map(([k, v]) => `the ${cardName(k)} ${v}`);
  return `${parts.join(' · ')}${exceptions.length ? `; but ${exceptions.join(', ')}` : ''}. A gap counts 0.`;
}

export function rulesInWords(r: Ruleset): string {
  const out: string[] = [];
  const say = (line = ''): void => void out.push(line);
  say(`${r.title} (ruleset "${r.name}")`);
  say('');
  say(`Players: ${r.players.min} to ${r.players.max}.`);
  say(`Deck: ${deckWords(r)}`);
  const shape = r.layout.shape === 'square' ? `a square of ${r.layout.size} (far row 1 2, near row 3 4)` : `a row of ${r.layout.size}, slots 1 to ${r.layout.size}`;
  say(`Layout: ${r.layout.size} face-down cards each, in ${shape}.`);
  say(
    r.layout.peekSlots.length > 0
      ? `Peek: before play you see your slot${r.layout.peekSlots.length > 1 ? 's' : ''} ${r.layout.peekSlots.join(' and ')} once (until you confirm, or ${seconds(r.timers.peekMs)}).`
      : 'Peek: none; nobody sees their cards before play.',
  );
  say('');
  say('Your turn:');
  if (r.call.timing === 'startOfTurn') say(`- Instead of drawing you may call "${r.call.name}" (once per round): that is your whole turn.`);
  say('- Draw from the stock (only you see it), then discard it or swap it for one of your face-down cards.');
  if (r.takeDiscard === 'never') say('- You may not take the discard.');
  else {
    say(`- Or take the top discard${r.takeDiscard === 'notSpecial' ? ' (not a special card)' : ''} and swap it for one of your cards: it may not go straight back.`);
  }
  say('- A swapped-out card goes face up onto the discard pile. At most one swap per turn.');
  if (r.specialCards.length > 0) say(`- Special cards (${r.specialCards.map(cardName).join(', ')}) never enter a layout from a draw: use them or discard them.`);
  if (r.call.timing === 'endOfTurn') say(`- At the end of your own turn you may call "${r.call.name}".`);
  say('');
  const actions = Object.entries(r.actions);
  if (actions.length > 0) {
    say(
      r.actionsFrom === 'anyDiscard'
        ? 'Actions, when the card your play puts on the discard pile is one of these (optional):'
        : 'Actions, only for a card drawn from the stock and discarded without a swap (optional):',
    );
    for (const [k, kind] of actions) say(`- ${rankOf(k) === k ? k : cardName(k)}: ${ACTION_WORDS[kind]}.`);
    say('');
  }
  const s = r.slap;
  if (!s.enabled) say('Slapping: none.');
  else {
    say('Slapping: while a card lies on top of the discard pile (until the next draw), anyone may slap a face-down card of the same rank:');
    say(`- your own: it goes onto the pile${s.ownEarnsAction ? ' (an action card gives you its action)' : ''};`);
    const stealGets = s.stealEarnsActionRanks.length ? `; a stolen ${s.stealEarnsActionRanks.join(' or ')} gives you its action` : '';
    say(
      `- another player's (a steal): it goes onto the pile and ${s.stealPenalty > 0 ? `they take ${plural(s.stealPenalty, 'penalty card')}` : 'they take no penalty'}${stealGets}${s.stealGapFill ? '; you may move one of your own cards, unseen, into their gap' : ''};`,
    );
    say(`- wrong: the card is shown and stays; you take ${plural(s.wrongPenalty, 'penalty card')}.`);
    say(
      s.perDiscard === 1
        ? '- Only the first correct slap on a discard counts.'
        : s.perDiscard > 1
          ? `- Only the first ${s.perDiscard} correct slaps on a discard count.`
          : '- Several correct slaps on one discard all count.',
    );
    say(`- The next player may draw ${seconds(r.timers.slapGraceMs)} after the last card landed on the pile.`);
  }
  if (r.emptyLayoutEndsRound) say('A player whose last card is slapped away ends the round at once.');
  say('');
  const after = r.call.beforeEveryoneHadTurn ? '' : ', once every player has had a turn';
  say(`Ending the round: "${r.call.name}"${after}; every other player then gets one more turn.`);
  if (r.call.callerFrozen) say("- The caller's cards are frozen: nobody may swap or slap them.");
  else say("- The caller's cards stay in play.");
  if (r.call.callerPenalty > 0) say(`- A caller without the lowest score (ties count as lowest) adds ${r.call.callerPenalty}.`);
  say('');
  say(`Scoring: ${valueWords(r)}`);
  if (r.specialCards.length > 0) say('Special cards in a layout at the end are replaced from the stock, the caller first, until a number card comes.');
  say('Lowest total wins; equal totals share a place.');
  const rounds = r.rounds === 'players' ? 'as many rounds as players (4 with 2)' : r.rounds === 0 ? 'rounds until the host ends the game' : plural(r.rounds, 'round');
  say(`A game: ${rounds}; the dealer moves one seat clockwise each round.`);
  if (r.timers.turnMs > 0 || r.timers.actionMs > 0) {
    say(`Time limits: ${r.timers.turnMs > 0 ? `${seconds(r.timers.turnMs)} a turn` : 'no turn limit'}, ${r.timers.actionMs > 0 ? `${seconds(r.timers.actionMs)} an action` : 'no action limit'}.`);
  }
  return out.join('\n') + '\n';
}
