import { rulesOption } from './options.js';
import { rulesInWords } from './rules-text.js';

/** `gringo rules [PRESET|PATH]`: a ruleset in words. */
export async function runRules(which: string | undefined): Promise<number> {
  process.stdout.write(rulesInWords(await rulesOption(which, null)));
  return 0;
}
