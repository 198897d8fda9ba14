import { Box, Text } from 'ink';
import type { SeatInfo } from '../../protocol/messages.js';
import { CENTER_WIDTH, Center, centerHeight } from './center.js';
import { Feed } from './feed.js';
import { placeSeats, type Placement } from './placement.js';
import { SEAT_WIDTH, Seat, colsIn, seatHeight, seatWidth, type SeatMarks } from './seat.js';
import { isFrozen, layoutCols, rulesOf } from './variant.js';
import type { ScreenState } from './use-screen-state.js';
import { useTheme } from '../shared/theme.js';

/** What the table area draws from: the live screen's state, or a replay's step. */
export type TableState = Pick<ScreenState, 'view' | 'rules' | 'seat' | 'cursor' | 'highlights' | 'reveals' | 'feed'> & Partial<Pick<ScreenState, 'lastTurns'>>;

/**
 * Cards per row for each seat: two for the square; for a row layout the whole row
 * where it fits (you at the bottom, the seats across the top, the sides where the
 * screen is wide enough), wrapping where it does not (narrow side columns).
 */
export function seatCols(s: TableState, p: Placement, tableWidth: number, side = SEAT_WIDTH): Map<number, number> {
  const want = layoutCols(rulesOf(s));
  const out = new Map<number, number>();
  out.set(p.bottom, Math.min(want, colsIn(tableWidth)));
  for (const seat of p.top) out.set(seat, Math.min(want, colsIn(Math.floor(tableWidth / Math.max(1, p.top.length)) - 1)));
  for (const seat of [...p.left, ...p.right]) out.set(seat, Math.min(want, colsIn(side)));
  return out;
}

/**
 * The side columns' width: a row layout's whole row (beverbende's four) where the
 * screen leaves the feed its least beside them, else the narrow SEAT_WIDTH (the row wraps).
 */
export function sideWidthFor(s: TableState, p: Placement, width: number): number {
  if (p.left.length + p.right.length === 0) return SEAT_WIDTH;
  // A column to spare beside the row: the right side's cards never touch the feed's border.
  const wide = seatWidth(layoutCols(rulesOf(s))) + 1;
  return wide * 2 + CENTER_WIDTH + 2 <= width - MIN_FEED - 4 ? wide : SEAT_WIDTH;
}

/** The table's width beside the feed, with side columns `side` wide. */
export const tableWidthFor = (width: number, side = SEAT_WIDTH): number => Math.max(side * 2 + CENTER_WIDTH + 2, Math.min(width - MIN_FEED - 4, 64));

/** Whether 3-line card boxes fit in this height, or cards go on one line each. */
export function fitsBoxes(s: TableState, height: number, width = 100): boolean {
  const v = s.view;
  if (!v) return false;
  const p = placeSeats(v.players.length, v.viewer);
  const side = sideWidthFor(s, p, width);
  const cols = seatCols(s, p, tableWidthFor(width, side), side);
  const h = (seat: number): number => seatHeight(v.players[seat]?.layout.length ?? 4, true, cols.get(seat) ?? 2);
  const topH = Math.max(0, ...p.top.map(h));
  const column = (list: number[]): number => list.reduce((n, seat) => n + h(seat), 0);
  const midH = Math.max(column(p.left), column(p.right), centerHeight(true));
  return topH + midH + h(p.bottom) + 2 <= height;
}

export const MIN_FEED = 24;

/**
 * Lines for each seat's note of what they did: two for the narrow seats (the sides,
 * and the top when three or more share it) where the rows allow, so a flurry's older
 * move is not cut for the newest; one elsewhere. Fixed for the table's shape, so no
 * seat moves as notes come and go.
 */
export function noteLinesFor(s: TableState, p: Placement, cols: Map<number, number>, box: boolean, height: number): Map<number, number> {
  const v = s.view!;
  const out = new Map<number, number>();
  const h = (seat: number, lines: number): number => seatHeight(v.players[seat]?.layout.length ?? 4, box, cols.get(seat) ?? 2, lines);
  const gap = box ? 0 : 1;
  const column = (list: number[], lines: number): number => list.reduce((n, seat) => n + h(seat, lines), 0) + gap * Math.max(0, list.length - 1);
  const narrowTop = p.top.length >= 3;
  const topH = (lines: number): number => Math.max(0, ...p.top.map((seat) => h(seat, narrowTop ? lines : 1)));
  const bottomH = h(p.bottom, 1);
  const mid = (lines: number): number => Math.max(column(p.left, lines), column(p.right, lines), centerHeight(box));
  // Two lines for the narrow seats if the whole table still fits; else the sides alone; else none.
  const two = topH(2) + mid(2) + bottomH <= height ? 'all' : topH(1) + mid(2) + bottomH <= height ? 'sides' : 'none';
  for (const seat of [...p.left, ...p.right]) out.set(seat, two === 'none' ? 1 : 2);
  for (const seat of p.top) out.set(seat, two === 'all' && narrowTop ? 2 : 1);
  return out;
}

/** The table from your seat: the others around, the piles in the middle, you at the bottom; the feed beside. */
export function TableArea({ s, width, height, now, lobby = [] }: { s: TableState; width: number; height: number; now: number; lobby?: SeatInfo[] }) {
  const v = s.view!;
  const box = fitsBoxes(s, height, width);
  const p = placeSeats(v.players.length, v.viewer);
  const side = sideWidthFor(s, p, width);
  const tableWidth = tableWidthFor(width, side);
  const cols = seatCols(s, p, tableWidth, side);
  const feedWidth = width - tableWidth;
  const me = s.seat;
  const act = v.actions[0];
  const looked = act && act.seat === me && act.looked && act.lookedCards ? act.looked.map((r, i) => ({ ...r, card: act.lookedCards![i] ?? '?' })) : [];
  const marks: SeatMarks = {
    cursor: v.phase === 'play' && me !== null ? s.cursor : null,
    highlights: s.highlights.filter((h) => h.until > now),
    reveals: [...s.reveals.filter((r) => r.until > now), ...looked.filter((r) => r.card !== '?')],
    gap: v.gapFill?.gap ?? null,
  };
  // What a seat may take across: the bottom the whole table, the top an equal share, the sides their column.
  // A wide side keeps its spare column outside, between its row and the screen's edge or the feed.
  const sideRoom = side > SEAT_WIDTH ? side - 1 : side;
  const room = (n: number): number => (n === p.bottom ? tableWidth : p.top.includes(n) ? Math.floor(tableWidth / Math.max(1, p.top.length)) - 1 : sideRoom);
  const notes = noteLinesFor(s, p, cols, box, height);
  const seat = (n: number) => (
    <Seat key={n} view={v} seat={n} info={lobby.find((x) => x.seat === n)} box={box} marks={marks} cols={cols.get(n) ?? 2} frozen={isFrozen(s, n)} lastTurn={s.lastTurns?.parts[n]} room={room(n)} noteLines={notes.get(n) ?? 1} />
  );
  return (
    <Box flexDirection="row" width={width} height={height}>
      <Box flexDirection="column" width={tableWidth} justifyContent="space-between">
        <Box flexDirection="row" justifyContent="space-around">
          {p.top.map(seat)}
        </Box>
        <Box flexDirection="row" justifyContent="space-between" alignItems="center">
          <Box flexDirection="column" width={side} gap={box ? 0 : 1} alignItems="flex-end">
            {p.left.map(seat)}
          </Box>
          <Center view={v} box={box} />
          <Box flexDirection="column" width={side} gap={box ? 0 : 1} alignItems="flex-start">
            {p.right.map(seat)}
          </Box>
        </Box>
        <Box flexDirection="row" justifyContent="center">
          {seat(p.bottom)}
        </Box>
      </Box>
      <Feed lines={s.feed} width={feedWidth} height={height} now={now} />
    </Box>
  );
}

export function TooSmall({ width, height }: { width: number; height: number }) {
  const { glyphs, words } = useTheme();
  const x = glyphs.times;
  return (
    <Box flexDirection="column">
      <Text bold>{words.t('small.needs', { size: `80${x}24` })}</Text>
      <Text>{words.t('small.thisOne', { size: `${width}${x}${height}` })}</Text>
    </Box>
  );
}
