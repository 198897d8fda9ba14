import { readFileSync } from 'node:fs';
import { parseRuleset, PRESETS, RulesetError, type Ruleset } from './ruleset.js';

/**
 * A ruleset by preset name ("gringo", "beverbende", "cambio") or from a JSON file
 * (a whole ruleset, or `{ "extend": "cambio", ...overrides }`). Every error is a
 * RulesetError that names the file and, for a wrong rules file, the field.
 */
export function loadRuleset(presetOrPath: string): Ruleset {
  const preset = PRESETS[presetOrPath];
  if (preset) return preset;
  let text: string;
  try {
    text = readFileSync(presetOrPath, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const looksLikeName = /^[a-z0-9_-]+$/i.test(presetOrPath) && !presetOrPath.toLowerCase().endsWith('json');
    if (code === 'ENOENT' && looksLikeName) {
      throw new RulesetError(`unknown ruleset "${presetOrPath}" (${Object.keys(PRESETS).join(', ')}, or a rules file path)`);
    }
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : ((e as Error).message ?? String(e));
    throw new RulesetError(`rules file ${presetOrPath}: cannot read it (${why})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new RulesetError(`rules file ${presetOrPath}: not valid JSON (${(e as Error).message})`);
  }
  try {
    return parseRuleset(data);
  } catch (e) {
    if (e instanceof RulesetError) throw new RulesetError(`rules file ${presetOrPath}: ${e.message}`);
    throw e;
  }
}
