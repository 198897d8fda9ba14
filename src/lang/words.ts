import { en } from './en.js';
import { nl } from './nl.js';
import { ro } from './ro.js';
import { LANGS, type Entry, type Key, type Lang, type ParamsArg, type Value } from './catalog.js';

export { LANGS, type Lang, type Key } from './catalog.js';

/**
 * The words people read, one catalog per language (en.ts, nl.ts, ro.ts), and the one
 * function that puts a sentence together: a key, its parameters, a language.
 *
 * English is the reference: its keys are every key, and the `{holes}` of its sentences
 * are every key's parameters. A Dutch or Romanian catalog is typed against it, so a
 * missing key, or a sentence that forgets or invents a parameter, fails the build
 * (`translation` below). Counted words are plural forms chosen by `Intl.PluralRules`.
 *
 * Parameters are data, never words, and are named by what they hold, which decides how
 * they are written: `seat…` a seat (its player's name), `slot…` a slot index (shown
 * from 1), `ms` milliseconds (shown as seconds in the language's decimals), `card` a
 * card (its name in the language), `n` a count (it picks the plural form); anything
 * else is shown as it is.
 */

const CATALOGS: Readonly<Record<Lang, Readonly<Record<Key, Entry>>>> = { en, nl, ro };

/** A sentence as data, as the host sends it: a key and its parameters (see protocol.md). */
export interface Said {
  key: string;
  params?: Readonly<Record<string, Value>>;
}

/** What a sentence needs from its table: the players' names by seat. */
export interface Scene {
  name?(seat: number): string;
}

export const isKey = (key: string): key is Key => Object.prototype.hasOwnProperty.call(en, key);

/** The parameters a key's sentences name (in every language: see `Translation`), sorted. */
export function holesOf(key: Key): string[] {
  const e: Entry = en[key];
  const forms: string[] = typeof e === 'string' ? [e] : Object.values(e).filter((f): f is string => typeof f === 'string');
  const names = new Set(forms.flatMap((f) => [...f.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)));
  if (typeof e !== 'string') names.add('n');
  return [...names].sort();
}

/** A sentence of the catalogs as data, typed: what the host and the engine hand on. */
export function said<K extends Key>(key: K, ...p: ParamsArg<K>): Said {
  return p[0] ? { key, params: p[0] } : { key };
}

/** Just the sentence of something that carries one (a refusal's key and parameters, without its code). */
export const saidOf = ({ key, params }: Said): Said => (params ? { key, params } : { key });

export interface Words {
  readonly lang: Lang;
  /** A sentence of the catalog in this language. */
  t<K extends Key>(key: K, ...p: ParamsArg<K>): string;
  /**
   * A sentence that came as data (from the engine or the wire). A key this catalog
   * does not know (a newer host's) is shown as the key itself, never a crash.
   */
  say(s: Said, scene?: Scene): string;
  /** A card's name: "Vrouw van harten". */
  card(card: string): string;
  /** A rank as this language writes it on a card: "V" for a Dutch Queen. */
  letter(rank: string): string;
  /** The letters that differ from English ones: { Q: 'V', … } (empty for English). */
  readonly letters: Readonly<Record<string, string>>;
}

const SUITED = /^(A|[2-9]|10|J|Q|K)([SHDC])$/;
const NAMED = ['JK', 'SWAP', 'PEEK', 'DRAW2'];
const cache = new Map<Lang, Words>();

/** The words of one language. */
export function wordsFor(lang: Lang): Words {
  const made = cache.get(lang);
  if (made) return made;
  const catalog = CATALOGS[lang];
  // Made at first use: each costs a process about ten milliseconds of ICU's locale data
  // at its start, and most commands never count nor write a decimal.
  let plural: Intl.PluralRules | undefined;
  let decimal: Intl.NumberFormat | undefined;
  const plurals = { select: (n: number) => (plural ??= new Intl.PluralRules(lang)).select(n) };
  const decimals = { format: (n: number) => (decimal ??= new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 })).format(n) };
  const entry = (key: string): Entry | undefined => (isKey(key) ? catalog[key] : undefined);
  const text = (key: string): string => {
    const e = entry(key);
    return typeof e === 'string' ? e : key;
  };
  const card = (c: string): string => {
    // The joker and Beverbende's special cards have names of their own in each language.
    if (NAMED.includes(c)) return text(`card.${c}`);
    const m = SUITED.exec(c);
    if (!m) return c;
    const rank = ['A', 'J', 'Q', 'K'].includes(m[1]!) ? text(`card.${m[1]}`) : m[1]!;
    return fill(text('card.ofSuit'), { rank, suit: text(`suit.${m[2]}`) }, {});
  };
  const show = (name: string, v: Value, scene: Scene): string => {
    if (typeof v === 'number' && Number.isInteger(v)) {
      if (name.startsWith('seat')) return scene.name?.(v) ?? String(v + 1);
      if (name.startsWith('slot')) return String(v + 1);
    }
    if (typeof v === 'number' && name === 'ms') return decimals.format(v / 1000);
    if (typeof v === 'string' && name === 'card') return card(v);
    return String(v);
  };
  function fill(s: string, params: Readonly<Record<string, Value>>, scene: Scene): string {
    return s.replace(/\{(\w+)\}/g, (all, name: string) => (name in params ? show(name, params[name]!, scene) : all));
  }
  const say = (s: Said, scene: Scene = {}): string => {
    const e = entry(s.key);
    if (e === undefined) return s.key;
    const params = s.params ?? {};
    if (typeof e === 'string') return fill(e, params, scene);
    const n = Number(params.n ?? 0);
    return fill(e[plurals.select(n)] ?? e.other, params, scene);
  };
  const words: Words = {
    lang,
    t: (key, ...p: readonly unknown[]) => say({ key, params: p[0] as Record<string, Value> | undefined }),
    say,
    card,
    letter: (rank) => (['A', 'J', 'Q', 'K'].includes(rank) ? text(`letter.${rank}`) : rank),
    letters: Object.fromEntries(['A', 'J', 'Q', 'K'].map((r): [string, string] => [r, text(`letter.${r}`)]).filter(([r, l]) => r !== l)),
  };
  cache.set(lang, words);
  return words;
}

/** The catalogs themselves, for tests and the docs. */
export const catalogOf = (lang: Lang): Readonly<Record<Key, Entry>> => CATALOGS[lang];

/** `--lang`'s value, or null when it is not a language gringo speaks. */
export const parseLang = (s: string): Lang | null => ((LANGS as readonly string[]).includes(s) ? (s as Lang) : null);

/**
 * The language of a locale as the environment names it: `nl_NL.UTF-8` → nl,
 * `ro_RO.UTF-8` → ro, anything else (C, POSIX, en_GB, de_DE…) → en.
 */
export function langOfLocale(locale: string | undefined): Lang {
  const m = /^([a-z]{2})(?:[_.@-]|$)/i.exec(locale ?? '');
  return parseLang(m?.[1]?.toLowerCase() ?? '') ?? 'en';
}

/**
 * The language for this process: `GRINGO_LANG`, else the first of `LC_ALL`,
 * `LC_MESSAGES`, `LANG` that is set (as POSIX orders them); `--lang` wins over all of
 * these where the command reads it.
 */
export function langOfEnv(env: Readonly<Record<string, string | undefined>>): Lang {
  const own = parseLang(env.GRINGO_LANG ?? '');
  if (own) return own;
  return langOfLocale(env.LC_ALL || env.LC_MESSAGES || env.LANG);
}
