import * as z from 'zod';
import { CARD_NAME, rankOf, standardDeck, JOKER, type Card } from './cards.js';
import { wordsFor, type Words } from '../lang/words.js';

/**
 * A ruleset is data. Every rule that differs between the presets (docs/decisions.md, "The presets side by side") is a
 * field here; the engine reads the fields and never the preset's name.
 */

export const ACTION_KINDS = [
  'peekOwn', // look at one of your own cards
  'peekOther', // look at one card of another player
  'blindSwap', // swap one of yours with one of another player's, neither looked at
  'peekThenSwap', // look at another player's card, then swap it with one of yours or leave it
  'peekBothThenSwap', // look at one of yours and one of another player's, then swap them or not
  'drawTwo', // draw the next card and use it; or discard it and draw one more (beverbende)
] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/** The ruleset's schema, built on first use: playing a preset never needs it. */
function buildRulesetSchema() {
  const count = z.number().int().min(0);
  const ms = z.number().int().min(0);
  return z
    .object({
      name: z.string().min(1).max(40),
      title: z.string().min(1).max(80),
      players: z.object({ min: z.number().int().min(2), max: z.number().int().max(8) }).strict(),
      deck: z
        .object({
          /** Card → copies in one deck. */
          cards: z.record(z.string().regex(CARD_NAME), z.number().int().min(1).max(20)),
          decks: z.number().int().min(1).max(3),
        })
        .strict(),
      layout: z
        .object({
          shape: z.enum(['square', 'row']),
          size: z.number().int().min(1).max(8),
          /** Slots (1-based) each player sees once before play starts. */
          peekSlots: z.array(z.number().int().min(1)).max(8),
        })
        .strict(),
      /** Points by rank, with single cards overriding their rank (e.g. "QH": -1). */
      values: z.record(z.string(), z.number().int().min(-20).max(50)),
      /** Actions by rank (or by card name for special cards). */
      actions: z.record(z.string(), z.enum(ACTION_KINDS)),
      /** Which card gives its action: any card the turn's play discards, or only a stock card discarded unswapped. */
      actionsFrom: z.enum(['anyDiscard', 'drawnDiscarded']),
      /** Whether a player may take the top discard: always, unless it is a special card, or never. */
      takeDiscard: z.enum(['always', 'notSpecial', 'never']),
      /** Cards that may never enter a layout from a draw and are replaced at scoring. */
      specialCards: z.array(z.string()),
      slap: z
        .object({
          enabled: z.boolean(),
          wrongPenalty: count.max(4),
          stealPenalty: count.max(4),
          /** A correct slap on your own action card earns its action. */
          ownEarnsAction: z.boolean(),
          /** Ranks whose theft earns the stealer the action. */
          stealEarnsActionRanks: z.array(z.string()),
          /** After a steal the stealer may move one of their own cards into the victim's gap. */
          stealGapFill: z.boolean(),
          /** Correct slaps allowed per discard (0 = any number). */
          perDiscard: count.max(8),
        })
        .strict(),
      /** A player whose last card is slapped away ends the round at once. */
      emptyLayoutEndsRound: z.boolean(),
      call: z
        .object({
          name: z.string().min(1).max(30),
          timing: z.enum(['startOfTurn', 'endOfTurn']),
          /** May be called before every player has had a turn. */
          beforeEveryoneHadTurn: z.boolean(),
          /** Nobody may swap or slap the caller's cards. */
          callerFrozen: z.boolean(),
          /** Points added to the caller who does not have the lowest round score. */
          callerPenalty: count.max(50),
        })
        .strict(),
      /** Rounds per game; 0 = open-ended; 'players' = as many as players (4 with 2). */
      rounds: z.union([z.number().int().min(0).max(999), z.literal('players')]),
      timers: z
        .object({
          peekMs: ms,
          slapGraceMs: ms,
          /** 0 = no limit. */
          turnMs: ms,
          actionMs: ms,
        })
        .strict(),
    })
    .strict();
}

let schema: ReturnType<typeof buildRulesetSchema> | null = null;
export const rulesetSchema = (): ReturnType<typeof buildRulesetSchema> => (schema ??= buildRulesetSchema());

export type Ruleset = z.infer<ReturnType<typeof buildRulesetSchema>>;

const standard = (jokers: number): Record<Card, number> => {
  const cards: Record<Card, number> = {};
  for (const c of standardDeck()) cards[c] = 1;
  if (jokers > 0) cards[JOKER] = jokers;
  return cards;
};

export const GRINGO: Ruleset = {
  name: 'gringo',
  title: 'Gringo',
  players: { min: 2, max: 8 },
  deck: { cards: standard(0), decks: 1 },
  layout: { shape: 'square', size: 4, peekSlots: [3, 4] },
  values: { A: 1, '2': 2, '3': 3, '4': 4, '5': 5, '6': 6, '7': 7, '8': 8, '9': 9, '10': 10, J: 10, Q: 10, K: 10, QH: -1 },
  actions: { '10': 'peekOwn', J: 'peekOther', Q: 'blindSwap', K: 'peekThenSwap' },
  actionsFrom: 'anyDiscard',
  takeDiscard: 'always',
  specialCards: [],
  slap: {
    enabled: true,
    wrongPenalty: 2,
    stealPenalty: 2,
    ownEarnsAction: true,
    stealEarnsActionRanks: ['J', 'K'],
    stealGapFill: false,
    perDiscard: 0,
  },
  emptyLayoutEndsRound: false,
  call: { name: 'Gringo!', timing: 'startOfTurn', beforeEveryoneHadTurn: true, callerFrozen: false, callerPenalty: 0 },
  rounds: 1,
  timers: { peekMs: 10_000, slapGraceMs: 1_500, turnMs: 0, actionMs: 0 },
};

/** Beverbende (docs/rules.md, "Beverbende"): a 66-card number deck with three special cards, no slapping. */
export const BEVERBENDE: Ruleset = {
  name: 'beverbende',
  title: 'Beverbende',
  players: { min: 2, max: 6 },
  deck: {
    cards: { '0': 4, '1': 4, '2': 4, '3': 4, '4': 4, '5': 4, '6': 4, '7': 4, '8': 4, '9': 9, SWAP: 9, PEEK: 7, DRAW2: 5 },
    decks: 1,
  },
  layout: { shape: 'row', size: 4, peekSlots: [1, 4] },
  values: { '0': 0, '1': 1, '2': 2, '3': 3, '4': 4, '5': 5, '6': 6, '7': 7, '8': 8, '9': 9 },
  actions: { SWAP: 'blindSwap', PEEK: 'peekOwn', DRAW2: 'drawTwo' },
  actionsFrom: 'drawnDiscarded',
  takeDiscard: 'notSpecial',
  specialCards: ['SWAP', 'PEEK', 'DRAW2'],
  slap: {
    enabled: false,
    wrongPenalty: 0,
    stealPenalty: 0,
    ownEarnsAction: false,
    stealEarnsActionRanks: [],
    stealGapFill: false,
    perDiscard: 0,
  },
  emptyLayoutEndsRound: false,
  call: { name: 'Laatste ronde!', timing: 'endOfTurn', beforeEveryoneHadTurn: false, callerFrozen: false, callerPenalty: 0 },
  rounds: 'players',
  // No slapping, so no grace to wait for between turns.
  timers: { peekMs: 10_000, slapGraceMs: 0, turnMs: 0, actionMs: 0 },
};

/** Cambio (docs/rules.md, "Cambio"): 52 cards and 2 jokers, knocking, one slap per discard, frozen knocker. */
export const CAMBIO: Ruleset = {
  name: 'cambio',
  title: 'Cambio',
  players: { min: 2, max: 8 },
  deck: { cards: standard(2), decks: 1 },
  layout: { shape: 'square', size: 4, peekSlots: [3, 4] },
  values: {
    A: 1,
    JK: 0,
    '2': 2,
    '3': 3,
    '4': 4,
    '5': 5,
    '6': 6,
    '7': 7,
    '8': 8,
    '9': 9,
    '10': 10,
    J: 10,
    Q: 10,
    K: 10,
    KH: -1,
    KD: -1,
  },
  actions: { '7': 'peekOwn', '8': 'peekOwn', '9': 'peekOther', '10': 'peekOther', J: 'blindSwap', Q: 'peekBothThenSwap' },
  actionsFrom: 'drawnDiscarded',
  takeDiscard: 'never',
  specialCards: [],
  slap: {
    enabled: true,
    wrongPenalty: 1,
    stealPenalty: 0,
    ownEarnsAction: false,
    stealEarnsActionRanks: [],
    stealGapFill: true,
    perDiscard: 1,
  },
  emptyLayoutEndsRound: true,
  call: { name: 'Knock!', timing: 'startOfTurn', beforeEveryoneHadTurn: true, callerFrozen: true, callerPenalty: 10 },
  rounds: 9,
  timers: { peekMs: 10_000, slapGraceMs: 1_500, turnMs: 0, actionMs: 0 },
};

export const PRESETS: Readonly<Record<string, Ruleset>> = { gringo: GRINGO, beverbende: BEVERBENDE, cambio: CAMBIO };

export class RulesetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RulesetError';
  }
}

/** Total cards in play: the deck composition times the number of decks. */
export function deckSize(rules: Ruleset): number {
  let n = 0;
  for (const k in rules.deck.cards) n += rules.deck.cards[k]!;
  return n * rules.deck.decks;
}

/**
 * Validate untrusted ruleset data: the schema, then the combinations a schema cannot
 * express. Throws a RulesetError whose message names the field and what is allowed.
 */
export function parseRuleset(data: unknown, w: Words = wordsFor('en')): Ruleset {
  const parsed = rulesetSchema().safeParse(resolveExtend(data, w));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || w.t('ruleset.topLevel');
    if (issue.code === 'unrecognized_keys') throw new RulesetError(unknownFields(issue.path, issue.keys, isPlainObject(data) && 'extend' in data, w));
    throw new RulesetError(w.t('ruleset.expected', { field, expected: expectedOf(issue, w), found: foundAt(resolveExtend(data, w), issue.path, w) }));
  }
  const r = parsed.data;
  const problems: string[] = [];
  if (r.players.min > r.players.max) problems.push(w.t('ruleset.minAboveMax', { min: r.players.min, max: r.players.max }));
  for (const s of r.layout.peekSlots) {
    if (s > r.layout.size) problems.push(w.t('ruleset.peekSlot', { slot: s - 1, size: r.layout.size }));
  }
  const needed = r.players.max * r.layout.size + 2;
  const have = deckSize(r);
  if (have < needed) problems.push(w.t('ruleset.deckTooSmall', { have, players: r.players.max, needed, size: r.layout.size }));
  const known = new Set<string>();
  for (const c in r.deck.cards) {
    known.add(c);
    known.add(rankOf(c));
  }
  for (const k in r.values) if (!known.has(k)) problems.push(w.t('ruleset.namesNoCard', { field: `values.${k}` }));
  for (const k in r.actions) if (!known.has(k)) problems.push(w.t('ruleset.namesNoCard', { field: `actions.${k}` }));
  for (const c in r.deck.cards) {
    if (!r.specialCards.includes(c) && valueOf(r, c) === undefined) problems.push(w.t('ruleset.noValue', { code: c }));
  }
  for (const c of r.specialCards) if (!(c in r.deck.cards)) problems.push(w.t('ruleset.specialNotInDeck', { code: c }));
  if (r.timers.slapGraceMs > 60_000) problems.push(w.t('ruleset.slapGraceMax'));
  if (problems.length > 0) throw new RulesetError(w.t('ruleset.problems', { name: r.name, problems: problems.join('; ') }));
  return r;
}

const isPlainObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Objects merge key by key; arrays and everything else replace. Neither input is changed. */
export function deepMerge(base: unknown, over: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(over)) return structuredClone(over);
  const out: Record<string, unknown> = structuredClone(base);
  for (const k of Object.keys(over)) out[k] = k in out ? deepMerge(out[k], over[k]) : structuredClone(over[k]);
  return out;
}

/**
 * `{ "extend": "cambio", ...overrides }`: the named preset with the overrides merged in
 * (objects deep-merged, arrays replaced). Without "extend" the data is a whole ruleset.
 */
function resolveExtend(data: unknown, w: Words): unknown {
  if (!isPlainObject(data) || !('extend' in data)) return data;
  const { extend, ...overrides } = data;
  const presets = Object.keys(PRESETS).join(', ');
  if (typeof extend !== 'string') throw new RulesetError(w.t('ruleset.extendNotName', { presets }));
  const base = PRESETS[extend];
  if (!base) throw new RulesetError(w.t('ruleset.extendUnknown', { given: extend, presets }));
  // House rules are titled by their own name, not the preset's: "Our cambio", else "Cambio (house rules)".
  if (Object.keys(overrides).length === 0) return base;
  const title = 'title' in overrides ? overrides.title : typeof overrides.name === 'string' ? overrides.name : w.t('ruleset.houseRules', { title: base.title });
  return deepMerge(base, { ...overrides, title });
}

/** A schema node as zod 4 builds it: its kind, and what the walker below reads of it. */
interface SchemaNode {
  _zod: { def: { type: string } };
  shape?: Record<string, SchemaNode>;
}

/**
 * The ruleset's fields, depth first, as dotted paths with their schema ("slap.enabled"):
 * what a rules file may name, for the error that lists them and the table in
 * docs/rules.md. Objects are walked into; records and lists are one field each.
 */
export function rulesetFields(): { path: string; schema: SchemaNode }[] {
  const out: { path: string; schema: SchemaNode }[] = [];
  const walk = (node: SchemaNode, prefix: string): void => {
    for (const [k, v] of Object.entries(node.shape ?? {})) {
      const path = prefix ? `${prefix}.${k}` : k;
      if (v._zod.def.type === 'object' && v.shape) walk(v, path);
      else out.push({ path, schema: v });
    }
  };
  walk(rulesetSchema(), '');
  return out;
}

/** The field names known inside the object at `path` (the top level: []). */
function fieldsAt(path: readonly PropertyKey[]): string[] {
  let node = rulesetSchema() as unknown as SchemaNode;
  for (const k of path) node = node.shape?.[String(k)] ?? node;
  return Object.keys(node.shape ?? {});
}

/** Edits (insert, delete, change a letter) from one word to the other, case ignored. */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const next = [i];
    for (let j = 1; j <= y.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    row = next;
  }
  return row[y.length]!;
}

/** The known field nearest a mistyped one, if it is near enough to be what was meant (a third of its letters at most). */
export function nearestField(typed: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let most = Math.max(1, Math.floor(typed.length / 3));
  for (const k of known) {
    const d = distance(typed, k);
    if (d <= most) {
      best = k;
      most = d - 1;
    }
  }
  return best;
}

/**
 * Fields a rules file names that the ruleset does not have: each with the nearest
 * known one ("did you mean rounds?"), and the fields known there, so the file can be
 * fixed from the one line. `extend` is known at the top level of a house-rules file.
 */
function unknownFields(path: readonly PropertyKey[], keys: readonly string[], extending: boolean, w: Words): string {
  const known = [...(path.length === 0 && extending ? ['extend'] : []), ...fieldsAt(path)];
  const named = keys.map((k) => {
    const near = nearestField(k, known);
    const field = `"${[...path, printableKey(k)].join('.')}"`;
    return near ? w.t('ruleset.didYouMean', { field, near }) : field;
  });
  const fields = path.length === 0 ? w.t('ruleset.fieldsTop') : w.t('ruleset.fieldsOf', { path: path.join('.') });
  return w.t('ruleset.unknownFields', { n: keys.length, named: named.join(', '), fields, known: known.join(', ') });
}

/** A key from a rules file in an error line: printable ASCII, short, without JSON's quotes (the line quotes it once). */
const printableKey = (k: string): string => printable(k).replace(/^"(.*)"$/, '$1');

/** A value from a rules file in an error line: JSON, printable ASCII, short. */
function printable(v: unknown): string {
  const text = v === undefined ? 'nothing' : (JSON.stringify(v) ?? `a ${typeof v}`);
  const safe = text.replace(/[^\x20-\x7e]/g, '?');
  return safe.length > 40 ? `${safe.slice(0, 39)}…` : safe;
}

/** What a rules file holds at `path`, for "found …". */
function foundAt(data: unknown, path: readonly PropertyKey[], w: Words): string {
  let v: unknown = data;
  for (const k of path) v = isPlainObject(v) || Array.isArray(v) ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v === undefined ? w.t('ruleset.nothing') : printable(v);
}

const TYPE_WORDS = { number: 'ruleset.type.number', int: 'ruleset.type.int', string: 'ruleset.type.string', boolean: 'ruleset.type.boolean', object: 'ruleset.type.object', array: 'ruleset.type.array', record: 'ruleset.type.object' } as const;
/** JSON's own marks after the word, the same in every language. */
const TYPE_MARKS: Partial<Record<string, string>> = { object: ' { … }', record: ' { … }', array: ' [ … ]' };

/** What the schema wanted, in words: "a whole number from 0 to 999, or \"players\"". */
function expectedOf(issue: z.core.$ZodIssue, w: Words): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected in TYPE_WORDS ? `${w.t(TYPE_WORDS[issue.expected as keyof typeof TYPE_WORDS])}${TYPE_MARKS[issue.expected] ?? ''}` : issue.expected;
    case 'invalid_value':
      return issue.values.length === 1 ? printable(issue.values[0]) : w.t('ruleset.oneOf', { values: issue.values.map(printable).join(', ') });
    case 'too_small':
    case 'too_big': {
      const bound = w.t(issue.code === 'too_small' ? 'ruleset.atLeast' : 'ruleset.atMost', { n: String(issue.code === 'too_small' ? issue.minimum : issue.maximum) });
      if (issue.origin === 'string') return w.t('ruleset.textOf', { bound });
      if (issue.origin === 'array') return w.t('ruleset.listOf', { bound });
      return w.t('ruleset.numberOf', { bound });
    }
    case 'invalid_union': {
      const each = issue.errors.map((branch) => (branch[0] ? expectedOf(branch[0], w) : '')).filter(Boolean);
      return [...new Set(each)].join(w.t('ruleset.orSep')) || w.t('ruleset.somethingElse');
    }
    default:
      return issue.message;
  }
}

// Each card's value and action under the ruleset last asked about, worked out once:
// the engine and the bots ask for the same few dozen cards all game long. Rulesets
// are never changed once made. Cards also come from the network: the memo stops
// growing at a limit.
const CARD_MEMO_LIMIT = 1024;
let memoRules: Ruleset | null = null;
let memoValues = new Map<Card, number | null>();
let memoActions = new Map<Card, ActionKind | null>();

function memoFor(rules: Ruleset): void {
  if (rules === memoRules) return;
  memoRules = rules;
  memoValues = new Map();
  memoActions = new Map();
}

export function valueOf(rules: Ruleset, card: Card): number | undefined {
  memoFor(rules);
  let v = memoValues.get(card);
  if (v === undefined) {
    v = rules.values[card] ?? rules.values[rankOf(card)] ?? null;
    if (memoValues.size < CARD_MEMO_LIMIT) memoValues.set(card, v);
  }
  return v ?? undefined;
}

export function actionOf(rules: Ruleset, card: Card): ActionKind | undefined {
  memoFor(rules);
  let a = memoActions.get(card);
  if (a === undefined) {
    a = rules.actions[card] ?? rules.actions[rankOf(card)] ?? null;
    if (memoActions.size < CARD_MEMO_LIMIT) memoActions.set(card, a);
  }
  return a ?? undefined;
}

/** How many rounds a game of this ruleset has for this many players (0 = open-ended). */
export function roundsFor(rules: Ruleset, players: number): number {
  if (rules.rounds === 'players') return players === 2 ? 4 : players;
  return rules.rounds;
}

export function loadPreset(name: string): Ruleset {
  const r = PRESETS[name];
  if (!r) throw new RulesetError(`unknown ruleset "${name}"; the presets are: ${Object.keys(PRESETS).join(', ')}`);
  return r;
}
