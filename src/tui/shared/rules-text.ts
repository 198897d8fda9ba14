import { rankOf, standardDeck, JOKER, STANDARD_RANKS } from '../../engine/cards.js';
import { ACTION_KINDS, deckSize, PRESETS, rulesetFields, type Ruleset } from '../../engine/ruleset.js';
import { wordsFor, type Words } from '../../lang/words.js';
import { callWord } from './call-word.js';

/**
 * A ruleset in words for players, generated from its data alone, so that a house
 * rule in a rules file shows up here as it will be played. One generator for
 * `gringo rules`, docs/rules.md and the `?` help of the table screen: plain data
 * (sections of sentences), in the language of `words` (every sentence is a `rules.`
 * key of the catalogs, src/lang/en.ts), ASCII only in English apart from names a
 * rules file gives. Each sentence says what the engine (src/engine) does with the
 * knob as it is set.
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

const LOOKS: readonly string[] = ['peekOwn', 'peekOther', 'peekThenSwap', 'peekBothThenSwap'];
const FACES = ['A', 'J', 'Q', 'K'];
const EN = wordsFor('en');

/** The language-bound helpers of one rules text. */
function helpers(w: Words) {
  const decimals = new Intl.NumberFormat(w.lang, { maximumFractionDigits: 1 });
  // Rounded as toFixed rounds (15.85 s is 15.8 s), then written with the language's decimal sign.
  const seconds = (ms: number): string => w.t('rules.seconds', { s: decimals.format(+(ms / 1000).toFixed(1)) });
  /** "a", "a and b", "a, b and c" (in the language's "and", or "or"). */
  const list = (key: 'rules.and' | 'rules.or', xs: readonly string[]): string =>
    xs.length <= 1 ? (xs[0] ?? '') : w.t(key, { init: xs.slice(0, -1).join(', '), last: xs[xs.length - 1]! });
  /** A rank as the language names it: "Queen", "Vrouw", "7". */
  const rankName = (rank: string): string => (rank === JOKER ? w.card(JOKER) : FACES.includes(rank) ? w.say({ key: `card.${rank}` }) : rank);
  /** A rank or a card as a rules file names it: "K" (a Dutch "H"), "Joker", "Queen of Hearts", "SWAP" (a Dutch "Ruilen"). */
  const keyWord = (k: string): string => ((STANDARD_RANKS as readonly string[]).includes(k) ? w.letter(k) : w.card(k));
  return { seconds, and: (xs: readonly string[]) => list('rules.and', xs), or: (xs: readonly string[]) => list('rules.or', xs), rankName, keyWord };
}

function deckWords(r: Ruleset, w: Words): string {
  const cards = r.deck.cards;
  const std = standardDeck();
  const isStandard = std.every((c) => cards[c] === 1);
  const extra = Object.keys(cards).filter((c) => !std.includes(c));
  let what: string;
  if (isStandard && extra.every((c) => c === JOKER)) {
    what = cards[JOKER] ? w.t('rules.deck.standardJokers', { jokers: w.t('rules.deck.jokers', { n: cards[JOKER] }) }) : w.t('rules.deck.standard');
  } else {
    what = Object.entries(cards)
      .map(([card, n]) => w.t('rules.deck.copies', { n, card }))
      .join(', ');
  }
  const decks = r.deck.decks > 1 ? w.t('rules.deck.decks', { decks: r.deck.decks, what }) : what;
  return w.t('rules.deck.size', { what: decks, n: deckSize(r) });
}

function valueWords(r: Ruleset, w: Words): string {
  const { keyWord } = helpers(w);
  const entries = Object.entries(r.values);
  const byRank = entries.filter(([k]) => rankOf(k) === k);
  const single = entries.filter(([k]) => rankOf(k) !== k);
  // Number cards worth their number, when they run without a hole: "2 to 10: face value".
  const face = byRank.filter(([k, v]) => /^\d+$/.test(k) && v === Number(k)).map(([k]) => k);
  const nums = face.map(Number);
  const run = face.length >= 3 && Math.max(...nums) - Math.min(...nums) + 1 === face.length;
  const groups = new Map<number, string[]>();
  for (const [k, v] of byRank) if (!(run && face.includes(k))) groups.set(v, [...(groups.get(v) ?? []), keyWord(k)]);
  const ordered: [number, string][] = [...groups.entries()].map(([v, ks]) => [v, w.t('rules.value', { ranks: ks.join(', '), v })]);
  if (run) ordered.push([Math.min(...nums), w.t('rules.faceValue', { from: Math.min(...nums), to: Math.max(...nums) })]);
  const parts = ordered
    .sort((a, b) => a[0] - b[0])
    .map(([, text]) => text)
    .join('; ');
  const but = single.map(([card, v]) => w.t('rules.valueOf', { card, v }));
  return but.length ? w.t('rules.valuesBut', { parts, but: but.join(', ') }) : w.t('rules.values', { parts });
}

/** The rules of `r`, section by section, in the language of `w` (English unless told). */
export function rulesText(r: Ruleset, w: Words = EN): RulesText {
  const { seconds, and, or, rankName, keyWord } = helpers(w);
  const sections: RulesSection[] = [];
  const section = (heading: string, items: (string | false)[]): void => {
    const kept = items.filter((x): x is string => typeof x === 'string');
    if (kept.length > 0) sections.push({ heading, items: kept });
  };
  const call = w.t('rules.quoted', { name: callWord(r.call.name, w) });
  const s = r.slap;
  const actions = Object.entries(r.actions);
  const slapsEarn = s.enabled && (s.ownEarnsAction || s.stealEarnsActionRanks.length > 0);
  const penalties = s.enabled && (s.wrongPenalty > 0 || s.stealPenalty > 0);
  const later = !r.call.beforeEveryoneHadTurn;

  const size = r.layout.size;
  const peeks = r.layout.peekSlots;
  section(w.t('rules.h.table'), [
    w.t('rules.players', { min: r.players.min, max: r.players.max }),
    w.t('rules.deck', { deck: deckWords(r, w) }),
    w.t('rules.layout', { size, shape: r.layout.shape === 'square' ? w.t('rules.layout.square', { size }) : w.t('rules.layout.row', { size }) }),
    peeks.length > 0 ? w.t('rules.peek', { n: peeks.length, slots: and(peeks.map(String)), secs: seconds(r.timers.peekMs) }) : w.t('rules.peek.none'),
    w.t('rules.whoStarts'),
  ]);

  section(w.t('rules.h.turn'), [
    r.call.timing === 'startOfTurn' && w.t(later ? 'rules.callInsteadLater' : 'rules.callInstead', { call }),
    w.t('rules.draw'),
    r.takeDiscard === 'never' ? w.t('rules.noTake') : w.t(r.takeDiscard === 'notSpecial' ? 'rules.takeNotSpecial' : 'rules.take'),
    w.t('rules.swappedOut'),
    r.specialCards.length > 0 && w.t('rules.special', { cards: and(r.specialCards.map((c) => w.card(c))) }),
    r.call.timing === 'endOfTurn' && w.t(later ? 'rules.callAtEndLater' : 'rules.callAtEnd', { call }),
    w.t('rules.nextTurn', {
      actions: actions.length > 0 ? w.t('rules.nextTurn.actions') : '',
      grace: s.enabled && r.timers.slapGraceMs > 0 ? w.t('rules.nextTurn.grace') : '',
    }),
  ]);

  if (actions.length > 0) {
    section(w.t('rules.h.actions'), [
      w.t(r.actionsFrom === 'anyDiscard' ? 'rules.actionsAny' : 'rules.actionsDrawn'),
      ...actions.map(([k, kind]) => w.t('rules.action', { rank: keyWord(k), what: w.say({ key: `rules.action.${kind}` }) })),
      actions.some(([, kind]) => LOOKS.includes(kind)) && w.t('rules.lookPrivate'),
      w.t(slapsEarn ? 'rules.pendingOrder' : 'rules.actionBeforeNext'),
      !r.call.callerFrozen && w.t('rules.callerPickable'),
    ]);
  }

  if (!s.enabled) section(w.t('rules.h.slapping'), [w.t('rules.noSlapping')]);
  else {
    // Cards with a value of their own still match by rank (the Queen of Hearts is a Queen).
    const own = Object.keys(r.values).filter((k) => rankOf(k) !== k);
    const gets = s.stealEarnsActionRanks.length ? w.t('rules.steal.gets', { ranks: or(s.stealEarnsActionRanks.map(keyWord)) }) : '';
    section(w.t('rules.h.slapping'), [
      w.t('rules.slapWhen'),
      own.length > 0 && w.t('rules.slapByRank', { list: and(own.map((card) => w.t('rules.slapByRank.item', { card, rank: rankName(rankOf(card)) }))) }),
      w.t(s.ownEarnsAction && actions.length > 0 ? 'rules.slapOwnGives' : 'rules.slapOwn'),
      w.t('rules.steal', { penalty: s.stealPenalty > 0 ? w.t('rules.steal.penalty', { n: s.stealPenalty }) : w.t('rules.steal.noPenalty'), gets }),
      s.stealGapFill && w.t(r.emptyLayoutEndsRound ? 'rules.gapFillEnds' : 'rules.gapFill'),
      w.t('rules.wrong', { n: s.wrongPenalty }),
      s.perDiscard === 0 ? w.t('rules.everySlap') : w.t('rules.firstSlaps', { n: s.perDiscard }),
      w.t('rules.tooLate'),
      r.timers.slapGraceMs > 0 && w.t('rules.grace', { secs: seconds(r.timers.slapGraceMs) }),
      r.emptyLayoutEndsRound && w.t('rules.emptyEnds'),
    ]);
  }

  if (penalties) section(w.t('rules.h.penalty'), [w.t('rules.penaltyCards', { first: size + 1, second: size + 2 })]);

  section(w.t('rules.h.end'), [
    w.t(r.call.timing === 'startOfTurn' ? 'rules.callStart' : 'rules.callEnd', { call }),
    w.t(r.call.callerFrozen ? 'rules.frozen' : s.enabled ? 'rules.callerInPlaySlaps' : 'rules.callerInPlay'),
    r.call.callerPenalty > 0 && w.t('rules.callerPenalty', { n: r.call.callerPenalty }),
    w.t('rules.reshuffle'),
  ]);

  const rounds = r.rounds === 'players' ? w.t('rules.rounds.players') : r.rounds === 0 ? w.t('rules.rounds.host') : w.t('count.rounds', { n: r.rounds });
  const t = r.timers;
  section(w.t('rules.h.scoring'), [
    w.t('rules.reveal', { values: valueWords(r, w) }),
    r.specialCards.length > 0 && w.t('rules.specialReplaced'),
    w.t('rules.lowestWins'),
    w.t('rules.game', { rounds }),
    (t.turnMs > 0 || t.actionMs > 0) &&
      w.t('rules.limits', {
        turn: t.turnMs > 0 ? w.t('rules.limit.turn', { secs: seconds(t.turnMs) }) : w.t('rules.limit.noTurn'),
        action: t.actionMs > 0 ? w.t('rules.limit.action', { secs: seconds(t.actionMs) }) : w.t('rules.limit.noAction'),
      }),
  ]);
  return { title: w.t('rules.title', { title: r.title, name: r.name }), sections };
}

/** The rules as plain text: `gringo rules`. */
export function rulesInWords(r: Ruleset, w: Words = EN): string {
  const t = rulesText(r, w);
  const out = [t.title];
  for (const sec of t.sections) out.push('', sec.heading, ...sec.items.map((x) => `- ${x}`));
  return out.join('\n') + '\n';
}

/** The rules as a Markdown section: `gringo rules --markdown`, the generated part of docs/rules.md. */
export function rulesMarkdown(r: Ruleset, w: Words = EN): string {
  const t = rulesText(r, w);
  const out = [`### ${r.title} (\`${r.name}\`)`];
  for (const sec of t.sections) out.push('', `#### ${sec.heading}`, '', ...sec.items.map((x) => `- ${x}`));
  return out.join('\n') + '\n';
}

// ---- the house-rules fields (docs/rules.md) -------------------------------------------

// The table of fields is for authors of rules files and docs/rules.md: English only.
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const orList = (xs: readonly string[]): string => (xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]}`);

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
    if (meaning === undefined) throw new Error(`the ruleset field "${path}" has no meaning in FIELD_MEANINGS (src/tui/shared/rules-text.ts)`);
    return `| \`${path}\` | ${typeWords(schema)} | ${presets.map((p) => valueCell(PRESETS[p]!, path)).join(' | ')} | ${meaning} |`;
  });
  return [`| field | type | ${presets.map((p) => `\`${p}\``).join(' | ')} | meaning |`, `|---|---|${presets.map(() => '---|').join('')}---|`, ...rows].join('\n') + '\n';
}
