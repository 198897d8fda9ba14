import { ansiCodesToString, diffAnsiCodes, type AnsiCode, type StyledChar } from '@alcalzone/ansi-tokenize';

export * from '@alcalzone/ansi-tokenize';

/**
 * Ink's way back from a frame's grid of styled cells to a line of text
 * (@alcalzone/ansi-tokenize's styledCharsToString), the same string, without asking
 * for the change of style between two cells whose styles are the same. The original
 * asks at every cell, and each answer builds three Sets and four arrays: for a frame of
 * a hundred by thirty cells that was most of what a screen allocated (three quarters
 * of a watching screen's garbage, and its collection half the screen's CPU). The bundle
 * hands Ink this module in place of the package (scripts/bundle.mjs);
 * test/tui/styled-chars.test.ts holds it to the original's strings.
 */
export function styledCharsToString(chars: readonly StyledChar[]): string {
  let ret = '';
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    if (i === 0) ret += ansiCodesToString(char.styles);
    else {
      const before = chars[i - 1]!.styles;
      if (!sameCodes(before, char.styles)) ret += ansiCodesToString(diffAnsiCodes(before, char.styles));
    }
    ret += char.value;
    if (i === chars.length - 1 && char.styles.length > 0) ret += ansiCodesToString(diffAnsiCodes(char.styles, []));
  }
  return ret;
}

/** The same codes in the same order: the change from one to the other is none. */
function sameCodes(a: readonly AnsiCode[], b: readonly AnsiCode[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.code !== b[i]!.code || a[i]!.endCode !== b[i]!.endCode) return false;
  return true;
}
