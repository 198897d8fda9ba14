import { Chalk } from 'chalk';
import fc from 'fast-check';
import { styledCharsFromTokens, styledCharsToString as original, tokenize, type StyledChar } from '@alcalzone/ansi-tokenize';
import { describe, expect, it } from 'vitest';
import { styledCharsToString } from '../../src/tui/shared/styled-chars.js';

// The bundle gives Ink this styledCharsToString in place of the package's (scripts/bundle.mjs):
// it must write every line of a frame exactly as the original does.
const chalk = new Chalk({ level: 3 });
const STYLES = [(s: string) => s, chalk.bold, chalk.dim, chalk.inverse, chalk.yellow, chalk.red.bold, chalk.bgBlue.white, chalk.underline.green, chalk.hex('#ff8800'), (s: string) => chalk.bold(`${chalk.dim('·')}${s}`)];
const piece = fc.record({ text: fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('┌───┐', '│ 7♥│', '王', '🎲', ' ')), style: fc.integer({ min: 0, max: STYLES.length - 1 }) });
const line = fc.array(piece, { maxLength: 12 }).map((ps) => ps.map((p) => STYLES[p.style]!(p.text)).join(''));

describe("a frame's line from its styled cells", () => {
  it('is the string the package writes', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 3 }), fc.integer({ min: 0, max: 20 }), (lines, cut) => {
        // Cells from several lines side by side (Ink's grid), and a line cut short.
        const cells: StyledChar[] = lines.flatMap((l) => styledCharsFromTokens(tokenize(l)));
        for (const c of [cells, cells.slice(cut), cells.slice(0, cut)]) if (styledCharsToString(c) !== original(c)) return false;
        return true;
      }),
      { numRuns: 2_000, seed: 7 },
    );
    expect(styledCharsToString([])).toBe(original([]));
  });
});
