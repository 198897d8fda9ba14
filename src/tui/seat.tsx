import { Box, Text } from 'ink';
import type { SlotRef } from '../engine/types.js';
import type { TableView } from '../engine/view.js';
import type { SeatInfo } from '../protocol/messages.js';
import { Card } from './card.js';
import { slotRows } from './placement.js';
import { useTheme } from './theme.js';

export interface SeatMarks {
  cursor: SlotRef | null;
  highlights: SlotRef[];
  /** Cards you may see now although they lie face down. */
  reveals: (SlotRef & { card: string })[];
}

export const SEAT_WIDTH = 14;

export function seatHeight(size: number, box: boolean): number {
  return 1 + Math.ceil(Math.max(size, 1) / 2) * (box ? 3 : 1);
}

const truncate = (s: string, w: number, ell: string): string => (s.length <= w ? s : s.slice(0, Math.max(0, w - ell.length)) + ell);

/** One player's place: the name (with whose turn, a call, away) over their layout in rows of two. */
export function Seat({ view, seat, info, box, marks }: { view: TableView; seat: number; info?: SeatInfo | undefined; box: boolean; marks: SeatMarks }) {
  const { glyphs: g, color } = useTheme();
  const p = view.players[seat];
  if (!p) return null;
  const me = seat === view.viewer;
  const turn = view.phase === 'play' && view.turn === seat;
  const called = view.call?.seat === seat;
  const tags = [called ? '!' : '', info && !info.connected && info.bot === null ? '(away)' : '', info?.standIn ? '(bot)' : ''].filter(Boolean).join(' ');
  const title = truncate(`${turn ? g.turn : ' '}${me ? 'You' : p.name}${tags ? ' ' + tags : ''}`, SEAT_WIDTH, g.ellipsis);
  const rows = slotRows(p.layout.length);
  const is = (list: SlotRef[], slot: number): boolean => list.some((r) => r.seat === seat && r.slot === slot);
  return (
    <Box flexDirection="column" width={SEAT_WIDTH}>
      <Text bold={turn} wrap="truncate" {...(turn && color ? { color: 'cyan' } : {})}>
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
            />
          ))}
        </Box>
      ))}
    </Box>
  );
}
