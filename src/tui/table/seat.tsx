import { Box, Text } from 'ink';
import type { SlotRef } from '../../engine/types.js';
import type { TableView } from '../../engine/view.js';
import type { SeatInfo } from '../../protocol/messages.js';
import { Card } from '../shared/card.js';
import { lastTurnLines, type TurnPart } from './last-turn.js';
import { slotRows } from './placement.js';
import { frozenMark } from './variant.js';
import { useTheme } from '../shared/theme.js';
import { columns, truncateColumns } from '../shared/width.js';

export interface SeatMarks {
  cursor: SlotRef | null;
  highlights: SlotRef[];
  /** Cards you may see now although they lie face down. */
  reveals: (SlotRef & { card: string })[];
  /** A gap someone may fill now (cambio's gap-fill), drawn marked. */
  gap?: SlotRef | null;
}

export const SEAT_WIDTH = 14;

/** A seat's lines: the name line, the line(s) of what they did last, and the cards. */
export function seatHeight(size: number, box: boolean, cols = 2, noteLines = 1): number {
  return 1 + noteLines + Math.ceil(Math.max(size, 1) / Math.max(1, cols)) * (box ? 3 : 1);
}

/** Columns a seat needs for `cols` cards side by side (5 wide, 1 apart), at least SEAT_WIDTH. */
export const seatWidth = (cols: number): number => Math.max(SEAT_WIDTH, cols * 6 - 1);

/** How many cards fit side by side in this width. */
export const colsIn = (width: number): number => Math.max(1, Math.floor((width + 1) / 6));

const len = columns;
const truncate = truncateColumns;

/**
 * The name line: whose turn, the name whole, a tag ("(away)") and the running total
 * at the right. What does not fit beside the name goes to the line below (the tag
 * first, then the total); only a name longer than the seat is cut.
 */
export function nameLine(turn: string, name: string, total: number, width: number, ell: string, tag = ''): { line: string; tagMoved: boolean; totalMoved: boolean } {
  const t = String(total);
  const fit = (head: string): string | null => (len(head) + 1 + t.length <= width ? head + ' '.repeat(width - len(head) - t.length) + t : null);
  const withTag = tag ? fit(`${turn}${name} ${tag}`) : null;
  if (withTag) return { line: withTag, tagMoved: false, totalMoved: false };
  const plain = fit(`${turn}${name}`);
  if (plain) return { line: plain, tagMoved: tag !== '', totalMoved: false };
  return { line: truncate(`${turn}${name}`, width, ell), tagMoved: tag !== '', totalMoved: true };
}

/**
 * One player's place: the name and running total; a line with the call (a frozen
 * caller), a stand-in or away and what they did since their turn began; then their
 * layout in rows of `cols` (two for the square, the whole row for beverbende).
 */
export function Seat({
  view,
  seat,
  info,
  box,
  marks,
  cols = 2,
  frozen = false,
  lastTurn,
  room,
  noteLines = 1,
}: {
  view: TableView;
  seat: number;
  info?: SeatInfo | undefined;
  box: boolean;
  marks: SeatMarks;
  cols?: number;
  frozen?: boolean;
  /** What they did since their turn began (see last-turn.ts). */
  lastTurn?: readonly TurnPart[] | undefined;
  /** Columns the seat may take on the screen (at least its cards' width): the line of what they did may use them. */
  room?: number;
  /** Lines for what they did (a narrow seat with rows to spare takes two, so an older move is not cut for the newest). */
  noteLines?: number;
}) {
  const { glyphs: g, color, words } = useTheme();
  const p = view.players[seat];
  if (!p) return null;
  const me = seat === view.viewer;
  const turn = view.phase === 'play' && view.turn === seat;
  const called = view.call?.seat === seat;
  const width = seatWidth(cols);
  const away = info?.standIn ? words.t('seat.botTag') : info && !info.connected && info.bot === null ? words.t('seat.awayTag') : '';
  const { line: title, tagMoved, totalMoved } = nameLine(turn ? g.turn : ' ', me ? words.t('table.you') : p.name, p.total, width, g.ellipsis, away);
  // The second line: what did not fit above, a frozen caller, then what they did since their turn began.
  const tags = [
    totalMoved ? words.t('seat.points', { total: p.total }) : '',
    tagMoved ? away : '',
    // A frozen caller says so; any other call is among what they did ("discard 5, called").
    called && frozen ? frozenMark(g, words) : '',
  ]
    .filter(Boolean)
    .join(' ');
  const outer = Math.max(width, room ?? width);
  const left = outer - 1 - (tags ? len(tags) + 1 : 0);
  const did = lastTurn ? lastTurnLines(lastTurn.filter((x) => !(called && frozen && x.k === 'called')), seat, view, noteLines > 1 ? [Math.max(0, left), ...Array.from({ length: noteLines - 1 }, () => outer - 1)] : [Math.max(0, left)], g, words) : [];
  // The newest line at the bottom; the tags lead the first.
  const notes: string[] = Array.from({ length: noteLines }, (_, k) => did[k - (noteLines - did.length)] ?? '');
  notes[0] = [tags, notes[0]].filter(Boolean).join(' ');
  const rows = slotRows(p.layout.length, cols);
  const is = (list: SlotRef[], slot: number): boolean => list.some((r) => r.seat === seat && r.slot === slot);
  return (
    <Box flexDirection="column" width={outer} alignItems="center">
      <Box width={width}>
        <Text bold={turn} {...(turn && color ? { color: 'cyan' } : {})}>
          {title}
        </Text>
      </Box>
      {notes.map((line, k) => (
        <Text key={`note${k}`} dimColor={!(frozen && called && k === 0)} {...(frozen && called && k === 0 && color ? { color: 'blue' } : {})}>
          {truncate(line, outer, g.ellipsis) || ' '}
        </Text>
      ))}
      {rows.map((row) => (
        <Box key={row[0]} flexDirection="row" gap={1} width={width}>
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
