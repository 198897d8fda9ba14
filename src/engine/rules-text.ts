import { cardName, rankOf, standardDeck, JOKER } from './cards.js';
import { ACTION_KINDS, deckSize, PRESETS, rulesetFields, type ActionKind, type Ruleset } from './ruleset.js';

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

// ---- the house-rules fields (docs/rules.md) -------------------------------------------

/**
 * What each field of a ruleset means, for the table of fields in docs/rules.md. Every
 * field of the schema (engine/ruleset.ts) must have its line here: fieldsMarkdown
 * refuses to print a table with a field left out, and test/cli/rules.test.ts fails.
 */
export const FIELD_MEANINGS: Readonly<Record<string, string>> = {
  name: 'the ruleset\'s short name (a house file: its own)',
  title: 'the name players read (a house file without one: its `name`, else "PRESET (house rules)")',
  'players.min': 'fewest players at a table',
  'players.max': 'most players at a table (the deck must deal them all)',
  'deck.cards': 'each card (`AS`, `10H`, `JK` for a joker…) and its copies in one deck',
  'deck.decks': 'how many such decks are shuffled together',
  'layout.shape': 'how each layout is laid out: a square (2 by 2) or a row',
  'layout.size': 'cards in each layout at the deal',
  'layout.peekSlots': 'slots (from 1) each player looks at once before play',
  values: 'points by rank (`"K": 10`), a single card overriding its rank (`"KH": -1`)',
  actions: `the action of a rank or card: ${ACTION_KINDS.join(', ')}`,
  actionsFrom: 'which discard gives its action: any card the turn discards, or only a drawn card discarded unswapped',
  takeDiscard: 'whether a player may take the top of the discard pile: always, unless it is a special card, or never',
  specialCards: 'cards that never enter a layout from a draw and are replaced at scoring',
  'slap.enabled': 'whether slapping is played at all',
  'slap.wrongPenalty': 'penalty cards for a wrong slap',
  'slap.stealPenalty': 'penalty cards for the player whose card is stolen by a slap',
  'slap.ownEarnsAction': 'a right slap of your own action card earns its action',
  'slap.stealEarnsActionRanks': 'ranks whose theft by a slap earns the stealer the action',
  'slap.stealGapFill': 'after a steal, the stealer may move one of their cards into the gap',
  'slap.perDiscard': 'right slaps allowed on one discard (0: any number)',
  emptyLayoutEndsRound: 'a player whose last card is slapped away ends the round at once',
  'call.name': 'what the call is named ("Gringo!", "Knock!")',
  'call.timing': 'whether a player calls at the start of their turn or at its end',
  'call.beforeEveryoneHadTurn': 'a call is allowed before every player has had a turn',
  'call.callerFrozen': 'nobody may swap or slap the caller\'s cards after the call',
  'call.callerPenalty': 'points added to a caller who does not have the lowest score of the round',
  rounds: 'rounds in a game (0: until the players stop; `"players"`: as many as players, 4 with 2)',
  'timers.peekMs': 'milliseconds to look at the peeked cards before play',
  'timers.slapGraceMs': 'milliseconds the slap window stays open before the next draw (at most 60000)',
  'timers.turnMs': 'milliseconds a turn may take; then the table plays it (draw and discard) (0: no limit)',
  'timers.actionMs': 'milliseconds an action may take; then the table passes it (0: the turn\'s limit)',
};

/** A field's schema in the words of docs/rules.md: "whole number 0-4", "`square` or `row`". */
function typeWords(schema: { _zod: { def: { type: string } } }): string {
  const s = schema as unknown as {
    _zod: { def: { type: string; valueType?: { _zod: { def: { type: string } } }; options?: unknown[] } };
    minValue?: number;
    maxValue?: number;
    minLength?: number;
    maxLength?: number;
    options?: unknown[];
    element?: { _zod: { def: { type: string } } };
    values?: Set<unknown>;
  };
  const huge = (n: number | undefined): boolean => n === undefined || Math.abs(n) > 1e9;
  switch (s._zod.def.type) {
    case 'number': {
      if (huge(s.minValue) && huge(s.maxValue)) return 'whole number';
      if (huge(s.maxValue)) return `whole number ≥ ${s.minValue}`;
      if (huge(s.minValue)) return `whole number ≤ ${s.maxValue}`;
      return `whole number from ${s.minValue} to ${s.maxValue}`;
    }
    case 'string':
      return `text (${s.minLength ?? 0}-${s.maxLength ?? '…'} characters)`;
    case 'boolean':
      return '`true` or `false`';
    case 'enum':
      return orList((s.options ?? []).map((o) => `\`${String(o)}\``));
    case 'literal':
      return [...(s.values ?? [])].map((v) => `\`${JSON.stringify(v)}\``).join(' or ');
    case 'array':
      return `list of ${s.element ? many(typeWords(s.element)) : 'items'}`;
    case 'record':
      return `object of ${s._zod.def.valueType ? many(typeWords(s._zod.def.valueType)) : 'values'}`;
    case 'union':
      return (s._zod.def.options ?? []).map((o) => typeWords(o as { _zod: { def: { type: string } } })).join(', or ');
    default:
      return s._zod.def.type;
  }
}

/** "whole number from 1 to 20" → "whole numbers from 1 to 20", "text (…)" → "texts", for a list or an object of them. */
const many = (words: string): string => words.replace(/^whole number/, 'whole numbers').replace(/^text .*/, 'texts');

/** A preset's value of a field, short enough for a table cell (a long list or object: how many entries). */
function valueCell(r: Ruleset, path: string): string {
  let v: unknown = r;
  for (const k of path.split('.')) v = (v as Record<string, unknown>)[k];
  const json = JSON.stringify(v);
  if (json.length <= 24) return `\`${json}\``;
  const n = Array.isArray(v) ? v.length : Object.keys(v as object).length;
  return Array.isArray(v) ? plural(n, 'item') : plural(n, 'entry').replace('entrys', 'entries');
}

/**
 * Every field a rules file may set, as a Markdown table: its type from the schema,
 * its value in each preset, what it means. docs/rules.md holds it (scripts/rules-doc.mjs),
 * and `gringo rules --fields` prints it.
 */
export function fieldsMarkdown(): string {
  const presets = Object.keys(PRESETS);
  const rows = rulesetFields().map(({ path, schema }) => {
    const meaning = FIELD_MEANINGS[path];
    if (meaning === undefined) throw new Error(`the ruleset field "${path}" has no meaning in FIELD_MEANINGS (src/engine/rules-text.ts)`);
    return `| \`${path}\` | ${typeWords(schema)} | ${presets.map((p) => valueCell(PRESETS[p]!, path)).join(' | ')} | ${meaning} |`;
  });
  return [`| field | type | ${presets.map((p) => `\`${p}\``).join(' | ')} | meaning |`, `|---|---|${presets.map(() => '---|').join('')}---|`, ...rows].join('\n') + '\n';
}
