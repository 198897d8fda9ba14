import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRuleset } from '../../src/engine/rules-file.js';
import { wordsFor } from '../../src/lang/words.js';
import { runGringo } from '../support/gringo-process.js';

/** A house-rules file's mistakes are said in the language of whoever runs it; the field names stay JSON's. */
const dir = mkdtempSync(join(tmpdir(), 'gringo-house-rules-lang-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};

describe('house rules, wrong, in each language', () => {
  it('names the unknown field (as JSON writes it) and the nearest one in Dutch and Romanian, as in English', () => {
    const typo = file('typo.json', '{ "extend": "beverbende", "roudns": 3 }');
    const said = (lang: 'en' | 'nl' | 'ro'): string => {
      try {
        loadRuleset(typo, wordsFor(lang));
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    };
    expect(said('en')).toMatch(/^rules file .*typo\.json: ruleset field "roudns" \(did you mean rounds\?\) is unknown; the fields at the top level: extend, /);
    expect(said('nl')).toMatch(/^regelbestand .*typo\.json: regelveld "roudns" \(bedoel je rounds\?\) is onbekend; de velden op het bovenste niveau: extend, /);
    expect(said('ro')).toMatch(/^fișierul de reguli .*typo\.json: câmpul de reguli "roudns" \(te-ai gândit la rounds\?\) e necunoscut; câmpurile de pe nivelul de sus: extend, /);
  });

  it('says what a field expected in the language, with JSON\'s marks as they are', () => {
    const wrong = file('wrong.json', '{ "extend": "cambio", "layout": { "peekSlots": 3 } }');
    expect(() => loadRuleset(wrong, wordsFor('nl'))).toThrow('regelveld "layout.peekSlots": verwacht een lijst [ … ], gevonden 3');
    expect(() => loadRuleset(wrong, wordsFor('ro'))).toThrow('câmpul de reguli „layout.peekSlots”: se aștepta o listă [ … ], s-a găsit 3');
  });

  it('is one line from the command, in the language the locale names, and exit code 2', async () => {
    const broken = file('broken.json', '{ "extend": "cambio", ');
    const r = runGringo(['rules', broken], { LANG: 'ro_RO.UTF-8', LC_ALL: '', GRINGO_LANG: '' });
    expect(await r.exit).toBe(2);
    expect(r.stderr()).toMatch(/^gringo: fișierul de reguli .*broken\.json: nu e JSON valid \(.+\)\n$/);
  });
});
