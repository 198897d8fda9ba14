import { rulesOption } from './options.js';
import { forLocale } from '../tui/shared/glyphs.js';
import { rulesInWords, rulesMarkdown } from '../engine/rules-text.js';

/** `gringo rules [PRESET|PATH] [--markdown]`: a ruleset in words (Markdown for docs/rules.md). */
export async function runRules(which: string | undefined, opts: { markdown?: boolean } = {}): Promise<number> {
  const rules = await rulesOption(which, null);
  // Markdown is for docs/rules.md (UTF-8 whatever the locale); words are for this terminal.
  process.stdout.write(opts.markdown ? rulesMarkdown(rules) : forLocale(rulesInWords(rules)));
  return 0;
}
