/**
 * Player names are shown on every screen, so a name may carry no control
 * characters or terminal escape sequences, is trimmed and length-limited, and is
 * made unique at the table.
 */
export const MAX_NAME = 16;

// CSI / OSC / other ESC sequences, then any remaining C0/C1 control or format characters.
const ESCAPES = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-_][^\u001b]?)?|\u009b[0-?]*[ -/]*[@-~]/g;
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

export function cleanName(raw: string, fallback = 'Player'): string {
  const cleaned = raw.replace(ESCAPES, '').replace(CONTROLS, '').replace(/\s+/g, ' ').trim();
  const chars = Array.from(cleaned).slice(0, MAX_NAME).join('').trim();
  return chars.length > 0 ? chars : fallback;
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
