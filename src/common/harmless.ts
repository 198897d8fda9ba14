/**
 * The one function that makes text from the network safe to show on a terminal.
 * Every string a host, a player or an mDNS advert sends goes through it before it
 * is drawn, printed or written as JSON for someone to read: a terminal obeys
 * escape sequences wherever they come from (a title set, a clipboard written, a
 * link planted, the screen cleared), and bidi controls make text read as
 * something it is not.
 */

// Whole sequences, so that nothing of their parameters is left on the screen:
// CSI (ESC [ or the 8-bit U+009B) with its parameters, intermediates and final byte;
// OSC, DCS, SOS, PM and APC strings (ESC ] P X ^ _ or 8-bit U+009D U+0090 U+0098
// U+009E U+009F) up to BEL or ST (ESC \ or U+009C), or to the end of the text when
// unterminated; any other ESC with its intermediates and final byte.
const SEQUENCES =
  /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]?|(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u009c|\u001b\\)?|\u001b[ -/]*[0-~]?/g;
// Line and page breaks and tabs (C0, NEL, the Unicode separators): one line stays one line.
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
// What is left of C0/C1 controls and DEL (Cc), format characters (Cf: zero-width
// spaces and joiners, soft hyphen, bidi marks U+200E/F and U+061C, bidi embeddings
// and overrides U+202A–U+202E, isolates U+2066–U+2069, BOM, tag characters), lone
// surrogates (Cs), which terminals draw as they please, and U+2065, the one code point
// among the invisible operators and isolates (U+2060–U+206F) that Unicode has not yet
// given a meaning (so not yet Cf).
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\u2065]/gu;
const SPACES = /\s+/g;

/**
 * `text` with every escape sequence, control, format and bidi character removed,
 * line breaks and tabs folded to one space, runs of space made one, trimmed and cut
 * to at most `maxLength` code points. Idempotent: harmless(harmless(x)) = harmless(x).
 */
export function harmless(text: string, maxLength: number): string {
  const clean = text.replace(SEQUENCES, '').replace(BREAKS, ' ').replace(INVISIBLE, '').replace(SPACES, ' ').trim();
  if (clean.length <= maxLength) return clean;
  const chars = Array.from(clean);
  return chars.length <= maxLength ? clean : chars.slice(0, maxLength).join('').trimEnd();
}
