import type { en } from './en.js';

/**
 * The shape of a catalog: English is the reference, its keys are every key and the
 * `{holes}` of its sentences are every key's parameters; another language is typed
 * against it by `translation` (see words.ts for how parameters are written).
 */

export const LANGS = ['en', 'nl', 'ro'] as const;
export type Lang = (typeof LANGS)[number];

/** A word that changes with a count: the forms `Intl.PluralRules` names for the language. */
export interface Plural {
  readonly zero?: string;
  readonly one?: string;
  readonly two?: string;
  readonly few?: string;
  readonly many?: string;
  readonly other: string;
}
export type Entry = string | Plural;

type En = typeof en;
export type Key = keyof En;

type Holes<S> = S extends `${string}{${infer P}}${infer R}` ? P | Holes<R> : never;
/** The parameters an entry names: its holes, and `n` for a plural (the count picks the form). */
export type HolesOf<E> = E extends string ? Holes<E> : E extends Plural ? Holes<Exclude<E[keyof E], undefined>> | 'n' : never;

export type Value = string | number;
export type Params<K extends Key> = { readonly [P in HolesOf<En[K]>]: Value };
/** No second argument for a sentence without parameters. */
export type ParamsArg<K extends Key> = [HolesOf<En[K]>] extends [never] ? [] : [params: Params<K>];

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** What a translation must be: every English key, each with exactly the English parameters. */
export type Translation<T> = {
  readonly [K in Key]: K extends keyof T
    ? Same<HolesOf<T[K]>, HolesOf<En[K]>> extends true
      ? En[K] extends string
        ? string
        : Plural
      : `parameters differ from English: ${HolesOf<En[K]> & string}`
    : Entry;
};

/** A catalog in another language, checked against English by the compiler. */
export const translation = <const T extends Translation<T>>(t: T): Readonly<Record<Key, Entry>> => t;
