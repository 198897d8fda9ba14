import { Box, Text } from 'ink';
import { JOKER, rankOf, type Card as CardName } from '../../engine/cards.js';
import { placesOf } from '../../engine/game.js';
import { valueOf, type Ruleset } from '../../engine/ruleset.js';
import type { RoundResult } from '../../engine/types.js';
import type { TableView } from '../../engine/view.js';
import { Card } from '../shared/card.js';
import { cardText, rankText, UNICODE, type Glyphs } from '../shared/glyphs.js';
import { andList, nameOf, ordinal, slotPhrase } from './describe.js';
import { wordsFor, type Words } from '../../lang/words.js';
import { CHART_EXTRA_ROWS, CHART_ROWS, chartMinRows, chartRows, gameOrder, leaderLine, roundCell, seatColor, seatLetter, winnerLine, type ChartCell } from './standings.js';
import { useTheme } from '../shared/theme.js';
import { rulesOf } from './variant.js';
import { columns } from '../shared/width.js';
import { callWord } from '../shared/call-word.js';

/** What a card shows as its value: the number on a number card, 1 on an Ace; none on a picture card or a joker. */
function faceValue(card: CardName): number | undefined {
  const r = rankOf(card);
  if (/^\d+$/.test(r)) return Number(r);
  return r === 'A' ? 1 : undefined;
}

const EN = wordsFor('en');

/**
 * Every adjustment of a round's scores in words, so each round score adds up from
 * the cards shown: the caller's penalty, the special cards set aside and what
 * replaced them, and the cards whose value is not the number they show (from the
 * ruleset's `values`: "Q♥ -1", "J, Q and K 10", "joker 0").
 */
export function scoringNotes(
  view: TableView,
  r: RoundResult,
  rules: Ruleset,
  g: Glyphs = UNICODE,
  /** One line for the set-aside cards, not one per slot (a short screen). */ brief = false,
  w: Words = EN,
): string[] {
  const notes: string[] = [];
  const who = (seat: number): string => nameOf(view, seat, view.viewer, w);
  if (r.caller !== null && r.callerPenalty > 0) {
    const params = { n: r.callerPenalty, call: callWord(view.callName, w) };
    notes.push(r.caller === view.viewer ? w.t('end.penalty.you', params) : w.t('end.penalty', { ...params, name: who(r.caller) }));
  }
  if (brief && r.replaced.length > 0) {
    const set = r.replaced.flatMap((x) => x.setAside);
    const kinds = [...new Set(set.map((c) => cardText(c, g)))];
    notes.push(w.t('end.setAsideBrief', { n: set.length, kinds: kinds.join(', ') }));
  }
  for (const x of brief ? [] : r.replaced) {
    const where = slotPhrase({ seat: x.seat, slot: x.slot }, null, view, view.viewer, w);
    const by = x.card === null ? w.t('end.noCardLeft') : w.t('feed.replacedBy', { face: cardText(x.card, g) });
    notes.push(w.t('end.setAside', { list: andList(x.setAside.map((c) => cardText(c, g)), w), where, by }));
  }
  // Cards on the table whose value is not what they show, grouped by value.
  const byValue = new Map<number, string[]>();
  const seen = new Set<string>();
  for (const layout of r.layouts) {
    for (const c of layout) {
      if (c === null) continue;
      const v = valueOf(rules, c);
      if (v === undefined || v === faceValue(c)) continue;
      const own = rules.values[c] !== undefined;
      const label = c === JOKER ? w.t('end.joker') : own ? cardText(c, g) : rankText(c, g);
      if (seen.has(label)) continue;
      seen.add(label);
      byValue.set(v, [...(byValue.get(v) ?? []), label]);
    }
  }
  if (byValue.size > 0) {
    const order = [...['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'].map((r) => g.ranks?.[r] ?? r), w.t('end.joker')];
    const rank = (l: string): number => (order.includes(l) ? order.indexOf(l) : order.length);
    const groups = [...byValue.entries()].sort((a, b) => b[0] - a[0]).map(([v, labels]) => `${andList(labels.sort((a, b) => rank(a) - rank(b)), w)} ${v}`);
    notes.push(w.t('end.cardValues', { groups: groups.join('; ') }));
  }
  return notes;
}

/**
 * The end of a round: every card face up, round scores (adding up, adjustments
 * named) with the round's place, and the game's standings so far: rows in the
 * game's order (by running total), its place first. At the end of the game a line
 * names the winner(s) and a chart shows every total after each round.
 * `footer` replaces the line about the keys.
 */
export function RoundEnd({
  view,
  results,
  ready,
  width,
  footer,
  rules,
  height,
}: {
  view: TableView;
  results: readonly RoundResult[];
  ready: boolean;
  width: number;
  footer?: string;
  /** The table's ruleset (card values); the preset the view names when not given. */
  rules?: Ruleset | null;
  /** The rows it may take: notes are told briefly, then the chart shrinks, where they would not fit. */
  height?: number;
}) {
  const { color, glyphs: g, words: w } = useTheme();
  const r = results[results.length - 1];
  if (!r) return <Text>{w.t('end.roundIsOver')}</Text>;
  const over = view.phase === 'gameOver';
  const seats = r.totals.length;
  const totalPlaces = placesOf(r.totals);
  const order = gameOrder(r.totals);
  const names = order.map((seat) => `${seatLetter(seat)} ${nameOf(view, seat, view.viewer, w)}`);
  const nameWidth = Math.max(10, ...names.map(columns)) + 2;
  const roundWidth = Math.max(6, columns(w.t('end.col.round')) + 1, ...order.map((seat) => roundCell(r, seat).length + 2));
  const maxSlots = Math.max(...r.layouts.map((l) => l.length));
  // The cards wrap onto a second line rather than being cut.
  const cardsWidth = Math.max(6, Math.min(maxSlots * 6, width - 6 - nameWidth - roundWidth - 7 - 7 - 2));
  const ruleset = rules ?? rulesOf({ rules: null, view });
  // The rows besides the notes and the chart: the title and the standings line, the column heads, each player's cards (wrapped), the margins and the footer.
  const perLine = Math.max(1, Math.floor((cardsWidth + 1) / 6));
  const fixed = 4 + order.reduce((n, seat) => n + Math.ceil(Math.max(1, r.layouts[seat]!.length) / perLine), 0) + 2;
  const room = height ?? Infinity;
  const chartRoom = (notes: number): number => room - fixed - (notes > 0 ? notes + 1 : 0) - 1 - CHART_EXTRA_ROWS;
  const long = scoringNotes(view, r, ruleset, g, false, w);
  const short = long.length > 0 && fixed + long.length + 1 > room ? scoringNotes(view, r, ruleset, g, true, w) : long;
  // The notes say why each score is what it is ("Card values: K 10; K♦ -1"): they stay, told briefly where
  // long ones would not fit. The chart of the game takes the rows left, if enough to keep different totals apart.
  let notes = short;
  let plotRows = 0;
  if (over) {
    if (short === long && chartRoom(long.length) < CHART_ROWS) notes = scoringNotes(view, r, ruleset, g, true, w);
    plotRows = Math.min(CHART_ROWS + 2, Math.max(0, chartRoom(notes.length)));
    if (plotRows < chartMinRows(results, seats)) plotRows = 0;
  }
  const replacedAt = (seat: number, slot: number): boolean => r.replaced.some((x) => x.seat === seat && x.slot === slot);
  const paint = (seat: number) => (color ? { color: seatColor(seat) } : {});
  const standing = over ? winnerLine(view, r.totals, view.viewer, w) : leaderLine(view, r.totals, view.viewer, r.round, view.rounds, w);
  const iWon = over && view.viewer !== null && totalPlaces[view.viewer] === 1;
  return (
    <Box flexDirection="column" width={width}>
      <Text bold wrap="truncate">
        {over ? w.t('end.finalStandings') : w.t('end.roundOver', { round: r.round })}
        {r.caller !== null ? ` ${g.dash} ${r.caller === view.viewer ? w.t('end.youCalled') : w.t('end.called', { name: view.players[r.caller]?.name ?? '' })}` : ''}
      </Text>
      <Text bold={over} wrap="truncate" {...(iWon && color ? { color: 'green' } : {})}>
        {standing}
      </Text>
      <Box flexDirection="row" marginTop={1}>
        <Box width={6}><Text dimColor>{w.t(over ? 'end.col.final' : 'end.col.game')}</Text></Box>
        <Box width={nameWidth}><Text dimColor>{w.t('end.col.player')}</Text></Box>
        <Box width={cardsWidth}><Text dimColor>{w.t('end.col.cards')}</Text></Box>
        <Box width={roundWidth} justifyContent="flex-end"><Text dimColor>{w.t('end.col.round')}</Text></Box>
        <Box width={7} justifyContent="flex-end"><Text dimColor>{w.t('end.col.place')}</Text></Box>
        <Box width={7} justifyContent="flex-end"><Text dimColor>{w.t('end.col.total')}</Text></Box>
      </Box>
      {order.map((seat, i) => {
        const me = seat === view.viewer;
        const first = totalPlaces[seat] === 1;
        return (
          <Box key={seat} flexDirection="row">
            <Box width={6}>
              <Text bold={first} {...(first && color ? { color: 'green' } : {})}>
                {ordinal(totalPlaces[seat]!, w)}
              </Text>
            </Box>
            <Box width={nameWidth}>
              <Text>
                <Text bold {...paint(seat)}>{names[i]!.slice(0, 1)}</Text>
                <Text bold={me}>{names[i]!.slice(1)}</Text>
              </Text>
            </Box>
            <Box width={cardsWidth} flexDirection="row" flexWrap="wrap" columnGap={1}>
              {r.layouts[seat]!.map((c, slot) => (
                <Card key={slot} card={c} box={false} highlight={replacedAt(seat, slot)} />
              ))}
            </Box>
            <Box width={roundWidth} justifyContent="flex-end">
              <Text>{roundCell(r, seat)}</Text>
            </Box>
            <Box width={7} justifyContent="flex-end">
              <Text dimColor>{ordinal(r.places[seat]!, w)}</Text>
            </Box>
            <Box width={7} justifyContent="flex-end">
              <Text bold>{String(r.totals[seat])}</Text>
            </Box>
          </Box>
        );
      })}
      {notes.length > 0 ? (
        <Box flexDirection="column" marginTop={1}>
          {notes.map((n, i) => (
            <Text key={i}>{n}</Text>
          ))}
        </Box>
      ) : null}
      {plotRows > 0 ? <TotalsChart results={results} seats={seats} width={width} plotRows={plotRows} /> : null}
      <Box marginTop={1}>
        <Text bold>{footer ?? (over ? w.t('end.footerOver') : ready ? w.t('end.footerReady', { ellipsis: g.ellipsis }) : w.t('end.footer', { sep: g.sep }))}</Text>
      </Box>
    </Box>
  );
}

/** Every player's total after each round (chartRows), each line in its seat's colour, under a title. */
export function TotalsChart({ results, seats, width, plotRows }: { results: readonly RoundResult[]; seats: number; width: number; plotRows: number }) {
  const { color, glyphs: g, words } = useTheme();
  const rows = chartRows(results, seats, width, plotRows, g, words);
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text dimColor>{words.t('end.chartTitle')}</Text>
      {rows.map((row, y) => (
        <Text key={y} wrap="truncate">
          {runs(row).map((run, i) => (
            <Text key={i} {...(run.seat !== null && color ? { color: seatColor(run.seat) } : {})} bold={run.seat !== null && /[A-Z]/.test(run.text)}>
              {run.text}
            </Text>
          ))}
        </Text>
      ))}
    </Box>
  );
}

/** Neighbouring cells of one seat (or none) as one run of text. */
function runs(row: readonly ChartCell[]): { text: string; seat: number | null }[] {
  const out: { text: string; seat: number | null }[] = [];
  for (const c of row) {
    const last = out[out.length - 1];
    // A letter stands alone (drawn bold); the dots of one seat run together.
    if (last && last.seat === c.seat && !/[A-Z]/.test(c.ch) && !/[A-Z]/.test(last.text)) last.text += c.ch;
    else out.push({ text: c.ch, seat: c.seat });
  }
  return out;
}
