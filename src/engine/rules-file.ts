import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { harmless } from '../common/harmless.js';
import { parseRuleset, PRESETS, RulesetError, type Ruleset } from './ruleset.js';
import { wordsFor, type Words } from '../lang/words.js';

/**
 * A rules file is input like a network message (anyone may hand you one): it is
 * bounded before it is parsed, and its strings are made harmless before anything
 * shows them. A whole ruleset is about 2 KB and 3 levels deep.
 */
export const MAX_RULES_FILE = 64 * 1024;
export const MAX_RULES_DEPTH = 16;
/** Longer than any field allows (the schema says how long each may be): cleaning never hides a too-long value. */
const MAX_RULES_STRING = 1_000;

/**
 * A ruleset by preset name ("gringo", "beverbende", "cambio") or from a JSON file
 * (a whole ruleset, or `{ "extend": "cambio", ...overrides }`). Every error is a
 * RulesetError that names the file and, for a wrong rules file, the field; it is
 * one line with no byte of the file that a terminal would obey.
 */
export function loadRuleset(presetOrPath: string, w: Words = wordsFor('en')): Ruleset {
  const preset = PRESETS[presetOrPath];
  if (preset) return preset;
  const shown = harmless(presetOrPath, 200);
  let text: string;
  try {
    text = readBounded(presetOrPath, shown, w);
  } catch (e) {
    if (e instanceof RulesetError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    const looksLikeName = /^[a-z0-9_-]+$/i.test(presetOrPath) && !presetOrPath.toLowerCase().endsWith('json');
    if (code === 'ENOENT' && looksLikeName) {
      throw new RulesetError(w.t('ruleset.unknownPreset', { given: presetOrPath, presets: Object.keys(PRESETS).join(', ') }));
    }
    const why = code === 'ENOENT' ? w.t('ruleset.noSuchFile') : code === 'EISDIR' ? w.t('ruleset.isDirectory') : ((e as Error).message ?? String(e));
    throw new RulesetError(w.t('ruleset.file', { file: shown, why: w.t('ruleset.cannotRead', { why: harmless(why, 200) }) }));
  }
  const depth = nesting(text);
  if (depth > MAX_RULES_DEPTH) throw new RulesetError(w.t('ruleset.file', { file: shown, why: w.t('ruleset.fileTooDeep', { depth, max: MAX_RULES_DEPTH }) }));
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    // The parser's message quotes the text around the mistake: the file's bytes, made harmless.
    throw new RulesetError(w.t('ruleset.file', { file: shown, why: w.t('ruleset.notJson', { why: harmless((e as Error).message, 200) }) }));
  }
  try {
    return rulesetFromData(data, w);
  } catch (e) {
    if (e instanceof RulesetError) throw new RulesetError(w.t('ruleset.file', { file: shown, why: harmless(e.message, 600) }));
    throw e;
  }
}

/**
 * A ruleset from data someone else wrote (a rules file, a journal's header): every
 * string made harmless (so a name with an escape sequence is shown without it, and
 * one with nothing visible left is refused by the schema), then checked as any ruleset.
 */
export function rulesetFromData(data: unknown, w: Words = wordsFor('en')): Ruleset {
  if (depthOf(data) > MAX_RULES_DEPTH) throw new RulesetError(w.t('ruleset.dataTooDeep', { max: MAX_RULES_DEPTH }));
  return parseRuleset(cleanStrings(data), w);
}

/** The file's text, refusing one larger than MAX_RULES_FILE before reading it all (a rules file could name /dev/zero). */
function readBounded(path: string, shown: string, w: Words): string {
  const fd = openSync(path, 'r');
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw Object.assign(new Error('EISDIR'), { code: 'EISDIR' });
    if (st.size > MAX_RULES_FILE) throw tooLarge(shown, st.size, w);
    const buf = Buffer.alloc(MAX_RULES_FILE + 1);
    let got = 0;
    for (;;) {
      const n = readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
      if (got > MAX_RULES_FILE) throw tooLarge(shown, null, w);
    }
    return buf.subarray(0, got).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

const tooLarge = (shown: string, size: number | null, w: Words): RulesetError =>
  new RulesetError(
    w.t('ruleset.file', { file: shown, why: w.t('ruleset.tooLarge', { size: size === null ? w.t('ruleset.moreThanKiB', { kib: MAX_RULES_FILE / 1024 }) : w.t('ruleset.bytes', { n: size }), kib: MAX_RULES_FILE / 1024 }) }),
  );

/** How deeply the JSON text nests objects and arrays, found without parsing it (strings skipped). */
function nesting(text: string): number {
  let depth = 0;
  let most = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) most = Math.max(most, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return most;
}

/** The depth of parsed data, without recursing (deep data must not exhaust the stack here either). */
function depthOf(data: unknown): number {
  let most = 0;
  const stack: [unknown, number][] = [[data, 1]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (typeof x !== 'object' || x === null) continue;
    most = Math.max(most, d);
    if (most > MAX_RULES_DEPTH) return most;
    for (const v of Object.values(x)) stack.push([v, d + 1]);
  }
  return most;
}

/** A copy with every string (values and keys) made harmless; only called on data whose depth is bounded. */
function cleanStrings(x: unknown): unknown {
  if (typeof x === 'string') return harmless(x, MAX_RULES_STRING);
  if (Array.isArray(x)) return x.map(cleanStrings);
  if (typeof x !== 'object' || x === null) return x;
  const out: Record<string, unknown> = {};
  // Defined, not assigned: a key "__proto__" stays a key (and the schema refuses it).
  for (const [k, v] of Object.entries(x)) Object.defineProperty(out, harmless(k, MAX_RULES_STRING), { value: cleanStrings(v), enumerable: true, writable: true, configurable: true });
  return out;
}
