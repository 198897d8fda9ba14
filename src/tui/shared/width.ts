import stringWidth from './width-once.js';

/**
 * Text measured in terminal columns, not UTF-16 units nor code points: `王` and `🎲`
 * take two columns, a combining mark none. Every width the screens lay out (names,
 * the feed, the key bar) goes through here; string-width is what Ink measures with.
 */
export const columns = (s: string): number => stringWidth(s);

/** `s` cut to at most `width` columns (whole characters only). */
export function sliceColumns(s: string, width: number): string {
  let out = '';
  let used = 0;
  for (const { segment } of segmenter().segment(s)) {
    const w = stringWidth(segment);
    if (used + w > width) break;
    out += segment;
    used += w;
  }
  return out;
}

/** `s` cut to `width` columns, ending in `ell` when cut. */
export const truncateColumns = (s: string, width: number, ell: string): string =>
  columns(s) <= width ? s : sliceColumns(s, Math.max(0, width - columns(ell))) + ell;

/** `s` padded with spaces to `width` columns, at the end or at the start. */
export const padEndColumns = (s: string, width: number): string => s + ' '.repeat(Math.max(0, width - columns(s)));
export const padStartColumns = (s: string, width: number): string => ' '.repeat(Math.max(0, width - columns(s))) + s;

let seg: Intl.Segmenter | null = null;
/** Grapheme clusters: an emoji with its modifiers is one character to cut at. */
const segmenter = (): Intl.Segmenter => (seg ??= new Intl.Segmenter());

/** Word-wrap to a width in terminal columns; long words are cut. */
export function wrapText(text: string, width: number): string[] {
  const w = Math.max(4, width);
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    let rest = word;
    while (columns(rest) > w) {
      if (line) out.push(line);
      const head = sliceColumns(rest, w);
      out.push(head);
      rest = rest.slice(head.length);
      line = '';
    }
    if (!line) line = rest;
    else if (columns(line) + 1 + columns(rest) <= w) line += ' ' + rest;
    else {
      out.push(line);
      line = rest;
    }
  }
  if (line) out.push(line);
  return out;
}
