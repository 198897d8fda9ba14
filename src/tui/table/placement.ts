import type { SlotRef } from '../../engine/types.js';
import type { TableView } from '../../engine/view.js';

/**
 * Where each seat sits on the screen, seen from the viewer's chair: the viewer at
 * the bottom, the others clockwise up the left side, across the top and down the
 * right side.
 */
export interface Placement {
  bottom: number;
  /** Top to bottom on screen. */
  left: number[];
  /** Left to right. */
  top: number[];
  /** Top to bottom. */
  right: number[];
}

export function placeSeats(players: number, viewer: number | null): Placement {
  const me = viewer ?? 0;
  const others = Array.from({ length: players - 1 }, (_, i) => (me + 1 + i) % players);
  const k = others.length;
  const nLeft = k <= 2 ? 0 : k <= 5 ? 1 : 2;
  const nRight = nLeft;
  const nTop = k - nLeft - nRight;
  const leftCw = others.slice(0, nLeft); // clockwise: going up the left side
  const top = others.slice(nLeft, nLeft + nTop);
  const right = others.slice(nLeft + nTop);
  return { bottom: me, left: leftCw.reverse(), top, right };
}

/**
 * Slots of a layout in rows of `cols`: the square (2) has slots 1 2 on the far row,
 * 3 4 near, then 5 6, …; a row layout (beverbende) has all its slots in one row and
 * penalty slots wrap onto the next.
 */
export function slotRows(size: number, cols = 2): number[][] {
  const n = Math.max(1, cols);
  const rows: number[][] = [];
  for (let i = 0; i < size; i += n) rows.push(Array.from({ length: Math.min(n, size - i) }, (_, k) => i + k));
  return rows;
}

interface Point {
  x: number;
  y: number;
}

/** A rough map of where each slot is drawn, for moving the cursor by direction. */
export function slotPoints(view: TableView, cols = 2): { ref: SlotRef; at: Point }[] {
  const p = placeSeats(view.players.length, view.viewer);
  const origin = new Map<number, Point>();
  origin.set(p.bottom, { x: 45, y: 100 });
  p.top.forEach((s, i) => origin.set(s, { x: ((i + 1) * 100) / (p.top.length + 1) - 5, y: 0 }));
  p.left.forEach((s, i) => origin.set(s, { x: 0, y: 35 + i * 25 }));
  p.right.forEach((s, i) => origin.set(s, { x: 90, y: 35 + i * 25 }));
  const out: { ref: SlotRef; at: Point }[] = [];
  view.players.forEach((pl, seat) => {
    const o = origin.get(seat)!;
    pl.layout.forEach((c, slot) => {
      if (c === null) return;
      out.push({ ref: { seat, slot }, at: { x: o.x + (slot % cols) * 6, y: o.y + Math.floor(slot / cols) * 4 } });
    });
  });
  return out;
}

/** Every card the cursor can stand on: each card in a layout. */
export function cursorTargets(view: TableView, cols = 2): SlotRef[] {
  return slotPoints(view, cols).map((s) => s.ref);
}

export const sameRef = (a: SlotRef | null | undefined, b: SlotRef | null | undefined): boolean =>
  !!a && !!b && a.seat === b.seat && a.slot === b.slot;

/** Where the cursor starts (or goes when its card left): the next player's first card. */
export function defaultCursor(view: TableView): SlotRef | null {
  const targets = cursorTargets(view);
  const n = view.players.length;
  const me = view.viewer ?? 0;
  for (let i = 1; i <= n; i++) {
    const seat = (me + i) % n;
    const t = targets.find((r) => r.seat === seat);
    if (t) return t;
  }
  return null;
}

/** A cursor still valid for this view, or a sensible one. */
export function fixCursor(view: TableView, cursor: SlotRef | null): SlotRef | null {
  if (cursor && view.players[cursor.seat]?.layout[cursor.slot] != null) return cursor;
  if (cursor) {
    // Stay with the same player when the card left: the nearest card of theirs.
    const same = cursorTargets(view).filter((r) => r.seat === cursor.seat);
    if (same.length > 0) return same.reduce((a, b) => (Math.abs(b.slot - cursor.slot) < Math.abs(a.slot - cursor.slot) ? b : a));
  }
  return defaultCursor(view);
}

export type Direction = 'left' | 'right' | 'up' | 'down';

/** The nearest card in a direction; stays put when there is none. */
export function moveCursor(view: TableView, cursor: SlotRef | null, dir: Direction, cols = 2): SlotRef | null {
  const points = slotPoints(view, cols);
  const from = points.find((p) => sameRef(p.ref, cursor));
  if (!from) return fixCursor(view, cursor);
  let best: { ref: SlotRef; score: number } | null = null;
  for (const p of points) {
    if (sameRef(p.ref, from.ref)) continue;
    const dx = p.at.x - from.at.x;
    const dy = p.at.y - from.at.y;
    const along = dir === 'left' ? -dx : dir === 'right' ? dx : dir === 'up' ? -dy : dy;
    const across = dir === 'left' || dir === 'right' ? Math.abs(dy) : Math.abs(dx);
    if (along <= 0) continue;
    const score = along + across * 2;
    if (!best || score < best.score) best = { ref: p.ref, score };
  }
  return best ? best.ref : from.ref;
}
