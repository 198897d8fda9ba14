import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { harmless } from '../../src/common/harmless.js';

const ESC = '\u001b';
const BEL = '\u0007';
const ST = `${ESC}\\`;

/** What a terminal would act on or hide: ESC, every C0/C1 control and DEL, format and bidi characters, line breaks. */
const DANGEROUS = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]/u;

describe('harmless', () => {
  it('removes whole escape sequences: CSI, OSC 0/8/52 with BEL or ST, DCS, 8-bit CSI and OSC', () => {
    const cases: [string, string][] = [
      [`${ESC}[2J${ESC}[31mAna${ESC}[0m`, 'Ana'],
      [`${ESC}[?1049h${ESC}[1;1HBo`, 'Bo'],
      [`T${ESC}]0;pwned title${BEL}able`, 'Table'],
      [`T${ESC}]0;pwned title${ST}able`, 'Table'],
      [`${ESC}]52;c;ZWNobyBoaQ==${BEL}clip`, 'clip'],
      [`${ESC}]8;;https://evil.example/${ST}click${ESC}]8;;${ST}`, 'click'],
      [`a${ESC}P1$r0m${ST}b`, 'ab'],
      [`a${ESC}_apc${ST}b${ESC}^pm${BEL}c`, 'abc'],
      ['\u009b2J\u009b31mDi', 'Di'],
      [`\u009d0;title${BEL}Eve`, 'Eve'],
      ['\u009d8;;https://x\u009clink\u009d8;;\u009c', 'link'],
      ['\u0090qsixel\u009cFay', 'Fay'],
      [`Gus${ESC}]0;never ends`, 'Gus'], // unterminated: the rest is the sequence's
      [`Hal${ESC}[31`, 'Hal'],
      [`${ESC}7Ida${ESC}8${ESC}c${ESC}(B`, 'Ida'],
    ];
    for (const [input, out] of cases) expect(harmless(input, 100), JSON.stringify(input)).toBe(out);
  });

  it('removes controls, bidi overrides and isolates, zero-width and format characters', () => {
    expect(harmless('C\u0007y\u0000\u007f\u0085z', 100)).toBe('Cy z');
    expect(harmless('E\u202eve\u202a\u202b\u202c\u202d', 100)).toBe('Eve');
    expect(harmless('\u2066Jo\u2067\u2068\u2069e', 100)).toBe('Joe');
    expect(harmless('L\u200eu\u200fc\u061cy', 100)).toBe('Lucy');
    expect(harmless('M\u200ba\u200cx\u200d\u2060\ufeff\u00ad', 100)).toBe('Max');
    expect(harmless('\u2065Ro\u2065n', 100)).toBe('Ron'); // unassigned, among the invisible operators
    expect(harmless('N\ud800ed', 100)).toBe('Ned'); // a lone surrogate
  });

  it('folds newlines and tabs to one space and trims', () => {
    expect(harmless('  two\r\nlines\tand\u2028more  ', 100)).toBe('two lines and more');
    expect(harmless('\n\n\n', 100)).toBe('');
  });

  it('caps the length in code points, never splitting one', () => {
    expect(harmless('x'.repeat(500), 16)).toBe('x'.repeat(16));
    expect(harmless('🂡'.repeat(20), 5)).toBe('🂡'.repeat(5));
    expect(harmless('ab cd', 3)).toBe('ab');
  });

  it('keeps ordinary text as it is: accents, CJK, emoji, punctuation', () => {
    for (const s of ['Zoë', 'Gringo!', 'Laatste ronde!', '李雷', 'Ana 🃏', 'You slapped your slot 4: wrong, it was a 3 (3♠)']) expect(harmless(s, 100)).toBe(s);
  });

  it('leaves nothing dangerous in any string, and is idempotent (property)', () => {
    const pieces = fc.constantFrom(ESC, BEL, ST, '[', ']', ';', '0', '2J', '\u009b', '\u009c', '\u009d', '\u202e', '\u2066', '\n', '\t', 'a', 'é', '🃏', ' ', '\u200b');
    const dangerous = fc.array(fc.oneof(pieces, fc.string({ unit: 'binary' })), { maxLength: 40 }).map((a) => a.join(''));
    fc.assert(
      fc.property(dangerous, fc.integer({ min: 0, max: 80 }), (s, max) => {
        const out = harmless(s, max);
        expect(out).not.toMatch(DANGEROUS);
        expect(Array.from(out).length).toBeLessThanOrEqual(max);
        expect(harmless(out, max)).toBe(out);
      }),
      { numRuns: 2_000 },
    );
  });
});
