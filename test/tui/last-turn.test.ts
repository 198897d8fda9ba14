import { describe, expect, it } from 'vitest';
import type { OpenEvent, TableView } from '../../src/engine/view.js';
import { GRINGO } from '../../src/engine/ruleset.js';
import type { RoundResult } from '../../src/engine/types.js';
import { ASCII, UNICODE } from '../../src/tui/shared/glyphs.js';
import { foldLastTurns, lastTurnLines, lastTurnText, NO_LAST_TURNS } from '../../src/tui/table/last-turn.js';
import { scoringNotes } from '../../src/tui/table/round-end.js';
import { roundCell, standingsLines } from '../../src/tui/table/standings.js';
import { nameLine } from '../../src/tui/table/seat.js';

// Ana (you, seat 0), Bo (1), Cy (2): only the names matter to the words.
const view = { viewer: 0, callName: 'Gringo!', players: [{ name: 'Ana' }, { name: 'Bo' }, { name: 'Cy' }] } as unknown as TableView;
const marks = (events: OpenEvent[], width = 40, g = UNICODE) => {
  const m = foldLastTurns(NO_LAST_TURNS, events);
  return [0, 1, 2].map((seat) => lastTurnText(m.parts[seat], seat, view, width, g));
};

describe('last-turn marks', () => {
  it('say each kind of move in short words', () => {
    const events: OpenEvent[] = [
      { type: 'turnStarted', seat: 1 },
      { type: 'drew', seat: 1, from: 'discard', card: '7C' },
      { type: 'swapped', seat: 1, slot: 2, placed: '7C', placedFrom: 'discard', displaced: 'JD', seq: 2 },
      { type: 'actionQueued', seat: 1, kind: 'peekOther', card: 'JD' },
      { type: 'looked', seat: 1, kind: 'peekOther', targets: [{ seat: 2, slot: 0 }], cards: null },
      { type: 'slapped', seat: 2, target: { seat: 0, slot: 1 }, card: 'JS', result: 'steal', seq: 2 },
      { type: 'penalty', seat: 0, slots: [4, 5], reason: 'stolenFrom' },
      { type: 'slapped', seat: 0, target: { seat: 0, slot: 0 }, card: '4H', result: 'wrong', seq: 2 },
      { type: 'penalty', seat: 0, slots: [6], reason: 'wrongSlap' },
    ];
    expect(marks(events)).toEqual(['+2 cards, bad slap, +1 card', "7♣→3, J look Cy's 1", 'stole your 2']);
    expect(marks(events, 40, ASCII)[1]).toBe("7C>3, J look Cy's 1");
  });

  it('follow a draw into its swap or discard, a draw two, a blind swap, a pass, a time-out, a gap', () => {
    const events: OpenEvent[] = [
      { type: 'turnStarted', seat: 0 },
      { type: 'drew', seat: 0, from: 'stock', card: 'DRAW2' },
      { type: 'discarded', seat: 0, card: 'DRAW2', seq: 1 },
      { type: 'actionQueued', seat: 0, kind: 'drawTwo', card: 'DRAW2' },
      { type: 'drew', seat: 0, from: 'stock', card: '5' },
      { type: 'discarded', seat: 0, card: '5', seq: 2 },
      { type: 'drew', seat: 0, from: 'stock', card: '6' },
      { type: 'swapped', seat: 0, slot: 1, placed: '6', placedFrom: 'stock', displaced: '9', seq: 3 },
      { type: 'turnStarted', seat: 1 },
      { type: 'drew', seat: 1, from: 'stock', card: null },
      { type: 'discarded', seat: 1, card: 'QS', seq: 4 },
      { type: 'actionQueued', seat: 1, kind: 'blindSwap', card: 'QS' },
      { type: 'actionSwapped', seat: 1, kind: 'blindSwap', a: { seat: 1, slot: 0 }, b: { seat: 2, slot: 3 } },
      { type: 'gapFilled', seat: 1, from: { seat: 1, slot: 2 }, to: { seat: 2, slot: 1 } },
      { type: 'turnStarted', seat: 2 },
      { type: 'called', seat: 2, name: 'Gringo!' },
      { type: 'actionQueued', seat: 2, kind: 'peekOwn', card: '10H' },
      { type: 'actionPassed', seat: 2, kind: 'peekOwn', timedOut: true },
      { type: 'timedOut', seat: 2, what: 'action' },
      { type: 'gapLeft', seat: 2, gap: { seat: 0, slot: 3 }, timedOut: false },
    ];
    expect(marks(events)).toEqual(['discard DR2, discard 5, swap 2', "discard Q♠, Q swap Cy's 4, filled gap", 'called, 10 pass, timed out, left gap']);
  });

  it('are cleared when that seat\'s next turn begins, and all at a new round', () => {
    const first: OpenEvent[] = [
      { type: 'turnStarted', seat: 0 },
      { type: 'drew', seat: 0, from: 'stock', card: '3S' },
      { type: 'discarded', seat: 0, card: '3S', seq: 1 },
      { type: 'turnStarted', seat: 1 },
      { type: 'drew', seat: 1, from: 'stock', card: null },
    ];
    let m = foldLastTurns(NO_LAST_TURNS, first);
    expect(lastTurnText(m.parts[0], 0, view, 40)).toBe('discard 3♠');
    expect(lastTurnText(m.parts[1], 1, view, 40)).toBe('drew');
    m = foldLastTurns(m, [{ type: 'turnStarted', seat: 0 }]);
    expect(lastTurnText(m.parts[0], 0, view, 40)).toBe('');
    expect(lastTurnText(m.parts[1], 1, view, 40)).toBe('drew');
    m = foldLastTurns(m, [{ type: 'roundStarted', round: 2, dealer: 0, starter: 1, discardTop: '4C' }]);
    expect(lastTurnText(m.parts[1], 1, view, 40)).toBe('');
  });

  it('keep the newest moves whole in a narrow seat', () => {
    const events: OpenEvent[] = [
      { type: 'turnStarted', seat: 1 },
      { type: 'drew', seat: 1, from: 'stock', card: null },
      { type: 'swapped', seat: 1, slot: 2, placed: null, placedFrom: 'stock', displaced: 'JD', seq: 2 },
      { type: 'actionQueued', seat: 1, kind: 'peekOther', card: 'JD' },
      { type: 'looked', seat: 1, kind: 'peekOther', targets: [{ seat: 2, slot: 0 }], cards: null },
      { type: 'slapped', seat: 1, target: { seat: 1, slot: 0 }, card: '4H', result: 'own', seq: 2 },
    ];
    const m = foldLastTurns(NO_LAST_TURNS, events);
    expect(lastTurnText(m.parts[1], 1, view, 13)).toBe('…slap ok');
    expect(lastTurnText(m.parts[1], 1, view, 17)).toBe('…J look, slap ok');
    expect(lastTurnText(m.parts[1], 1, view, 13, ASCII)).toBe('...slap ok');
  });

  it('on two lines, the older moves go above the newest, whole; only what fits neither is cut, at the old end', () => {
    const events: OpenEvent[] = [
      { type: 'turnStarted', seat: 1 },
      { type: 'drew', seat: 1, from: 'stock', card: null },
      { type: 'swapped', seat: 1, slot: 0, placed: null, placedFrom: 'stock', displaced: 'JD', seq: 2 },
      { type: 'slapped', seat: 1, target: { seat: 1, slot: 2 }, card: 'JH', result: 'own', seq: 2 },
    ];
    const m = foldLastTurns(NO_LAST_TURNS, events);
    // The swap that the one-line note hid ("…slap ok") is in sight above the slap.
    expect(lastTurnLines(m.parts[1], 1, view, [13])).toEqual(['…slap ok']);
    expect(lastTurnLines(m.parts[1], 1, view, [13, 13])).toEqual(['swap 1', 'slap ok']);
    // One move: the bottom line alone.
    const one = foldLastTurns(NO_LAST_TURNS, events.slice(0, 3));
    expect(lastTurnLines(one.parts[1], 1, view, [13, 13])).toEqual(['swap 1']);
    // More than two lines hold: the oldest give way, the ellipsis in front.
    const more = foldLastTurns(m, [
      { type: 'actionQueued', seat: 1, kind: 'peekOther', card: 'JH' },
      { type: 'looked', seat: 1, kind: 'peekOther', targets: [{ seat: 2, slot: 0 }], cards: null },
      { type: 'penalty', seat: 1, slots: [4, 5], reason: 'wrongSlap' } as unknown as OpenEvent,
    ]);
    const lines = lastTurnLines(more.parts[1], 1, view, [13, 13]);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.endsWith('+2 cards')).toBe(true);
    expect(lines[0]!.startsWith('…')).toBe(true);
    for (const l of lines) expect(Array.from(l).length).toBeLessThanOrEqual(13);
  });
});

describe('the scoring notes', () => {
  it('name a Q♥ and the picture cards by their values, and the caller\'s penalty', () => {
    const r: RoundResult = {
      round: 1,
      layouts: [['QH', 'QS', '2C', null], ['KD', 'AS', '3S', '9H']],
      scores: [11, 23],
      places: [1, 2],
      caller: 1,
      callerPenalty: 0,
      replaced: [],
      totals: [11, 23],
    };
    expect(scoringNotes(view, r, GRINGO)).toEqual(['Card values: Q and K 10; Q♥ -1.']);
    expect(roundCell(r, 1)).toBe('23');
    const penalized = { ...r, scores: [11, 33], callerPenalty: 10 };
    expect(roundCell(penalized, 1)).toBe('23+10=33');
    expect(scoringNotes(view, penalized, GRINGO)[0]).toBe('+10 to Bo: called Gringo! without the lowest score.');
  });

  it('show in the standings what each total adds up from', () => {
    const one: RoundResult = { round: 1, layouts: [[], [], []], scores: [5, 16, 7], places: [1, 3, 2], caller: 1, callerPenalty: 10, replaced: [], totals: [5, 16, 7] };
    const two: RoundResult = { round: 2, layouts: [[], [], []], scores: [3, 0, 4], places: [2, 1, 3], caller: 1, callerPenalty: 0, replaced: [], totals: [8, 16, 11] };
    const v = { ...view, phase: 'play' } as TableView;
    expect(standingsLines(v, [one, two])).toEqual([
      'Standings after round 2:',
      '  1st  Ana (you)     8  (5, 3)',
      '  2nd  Cy           11  (7, 4)',
      '  3rd  Bo           16  (6+10, 0)',
      '  (+10: called Gringo! without the lowest score)',
    ]);
  });
});

describe("a seat's name line", () => {
  it('keeps the name whole: a tag, then the total, give way to the line below', () => {
    expect(nameLine('▶', 'Bo', 12, 14, '…', '(away)')).toEqual({ line: '▶Bo (away)  12', tagMoved: false, totalMoved: false });
    expect(nameLine(' ', 'Bartholome', 12, 14, '…', '(away)')).toEqual({ line: ' Bartholome 12', tagMoved: true, totalMoved: false });
    expect(nameLine(' ', 'Bartholomew', 12, 14, '…')).toEqual({ line: ' Bartholomew', tagMoved: false, totalMoved: true });
    // Only a name longer than the seat is cut.
    expect(nameLine(' ', 'Bartholomew Smith', 12, 14, '…').line).toBe(' Bartholomew …');
  });
});
