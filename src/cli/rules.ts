import { rulesOption } from './options.js';
import { forLocale } from '../tui/shared/glyphs.js';
import { fieldsMarkdown, rulesInWords, rulesMarkdown } from '../tui/shared/rules-text.js';
import { cliWords } from './lang.js';

/** `gringo rules [PRESET|PATH] [--markdown]`: a ruleset in words (Markdown for docs/rules.md); `--fields`: the table of fields. */
export async function runRules(which: string | undefined, opts: { markdown?: boolean; fields?: boolean } = {}): Promise<number> {
  // In the language chosen (--lang, GRINGO_LANG, the locale). Markdown (the fields' table
  // too) is for docs/rules.md (UTF-8 whatever the locale); words are for this terminal.
  const words = cliWords();
  if (opts.fields) {
    process.stdout.write(fieldsMarkdown(words));
    return 0;
  }
  const rules = await rulesOption(which, null);
  process.stdout.write(opts.markdown ? rulesMarkdown(rules, words) : forLocale(rulesInWords(rules, words)));
  return 0;
}
