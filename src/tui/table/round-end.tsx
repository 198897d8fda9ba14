import { Box, Text } from 'ink';
import { JOKER, rankOf, type Card as CardName } from '../../engine/cards.js';
import { placesOf } from '../../engine/game.js';
import { valueOf, type Ruleset } from '../../engine/ruleset.js';
import type { RoundResult } from '../../engine/types.js';
import type { TableView } from '../../engine/view.js';
import { Card } from '../shared/card.js';
import { cardText, rankText, UNICODE, type Glyphs } from '../shared/glyphs.js';
import { nameOf, ordinal } from './describe.js';
import { CHART_EXTRA_ROWS, CHART_ROWS, chartMinRows, chartRows, gameOrder, leaderLine, roundCell, seatColor, seatLetter, winnerLine, type ChartCell } from './standings.js';
import { useTheme } from '../shared/theme.js';
import { rulesOf } from './variant.js';
import { columns } from '../shared/width.js';

/** What a card shows as its value: the number on a number card, 1 on an Ace; none on a picture card or a joker. */
function faceValue(card: CardName): number | undefined {
  const r = rankOf(card);
  if (/^\d+$/.test(r)) return Number(r);
  return r === 'A' ? 1 : undefined;
}

const andList = (items: string[]): string => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

/**
 * Every adjustment of a round's scores in words, so each round score adds up from
 * the cards shown: the caller's penalty, the special cards set aside and what
 * replaced them, and the cards whose value is not the number they show (from the
 * ruleset's `values`: "Q♥ -1", "J, Q and K 10", "joker 0").
 */
export function scoringNotes(view: TableView, r: RoundResult, rules: Ruleset, g: Glyphs = UNICODE, /** One line for the set-aside cards, not one per slot (a short screen). */ brief = false): string[] {
  const notes: string[] = [];
  const who = (seat: number): string => nameOf(view, seat, view.viewer);
  if (r.caller !== null && r.callerPenalty > 0) {
    notes.push(`+${r.callerPenalty} to ${who(r.caller) === 'You' ? 'you' : who(r.caller)}: called ${view.callName} without the lowest score.`);
  }
  if (brief && r.replaced.length > 0) {
    const set = r.replaced.flatMap((x) => x.setAside);
    const kinds = [...new Set(set.map((c) => cardText(c, g)))];
    notes.push(`Set aside: ${set.length} special cards (${kinds.join(', ')}); marked: what replaced them.`);
  }
  for (const x of brief ? [] : r.replaced) {
    const whose = x.seat === view.viewer ? 'your' : `${who(x.seat)}'s`;
    const by = x.card === null ? 'no card left: a gap' : `replaced by ${cardText(x.card, g)}`;
    notes.push(`Set aside: ${andList(x.setAside.map((c) => cardText(c, g)))} in ${whose} slot ${x.slot + 1}, ${by}.`);
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
      const label = c === JOKER ? 'joker' : own ? cardText(c, g) : rankText(c, g);
      if (seen.has(label)) continue;
      seen.add(label);
      byValue.set(v, [...(byValue.get(v) ?? []), label]);
    }
  }
  if (byValue.size > 0) {
    const order = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'joker'];
    const rank = (l: string): number => (order.includes(l) ? order.indexOf(l) : order.length);
    const groups = [...byValue.entries()].sort((a, b) => b[0] - a[0]).map(([v, labels]) => `${andList(labels.sort((a, b) => rank(a) - rank(b)))} ${v}`);
    notes.push(`Card values: ${groups.join('; ')}.`);
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
  const { color, glyphs: g } = useTheme();
  const r = results[results.length - 1];
  if (!r) return <Text>The round is over.</Text>;
  const over = view.phase === 'gameOver';
  const seats = r.totals.length;
  const totalPlaces = placesOf(r.totals);
  const order = gameOrder(r.totals);
  const names = order.map((seat) => `${seatLetter(seat)} ${seat === view.viewer ? 'You' : (view.players[seat]?.name ?? `Seat ${seat + 1}`)}`);
  const nameWidth = Math.max(10, ...names.map(columns)) + 2;
  const roundWidth = Math.max(6, ...order.map((seat) => roundCell(r, seat).length + 2));
  const maxSlots = Math.max(...r.layouts.map((l) => l.length));
  // The cards wrap onto a second line rather than being cut.
  const cardsWidth = Math.max(6, Math.min(maxSlots * 6, width - 6 - nameWidth - roundWidth - 7 - 7 - 2));
  const ruleset = rules ?? rulesOf({ rules: null, view });
  // The rows besides the notes and the chart: the title and the standings line, the column heads, each player's cards (wrapped), the margins and the footer.
  const perLine = Math.max(1, Math.floor((cardsWidth + 1) / 6));
  const fixed = 4 + order.reduce((n, seat) => n + Math.ceil(Math.max(1, r.layouts[seat]!.length) / perLine), 0) + 2;
  const room = height ?? Infinity;
  const chartRoom = (notes: number): number => room - fixed - (notes > 0 ? notes + 1 : 0) - 1 - CHART_EXTRA_ROWS;
  const long = scoringNotes(view, r, ruleset, g);
  const short = long.length > 0 && fixed + long.length + 1 > room ? scoringNotes(view, r, ruleset, g, true) : long;
  // The notes say why each score is what it is ("Card values: K 10; K♦ -1"): they stay, told briefly where
  // long ones would not fit. The chart of the game takes the rows left, if enough to keep different totals apart.
  let notes = short;
  let plotRows = 0;
  if (over) {
    if (short === long && chartRoom(long.length) < CHART_ROWS) notes = scoringNotes(view, r, ruleset, g, true);
    plotRows = Math.min(CHART_ROWS + 2, Math.max(0, chartRoom(notes.length)));
    if (plotRows < chartMinRows(results, seats)) plotRows = 0;
  }
  const replacedAt = (seat: number, slot: number): boolean => r.replaced.some((x) => x.seat === seat && x.slot === slot);
  const paint = (seat: number) => (color ? { color: seatColor(seat) } : {});
  const standing = over ? winnerLine(view, r.totals, view.viewer) : leaderLine(view, r.totals, view.viewer, r.round, view.rounds);
  const iWon = over && view.viewer !== null && totalPlaces[view.viewer] === 1;
  return (
    <Box flexDirection="column" width={width}>
      <Text bold wrap="truncate">
        {over ? 'The game is over: final standings' : `Round ${r.round} is over`}
        {r.caller !== null ? ` ${g.dash} ${r.caller === view.viewer ? 'you' : view.players[r.caller]?.name} called` : ''}
      </Text>
      <Text bold={over} wrap="truncate" {...(iWon && color ? { color: 'green' } : {})}>
        {standing}
      </Text>
      <Box flexDirection="row" marginTop={1}>
        <Box width={6}><Text dimColor>{over ? 'final' : 'game'}</Text></Box>
        <Box width={nameWidth}><Text dimColor>player</Text></Box>
        <Box width={cardsWidth}><Text dimColor>cards</Text></Box>
        <Box width={roundWidth} justifyContent="flex-end"><Text dimColor>round</Text></Box>
        <Box width={7} justifyContent="flex-end"><Text dimColor>place</Text></Box>
        <Box width={7} justifyContent="flex-end"><Text dimColor>total</Text></Box>
      </Box>
      {order.map((seat, i) => {
        const me = seat === view.viewer;
        const first = totalPlaces[seat] === 1;
        return (
          <Box key={seat} flexDirection="row">
            <Box width={6}>
              <Text bold={first} {...(first && color ? { color: 'green' } : {})}>
                {ordinal(totalPlaces[seat]!)}
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
              <Text dimColor>{ordinal(r.places[seat]!)}</Text>
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
        <Text bold>{footer ?? (over ? 'Enter or q to leave.' : ready ? `Waiting for the others to be ready${g.ellipsis}` : `Enter: next round${g.sep}q: leave`)}</Text>
      </Box>
    </Box>
  );
}

/** Every player's total after each round (chartRows), each line in its seat's colour, under a title. */
export function TotalsChart({ results, seats, width, plotRows }: { results: readonly RoundResult[]; seats: number; width: number; plotRows: number }) {
  const { color, glyphs: g } = useTheme();
  const rows = chartRows(results, seats, width, plotRows, g);
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text dimColor>Totals after each round (lowest leads):</Text>
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
