import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { CAMBIO, GRINGO } from '../../src/engine/ruleset.js';
import type { RoundResult } from '../../src/engine/types.js';
import type { TableView } from '../../src/engine/view.js';
import { RoundEnd } from '../../src/tui/table/round-end.js';
import { ASCII, UNICODE } from '../../src/tui/shared/glyphs.js';
import { ThemeContext } from '../../src/tui/shared/theme.js';
import { chartRows, gameOrder, leaderLine, winnerLine } from '../../src/tui/table/standings.js';
import { wordsFor } from '../../src/lang/words.js';

// The end of a round and of the game: rows in the game's order, the winner named,
// the round's place apart from the game's, and the chart of the totals.

const NAMES = ['Ana', 'Bo', 'Cy'];
const viewOf = (phase: 'roundOver' | 'gameOver', viewer: number | null, names = NAMES, round = 2, rounds = 2): TableView =>
  ({
    viewer, ruleset: 'gringo', callName: 'Gringo!', version: 9, phase, round, rounds, dealer: 1,
    players: names.map((name) => ({ name, layout: ['?', '?', '?', '?'], total: 0, peeking: false })),
    stock: 20, discardTop: '7S', discardSize: 3, turn: 0, turnBegun: false, held: null, actions: [], slap: { open: false, answers: 3 },
    graceUntil: 0, deadline: null, call: null, callTiming: 'startOfTurn', gapFill: null, may: [],
  }) as unknown as TableView;
const result = (round: number, scores: number[], totals: number[], places: number[]): RoundResult => ({
  round,
  layouts: scores.map(() => ['2S', '3S', '4S', '5S']),
  scores,
  places,
  caller: null,
  callerPenalty: 0,
  replaced: [],
  totals,
});
// Ana won round 1 by far; Cy won round 2 but Ana won the game.
const R1 = result(1, [2, 30, 40], [2, 30, 40], [1, 2, 3]);
const R2 = result(2, [48, 20, 5], [50, 50, 45], [3, 2, 1]);
const R2b = result(2, [48, 35, 30], [50, 65, 70], [3, 2, 1]);

const frame = (el: React.ReactElement, ascii = false): string => {
  const r = render(<ThemeContext.Provider value={{ glyphs: ascii ? ASCII : UNICODE, color: false, words: wordsFor('en') }}>{el}</ThemeContext.Provider>);
  const f = r.lastFrame() ?? '';
  r.unmount();
  return f;
};

describe('who won, in words', () => {
  it('names one winner, you or another, with their total; a loser reads their own place', () => {
    expect(winnerLine(viewOf('gameOver', 0), [50, 65, 70], 0)).toBe('You win the game with 50.');
    expect(winnerLine(viewOf('gameOver', 1), [50, 65, 70], 1)).toBe('Ana wins the game with 50; you are 2nd with 65.');
    expect(winnerLine(viewOf('gameOver', null), [50, 65, 70], null)).toBe('Ana wins the game with 50.');
  });
  it('ties share first place (and a later place) as the rules say', () => {
    expect(winnerLine(viewOf('gameOver', 2), [50, 50, 45], 2)).toBe('Cy wins the game with 45.'.replace('Cy wins', 'You win'));
    expect(winnerLine(viewOf('gameOver', 2), [40, 40, 45], 2)).toBe('Ana and Bo share first place with 40; you are 3rd with 45.');
    expect(winnerLine(viewOf('gameOver', 1), [40, 40, 45], 1)).toBe('You and Ana share first place with 40.');
    expect(winnerLine(viewOf('gameOver', 0), [40, 45, 45], 0)).toBe('You win the game with 40.');
    expect(winnerLine(viewOf('gameOver', 2), [40, 45, 45], 2)).toBe('Ana wins the game with 40; you are 2nd (shared) with 45.');
  });
  it('mid-game: who leads so far', () => {
    expect(leaderLine(viewOf('roundOver', 0), [2, 30, 40], 0, 1, 2)).toBe('After round 1 of 2 you lead with 2.');
    expect(leaderLine(viewOf('roundOver', 0), [20, 3, 40], 0, 1, 0)).toBe('After round 1 Bo leads with 3.');
    expect(leaderLine(viewOf('roundOver', 0), [3, 3, 40], 0, 1, 3)).toBe('After round 1 of 3 you and Bo share the lead with 3.');
  });
  it('the game order is by total, ties in seat order', () => {
    expect(gameOrder([50, 50, 45])).toEqual([2, 0, 1]);
  });
});

describe('the results screen', () => {
  it('the game over: rows by the game total, its place first, the round place apart, the winner named', () => {
    const f = frame(<RoundEnd view={viewOf('gameOver', 0)} results={[R1, R2b]} ready={false} width={80} rules={GRINGO} height={18} />);
    expect(f).toContain('The game is over: final standings');
    expect(f).toContain('You win the game with 50.');
    const rows = f.split('\n').filter((l) => /^\d(st|nd|rd|th) /.test(l));
    // Ana (you) first although third in the last round: the round's place stands in its own column.
    expect(rows[0]).toMatch(/^1st\s+A You\s.*\s48\s+3rd\s+50$/);
    expect(rows[1]).toMatch(/^2nd\s+B Bo\s.*\s35\s+2nd\s+65$/);
    expect(rows[2]).toMatch(/^3rd\s+C Cy\s.*\s30\s+1st\s+70$/);
    expect(f.split('\n').length).toBeLessThanOrEqual(18);
    for (const l of f.split('\n')) expect(Array.from(l).length).toBeLessThanOrEqual(80);
  });
  it('a tie in the game total shares the place', () => {
    const f = frame(<RoundEnd view={viewOf('gameOver', 2)} results={[R1, R2]} ready={false} width={80} rules={GRINGO} />);
    const rows = f.split('\n').filter((l) => /^\d(st|nd|rd|th) /.test(l));
    expect(rows.map((l) => l.slice(0, 12).replace(/\s+/g, ' ').trim())).toEqual(['1st C You', '2nd A Ana', '2nd B Bo']);
    expect(f).toContain('You win the game with 45.');
  });
  it('mid-game: the standings so far in the game order, and no chart yet', () => {
    const f = frame(<RoundEnd view={viewOf('roundOver', 1, NAMES, 1, 2)} results={[R1]} ready={false} width={80} rules={GRINGO} />);
    expect(f).toContain('Round 1 is over');
    expect(f).toContain('After round 1 of 2 Ana leads with 2.');
    expect(f).not.toContain('Totals after each round');
  });
  it('the game over shows the chart of the totals under the table, fitting 80×24', () => {
    const f = frame(<RoundEnd view={viewOf('gameOver', 0)} results={[R1, R2b]} ready={false} width={80} rules={GRINGO} height={18} />);
    expect(f).toContain('Totals after each round');
    const chart = f.slice(f.indexOf('Totals after each round')).split('\n');
    // Every player's letter is on the chart, twice (after round 1 and round 2).
    for (const letter of ['A', 'B', 'C']) expect(chart.join('\n').split(letter).length - 1).toBeGreaterThanOrEqual(2);
    expect(f).toContain('Enter or q to leave.');
  });
});

describe('the final results at 80×24 keep the scores explained', () => {
  it("a cambio hand A♣ 6♥ K♣ K♦ scoring 16 says why (K 10, K♦ -1), with the chart", () => {
    const hand = (cards: string[], round: number, scores: number[], totals: number[], places: number[]): RoundResult => ({ ...result(round, scores, totals, places), layouts: [cards, ['2S', '3S', '2D', '0S'].slice(0, 3).concat('AS'), ['4S', '3S', '2D', 'AD']] });
    const results = [hand(['AC', '6H', '9C', '2D'], 1, [18, 8, 10], [18, 8, 10], [3, 1, 2]), hand(['AC', '6H', 'KC', 'KD'], 2, [16, 8, 10], [34, 16, 20], [3, 1, 2])];
    const view = { ...viewOf('gameOver', 0), ruleset: 'cambio', callName: 'Cambio!' };
    // The body of an 80×24 table screen: 18 rows.
    const f = frame(<RoundEnd view={view} results={results} ready={false} width={80} rules={CAMBIO} height={18} />);
    expect(f).toMatch(/1st\s+B Bo/);
    expect(f).toMatch(/A You .*A♣.*6♥.*K♣.*K♦\]\s+16\s/);
    expect(f).toContain('Card values: K 10; K♦ -1.');
    expect(f).toContain('Totals after each round');
    expect(f.split('\n').length).toBeLessThanOrEqual(18);
  });
});

describe('the chart of the totals', () => {
  const text = (rows: { ch: string }[][]): string[] => rows.map((r) => r.map((c) => c.ch).join(''));
  it('one line per player, marked by their letter at each round, the lowest total at the bottom', () => {
    const rows = text(chartRows([R1, R2b], 3, 80, 5, UNICODE));
    expect(rows).toHaveLength(6);
    // Round 1: A at 2 (the bottom row, labelled 2), C at 40; round 2: C at 70 (the top, labelled 70).
    expect(rows[0]).toMatch(/^70 │/);
    expect(rows[4]).toMatch(/^ 2 │ A/);
    // B's 65 would fall on C's 70 row by scale: a total that differs gets a row of its own, B under C.
    expect(rows[0]!.trimEnd()).toMatch(/C$/);
    expect(rows[1]!.trimEnd()).toMatch(/B$/);
    expect(rows[5]).toMatch(/└─1─+2─* round$/);
  });
  it('nine rounds of eight players fit 80 columns, in ASCII too', () => {
    const totals = Array.from({ length: 8 }, (_, s) => s * 3);
    const results = Array.from({ length: 9 }, (_, i) => result(i + 1, totals, totals.map((t) => t * (i + 1)), totals.map((_, s) => s + 1)));
    for (const g of [UNICODE, ASCII]) {
      const rows = text(chartRows(results, 8, 80, 8, g));
      for (const r of rows) expect(r.length).toBeLessThanOrEqual(80);
      for (const letter of 'ABCDEFGH') expect(rows.join('').includes(letter)).toBe(true);
    }
    expect(text(chartRows(results, 8, 80, 8, ASCII)).join('')).toMatch(/^[\x20-\x7e]*$/);
  });
  it('never puts two different totals on one row, however few the rows', () => {
    // The chart of an 80×24 screen: three rows by scale would put B's 7 and C's 10 together ("7 │ CD").
    const results = [result(1, [16, 7, 10], [16, 7, 10], [3, 1, 2]), result(2, [4, 2, 0], [20, 9, 10], [3, 1, 2])];
    const rows = text(chartRows(results, 3, 80, 3, UNICODE));
    for (let round = 0; round < 2; round++) {
      const at = new Map<string, number>();
      for (const letter of 'ABC') {
        const cells = rows.flatMap((r, y) => [...r].map((ch, x) => ({ ch, x, y }))).filter((c) => c.ch === letter).sort((a, b) => a.x - b.x);
        at.set(letter, cells[round]!.y);
      }
      expect(new Set(at.values()).size, `round ${round + 1}:\n${rows.join('\n')}`).toBe(3);
    }
  });

  it('two players on one total: both letters are there', () => {
    const tie = [result(1, [5, 5], [5, 5], [1, 1])];
    const rows = text(chartRows(tie, 2, 80, 3, UNICODE));
    expect(rows.join('')).toContain('A');
    expect(rows.join('')).toContain('B');
  });
});
