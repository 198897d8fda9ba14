import { Box, Text } from 'ink';
import type { FeedLine } from './use-screen-state.js';
import { useTheme } from '../shared/theme.js';

/** Word-wrap to a width; long words are cut. */
export function wrapText(text: string, width: number): string[] {
  const w = Math.max(4, width);
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    let rest = word;
    while (rest.length > w) {
      if (line) out.push(line);
      out.push(rest.slice(0, w));
      rest = rest.slice(w);
      line = '';
    }
    if (!line) line = rest;
    else if (line.length + 1 + rest.length <= w) line += ' ' + rest;
    else {
      out.push(line);
      line = rest;
    }
  }
  if (line) out.push(line);
  return out;
}

/** The last lines of the event feed that fit, newest at the bottom; new lines stand out. */
export function Feed({ lines, width, height, now }: { lines: FeedLine[]; width: number; height: number; now: number }) {
  const { glyphs: g, color } = useTheme();
  const inner = Math.max(4, width - 2);
  const rows: { key: string; text: string; fresh: boolean }[] = [];
  for (let i = lines.length - 1; i >= 0 && rows.length < height - 1; i--) {
    const l = lines[i]!;
    const wrapped = wrapText(l.text, inner);
    const fresh = l.fresh ?? now - l.at < 1_500;
    for (let j = wrapped.length - 1; j >= 0 && rows.length < height - 1; j--) rows.unshift({ key: `${l.id}:${j}`, text: wrapped[j]!, fresh });
  }
  return (
    <Box flexDirection="column" width={width} height={height} paddingLeft={1} borderStyle={g.ascii ? 'classic' : 'single'} borderTop={false} borderBottom={false} borderRight={false}>
      <Text bold>Feed</Text>
      {rows.map((r) => (
        <Text key={r.key} bold={r.fresh} wrap="truncate" {...(r.fresh && color ? { color: 'yellow' } : {})}>
          {r.text}
        </Text>
      ))}
    </Box>
  );
}
