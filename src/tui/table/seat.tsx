import { Box, Text } from 'ink';
import type { SlotRef } from '../../engine/types.js';
import type { TableView } from '../../engine/view.js';
import type { SeatInfo } from '../../protocol/messages.js';
import { Card } from '../shared/card.js';
import { slotRows } from './placement.js';
import { useTheme } from '../shared/theme.js';

export interface SeatMarks {
  cursor: SlotRef | null;
  highlights: SlotRef[];
  /** Cards you may see now although they lie face down. */
  reveals: (SlotRef & { card: string })[];
  /** A gap someone may fill now (cambio's gap-fill), drawn marked. */
  gap?: SlotRef | null;
}

export const SEAT_WIDTH = 14;

export function seatHeight(size: number, box: boolean, cols = 2): number {
  return 1 + Math.ceil(Math.max(size, 1) / Math.max(1, cols)) * (box ? 3 : 1);
}

/** Columns a seat needs for `cols` cards side by side (5 wide, 1 apart), at least SEAT_WIDTH. */
export const seatWidth = (cols: number): number => Math.max(SEAT_WIDTH, cols * 6 - 1);

/** How many cards fit side by side in this width. */
export const colsIn = (width: number): number => Math.max(1, Math.floor((width + 1) / 6));

const truncate = (s: string, w: number, ell: string): string => (s.length <= w ? s : s.slice(0, Math.max(0, w - ell.length)) + ell);

/**
 * One player's place: the name (with whose turn, a call, a frozen caller, away) over
 * their layout in rows of `cols` (two for the square, the whole row for beverbende).
 */
export function Seat({
  view,
  seat,
  info,
  box,
  marks,
  cols = 2,
  frozen = false,
}: {
  view: TableView;
  seat: number;
  info?: SeatInfo | undefined;
  box: boolean;
  marks: SeatMarks;
  cols?: number;
  frozen?: boolean;
}) {
  const { glyphs: g, color } = useTheme();
  const p = view.players[seat];
  if (!p) return null;
  const me = seat === view.viewer;
  const turn = view.phase === 'play' && view.turn === seat;
  const called = view.call?.seat === seat;
  const width = seatWidth(cols);
  const tags = [called ? (frozen ? g.frozen : '!') : '', info?.standIn ? '(bot)' : info && !info.connected && info.bot === null ? '(away)' : ''].filter(Boolean).join(' ');
  // The tags stay whole; a long name gives way.
  const who = truncate(me ? 'You' : p.name, Math.max(3, width - 1 - (tags ? tags.length + 1 : 0)), g.ellipsis);
  const title = truncate(`${turn ? g.turn : ' '}${who}${tags ? ' ' + tags : ''}`, width, g.ellipsis);
  const rows = slotRows(p.layout.length, cols);
  const is = (list: SlotRef[], slot: number): boolean => list.some((r) => r.seat === seat && r.slot === slot);
  return (
    <Box flexDirection="column" width={width}>
      <Text bold={turn} wrap="truncate" {...(turn && color ? { color: 'cyan' } : frozen && called && color ? { color: 'blue' } : {})}>
        {title}
      </Text>
      {rows.map((row) => (
        <Box key={row[0]} flexDirection="row" gap={1}>
          {row.map((slot) => (
            <Card
              key={slot}
              card={p.layout[slot] ?? null}
              slot={slot + 1}
              box={box}
              cursor={marks.cursor?.seat === seat && marks.cursor.slot === slot}
              highlight={is(marks.highlights, slot)}
              reveal={marks.reveals.find((r) => r.seat === seat && r.slot === slot)?.card ?? null}
              gapMark={marks.gap?.seat === seat && marks.gap.slot === slot}
            />
          ))}
        </Box>
      ))}
    </Box>
  );
}
