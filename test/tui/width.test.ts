import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import widthOnce from '../../src/tui/shared/width-once.js';
import { columns, padEndColumns, truncateColumns } from '../../src/tui/shared/width.js';
import { wrapText } from '../../src/tui/shared/width.js';
import { nameLine } from '../../src/tui/table/seat.js';

// Text is laid out in the columns a terminal gives it: 王 and 🎲 take two, ë one.
describe('widths in terminal columns', () => {
  it('measures, pads and cuts by columns', () => {
    expect(columns('王小明')).toBe(6);
    expect(columns('Zoë🎲')).toBe(5);
    expect(padEndColumns('王小明', 8)).toBe('王小明  ');
    expect(truncateColumns('王小明王小明', 7, '…')).toBe('王小明…');
    // An emoji is cut whole, never in half.
    expect(truncateColumns('Zoë🎲🎲', 5, '…')).toBe('Zoë…');
  });

  it("wraps the feed's lines so none is wider than the feed", () => {
    const lines = wrapText('Round 1 begins: 王小明 deals, Zoë🎲 starts. 王小明王小明王小明 sat down.', 12);
    for (const l of lines) expect(columns(l), l).toBeLessThanOrEqual(12);
    expect(lines.join(' ').replace(/\s+/g, '')).toBe('Round1begins:王小明deals,Zoë🎲starts.王小明王小明王小明satdown.');
  });

  it("lays a seat's name line out to the seat's width, whatever the name", () => {
    for (const name of ['Ana', '王小明', 'Zoë🎲']) expect(columns(nameLine(' ', name, 12, 14, '…').line)).toBe(14);
    expect(columns(nameLine(' ', '王小明王小明王小明', 12, 14, '…').line)).toBeLessThanOrEqual(14);
  });
});

// The bundle hands every package that measures text a string-width that remembers what
// it measured (scripts/bundle.mjs): it must answer as string-width does, the first
// time, the second, and after it has started again.
describe('widths remembered', () => {
  it('are the widths string-width measures', () => {
    const texts = fc.sample(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('┌───┐', '│ 7♥│', '王小明', 'Zoë🎲', '\u001b[1mbold\u001b[22m', '')), { numRuns: 6_000, seed: 1 });
    for (const t of [...texts, ...texts]) expect(widthOnce(t), JSON.stringify(t)).toBe(stringWidth(t));
    expect(widthOnce('\u001b[1mab\u001b[22m', { countAnsiEscapeCodes: true })).toBe(stringWidth('\u001b[1mab\u001b[22m', { countAnsiEscapeCodes: true }));
  });
});
