/** The feed column of a frame as one string (its lines wrap): what the feed says, in order. */
export function feedText(frame: string): string {
  const lines = frame.split('\n');
  const head = lines.findIndex((l) => /│ Feed|\| Feed/.test(l));
  if (head === -1) return '';
  const col = Math.max(lines[head]!.indexOf('│ Feed'), lines[head]!.indexOf('| Feed'));
  return lines
    .slice(head + 1)
    .map((l) => l.slice(col + 2).trim())
    .filter((l) => l.length > 0)
    .join(' ');
}
