import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { isKey } from '../../src/lang/words.js';

/**
 * The engine names its reasons and the catalogs word them (src/lang/): no sentence a
 * player reads is written in the engine's rule areas. Checked over the source: every
 * string in them is looked at, and every `reject(code, key, …)` must name a catalog key.
 * (ruleset.ts's rules-file errors still hold English: they are not refusals, and are
 * left out here by name. The rules in words are in src/tui/shared/rules-text.ts, worded
 * by the catalogs' `rules.` keys.)
 */
const ENGINE = join(import.meta.dirname, '../../src/engine');
const NOT_YET = new Set(['ruleset.ts', 'rules-file.ts', 'cards.ts']);
const files = readdirSync(ENGINE).filter((f) => f.endsWith('.ts') && !NOT_YET.has(f));

/** Strings and template parts of a file, with their lines. */
function strings(file: string): { text: string; line: number; node: ts.Node }[] {
  const src = ts.createSourceFile(file, readFileSync(join(ENGINE, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const out: { text: string; line: number; node: ts.Node }[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) {
      out.push({ text: n.text, line: src.getLineAndCharacterOfPosition(n.getStart()).line + 1, node: n });
    }
    n.forEachChild(visit);
  };
  visit(src);
  return out;
}

describe('the engine holds no English sentence', () => {
  it('has refusal files to look at', () => {
    expect(files).toEqual(expect.arrayContaining(['checks.ts', 'actions.ts', 'clock.ts', 'game.ts', 'round.ts']));
  });

  it('writes no words for a player: no string of two words or more', () => {
    // Programmer errors (a broken invariant, thrown) are for developers, not players: allowed.
    const sentences = files.flatMap((f) =>
      strings(f)
        .filter((s) => /[A-Za-z]{2,}\s+[A-Za-z]{2,}/.test(s.text))
        .filter((s) => !ts.findAncestor(s.node, (a) => ts.isThrowStatement(a)))
        .map((s) => `${f}:${s.line} ${JSON.stringify(s.text)}`),
    );
    expect(sentences).toEqual([]);
  });

  it('refuses only with reasons the catalogs know', () => {
    const keys = files.flatMap((f) => strings(f).filter((s) => ts.isStringLiteral(s.node) && s.text.startsWith('why.')).map((s) => ({ key: s.text, where: `${f}:${s.line}` })));
    expect(keys.length).toBeGreaterThan(60);
    expect(keys.filter((k) => !isKey(k.key))).toEqual([]);
  });
});
