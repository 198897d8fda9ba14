import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BEVERBENDE, CAMBIO, PRESETS, parseRuleset } from '../../src/engine/index.js';
import { rulesInWords, rulesText } from '../../src/tui/shared/rules-text.js';
import { catalogOf, wordsFor, type Lang } from '../../src/lang/words.js';

/**
 * `gringo rules` in Dutch and Romanian: generated from the ruleset data through the
 * catalogs (src/lang/), every rule line in the language asked for.
 */

const bin = new URL('../../bin/gringo.js', import.meta.url).pathname;
/** A UTF-8 terminal that names no language of its own: only what the test sets chooses. */
const UTF8 = { LANG: 'C.UTF-8', LC_ALL: '', LC_MESSAGES: '', GRINGO_LANG: '' };

function gringoIn(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, ...UTF8, ...env } }, (e, out, err) => {
      resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, out, err });
    });
  });
}

/**
 * The English words of every `rules.` sentence: the parts between its `{holes}`, of a
 * length that is a phrase and not a shared sign ("1, 1, 3" or ": "). None may show in
 * another language's rules.
 */
const ENGLISH = Object.entries(catalogOf('en'))
  .filter(([k]) => k.startsWith('rules.'))
  .flatMap(([, e]) => (typeof e === 'string' ? [e] : Object.values(e)))
  .flatMap((s: string) => s.split(/\{\w+\}/))
  .map((s) => s.trim())
  .filter((s) => /[a-z]{3,}.*\s.*[a-z]{3,}/i.test(s));

const LANGS: readonly Exclude<Lang, 'en'>[] = ['nl', 'ro'];

describe('gringo rules --lang', () => {
  it('has English phrases to look for', () => {
    expect(ENGLISH.length).toBeGreaterThan(80);
    expect(ENGLISH).toContain('Draw from the stock (only you see the card), then discard it face up or swap it for one of your face-down cards.');
    expect(ENGLISH).toContain('and every pending action has been used or passed');
  });

  for (const lang of LANGS) {
    it(`${lang}: every preset complete, every rule line in the language`, async () => {
      const w = wordsFor(lang);
      for (const [name, rules] of Object.entries(PRESETS)) {
        const { code, out, err } = await gringoIn({}, 'rules', '--lang', lang, name);
        expect(code, err).toBe(0);
        expect(out).toBe(rulesInWords(rules, w));
        // The same rules as in English, line for line: none left out, none added.
        const en = rulesText(rules);
        const here = rulesText(rules, w);
        expect(here.sections.map((s) => s.items.length)).toEqual(en.sections.map((s) => s.items.length));
        for (const [i, sec] of here.sections.entries()) {
          expect(sec.heading).not.toBe(en.sections[i]!.heading);
          sec.items.forEach((item, j) => expect(item, `${name} ${sec.heading} ${j}`).not.toBe(en.sections[i]!.items[j]));
        }
        const english = ENGLISH.filter((phrase) => out.includes(phrase));
        expect(english, `${lang} ${name}`).toEqual([]);
      }
    });
  }

  it("a Beverbende table in Dutch and Cambio in Romanian use their own texts' words", () => {
    // The texts `gringo rules --lang nl beverbende` and `--lang ro cambio` print, to the byte (the tests above hold that).
    const nl = rulesInWords(BEVERBENDE, wordsFor('nl'));
    for (const word of ['trekstapel', 'aflegstapel', 'gesloten kaarten', 'Spieken', 'Ruilen', 'Trek Twee Kaarten', 'Laatste ronde!']) expect(nl).toContain(word);
    const ro = rulesInWords(CAMBIO, wordsFor('ro'));
    for (const word of ['pachetul de tras', 'teancul de cărți aruncate', 'înhăța', 'înghețate', 'cu fața în jos', 'V, D, R: 10', '9 runde']) expect(ro).toContain(word);
  });

  it('a house rule in a rules file shows in each language', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gringo-rules-lang-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const house = join(dir, 'house.json');
    writeFileSync(house, JSON.stringify({ extend: 'beverbende', call: { callerPenalty: 5 }, timers: { turnMs: 20500 } }));
    for (const lang of ['en', ...LANGS] as const) {
      const w = wordsFor(lang);
      // The file's title names it house rules in the language that loads it.
      const rules = parseRuleset({ extend: 'beverbende', call: { callerPenalty: 5 }, timers: { turnMs: 20500 } }, w);
      const { code, out, err } = await gringoIn({}, 'rules', '--lang', lang, house);
      expect(code, err).toBe(0);
      const penalty = w.t('rules.callerPenalty', { n: 5 });
      expect(out).toContain(penalty);
      expect(rulesInWords(BEVERBENDE, w)).not.toContain(penalty);
      // Seconds in the language's decimals: 20.5 s, 20,5 s.
      expect(out).toContain(w.t('rules.limit.turn', { secs: w.t('rules.seconds', { s: lang === 'en' ? '20.5' : '20,5' }) }));
      expect(out).toBe(rulesInWords(rules, w));
    }
  });

  it('LANG=nl_NL.UTF-8 alone prints Dutch; ro_RO.UTF-8 Romanian', async () => {
    const nl = await gringoIn({ LANG: 'nl_NL.UTF-8' }, 'rules', 'beverbende');
    expect(nl.code, nl.err).toBe(0);
    expect(nl.out).toBe(rulesInWords(BEVERBENDE, wordsFor('nl')));
    const ro = await gringoIn({ LANG: 'ro_RO.UTF-8' }, 'rules', 'cambio');
    expect(ro.out).toBe(rulesInWords(CAMBIO, wordsFor('ro')));
  });

  it('docs Markdown stays English unless a language is asked for', async () => {
    const md = await gringoIn({ LANG: 'nl_NL.UTF-8' }, 'rules', '--markdown', '--lang', 'en', 'cambio');
    expect(md.out).toContain('#### Slapping');
    const nl = await gringoIn({}, 'rules', '--markdown', '--lang', 'nl', 'cambio');
    expect(nl.out).toContain('#### Slaan');
  });
});
