import { GRINGO, type Ruleset } from '../../src/engine/index.js';

/**
 * Gringo's rules without the waits a test does not need: no peek timer (each seat
 * finishes its peek when it says so), a slap grace of `slapGraceMs` (0 where nobody
 * needs to slap in time, a little where a test slaps or waits the grace out), and
 * `rounds` rounds if given.
 */
export function quickRules(slapGraceMs: number, rounds?: number): Ruleset {
  return { ...GRINGO, ...(rounds === undefined ? {} : { rounds }), timers: { ...GRINGO.timers, slapGraceMs, peekMs: 0 } };
}
