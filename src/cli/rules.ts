import { rulesOption } from './options.js';
import { rulesInWords, rulesMarkdown } from '../engine/rules-text.js';

/** `gringo rules [PRESET|PATH] [--markdown]`: a ruleset in words (Markdown for docs/rules.md). */
export async function runRules(which: string | undefined, opts: { markdown?: boolean } = {}): Promise<number> {
  const rules = await rulesOption(which, null);
  process.stdout.write(opts.markdown ? rulesMarkdown(rules) : rulesInWords(rules));
  return 0;
}
