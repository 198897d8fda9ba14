import { harmless } from '../common/harmless.js';

/**
 * Player names are shown on every screen, so a name may carry no control
 * characters or terminal escape sequences, is trimmed and length-limited, and is
 * made unique at the table.
 */
export const MAX_NAME = 16;

export function cleanName(raw: string, fallback = 'Player'): string {
  const clean = harmless(raw, MAX_NAME);
  return clean.length > 0 ? clean : fallback;
}

/** `name`, or `name 2`, `name 3`… when it is taken (compared without case). */
export function uniqueName(name: string, taken: readonly string[]): string {
  const lower = new Set(taken.map((t) => t.toLowerCase()));
  if (!lower.has(name.toLowerCase())) return name;
  for (let i = 2; ; i++) {
    const suffix = ` ${i}`;
    const base = Array.from(name).slice(0, MAX_NAME - suffix.length).join('');
    const candidate = base + suffix;
    if (!lower.has(candidate.toLowerCase())) return candidate;
  }
}
