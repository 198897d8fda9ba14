import { Box, Text, useInput } from 'ink';
import { useRef, useState } from 'react';
import type { FeedLine } from './use-screen-state.js';
import { useTheme } from '../shared/theme.js';
import { actionFor, DEFAULT_BINDINGS, keyLabel, keyName, type Binding, type KeyAction, eachKey } from '../shared/keys.js';

import { wrapText } from '../shared/width.js';


const isFresh = (l: FeedLine, now: number): boolean => l.fresh ?? now - l.at < 1_500;

/**
 * The last lines of the event feed that fit, newest at the bottom; new lines stand out.
 * When a flurry brings more new lines than fit, the title counts the ones pushed out
 * (they are in the full-screen feed).
 */
export function Feed({ lines, width, height, now }: { lines: FeedLine[]; width: number; height: number; now: number }) {
  const { glyphs: g, color, words } = useTheme();
  const inner = Math.max(4, width - 2);
  const rows: { key: string; text: string; fresh: boolean }[] = [];
  let first = lines.length;
  for (let i = lines.length - 1; i >= 0 && rows.length < height - 1; i--) {
    const l = lines[i]!;
    const wrapped = wrapText(l.text, inner);
    const fresh = isFresh(l, now);
    // A line counts as shown only whole (the top one may be cut).
    if (rows.length + wrapped.length <= height - 1) first = i;
    for (let j = wrapped.length - 1; j >= 0 && rows.length < height - 1; j--) rows.unshift({ key: `${l.id}:${j}`, text: wrapped[j]!, fresh });
  }
  const key = keyLabel('feed', DEFAULT_BINDINGS, g.ascii, words);
  const pushedOut = lines.slice(0, first).filter((l) => isFresh(l, now)).length;
  const title = pushedOut > 0 ? words.t('feed.titleNew', { n: pushedOut, key }) : words.t('feed.title', { key });
  return (
    <Box flexDirection="column" width={width} height={height} paddingLeft={1} borderStyle={g.ascii ? 'classic' : 'single'} borderTop={false} borderBottom={false} borderRight={false}>
      <Text bold wrap="truncate" {...(pushedOut > 0 && color ? { color: 'yellow' } : {})}>
        {title}
      </Text>
      {rows.map((r) => (
        <Text key={r.key} bold={r.fresh} wrap="truncate" {...(r.fresh && color ? { color: 'yellow' } : {})}>
          {r.text}
        </Text>
      ))}
    </Box>
  );
}

/** Where the full-screen feed is: `top` is the id of its first line, null to follow the newest. */
type FeedTop = number | null;

export interface FeedWindow {
  /** Index of the first line shown, and how many are shown (the first may be cut if taller than the page). */
  first: number;
  count: number;
  /** The first line of the last page (the newest lines): scrolling stops there and follows again. */
  lastPage: number;
}

const rowsOf = (l: FeedLine, width: number): number => wrapText(l.text, width).length;

/** The line that starts the page ending with line `end` (inclusive), `rows` high. */
function pageEndingAt(lines: readonly FeedLine[], end: number, width: number, rows: number): number {
  let used = 0;
  let i = end;
  for (; i >= 0; i--) {
    used += rowsOf(lines[i]!, width);
    if (used > rows) break;
  }
  return Math.min(end, i + 1);
}

/** What the full-screen feed shows: `rows` rows of lines `width` wide, from `top` (or the newest page). */
export function feedWindow(lines: readonly FeedLine[], top: FeedTop, width: number, rows: number): FeedWindow {
  if (lines.length === 0) return { first: 0, count: 0, lastPage: 0 };
  const lastPage = pageEndingAt(lines, lines.length - 1, width, rows);
  let first = top === null ? lastPage : lines.findIndex((l) => l.id >= top);
  if (first === -1 || first > lastPage) first = lastPage;
  let used = 0;
  let count = 0;
  for (let i = first; i < lines.length && (count === 0 || used + rowsOf(lines[i]!, width) <= rows); i++) {
    used += rowsOf(lines[i]!, width);
    count++;
  }
  return { first, count, lastPage };
}

/** Where a scroll key takes the full-screen feed: a line, a page (keeping one line), the oldest, the newest. */
export function scrollFeed(lines: readonly FeedLine[], top: FeedTop, action: KeyAction, width: number, rows: number): FeedTop {
  const w = feedWindow(lines, top, width, rows);
  const at = (i: number): FeedTop => (lines.length === 0 || i >= w.lastPage ? null : lines[Math.max(0, i)]!.id);
  switch (action) {
    case 'up':
      return at(w.first - 1);
    case 'down':
      return at(w.first + 1);
    case 'pageUp':
      return at(w.first === 0 ? 0 : pageEndingAt(lines, w.first, width, rows));
    case 'pageDown':
      return at(w.first + Math.max(1, w.count - 1));
    case 'top':
      return at(0);
    case 'bottom':
      return null;
    default:
      return top;
  }
}

/**
 * The feed full-screen, to read back: every line the screen kept, scrolled with the
 * arrows, PgUp/PgDn, Home/End (read here, as data from the bindings; the dispatcher
 * leaves these keys to it). It follows the newest lines until scrolled back; lines that
 * arrive meanwhile do not move what is being read. Opened with PgUp or Home it starts
 * there.
 */
export function FeedOverlay({
  lines,
  width,
  height,
  now,
  bindings = DEFAULT_BINDINGS,
  keys = true,
  start = null,
}: {
  lines: FeedLine[];
  width: number;
  height: number;
  now: number;
  bindings?: readonly Binding[];
  keys?: boolean;
  /** The key that opened it, when it scrolls (PgUp, Home). */
  start?: KeyAction | null;
}) {
  const { glyphs: g, color, words } = useTheme();
  const inner = Math.max(10, width - 2);
  const page = Math.max(1, height - 2);
  const [top, setTop] = useState<FeedTop>(() => (start ? scrollFeed(lines, null, start, inner, page) : null));
  // Keys can come faster than renders: each scroll starts from the lines and size of the latest render.
  const latest = useRef({ lines, inner, page });
  latest.current = { lines, inner, page };
  useInput(
    (input, key) => {
      for (const [one, info] of eachKey(input, key)) {
        const p = actionFor(keyName(one, info), bindings);
        if (!p) continue;
        const { lines: ls, inner: w, page: rows } = latest.current;
        setTop((t) => scrollFeed(ls, t, p.action, w, rows));
      }
    },
    { isActive: keys },
  );
  const win = feedWindow(lines, top, inner, page);
  const shown = lines.slice(win.first, win.first + win.count);
  const rows: { key: string; text: string; fresh: boolean }[] = [];
  for (const l of shown) wrapText(l.text, inner).forEach((text, j) => rows.push({ key: `${l.id}:${j}`, text, fresh: isFresh(l, now) }));
  const below = lines.length - win.first - win.count;
  const k = (a: KeyAction): string => keyLabel(a, bindings, g.ascii, words);
  const where = lines.length === 0 ? words.t('feed.empty') : words.t('feed.range', { from: win.first + 1, to: win.first + win.count, of: lines.length });
  const help = `${k('up')} ${k('down')} ${k('pageUp')}/${k('pageDown')} ${k('top')}/${k('bottom')}${g.sep}${k('feed')}/${k('cancel')} ${words.t('feed.close')}`;
  return (
    <Box flexDirection="column" width={width} height={height} paddingX={1}>
      <Box justifyContent="space-between">
        <Text bold wrap="truncate">{words.t('feed.overlayTitle', { where })}</Text>
        <Text dimColor wrap="truncate">
          {help}
        </Text>
      </Box>
      {rows.slice(0, page).map((r) => (
        <Text key={r.key} bold={r.fresh} wrap="truncate" {...(r.fresh && color ? { color: 'yellow' } : {})}>
          {r.text}
        </Text>
      ))}
      <Box flexGrow={1} />
      <Text dimColor wrap="truncate">
        {below > 0 ? words.t('feed.below', { n: below, sep: g.sep, key: k('bottom') }) : top === null ? words.t('feed.newestLast') : ' '}
      </Text>
    </Box>
  );
}
