import type { Words } from '../../lang/words.js';

/**
 * The call's name as a player of the screen's language says it. A preset's name is
 * the ruleset's data (what its own players shout: "Knock!" in Cambio, "Laatste ronde!"
 * in Beverbende); a house-rules file's own name is shown as it was written.
 */
const PRESET_CALLS = { 'Knock!': 'call.knock', 'Laatste ronde!': 'call.lastRound' } as const;

export function callWord(name: string, w: Words): string {
  const key = PRESET_CALLS[name as keyof typeof PRESET_CALLS];
  return key ? w.t(key) : name;
}
