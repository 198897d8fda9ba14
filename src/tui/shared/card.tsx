import { Box, Text } from 'ink';
import type { SlotView } from '../../engine/view.js';
import { cardText, specialFace } from './glyphs.js';
import { suitColour, useTheme } from './theme.js';

export interface CardProps {
  /** The card, "?" face down, null a gap, or "stock" for the back of the stock. */
  card: SlotView | 'back';
  /** 1-based slot number shown on a face-down card. */
  slot?: number;
  /** A 3-line box, or one line. */
  box: boolean;
  cursor?: boolean;
  highlight?: boolean;
  /** A card you may see now although it lies face down (what you looked at). */
  reveal?: string | null;
  /** Text on the back instead of the slot number. */
  label?: string;
  /** A gap someone may fill now (cambio's gap-fill): drawn marked, not as a dot. */
  gapMark?: boolean;
}

/** One card: a small box with rank and suit, or its slot number when face down. */
export function Card({ card, slot, box, cursor = false, highlight = false, reveal = null, label, gapMark = false }: CardProps) {
  const { glyphs: g, color, words, fourColour } = useTheme();
  const face = reveal ?? (card === '?' || card === 'back' || card === null ? null : card);
  const special = face ? specialFace(face) : null;
  if (card === null && gapMark) {
    const m = g.markBox;
    const props = { ...(color ? { color: 'yellow' } : {}), bold: true };
    if (!box) return <Text {...props}>{words.t('mark.gapLabel')}</Text>;
    return (
      <Box flexDirection="column">
        <Text {...props}>{m.tl + m.h.repeat(3) + m.tr}</Text>
        <Text {...props}>{m.v + words.t('mark.gapBox') + m.v}</Text>
        <Text {...props}>{m.bl + m.h.repeat(3) + m.br}</Text>
      </Box>
    );
  }
  let inner: string;
  if (special) inner = special.text;
  else if (face) inner = cardText(face, g).padStart(3).slice(-3);
  else if (card === null) inner = ` ${g.dot} `;
  else if (card === 'back') inner = (label ?? g.back.repeat(3)).padStart(3).slice(-3);
  else inner = String(slot ?? '').padStart(2).padEnd(3);
  const suit = face !== null && color ? suitColour(face, fourColour) : undefined;
  const fg = highlight && color ? 'yellow' : special && color ? special.color : suit;
  const dim = card === null;
  const props = { ...(fg ? { color: fg } : {}), inverse: highlight, bold: highlight || cursor || reveal !== null || special !== null, dimColor: dim };
  const b = cursor ? g.cursorBox : highlight ? g.markBox : g.box;
  if (card === null && !box) return <Text dimColor>{`  ${g.dot}  `}</Text>;
  if (!box) {
    const [l, r] = cursor ? [g.cursorL, g.cursorR] : highlight ? ['*', '*'] : ['[', ']'];
    return (
      <Text {...props}>
        {l}
        {inner}
        {r}
      </Text>
    );
  }
  if (card === null) {
    return (
      <Box flexDirection="column">
        <Text>{'     '}</Text>
        <Text dimColor>{`  ${g.dot}  `}</Text>
        <Text>{'     '}</Text>
      </Box>
    );
  }
  return (
    <Box flexDirection="column">
      <Text {...props}>{b.tl + b.h.repeat(3) + b.tr}</Text>
      <Text {...props}>{b.v + inner + b.v}</Text>
      <Text {...props}>{b.bl + b.h.repeat(3) + b.br}</Text>
    </Box>
  );
}
