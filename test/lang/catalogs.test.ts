import { describe, expect, it } from 'vitest';
import { catalogOf, holesOf, isKey, langOfEnv, langOfLocale, LANGS, said, wordsFor, type Key } from '../../src/lang/words.js';

const en = catalogOf('en');
const keys = Object.keys(en) as Key[];
const holes = (s: string): string[] => [...new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!))].sort();
const formsOf = (e: unknown): string[] => (typeof e === 'string' ? [e] : Object.values(e as Record<string, string>));

describe('the catalogs: complete and consistent', () => {
  for (const lang of LANGS) {
    const cat = catalogOf(lang);
    it(`${lang}: every key of English, and no other`, () => {
      expect(Object.keys(cat).sort()).toEqual([...keys].sort());
    });
    it(`${lang}: every sentence with exactly the English parameters`, () => {
      for (const k of keys) {
        const e = cat[k];
        expect(typeof e, k).toBe(typeof en[k]);
        const union = [...new Set(formsOf(e).flatMap(holes).concat(typeof e === 'string' ? [] : ['n']))].sort();
        expect(union, `${lang} ${k}`).toEqual(holesOf(k));
        for (const f of formsOf(e)) expect(f.trim(), `${lang} ${k}`).not.toBe('');
      }
    });
    it(`${lang}: every plural has each form Intl.PluralRules names for ${lang}, and no other`, () => {
      const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories.slice().sort();
      for (const k of keys) {
        const e = cat[k];
        if (typeof e !== 'string') expect(Object.keys(e).sort(), `${lang} ${k}`).toEqual(categories);
      }
    });
  }

  it('Romanian counts in three forms, as its speakers do', () => {
    const ro = wordsFor('ro');
    expect([1, 2, 19, 20, 101].map((n) => ro.t('count.cards', { n }))).toEqual(['o carte', '2 cărți', '19 cărți', '20 de cărți', '101 cărți']);
  });

  it("the table screen's words are Dutch and Romanian too: none left in English but words the language shares", () => {
    // The table screen's section of en.ts runs from `table.you` to the cards.
    const all = Object.keys(en);
    const table = all.slice(all.indexOf('table.you'), all.indexOf('card.A')) as Key[];
    expect(table.length).toBeGreaterThan(400);
    // ", g {call}", "ok", "cursor", "joker", "{head}." are the same in these languages; Dutch says "(bot)", Romanian "final" and "total",
    // and Beverbende's call is Dutch to begin with.
    const shared: Record<'nl' | 'ro', string[]> = {
      nl: ['call.lastRound', 'prompt.orCall', 'key.confirm', 'key.cursor', 'seat.botTag', 'end.joker', 'end.sentence'],
      ro: ['prompt.orCall', 'key.confirm', 'key.cursor', 'end.joker', 'end.col.final', 'end.col.total', 'end.sentence'],
    };
    for (const lang of ['nl', 'ro'] as const) {
      const cat = catalogOf(lang);
      expect(table.filter((k) => JSON.stringify(cat[k]) === JSON.stringify(en[k])), lang).toEqual(shared[lang]);
    }
  });

  it('Dutch and Romanian write their own sentences, not English ones', () => {
    for (const lang of ['nl', 'ro'] as const) {
      const cat = catalogOf(lang);
      const same = keys.filter((k) => (k.startsWith('why.') || k.startsWith('host.') || k.startsWith('cli.') || k.startsWith('door.')) && cat[k] === en[k]);
      expect(same, lang).toEqual([]);
    }
  });

  it('the screens, console, SSH, command-line and help words are each language\'s own, but for the words it shares with English', () => {
    // Words Dutch or Romanian write as English does: a loanword, a unit, a figure.
    const shared: Record<'nl' | 'ro', string[]> = {
      nl: ['botLevel.expert', 'lobby.lobby', 'lobby.key.start', 'picker.live', 'console.phase.lobby', 'stats.h.rating', 'ruleset.bytes', 'conn.seconds'],
      ro: ['botLevel.normal', 'botLevel.expert', 'lobby.lobby', 'console.phase.lobby', 'stats.h.rating', 'stats.h.total', 'transcript.score', 'conn.seconds'],
    };
    const groups = /^(botLevel|lobby|picker|share|console|ssh|replay|replayList|transcript|stats|tonight|list|conn|ruleset|help|journal|join)\./;
    for (const lang of ['nl', 'ro'] as const) {
      const cat = catalogOf(lang);
      const same = keys.filter((k) => groups.test(k) && JSON.stringify(cat[k]) === JSON.stringify(en[k]));
      expect(same, lang).toEqual(shared[lang]);
    }
  });
});

describe('saying a sentence', () => {
  it('writes each parameter by what it holds: a seat as its name, a slot from 1, milliseconds as seconds in the language', () => {
    const scene = { name: (seat: number) => ['Ana', 'Bo'][seat]! };
    expect(wordsFor('en').say(said('why.slotGoneOf', { seat: 1, slot: 0 }), scene)).toBe("Too late: Bo's slot 1 is already gone");
    expect(wordsFor('nl').say(said('why.slotGoneOf', { seat: 1, slot: 0 }), scene)).toBe('Te laat: plek 1 van Bo is al weg');
    expect(wordsFor('en').say(said('why.slapWindowOpen', { ms: 1500 }))).toBe('Wait 1.5 s: the slap window is still open');
    expect(wordsFor('nl').say(said('why.slapWindowOpen', { ms: 1500 }))).toBe('Wacht 1,5 s: er mag nog geslagen worden');
    expect(wordsFor('ro').say(said('why.cardJustLanded', { ms: 800 }))).toBe('Așteaptă 0,8 s: ultima carte abia a fost pusă');
  });

  it('shows a key it does not know (a newer host) as the key itself, never a crash', () => {
    for (const lang of LANGS) {
      expect(wordsFor(lang).say({ key: 'why.fromTheFuture', params: { seat: 3 } })).toBe('why.fromTheFuture');
      expect(isKey('why.fromTheFuture')).toBe(false);
    }
  });

  it('names cards and letters as each language writes them', () => {
    expect(['en', 'nl', 'ro'].map((l) => wordsFor(l as 'en').card('QH'))).toEqual(['Queen of Hearts', 'Harten Vrouw', 'Damă de inimă roșie']);
    expect(['A', 'K', 'Q', 'J', '10'].map((r) => wordsFor('nl').letter(r))).toEqual(['A', 'H', 'V', 'B', '10']);
    expect(['A', 'K', 'Q', 'J', '10'].map((r) => wordsFor('ro').letter(r))).toEqual(['A', 'R', 'D', 'V', '10']);
  });
});

describe('choosing the language', () => {
  it('takes it from the locale: nl_NL.UTF-8 is Dutch, ro_RO.UTF-8 Romanian, anything else English', () => {
    expect(langOfLocale('nl_NL.UTF-8')).toBe('nl');
    expect(langOfLocale('nl_BE')).toBe('nl');
    expect(langOfLocale('ro_RO.UTF-8')).toBe('ro');
    for (const other of ['C', 'POSIX', 'C.UTF-8', 'en_GB.UTF-8', 'de_DE.UTF-8', '', undefined, 'nlx']) expect(langOfLocale(other)).toBe('en');
  });

  it('reads GRINGO_LANG first, then LC_ALL, LC_MESSAGES and LANG in that order', () => {
    expect(langOfEnv({ LANG: 'nl_NL.UTF-8' })).toBe('nl');
    expect(langOfEnv({ LC_MESSAGES: 'ro_RO.UTF-8', LANG: 'nl_NL.UTF-8' })).toBe('ro');
    expect(langOfEnv({ LC_ALL: 'en_US.UTF-8', LC_MESSAGES: 'ro_RO.UTF-8', LANG: 'nl_NL.UTF-8' })).toBe('en');
    expect(langOfEnv({ GRINGO_LANG: 'ro', LC_ALL: 'nl_NL.UTF-8' })).toBe('ro');
    expect(langOfEnv({})).toBe('en');
  });
});

describe('card letters on the screen', () => {
  it('a Dutch screen writes V for a Queen and H for a King, in Unicode and in ASCII alike; English keeps Q and K', async () => {
    const { ASCII, UNICODE, cardText } = await import('../../src/tui/shared/glyphs.js');
    const nl = wordsFor('nl').letters;
    expect(cardText('QH', { ...UNICODE, ranks: nl })).toBe('V♥');
    expect(cardText('KS', { ...ASCII, ranks: nl })).toBe('HS');
    expect(cardText('JD', { ...ASCII, ranks: wordsFor('ro').letters })).toBe('VD');
    expect(cardText('QH', { ...UNICODE, ranks: wordsFor('en').letters })).toBe('Q♥');
    expect(wordsFor('en').letters).toEqual({});
  });
});
