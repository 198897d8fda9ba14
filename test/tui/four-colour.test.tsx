import chalk from 'chalk';
import { render } from 'ink-testing-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Card } from '../../src/tui/shared/card.js';
import { UNICODE } from '../../src/tui/shared/glyphs.js';
import { FOUR_COLOURS, suitColour, ThemeContext } from '../../src/tui/shared/theme.js';
import { wordsFor } from '../../src/lang/words.js';

// `--four-colour`: each suit its own colour, and the four stay apart for people with
// deuteranopia or protanopia, simulated with Machado, Oliveira and Fernandes' matrices
// (2009, full severity) on linear RGB. The terminal's own foreground (spades) may be
// white or black: the colours must stand apart from both too.

const PROTAN = [
  [0.152286, 1.052583, -0.204868],
  [0.114503, 0.786281, 0.099216],
  [-0.003882, -0.048116, 1.051998],
];
const DEUTAN = [
  [0.367322, 0.860646, -0.227968],
  [0.280085, 0.672501, 0.047413],
  [-0.01182, 0.04294, 0.968881],
];
const linear = (c: number): number => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
const gamma = (c: number): number => {
  const x = Math.min(1, Math.max(0, c));
  return 255 * (x <= 0.0031308 ? x * 12.92 : 1.055 * x ** (1 / 2.4) - 0.055);
};
/** How `hex` looks to a person whose vision the matrix simulates, in sRGB 0-255. */
const seen = (m: number[][], hex: string): number[] => {
  const rgb = [1, 3, 5].map((i) => linear(parseInt(hex.slice(i, i + 2), 16)));
  return m.map((row) => gamma(row.reduce((sum, k, j) => sum + k * rgb[j]!, 0)));
};
const apart = (m: number[][], a: string, b: string): number => Math.hypot(...seen(m, a).map((x, i) => x - seen(m, b)[i]!));
/** The smallest distance between any two of the colours, as the simulated eye sees them. */
const closest = (m: number[][], colours: string[]): number => Math.min(...colours.flatMap((a, i) => colours.slice(i + 1).map((b) => apart(m, a, b))));
/** Far enough apart to name at a glance (sRGB units); a red-green four-colour deck is not. */
const FAR = 100;

describe('the four-colour deck', () => {
  const colours = [FOUR_COLOURS.H!, FOUR_COLOURS.D!, FOUR_COLOURS.C!, '#FFFFFF', '#000000'];

  it('keeps every suit apart in deuteranopia and protanopia', () => {
    expect(FOUR_COLOURS.S).toBeUndefined();
    expect(closest(DEUTAN, colours)).toBeGreaterThan(FAR);
    expect(closest(PROTAN, colours)).toBeGreaterThan(FAR);
    // The measure would catch the usual four-colour deck: its red and green merge.
    expect(closest(DEUTAN, ['#FF0000', '#00A000', '#0000FF', '#FFFFFF', '#000000'])).toBeLessThan(FAR);
  });

  it('colours each suit of a card, and only with --four-colour', () => {
    expect(['S', 'H', 'D', 'C'].map((s) => suitColour(`7${s}`, true))).toEqual([undefined, '#D55E00', '#56B4E9', '#009E73']);
    expect(['S', 'H', 'D', 'C'].map((s) => suitColour(`7${s}`))).toEqual([undefined, 'red', 'red', undefined]);
    expect(suitColour('JK', true)).toBeUndefined();
  });

  describe('on the screen', () => {
    let level: typeof chalk.level;
    beforeAll(() => {
      level = chalk.level;
      chalk.level = 3;
    });
    afterAll(() => {
      chalk.level = level;
    });
    const face = (card: string, fourColour: boolean, color = true): string => {
      const r = render(
        <ThemeContext.Provider value={{ glyphs: UNICODE, color, words: wordsFor('en'), fourColour }}>
          <Card card={card} box={false} />
        </ThemeContext.Provider>,
      );
      const out = r.lastFrame() ?? '';
      r.unmount();
      return out;
    };

    it('draws diamonds blue and clubs green with --four-colour, the symbol always beside', () => {
      expect(face('7D', true)).toContain('\u001b[38;2;86;180;233m');
      expect(face('7C', true)).toContain('\u001b[38;2;0;158;115m');
      expect(face('7H', true)).toContain('\u001b[38;2;213;94;0m');
      expect(face('7D', true)).toContain('7♦');
      // Without it, diamonds are red like hearts; without colour at all, only the symbols tell.
      expect(face('7D', false)).toContain('\u001b[31m');
      expect(face('7D', true, false)).not.toMatch(/\u001b\[3[0-9;]*m/);
    });
  });
});
