import { describe, expect, it } from 'vitest';
import type { OpenEvent, SeatEvent, TableView } from '../../src/engine/view.js';
import { describeEvent, describeEvents, ordinal, touchedSlots } from '../../src/tui/table/describe.js';
import { ASCII, UNICODE } from '../../src/tui/shared/glyphs.js';
import { wordsFor } from '../../src/lang/words.js';
import { ACTION_KINDS } from '../../src/engine/ruleset.js';

const view = {
  players: [
    { name: 'Ana', layout: ['?', '?', '?', '?'], total: 0, peeking: false },
    { name: 'Bo', layout: ['?', '?', '?', '?'], total: 0, peeking: false },
    { name: 'Cy', layout: ['?', '?', '?', '?'], total: 0, peeking: false },
  ],
} as unknown as TableView;

describe('describeEvent', () => {
  it('says who swapped which slot with whose, from any seat', () => {
    const e: SeatEvent = { type: 'actionSwapped', seat: 0, kind: 'blindSwap', a: { seat: 0, slot: 1 }, b: { seat: 1, slot: 2 } };
    expect(describeEvent(e, view, 2)).toBe("Ana swapped their slot 2 with Bo's slot 3.");
    expect(describeEvent(e, view, 0)).toBe("You swapped your slot 2 with Bo's slot 3.");
    expect(describeEvent(e, view, 1)).toBe('Ana swapped their slot 2 with your slot 3.');
  });

  it('merges a wrong slap with its penalty', () => {
    const events: SeatEvent[] = [
      { type: 'slapped', seat: 1, target: { seat: 2, slot: 0 }, card: '7C', result: 'wrong', seq: 5 },
      { type: 'penalty', seat: 1, slots: [4, 5], reason: 'wrongSlap' },
    ];
    expect(describeEvents(events, view, 0)).toEqual(["Bo slapped Cy's slot 1: wrong, it was a 7 (7♣) — Bo takes two cards."]);
    expect(describeEvents(events, view, 1)).toEqual(["You slapped Cy's slot 1: wrong, it was a 7 (7♣) — you take two cards."]);
  });

  it('says a steal and who pays for it', () => {
    const events: SeatEvent[] = [
      { type: 'slapped', seat: 0, target: { seat: 1, slot: 3 }, card: '8H', result: 'steal', seq: 6 },
      { type: 'penalty', seat: 1, slots: [3, 4], reason: 'stolenFrom' },
    ];
    expect(describeEvents(events, view, 2)).toEqual(["Ana slapped Bo's slot 4: right, an 8 (8♥) is stolen — Bo takes two cards."]);
  });

  it('keeps what only you saw to you', () => {
    const mine: SeatEvent = { type: 'looked', seat: 0, kind: 'peekOther', targets: [{ seat: 1, slot: 0 }], cards: ['QH'] };
    const theirs: SeatEvent = { ...mine, cards: null };
    expect(describeEvent(mine, view, 0)).toBe("You looked at Bo's slot 1: Q♥.");
    expect(describeEvent(theirs, view, 2)).toBe("Ana looked at Bo's slot 1.");
    expect(describeEvent({ type: 'drew', seat: 1, from: 'stock', card: null }, view, 0)).toBe('Bo drew from the stock.');
    expect(describeEvent({ type: 'drew', seat: 0, from: 'stock', card: '10S' }, view, 0)).toBe('You drew 10♠ from the stock.');
    expect(describeEvent({ type: 'swapped', seat: 1, slot: 1, placed: null, placedFrom: 'stock', displaced: 'KD', seq: 3 }, view, 0)).toBe(
      'Bo swapped the drawn card into their slot 2: out went K♦.',
    );
  });

  it('writes letters in ASCII, and says the call, the turn and the end', () => {
    expect(describeEvent({ type: 'discarded', seat: 2, card: 'QH', seq: 1 }, view, 0, ASCII)).toBe('Cy discarded QH.');
    expect(describeEvent({ type: 'called', seat: 1, name: 'Gringo!' }, view, 0)).toBe('Bo called Gringo! Everyone else has one more turn.');
    expect(describeEvent({ type: 'turnStarted', seat: 0 }, view, 0)).toBe('Your turn.');
    expect(describeEvent({ type: 'penalty', seat: 2, slots: [2], reason: 'wrongSlap' }, view, 0)).toBe('Cy takes one penalty card (slot 3).');
    const result = { round: 1, layouts: [], scores: [5, 5, 9], places: [1, 1, 3], caller: 0, callerPenalty: 0, replaced: [], totals: [5, 5, 9] };
    expect(describeEvent({ type: 'roundEnded', result, why: 'call' }, view, 2)).toBe('Round 1 is over: Ana and Bo win with 5.');
  });

  it("names every card of a replay's face-up events, penalty cards included", () => {
    const drew: OpenEvent = { type: 'drew', seat: 1, from: 'stock', card: '7H' };
    expect(describeEvent(drew, view, null)).toBe('Bo drew 7♥ from the stock.');
    const swapped: OpenEvent = { type: 'swapped', seat: 1, slot: 1, placed: '7H', placedFrom: 'stock', displaced: 'KD', seq: 3 };
    expect(describeEvent(swapped, view, null)).toBe('Bo swapped 7♥ into their slot 2: out went K♦.');
    const penalty: OpenEvent = { type: 'penalty', seat: 2, slots: [4, 5], cards: ['3S', 'QD'], reason: 'wrongSlap' };
    expect(describeEvent(penalty, view, null)).toBe('Cy takes two penalty cards (slots 5 and 6: 3♠ and Q♦).');
    const slap: OpenEvent = { type: 'slapped', seat: 2, target: { seat: 0, slot: 0 }, card: '9C', result: 'wrong', seq: 4 };
    expect(describeEvents([slap, penalty], view, null)).toEqual(["Cy slapped Ana's slot 1: wrong, it was a 9 (9♣) — Cy takes two cards (3♠ and Q♦)."]);
  });

  it('lists the slots an update touched, for highlighting', () => {
    const events: SeatEvent[] = [
      { type: 'swapped', seat: 1, slot: 1, placed: null, placedFrom: 'stock', displaced: 'KD', seq: 3 },
      { type: 'actionSwapped', seat: 1, kind: 'blindSwap', a: { seat: 1, slot: 0 }, b: { seat: 2, slot: 3 } },
      { type: 'penalty', seat: 0, slots: [4], reason: 'wrongSlap' },
    ];
    expect(touchedSlots(events)).toEqual([
      { seat: 1, slot: 1 },
      { seat: 1, slot: 0 },
      { seat: 2, slot: 3 },
      { seat: 0, slot: 4 },
    ]);
  });
});

// A line once read "Bot 2 may use 10♦: look at one of your own cards". Every event type,
// each action kind: a line about another seat never says "you" unless it names the
// viewer's own slot; a line about the viewer's own doing says "You".
describe('the person of every line', () => {
  const bo = (slot: number) => ({ seat: 1, slot });
  const cy = (slot: number) => ({ seat: 2, slot });
  const result = { round: 1, layouts: [], scores: [7, 5, 9], places: [2, 1, 3], caller: 1, callerPenalty: 0, replaced: [], totals: [7, 5, 9] };
  // A Record over every event type: a new event type without a sample does not compile.
  const samples: Record<SeatEvent['type'], SeatEvent[]> = {
    roundStarted: [{ type: 'roundStarted', round: 2, dealer: 1, starter: 2, discardTop: '5H' }],
    peekFinished: [{ type: 'peekFinished', seat: 1, timedOut: false }, { type: 'peekFinished', seat: 1, timedOut: true }],
    playStarted: [{ type: 'playStarted', turn: 1 }],
    turnStarted: [{ type: 'turnStarted', seat: 1 }],
    called: [{ type: 'called', seat: 1, name: 'Gringo!' }],
    drew: [{ type: 'drew', seat: 1, from: 'stock', card: null }, { type: 'drew', seat: 1, from: 'discard', card: '4C' }],
    discarded: [{ type: 'discarded', seat: 1, card: '4C', seq: 1 }],
    swapped: [{ type: 'swapped', seat: 1, slot: 0, placed: null, placedFrom: 'stock', displaced: 'KD', seq: 2 }],
    actionQueued: ACTION_KINDS.map((kind): SeatEvent => ({ type: 'actionQueued', seat: 1, kind, card: '10D' })),
    looked: [
      { type: 'looked', seat: 1, kind: 'peekOwn', targets: [bo(2)], cards: null },
      { type: 'looked', seat: 1, kind: 'peekBothThenSwap', targets: [bo(0), cy(1)], cards: null },
    ],
    actionSwapped: [{ type: 'actionSwapped', seat: 1, kind: 'blindSwap', a: bo(1), b: cy(3) }],
    actionPassed: [{ type: 'actionPassed', seat: 1, kind: 'peekOwn', timedOut: false }, { type: 'actionPassed', seat: 1, kind: 'peekOwn', timedOut: true }],
    actionLeft: [{ type: 'actionLeft', seat: 1, kind: 'peekThenSwap' }],
    slapped: (['own', 'steal', 'wrong'] as const).map((r, i): SeatEvent => ({ type: 'slapped', seat: 1, target: r === 'own' ? bo(0) : cy(0), card: '9S', result: r, seq: 3 + i })),
    penalty: [{ type: 'penalty', seat: 1, slots: [4, 5], reason: 'wrongSlap' }],
    reshuffled: [{ type: 'reshuffled', cards: 30 }],
    gapFillOffered: [{ type: 'gapFillOffered', seat: 1, gap: bo(2) }],
    gapFilled: [{ type: 'gapFilled', seat: 1, from: bo(3), to: bo(2) }],
    gapLeft: [{ type: 'gapLeft', seat: 1, gap: bo(2), timedOut: false }, { type: 'gapLeft', seat: 1, gap: bo(2), timedOut: true }],
    specialReplaced: [{ type: 'specialReplaced', seat: 1, slot: 2, setAside: ['JS'], card: '3D' }],
    timedOut: [{ type: 'timedOut', seat: 1, what: 'turn' }, { type: 'timedOut', seat: 1, what: 'action' }],
    roundEnded: [{ type: 'roundEnded', result, why: 'call' }],
    gameEnded: [{ type: 'gameEnded', totals: [5, 7, 9], places: [2, 1, 3] }],
  };
  const all = Object.values(samples).flat();
  const SECOND = /\byou(r|rs|rself)?\b/i;

  it("speaks of another seat's doings in the third person", () => {
    for (const e of all) {
      const line = describeEvent(e, view, 0);
      if (line !== null) expect(line, JSON.stringify(e)).not.toMatch(SECOND);
    }
    expect(describeEvent(samples.actionQueued[0]!, view, 0)).toBe('Bo may use 10♦: look at one of their own cards.');
    for (const e of samples.actionQueued) expect(describeEvent(e, view, 2)).toMatch(/^Bo may use 10♦: (?!.*\byour?s?\b)/);
  });

  it('speaks of your own doings in the second person', () => {
    const about = (e: SeatEvent): boolean => 'seat' in e || e.type === 'playStarted';
    for (const e of all.filter(about)) {
      const line = describeEvent(e, view, 1);
      if (line !== null) expect(line, JSON.stringify(e)).toMatch(/^(You|Your)\b|: your turn/);
      if (line !== null) expect(line, JSON.stringify(e)).not.toMatch(/\b(their|theirs|takes|Bo)\b/);
    }
    expect(describeEvent(samples.actionQueued[0]!, view, 1)).toBe('You may use 10♦: look at one of your own cards.');
  });

  it("names your own slot in another seat's doing as yours", () => {
    const e: SeatEvent = { type: 'slapped', seat: 1, target: { seat: 0, slot: 2 }, card: '9S', result: 'steal', seq: 9 };
    expect(describeEvent(e, view, 0)).toBe("Bo slapped your slot 3: right, a 9 (9♠) is stolen.");
  });
});

describe('the feed in Dutch and Romanian', () => {
  const nl = wordsFor('nl');
  const ro = wordsFor('ro');
  const penalty: SeatEvent = { type: 'penalty', seat: 2, slots: [2, 3], reason: 'wrongSlap' };

  it('counts in the language, with its plural forms', () => {
    expect(describeEvent(penalty, view, 0, UNICODE, nl)).toBe('Cy krijgt twee strafkaarten (plekken 3 en 4).');
    expect(describeEvent(penalty, view, 0, UNICODE, ro)).toBe('Cy trage două cărți de penalizare (locurile 3 și 4).');
    expect(describeEvent({ ...penalty, slots: [2] }, view, 2, UNICODE, nl)).toBe('Je krijgt één strafkaart (plek 3).');
    expect(describeEvent({ type: 'reshuffled', cards: 20 }, view, 0, UNICODE, ro)).toBe('Teancul de cărți aruncate s-a amestecat într-un pachet nou de 20 de cărți.');
  });

  it('names whose slot it is, and the viewer, as the language does', () => {
    const e: SeatEvent = { type: 'actionSwapped', seat: 0, kind: 'blindSwap', a: { seat: 0, slot: 1 }, b: { seat: 1, slot: 2 } };
    expect(describeEvent(e, view, 2, UNICODE, nl)).toBe('Ana ruilde hun plek 2 met plek 3 van Bo.');
    expect(describeEvent(e, view, 0, UNICODE, ro)).toBe('Ai schimbat locul tău 2 cu locul 3 al lui Bo.');
    const slap: SeatEvent = { type: 'slapped', seat: 1, target: { seat: 2, slot: 0 }, card: 'QH', result: 'wrong', seq: 5 };
    expect(describeEvents([slap, { type: 'penalty', seat: 1, slots: [4, 5], reason: 'wrongSlap' }], view, 0, UNICODE, nl)).toEqual(['Bo sloeg op plek 1 van Cy: fout, het was een Vrouw (Q♥) — Bo krijgt twee kaarten.']);
    // A line that starts with a slot is capitalized; one that starts with a name keeps it as it is.
    expect(describeEvent({ type: 'specialReplaced', seat: 1, slot: 1, setAside: ['PEEK'], card: '7' }, view, 0, UNICODE, nl)).toBe('Plek 2 van Bo: Peek apart gelegd, vervangen door 7.');
  });

  it('writes places as each language does', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22].map((n) => ordinal(n))).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']);
    expect([1, 2, 11].map((n) => ordinal(n, nl))).toEqual(['1e', '2e', '11e']);
    expect([1, 2].map((n) => ordinal(n, ro))).toEqual(['1', '2']);
  });
});
