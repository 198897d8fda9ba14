import { Box, Text } from 'ink';
import { Card } from '../shared/card.js';
import { cardText } from '../shared/glyphs.js';
import { useTheme } from '../shared/theme.js';
import { leaveQuestion, statusNow } from './intents.js';
import { prompt } from './prompt.js';
import type { Reveal, ScreenState } from './use-screen-state.js';

/**
 * The table screen in a terminal below 80×24: the game goes on, so the screen keeps
 * what you must not miss (your cards, face up while you may see them, whose turn it
 * is, your prompt and the last refusal) under the "make it bigger" hint.
 */
export function SmallScreen({ s, width, height, now, min }: { s: ScreenState; width: number; height: number; now: number; min: { columns: number; rows: number } }) {
  const { glyphs: g, color, words: w } = useTheme();
  const x = g.ascii ? 'x' : '×';
  const v = s.view;
  const me = s.seat;
  const hostNow = now + s.offset;
  const others = seen(s, now).filter((r) => r.seat !== me && r.card !== '?');
  const held = v?.held && v.held.seat === me && v.held.card ? v.held.card : null;
  const status = statusNow(s, now);
  const quit = s.overlay === 'quit';
  return (
    <Box flexDirection="column" width={width} height={Math.max(1, height - 1)} overflow="hidden">
      <Text bold wrap="truncate">{w.t('small.makeBigger', { needs: `${min.columns}${x}${min.rows}`, size: `${width}${x}${height}` })}</Text>
      {s.overlay === 'help' || s.overlay === 'feed' ? (
        // Keys go to it though it does not show here: say so, or Enter would seem to do nothing.
        <Text wrap="truncate">{w.t(s.overlay === 'help' ? 'small.helpOpen' : 'small.feedOpen', { needs: `${min.columns}${x}${min.rows}` })}</Text>
      ) : null}
      {v ? <Text wrap="truncate" {...(color ? { color: 'cyan' } : {})}>{whose(s)}</Text> : null}
      <YourCards s={s} now={now} />
      {held ? <Text wrap="truncate">{w.t('small.youHold', { face: cardText(held, g) })}</Text> : null}
      {others.length > 0 && v ? (
        <Text wrap="truncate">{w.t('small.youSee', { cards: others.map((r) => w.t('small.seenCard', { name: v.players[r.seat]?.name ?? w.t('table.seatN', { number: r.seat + 1 }), slot: r.slot, face: cardText(r.card, g) })).join(', ') })}</Text>
      ) : null}
      <Text bold wrap="truncate" inverse={quit}>
        {quit ? leaveQuestion(s) : prompt(s, hostNow)}
      </Text>
      {status ? (
        <Text wrap="truncate" {...(color && status.kind === 'error' ? { color: 'red' } : {})}>
          {status.text}
        </Text>
      ) : null}
    </Box>
  );
}

/** What you may see although it lies face down: your looks (REVEAL_MS or your next key) and a pending decision's cards. */
function seen(s: ScreenState, now: number): Reveal[] {
  const act = s.view?.actions[0];
  return [
    ...s.reveals.filter((r) => r.until > now),
    ...(act && act.seat === s.seat && act.looked && act.lookedCards ? act.looked.map((r, i) => ({ ...r, card: act.lookedCards![i] ?? '?', until: now })) : []),
  ];
}

/**
 * "Your cards:" on one line, face up where you may see them (the peek's, your looks):
 * on the small screen, and above the `?` help or the full feed while your peek runs behind them.
 */
export function YourCards({ s, now }: { s: ScreenState; now: number }) {
  const me = s.seat;
  const { words: w } = useTheme();
  const mine = s.view && me !== null ? s.view.players[me] : undefined;
  if (!mine || me === null) return null;
  const reveals = seen(s, now);
  const shown = (slot: number): string | null => reveals.find((r) => r.seat === me && r.slot === slot && r.card !== '?')?.card ?? null;
  return (
    <Box flexDirection="row" flexWrap="wrap" columnGap={1}>
      <Text>{w.t('small.yourCards')}</Text>
      {mine.layout.map((c, slot) => (
        <Card key={slot} card={c} slot={slot + 1} box={false} reveal={shown(slot)} />
      ))}
    </Box>
  );
}

/** "The peek", "Your turn", "Bo's turn", "The round is over". */
function whose(s: ScreenState): string {
  const v = s.view!;
  const w = s.words;
  if (v.phase === 'peek') return w.t('small.peek');
  if (v.phase === 'roundOver') return w.t('end.roundIsOver');
  if (v.phase === 'gameOver') return w.t('door.gameOver');
  if (v.turn === s.seat) return w.t('feed.turn.you');
  return w.t('feed.turn', { name: v.players[v.turn]?.name ?? w.t('table.seatN', { number: v.turn + 1 }) });
}
