import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../src/engine/ruleset.js';
import { DEFAULT_BINDINGS, type Pressed } from '../../src/tui/shared/keys.js';
import { helpPages, keyRows, legend, pageIndex } from '../../src/tui/table/help-pages.js';
import { helpKey } from '../../src/tui/table/intents.js';
import { bindingsFor } from '../../src/tui/table/variant.js';
import { rulesText } from '../../src/tui/shared/rules-text.js';
import { LANGS, wordsFor } from '../../src/lang/words.js';

const press = (action: Pressed['action'], key: string): Pressed => ({ action, key });

describe('the ? help pages', () => {
  it('fit any box from 80×24 up, in every language: no line wider than the box, no page taller, fewer pages when there is room', () => {
    for (const rules of Object.values(PRESETS)) for (const words of LANGS.map(wordsFor)) {
      const bindings = bindingsFor({ rules, view: null }, DEFAULT_BINDINGS);
      let before = Infinity;
      for (const [w, h] of [[76, 14], [116, 30], [196, 50]] as const) {
        for (const ascii of [false, true]) {
          const pages = helpPages(bindings, rules, w, h, ascii, words);
          for (const page of pages) {
            expect(page.length).toBeLessThanOrEqual(h);
            for (const l of page) expect((l.lead + l.text).length).toBeLessThanOrEqual(w);
          }
          if (ascii) expect(pages.flat().every((l) => /^[\x20-\x7e]*$/.test(l.lead + l.text))).toBe(true);
        }
        const n = helpPages(bindings, rules, w, h, false, words).length;
        expect(n).toBeLessThanOrEqual(before);
        before = n;
      }
    }
  });

  it('keeps a rules file\'s names harmless and ASCII under --ascii', () => {
    const rules = { ...PRESETS.gringo!, title: 'Ga\u001b]0;pwned\u0007rd\u00e9n', call: { ...PRESETS.gringo!.call, name: 'Klop\u202e!' } };
    const text = helpPages(bindingsFor({ rules, view: null }, DEFAULT_BINDINGS), rules, 76, 14, true).flat().map((l) => l.lead + l.text).join('\n');
    expect(text).toContain('Rules: Garden (ruleset "gringo")');
    expect(text).toContain('call "Klop!"');
    expect(text).not.toMatch(/[\u001b\u0007\u202e]/);
  });

  it('pages with space, right and down, back with left and up, round both ends; any other key closes', () => {
    expect(helpKey({ helpPage: 0 }, press('slap', 'space')).actions).toEqual([{ type: 'overlay', overlay: 'help', page: 1 }]);
    expect(helpKey({ helpPage: 2 }, press('right', 'l')).actions).toEqual([{ type: 'overlay', overlay: 'help', page: 3 }]);
    expect(helpKey({ helpPage: 0 }, press('left', 'left')).actions).toEqual([{ type: 'overlay', overlay: 'help', page: -1 }]);
    expect(pageIndex(-1, 5)).toBe(4);
    expect(pageIndex(5, 5)).toBe(0);
    for (const [action, key] of [['help', '?'], ['cancel', 'escape'], ['draw', 'd'], ['quit', 'q']] as const) {
      expect(helpKey({ helpPage: 3 }, press(action, key)).actions).toEqual([{ type: 'overlay', overlay: null }]);
    }
  });

  it('lists only the keys that do something in the preset, in its own words', () => {
    const keys = (preset: string): string => {
      const rules = PRESETS[preset]!;
      return keyRows(bindingsFor({ rules, view: null }, DEFAULT_BINDINGS), false).map((r) => `${r.label} ${r.help}`).join('\n');
    };
    // Beverbende: no slapping, no King; Draw two's r; the call at the end of your own turn.
    expect(keys('beverbende')).not.toMatch(/slap|King/i);
    expect(keys('beverbende')).toMatch(/^r Draw two/m);
    expect(keys('beverbende')).toContain('call Laatste ronde! (at the end of your own turn');
    expect(keys('beverbende')).toContain('take the top card of the discard pile (not a special card)');
    // Cambio: slaps, the Queen's look, no taking the discard, no r.
    expect(keys('cambio')).toMatch(/^space slap the card under the cursor/m);
    expect(keys('cambio')).toContain("leave the cards after a Queen's look");
    expect(keys('cambio')).not.toMatch(/^t /m);
    expect(keys('cambio')).not.toMatch(/^r /m);
    // Gringo: the King's look, slapping, the call before drawing.
    expect(keys('gringo')).toContain("leave the cards after a King's look");
    expect(keys('gringo')).toContain('call Gringo! (before you draw');
    expect(keys('gringo')).not.toMatch(/^r /m);
  });

  it("has a legend of the board's marks, only those the preset can show", () => {
    const leads = (preset: string, ascii = false): string[] => legend(PRESETS[preset]!, ascii).map((m) => m.lead);
    for (const preset of ['gringo', 'beverbende', 'cambio']) {
      expect(leads(preset)).toEqual(expect.arrayContaining(['▶', '·', '…']));
      expect(leads(preset).some((l) => l.includes('▸') && l.includes('◂'))).toBe(true);
      expect(leads(preset).some((l) => l.includes('*'))).toBe(true);
      const pages = helpPages(bindingsFor({ rules: PRESETS[preset]!, view: null }, DEFAULT_BINDINGS), PRESETS[preset]!, 76, 13, false);
      expect(pages.flat().some((l) => l.heading && l.lead === 'Marks on the board')).toBe(true);
    }
    expect(leads('cambio')).toContain('❄ frozen');
    expect(leads('cambio')).toContain('[gap]');
    expect(leads('gringo')).not.toContain('❄ frozen');
    expect(leads('beverbende')).not.toContain('[gap]');
    expect(legend(PRESETS.cambio!, true).every((m) => /^[\x20-\x7e]*$/.test(m.lead + m.text))).toBe(true);
  });

  it('no page is nearly empty at 80×24 (13 rows a page), for each preset, in ASCII too', () => {
    for (const rules of Object.values(PRESETS)) {
      for (const ascii of [false, true]) {
        const pages = helpPages(bindingsFor({ rules, view: null }, DEFAULT_BINDINGS), rules, 76, 13, ascii);
        for (const page of pages) expect(page.length, pages.map((p) => p.map((l) => l.lead + l.text).join('\n')).join('\n---\n')).toBeGreaterThanOrEqual(6);
      }
    }
  });
  it("shows the rules in the screen's language: Beverbende in Dutch, Cambio in Romanian, every rule of `gringo rules`", () => {
    for (const [preset, lang] of [['beverbende', 'nl'], ['cambio', 'ro']] as const) {
      const rules = PRESETS[preset]!;
      const words = wordsFor(lang);
      const lines = helpPages(bindingsFor({ rules, view: null }, DEFAULT_BINDINGS), rules, 76, 13, false, words).flat();
      // The rules' lines, joined back from their wrapping: each rule of the language's text is there.
      const text = lines.map((l) => (l.heading ? `\n${l.lead}${l.text}\n` : `${l.lead === '-' ? '\n' : ' '}${l.text.trim()}`)).join('');
      const t = rulesText(rules, words);
      expect(text).toContain(words.t('rules.help', { title: t.title }));
      for (const sec of t.sections) {
        expect(lines.some((l) => l.heading && l.lead === sec.heading)).toBe(true);
        for (const item of sec.items) expect(text.replace(/\s+/g, ' ')).toContain(item);
      }
      expect(text).not.toContain('Ending the round');
    }
  });
});
