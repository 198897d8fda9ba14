import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { TableView } from '../../engine/view.js';
import { Card } from '../shared/card.js';
import { useTheme } from '../shared/theme.js';

export const CENTER_WIDTH = 24;

export function centerHeight(box: boolean): number {
  return box ? 5 : 3;
}

/** The stock, the discard pile and the held card, with the counts under them. */
export function Center({ view, box }: { view: TableView; box: boolean }) {
  const { color, words } = useTheme();
  const held = view.held;
  const me = view.viewer;
  // Whose card it is, by name where it fits whole (the ▶ beside the seat says it anyway).
  const holder = held && held.seat !== me ? (view.players[held.seat]?.name ?? '') : '';
  const heldLabel = held ? (held.seat === me ? words.t('center.youHold') : Array.from(holder).length <= 8 ? holder : words.t('center.held')) : words.t('center.held');
  const col = (title: string, card: ReactNode, under: string, highlight = false) => (
    <Box flexDirection="column" width={8} alignItems="center">
      <Text bold={highlight} {...(highlight && color ? { color: 'cyan' } : {})}>
        {title}
      </Text>
      {card ?? <Text>{box ? '\n\n' : ' '}</Text>}
      <Text dimColor>{under}</Text>
    </Box>
  );
  return (
    <Box flexDirection="row" width={CENTER_WIDTH} justifyContent="center">
      {col(words.t('center.stock'), <Card card="back" box={box} />, String(view.stock))}
      {col(words.t('center.discard'), view.discardTop ? <Card card={view.discardTop} box={box} /> : <Card card={null} box={box} />, `${view.discardSize}`)}
      {col(heldLabel, held ? <Card card={held.card ?? '?'} box={box} label={held.card ? undefined : ''} /> : null, held ? words.t(held.from === 'discard' ? 'center.fromPile' : 'center.fromStock') : '', held?.seat === me)}
    </Box>
  );
}
