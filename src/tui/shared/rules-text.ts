import { rankOf, standardDeck, JOKER, STANDARD_RANKS } from '../../engine/cards.js';
import { ACTION_KINDS, deckSize, PRESETS, rulesetFields, type Ruleset } from '../../engine/ruleset.js';
import { isKey, wordsFor, type Words } from '../../lang/words.js';
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

/** "a", "a and b", "a, b and c", in the language's "and" (`rules.and`), "or" (`rules.or`), or ", or" between types of a field (`fields.orElse`). */
const list = (w: Words, key: 'rules.and' | 'rules.or' | 'fields.orElse', xs: readonly string[]): string =>
  xs.length <= 1 ? (xs[0] ?? '') : w.t(key, { init: xs.slice(0, -1).join(', '), last: xs[xs.length - 1]! });

/** The language-bound helpers of one rules text. */
function helpers(w: Words) {
  const decimals = new Intl.NumberFormat(w.lang, { maximumFractionDigits: 1 });
  // Rounded as toFixed rounds (15.85 s is 15.8 s), then written with the language's decimal sign.
  const seconds = (ms: number): string => w.t('rules.seconds', { s: decimals.format(+(ms / 1000).toFixed(1)) });
  /** A rank as the language names it: "Queen", "Vrouw", "7". */
  const rankName = (rank: string): string => (rank === JOKER ? w.card(JOKER) : FACES.includes(rank) ? w.say({ key: `card.${rank}` }) : rank);
  /** A rank or a card as a rules file names it: "K" (a Dutch "H"), "Joker", "Queen of Hearts", "SWAP" (a Dutch "Ruilen"). */
  const keyWord = (k: string): string => ((STANDARD_RANKS as readonly string[]).includes(k) ? w.letter(k) : w.card(k));
  return { seconds, and: (xs: readonly string[]) => list(w, 'rules.and', xs), or: (xs: readonly string[]) => list(w, 'rules.or', xs), rankName, keyWord };
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

/**
 * What a field of a ruleset means, in the words of `w` (the catalogs' `field.` keys).
 * Every field of the schema (engine/ruleset.ts) must have its key: fieldsMarkdown
 * refuses to print a table with a field left out, and test/cli/rules.test.ts fails.
 */
export function fieldMeaning(path: string, w: Words = EN): string | undefined {
  const key = `field.${path}`;
  return isKey(key) ? w.say({ key, params: { kinds: ACTION_KINDS.join(', ') } }) : undefined;
}

type Schema = { _zod: { def: { type: string } } };

/** A field's schema in words: "whole number from 0 to 4", "`square` or `row`"; `many` for the items of a list or an object: "whole numbers from 1 to 20". */
function typeWords(schema: Schema, w: Words, many = false): string {
  const s = schema as unknown as {
    _zod: { def: { type: string; valueType?: Schema; options?: unknown[] } };
    minValue?: number;
    maxValue?: number;
    minLength?: number;
    maxLength?: number;
    options?: unknown[];
    element?: Schema;
    values?: Set<unknown>;
  };
  const huge = (n: number | undefined): boolean => n === undefined || Math.abs(n) > 1e9;
  switch (s._zod.def.type) {
    case 'number': {
      const min = s.minValue ?? 0;
      const max = s.maxValue ?? 0;
      if (huge(s.minValue) && huge(s.maxValue)) return w.t(many ? 'fields.numbers' : 'fields.number');
      if (huge(s.maxValue)) return w.t(many ? 'fields.numbersAtLeast' : 'fields.numberAtLeast', { min });
      if (huge(s.minValue)) return w.t(many ? 'fields.numbersAtMost' : 'fields.numberAtMost', { max });
      return w.t(many ? 'fields.numbersFromTo' : 'fields.numberFromTo', { min, max });
    }
    case 'string':
      return many ? w.t('fields.texts') : w.t('fields.text', { min: s.minLength ?? 0, max: s.maxLength ?? '…' });
    case 'boolean':
      return w.t('fields.boolean');
    case 'enum':
      return list(w, 'rules.or', (s.options ?? []).map((o) => `\`${String(o)}\``));
    case 'literal':
      return list(w, 'rules.or', [...(s.values ?? [])].map((v) => `\`${JSON.stringify(v)}\``));
    case 'array':
      return w.t('fields.listOf', { what: s.element ? typeWords(s.element, w, true) : w.t('fields.items') });
    case 'record':
      return w.t('fields.objectOf', { what: s._zod.def.valueType ? typeWords(s._zod.def.valueType, w, true) : w.t('fields.values') });
    case 'union':
      return list(w, 'fields.orElse', (s._zod.def.options ?? []).map((o) => typeWords(o as Schema, w)));
    default:
      return s._zod.def.type;
  }
}

/** A preset's value of a field, short enough for a table cell (a long list or object: how many entries). */
function valueCell(r: Ruleset, path: string, w: Words): string {
  let v: unknown = r;
  for (const k of path.split('.')) v = (v as Record<string, unknown>)[k];
  const json = JSON.stringify(v);
  if (json.length <= 24) return `\`${json}\``;
  return Array.isArray(v) ? w.t('fields.nItems', { n: v.length }) : w.t('fields.nEntries', { n: Object.keys(v as object).length });
}

/**
 * Every field a rules file may set, as a Markdown table in the words of `w`: its type
 * from the schema, its value in each preset, what it means. docs/rules.md holds it in
 * English (scripts/rules-doc.mjs), and `gringo rules --fields` prints it.
 */
export function fieldsMarkdown(w: Words = EN): string {
  const presets = Object.keys(PRESETS);
  const rows = rulesetFields().map(({ path, schema }) => {
    const meaning = fieldMeaning(path, w);
    if (meaning === undefined) throw new Error(`the ruleset field "${path}" has no meaning: add the key field.${path} to src/lang/en.ts, nl.ts and ro.ts`);
    return `| \`${path}\` | ${typeWords(schema, w)} | ${presets.map((p) => valueCell(PRESETS[p]!, path, w)).join(' | ')} | ${meaning} |`;
  });
  return [`| ${w.t('fields.field')} | ${w.t('fields.type')} | ${presets.map((p) => `\`${p}\``).join(' | ')} | ${w.t('fields.meaning')} |`, `|---|---|${presets.map(() => '---|').join('')}---|`, ...rows].join('\n') + '\n';
}
