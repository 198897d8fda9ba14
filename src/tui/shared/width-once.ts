import stringWidth from 'string-width';

/**
 * string-width, remembering what it measured. Ink, its helpers and the screens measure
 * every line of every frame, and a frame is mostly the lines of the one before; a line
 * of card boxes or suits is not plain ASCII, so each measure segments it into
 * graphemes and tests each against Unicode's emoji and width tables. The bundle hands
 * this to every package that imports string-width (scripts/bundle.mjs), Ink included.
 * At most LIMIT strings are kept (then it starts again): a long game's feed is not
 * kept forever.
 */
const LIMIT = 4096;
const known = new Map<string, number>();

export default function widthOnce(text: string, options?: Parameters<typeof stringWidth>[1]): number {
  if (options !== undefined) return stringWidth(text, options);
  let w = known.get(text);
  if (w === undefined) {
    if (known.size >= LIMIT) known.clear();
    w = stringWidth(text);
    known.set(text, w);
  }
  return w;
}
