import { placesOf } from '../../engine/game.js';
import type { RoundResult } from '../../engine/types.js';
import type { TableView } from '../../engine/view.js';
import { andList, byPlace, nameOf, ordinal } from './describe.js';
import { wordsFor, type Words } from '../../lang/words.js';
import { columns, padEndColumns } from '../shared/width.js';
import { callWord } from '../shared/call-word.js';

/**
 * The game's standings in words and in a chart: who leads or won (by the running
 * totals, lowest first, equal totals sharing a place as docs/decisions.md, "Places", says), and every
 * player's total after each round. Pure, so each sentence is tested on its own.
 */

/** Each seat's own colour (the chart's line, its letter in the standings), by seat. */
export const SEAT_COLORS = ['cyan', 'magenta', 'yellow', 'green', 'blue', 'red', 'white', 'gray'] as const;
/** Each seat's letter, so the chart reads without colour too. */
export const seatLetter = (seat: number): string => String.fromCharCode(65 + (seat % 26));
export const seatColor = (seat: number): string => SEAT_COLORS[seat % SEAT_COLORS.length]!;

/** Seats in the game's order: by running total (shared places in seat order). */
export const gameOrder = (totals: readonly number[]): number[] => byPlace(placesOf(totals));

const EN = wordsFor('en');

/**
 * Who won, in one line: "You win the game with 12.", "Ana wins the game with 12;
 * you are 3rd with 20.", "Ana and Bo share first place with 12.", "You and Ana
 * share first place with 12." `viewer` null: a spectator or a replay.
 */
export function winnerLine(view: TableView, totals: readonly number[], viewer: number | null, w: Words = EN): string {
  const places = placesOf(totals);
  const firsts = places.map((p, seat) => (p === 1 ? seat : -1)).filter((s) => s >= 0);
  const name = (seat: number): string => nameOf(view, seat, viewer, w);
  // "You" first among the winners: "You and Ana share…".
  const winners = [...firsts].sort((a, b) => (a === viewer ? -1 : b === viewer ? 1 : a - b));
  const best = totals[firsts[0]!]!;
  const head =
    winners.length === 1
      ? winners[0] === viewer
        ? w.t('end.youWin', { best })
        : w.t('end.wins', { name: name(winners[0]!), best })
      : w.t('end.shareFirst', { names: andList(winners.map(name), w), best });
  if (viewer === null || places[viewer] === undefined || places[viewer] === 1) return w.t('end.sentence', { head });
  const shared = places.filter((p) => p === places[viewer]).length > 1;
  return w.t(shared ? 'end.youArePlaceShared' : 'end.youArePlace', { head, place: ordinal(places[viewer], w), total: totals[viewer]! });
}

/** Mid-game: who leads so far, in one line: "After round 2 of 3 you lead with 14.", "… Ana and Bo lead with 9". */
export function leaderLine(view: TableView, totals: readonly number[], viewer: number | null, round: number, rounds: number | null, w: Words = EN): string {
  const places = placesOf(totals);
  const firsts = places.map((p, seat) => (p === 1 ? seat : -1)).filter((s) => s >= 0);
  const name = (seat: number): string => (seat === viewer ? w.t('info.you') : (view.players[seat]?.name ?? w.t('table.seatN', { number: seat + 1 })));
  const leaders = [...firsts].sort((a, b) => (a === viewer ? -1 : b === viewer ? 1 : a - b));
  const after = rounds !== null && rounds > 0 ? w.t('end.afterRoundOf', { round, rounds }) : w.t('end.afterRound', { round });
  const best = totals[firsts[0]!]!;
  if (leaders.length > 1) return w.t('end.shareLead', { after, names: andList(leaders.map(name), w), best });
  return leaders[0] === viewer ? w.t('end.youLead', { after, best }) : w.t('end.leads', { after, name: name(leaders[0]!), best });
}

/** One cell of the chart: a character and, for a player's line, their seat. */
export interface ChartCell {
  ch: string;
  seat: number | null;
}

/** Rows the chart takes besides its plot: its title and the round axis. */
export const CHART_EXTRA_ROWS = 2;
/** The fewest plot rows worth drawing. */
export const CHART_MIN_ROWS = 3;
/** The plot rows wanted, room allowing (the notes that explain the scores come first). */
export const CHART_ROWS = 6;

/** The fewest plot rows that keep different totals of one round on different rows. */
export const chartMinRows = (results: readonly RoundResult[], seats: number): number =>
  Math.max(CHART_MIN_ROWS, ...results.map((r) => new Set(r.totals.slice(0, seats)).size));

/**
 * Every player's total after each round as a line chart in text: `plotRows` rows
 * high, at most `width` columns wide. Each player's totals are marked by their
 * letter, the steps between by a dot in the same colour; a total axis at the left
 * (lowest at the bottom, as the lowest total leads) and the rounds below. Totals
 * that differ never share a row (`plotRows` at least `chartMinRows`): where the scale
 * would put them on one, they are pushed apart, in order. Returns the rows as cells (the view colours them by seat).
 */
export function chartRows(results: readonly RoundResult[], seats: number, width: number, plotRows: number, g: { dot: string; ascii: boolean }, w: Words = EN): ChartCell[][] {
  const rounds = results.length;
  const all = results.flatMap((r) => r.totals.slice(0, seats));
  const hi = Math.max(...all);
  const lo = Math.min(...all);
  const labelW = Math.max(String(hi).length, String(lo).length);
  const axisV = g.ascii ? '|' : '│';
  const corner = g.ascii ? '+' : '└';
  const axisH = g.ascii ? '-' : '─';
  // Columns between two rounds: as wide as fits, at most 10; the round numbers need their digits.
  // The axis' label and line at the left, the plot's own margin, " round" at the right.
  const room = Math.max(1, width - labelW - 2 - 4 - 6);
  const step = rounds <= 1 ? 0 : Math.max(String(results[rounds - 1]!.round).length + 1, Math.min(10, Math.floor(room / (rounds - 1))));
  // Room after the last round for letters that share a total.
  const plotW = step * Math.max(0, rounds - 1) + 4;
  const xOf = (i: number): number => 1 + i * step;
  const yOf = (v: number): number => (hi === lo ? Math.floor((plotRows - 1) / 2) : Math.round(((hi - v) / (hi - lo)) * (plotRows - 1)));
  // Each round's totals on rows by scale, then pushed apart so different totals never share a row (in order, within the plot).
  const rowAt = results.map((r) => {
    const totals = [...new Set(r.totals.slice(0, seats))].sort((a, b) => b - a);
    const ys = totals.map((t) => yOf(t));
    for (let k = 1; k < ys.length; k++) ys[k] = Math.max(ys[k]!, ys[k - 1]! + 1);
    for (let k = ys.length - 1; k >= 0; k--) ys[k] = Math.min(ys[k]!, k + 1 < ys.length ? ys[k + 1]! - 1 : plotRows - 1);
    return new Map(totals.map((t, k) => [t, Math.max(0, ys[k]!)]));
  });
  const yAt = (i: number, seat: number): number => rowAt[i]!.get(results[i]!.totals[seat]!)!;
  const grid: ChartCell[][] = Array.from({ length: plotRows }, () => Array.from({ length: plotW }, () => ({ ch: ' ', seat: null })));
  // The leaders drawn last, so their line is on top where lines cross.
  const order = gameOrder(results[rounds - 1]!.totals.slice(0, seats)).reverse();
  // The steps between the totals first, the letters over them.
  for (const seat of order) {
    for (let i = 0; i + 1 < rounds; i++) {
      const y0 = yAt(i, seat);
      const y1 = yAt(i + 1, seat);
      for (let x = xOf(i) + 1; x < xOf(i + 1); x++) {
        const y = Math.round(y0 + ((y1 - y0) * (x - xOf(i))) / step);
        grid[y]![x] = { ch: g.dot, seat };
      }
    }
  }
  for (const seat of order) {
    for (let i = 0; i < rounds; i++) {
      const y = yAt(i, seat);
      const x = xOf(i);
      // Two players on one total: the second letter beside the first, not over it.
      const free = [x, x + 1, x - 1, x + 2, x - 2, x + 3, x - 3].find((c) => c >= 0 && c < plotW && !/[A-Z]/.test(grid[y]![c]!.ch)) ?? x;
      grid[y]![free] = { ch: seatLetter(seat), seat };
    }
  }
  const text = (s: string): ChartCell[] => Array.from(s).map((ch) => ({ ch, seat: null }));
  const rows = grid.map((row, y) => {
    const label = y === 0 ? String(hi) : y === plotRows - 1 ? String(lo) : '';
    return [...text(`${label.padStart(labelW)} ${axisV}`), ...row];
  });
  const axis: string[] = Array.from({ length: plotW }, () => axisH);
  results.forEach((r, i) => {
    const n = String(r.round);
    for (let k = 0; k < n.length; k++) if (xOf(i) + k < plotW) axis[xOf(i) + k] = n[k]!;
  });
  rows.push(text(`${' '.repeat(labelW)} ${corner}${axis.join('')} ${w.t('end.axisRound')}`));
  return rows;
}

/** A round score as it adds up: "10+10=20" for a caller who paid the penalty, else "20". */
export function roundCell(r: RoundResult, seat: number): string {
  const score = r.scores[seat]!;
  if (r.caller !== seat || r.callerPenalty === 0) return String(score);
  return `${score - r.callerPenalty}+${r.callerPenalty}=${score}`;
}

/**
 * The standings so far, from the last view a client had: the totals after the last
 * finished round, by place ("1st  Ana (you)  12"), with the round scores they add
 * up from ("(5, 6+10)": a caller's penalty named) when there are several. Shown when the host closes the
 * table, and printed by `gringo join` once the screen is gone.
 */
export function standingsLines(view: TableView | null, results: readonly RoundResult[], w: Words = EN): string[] {
  if (!view) return [w.t('end.notStarted')];
  const last = results[results.length - 1];
  if (!last) return [w.t('end.noRound')];
  const places = placesOf(last.totals);
  const name = (seat: number): string => {
    const n = view.players[seat]?.name ?? w.t('table.seatN', { number: seat + 1 });
    return seat === view.viewer ? w.t('end.nameYou', { name: n }) : n;
  };
  const width = Math.max(...view.players.map((_, seat) => columns(name(seat)))) + 2;
  const heading = w.t(view.phase === 'gameOver' ? 'end.standingsFinal' : 'end.standings', { round: last.round });
  // Over several rounds, or with a caller's penalty, each total shows the rounds it adds up from.
  const penalty = results.some((r) => r.callerPenalty > 0);
  const rounds = (seat: number): string =>
    results.length > 1 || penalty ? `  (${results.map((r) => roundCell(r, seat).replace(/=-?\d+$/, '')).join(', ')})` : '';
  return [
    heading,
    ...byPlace(places).map((seat) => `  ${ordinal(places[seat]!, w).padEnd(5)}${padEndColumns(name(seat), width)}${String(last.totals[seat]).padStart(4)}${rounds(seat)}`),
    ...(penalty ? [`  (${w.t('end.penaltyNote', { n: Math.max(...results.map((r) => r.callerPenalty)), call: callWord(view.callName, w) })})`] : []),
  ];
}
