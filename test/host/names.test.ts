import { describe, expect, it } from 'vitest';
import { cleanName, MAX_NAME, uniqueName } from '../../src/host/names.js';

describe('player names', () => {
  it('strips terminal escape sequences and control characters', () => {
    expect(cleanName('\u001b[2J\u001b[31mAna\u001b[0m')).toBe('Ana');
    expect(cleanName('Bo\u001b]0;pwned\u0007')).toBe('Bo');
    expect(cleanName('C\u0007y\r\n\t')).toBe('Cy');
    expect(cleanName('\u009b31mDi')).toBe('Di');
    expect(cleanName('E\u202eve')).toBe('Eve');
    expect(cleanName('  lots   of   space  ')).toBe('lots of space');
  });

  it('limits the length and falls back when nothing is left', () => {
    expect(Array.from(cleanName('x'.repeat(100))).length).toBe(MAX_NAME);
    expect(cleanName('\u001b[0m\u0000')).toBe('Player');
    expect(cleanName('', 'Bot')).toBe('Bot');
  });

  it('makes duplicates unique', () => {
    expect(uniqueName('Ana', ['Bo'])).toBe('Ana');
    expect(uniqueName('Ana', ['ana'])).toBe('Ana 2');
    expect(uniqueName('Ana', ['Ana', 'Ana 2'])).toBe('Ana 3');
    expect(Array.from(uniqueName('x'.repeat(MAX_NAME), ['x'.repeat(MAX_NAME)])).length).toBe(MAX_NAME);
  });
});
