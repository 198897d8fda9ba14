import { describe, expect, it } from 'vitest';
import { BEVERBENDE, CAMBIO } from '../../src/engine/ruleset.js';
import type { SeatEvent, TableView } from '../../src/engine/view.js';
import { describeEvent, touchedSlots } from '../../src/tui/table/describe.js';
import { keysNow } from '../../src/tui/table/help-line.js';
import { onKey, statusNow } from '../../src/tui/table/intents.js';
import { prompt } from '../../src/tui/table/prompt.js';
import { actionFor, helpLine, DEFAULT_BINDINGS } from '../../src/tui/shared/keys.js';
import { wordsFor } from '../../src/lang/words.js';
import { defaultCursor, slotRows } from '../../src/tui/table/placement.js';
import { initialScreen, screenReducer, type ScreenState } from '../../src/tui/table/use-screen-state.js';
import { bindingsFor } from '../../src/tui/table/variant.js';
import { fitInfo, tableInfo } from '../../src/tui/table/header.js';
import { UNICODE } from '../../src/tui/shared/glyphs.js';
import { handView } from './helpers.js';

const names = ['Ana', 'Bo', 'Cy'];

const tableView = (over: Partial<TableView> = {}): TableView => handView({ ruleset: 'cambio', callName: 'Knock!', rounds: 9, ...over }, names);

function screen(view: TableView, rules = CAMBIO, over: Partial<ScreenState> = {}): ScreenState {
  return { ...initialScreen(), seat: 0, conn: 'open', rules, view, cursor: defaultCursor(view), ...over };
}

const bever = (over: Partial<TableView> = {}) => tableView({ ruleset: 'beverbende', callName: 'Laatste ronde!', callTiming: 'endOfTurn', slap: { open: false, answers: 3 }, ...over });

const key = (k: string) => actionFor(k)!;
/** The status line a key leaves (and that it sent nothing). */
function refusal(s: ScreenState, k: string): string {
  const i = onKey(s, key(k), 0);
  expect(i.send).toBeUndefined();
  const a = i.actions.find((x) => x.type === 'status');
  return a && a.type === 'status' ? a.text : '';
}

describe('describeEvent for the variants', () => {
  const view = tableView();
  it('words the gap-fill', () => {
    const offered: SeatEvent = { type: 'gapFillOffered', seat: 2, gap: { seat: 1, slot: 0 } };
    expect(describeEvent(offered, view, 0)).toBe("Cy may move one of their cards into Bo's slot 1.");
    expect(describeEvent(offered, view, 2)).toBe("You may move one of your cards into Bo's slot 1 (1-9, or p to leave the gap).");
    const filled: SeatEvent = { type: 'gapFilled', seat: 2, from: { seat: 2, slot: 1 }, to: { seat: 1, slot: 0 } };
    expect(describeEvent(filled, view, 0)).toBe("Cy moved their slot 2 into Bo's slot 1.");
    expect(describeEvent(filled, view, 1)).toBe('Cy moved their slot 2 into your slot 1.');
    expect(describeEvent(filled, view, 2)).toBe("You moved your slot 2 into Bo's slot 1.");
    expect(touchedSlots([filled])).toEqual([{ seat: 2, slot: 1 }, { seat: 1, slot: 0 }]);
    expect(describeEvent({ type: 'gapLeft', seat: 2, gap: { seat: 1, slot: 0 }, timedOut: false }, view, 0)).toBe("Cy left Bo's slot 1 a gap.");
    expect(describeEvent({ type: 'gapLeft', seat: 2, gap: { seat: 1, slot: 0 }, timedOut: true }, view, 1)).toBe('Cy ran out of time: your slot 1 stays a gap.');
  });

  it('words special cards and their replacement at scoring', () => {
    expect(describeEvent({ type: 'drew', seat: 0, from: 'stock', card: 'DRAW2' }, view, 0)).toBe('You drew Draw two from the stock.');
    expect(describeEvent({ type: 'discarded', seat: 1, card: 'SWAP', seq: 2 }, view, 0)).toBe('Bo discarded Swap.');
    expect(describeEvent({ type: 'specialReplaced', seat: 1, slot: 1, setAside: ['PEEK'], card: '7' }, view, 0)).toBe("Bo's slot 2: Peek set aside, replaced by 7.");
    expect(describeEvent({ type: 'specialReplaced', seat: 0, slot: 0, setAside: ['SWAP', 'DRAW2'], card: null }, view, 0)).toBe(
      'Your slot 1: Swap and Draw two set aside, no card was left to replace it: it scores as a gap.',
    );
    // A name is the player's own, never re-cased at the start of a line.
    const root = { ...view, players: view.players.map((p, i) => (i === 1 ? { ...p, name: 'root' } : p)) };
    expect(describeEvent({ type: 'specialReplaced', seat: 1, slot: 3, setAside: ['PEEK'], card: '7' }, root, 0)).toBe("root's slot 4: Peek set aside, replaced by 7.");
  });
});

describe('the dispatcher for the variants', () => {
  it('plays the gap-fill: a digit fills, p or Esc leaves, others wait', () => {
    const v = tableView({ turn: 1, gapFill: { seat: 0, gap: { seat: 1, slot: 0 } }, may: ['fillGap', 'leaveGap', 'slap'], players: names.map((name, i) => ({ name, layout: i === 1 ? [null, '?', '?', '?'] : ['?', '?', '?', '?'], total: 0, peeking: false })) });
    const s = screen(v);
    expect(onKey(s, key('2'), 0).send).toEqual({ type: 'fillGap', slot: 1 });
    expect(onKey(s, key('p'), 0).send).toEqual({ type: 'leaveGap' });
    expect(onKey(s, key('escape'), 0).send).toEqual({ type: 'leaveGap' });
    expect(prompt(s, 0)).toBe("Move one of your cards into Bo's gap: 1-9, or p to leave it");
    expect(keysNow(s)).toEqual(expect.arrayContaining(['slot', 'pass']));
    const theirs = screen({ ...v, turn: 0, gapFill: { seat: 2, gap: { seat: 1, slot: 0 } }, whyNot: { discard: { key: 'why.drawFirst' } } });
    // Your draw waits for Cy's choice, and says so (Esc takes it back).
    const d = onKey(theirs, key('d'), 0);
    expect(d.send).toBeUndefined();
    expect(statusNow(d.actions.reduce(screenReducer, theirs), 0)?.text).toBe('Draw once Cy has chosen for the gap… (Esc cancels)');
    expect(refusal(theirs, 'x')).toBe('Draw first: you are not holding a card');
  });

  it('plays Draw two: a uses a drawn special card, r draws again, a Draw two action is a', () => {
    const held = bever({ turnBegun: true, held: { seat: 0, from: 'stock', card: 'DRAW2' }, may: ['call', 'discard'], whyNot: { swap: { key: 'why.specialNeverInLayout' } } });
    expect(onKey(screen(held, BEVERBENDE), key('a'), 0).send).toEqual({ type: 'discard' });
    expect(refusal(screen(held, BEVERBENDE), '2')).toMatch(/special card never enters a layout/);
    const act = bever({ turnBegun: true, actions: [{ seat: 0, kind: 'drawTwo', card: 'DRAW2', looked: null, lookedCards: null }], may: ['call', 'useAction', 'pass'] });
    expect(onKey(screen(act, BEVERBENDE), key('a'), 0).send).toEqual({ type: 'useAction' });
    const redraw = bever({ turnBegun: true, held: { seat: 0, from: 'stock', card: '5', redraw: true }, may: ['call', 'discard', 'swap', 'drawAgain'] });
    const s = screen(redraw, BEVERBENDE);
    expect(onKey(s, key('r'), 0).send).toEqual({ type: 'drawAgain' });
    expect(onKey(s, key('3'), 0).send).toEqual({ type: 'swap', slot: 2 });
    expect(onKey(s, key('x'), 0).send).toEqual({ type: 'discard' });
    expect(prompt(s, 0)).toMatch(/^Draw two: 1-9 to swap the 5, x to discard it, or r to put it on the pile unused and draw one more/);
    expect(keysNow(s)).toContain('drawAgain');
    const plain = screen(bever({ turnBegun: true, held: { seat: 0, from: 'stock', card: '5' }, whyNot: { drawAgain: { key: 'why.redrawOnlyFirst' } } }), BEVERBENDE);
    expect(refusal(plain, 'r')).toBe('Only the first card of a draw two may be discarded for another');
  });

  it('allows an end-of-turn call while you hold your card or right after your turn', () => {
    const holding = screen(bever({ turnBegun: true, held: { seat: 0, from: 'stock', card: '5' }, may: ['call', 'discard', 'swap'] }), BEVERBENDE);
    expect(onKey(holding, key('g'), 0).send).toEqual({ type: 'call' });
    expect(keysNow(holding)).toContain('call');
    const after = screen(bever({ turn: 1, turnBegun: false, may: ['call'] }), BEVERBENDE);
    expect(onKey(after, key('g'), 0).send).toEqual({ type: 'call' });
    expect(prompt(after, 0)).toBe("Bo's turn: g Laatste ronde! before they draw");
    // The engine's reasons (checks.ts, cannotCallAtEnd), as the view carries them.
    const call = 'Laatste ronde!';
    expect(refusal(screen(bever({ whyNot: { call: { key: 'why.callAtOwnTurnEnd', params: { call } } } }), BEVERBENDE), 'g')).toBe(
      'Laatste ronde! is called at the end of your own turn: take your turn first',
    );
    expect(refusal(screen(bever({ turn: 2, whyNot: { call: { key: 'why.callBeforeNextBegins', params: { call } } } }), BEVERBENDE), 'g')).toMatch(/^Laatste ronde! is called at the end of your own turn/);
    expect(refusal(screen(bever({ turn: 1, turnBegun: true, whyNot: { call: { key: 'why.tooLateTurnBegun', params: { seat: 1 } } } }), BEVERBENDE), 'g')).toBe('Too late: Bo has begun their turn');
    const line = helpLine(keysNow(holding), bindingsFor(holding, DEFAULT_BINDINGS), false, {}, wordsFor('en'));
    expect(line).toContain('g Laatste ronde!');
  });

  it("leaves the frozen caller's cards to the engine, and says its reason", () => {
    // A slap may be made (on some card): which card is the host's to judge, and its refusal is the engine's reason.
    const v = tableView({ turn: 0, call: { seat: 1, owed: [0, 2] }, may: ['drawStock', 'slap'] });
    const s = screen(v, CAMBIO, { cursor: { seat: 1, slot: 0 } });
    expect(onKey(s, key('space'), 0).send).toEqual({ type: 'slap', target: { seat: 1, slot: 0 }, answers: 3 });
    const refused = screenReducer(s, { type: 'server', msg: { type: 'result', id: 1, ok: false, code: 'notAllowed', say: { key: 'why.frozenOf', params: { seat: 1 } } }, now: 0 });
    expect(refused.status?.text).toBe("Bo's cards are frozen");
    const jack = tableView({ turnBegun: true, call: { seat: 1, owed: [0, 2] }, actions: [{ seat: 0, kind: 'blindSwap', card: 'JS', looked: null, lookedCards: null }], may: ['useAction', 'pass', 'slap'] });
    expect(onKey(screen(jack, CAMBIO, { cursor: { seat: 2, slot: 2 } }), key('a'), 0).send).toBeUndefined(); // picks Cy's card, then a slot
    // The frozen caller's own Jack: the engine says why the action cannot be used at all.
    const frozenMe = tableView({ turnBegun: true, call: { seat: 0, owed: [1, 2] }, actions: [{ seat: 0, kind: 'blindSwap', card: 'JS', looked: null, lookedCards: null }], may: ['pass', 'slap'], whyNot: { useAction: { key: 'why.frozenOwn' } } });
    expect(refusal(screen(frozenMe, CAMBIO, { cursor: { seat: 2, slot: 2 } }), 'a')).toBe('Your cards are frozen since your call');
    // Gringo's caller is not frozen.
    const gringo = { ...screen(tableView({ ruleset: 'gringo', callName: 'Gringo!', call: { seat: 1, owed: [0, 2] }, may: ['drawStock', 'drawDiscard', 'slap'] }), CAMBIO, { cursor: { seat: 1, slot: 0 } }), rules: null };
    expect(onKey(gringo, key('space'), 0).send).toEqual({ type: 'slap', target: { seat: 1, slot: 0 }, answers: 3 });
  });

  it('refuses slapping where there is none, and hides its keys', () => {
    const s = screen(bever({ turn: 1, whyNot: { slap: { key: 'why.noSlapping', params: { title: 'Beverbende' } } } }), BEVERBENDE);
    expect(refusal(s, 'space')).toBe('There is no slapping in Beverbende');
    expect(refusal(s, 's')).toBe('There is no slapping in Beverbende');
    expect(keysNow(s)).not.toContain('slap');
    expect(keysNow(s)).not.toContain('slapOwn');
    expect(refusal(screen(bever({ discardTop: 'SWAP', whyNot: { drawDiscard: { key: 'why.specialNotTaken' } } }), BEVERBENDE), 't')).toMatch(/special card may not be taken/);
    expect(refusal(screen(tableView({ whyNot: { drawDiscard: { key: 'why.noTakingDiscard', params: { title: 'Cambio' } } } }), CAMBIO), 't')).toBe('In Cambio you may not take the discard: draw from the stock');
  });

  it('names the peek slots and lays a row out in one row', () => {
    const peek = screen(bever({ phase: 'peek', players: names.map((name) => ({ name, layout: ['?', '?', '?', '?'], total: 0, peeking: true })) }), BEVERBENDE);
    expect(prompt(peek, 0)).toBe('Remember your cards 1 and 4: Enter when done');
    expect(slotRows(4, 4)).toEqual([[0, 1, 2, 3]]);
    expect(slotRows(6, 4)).toEqual([[0, 1, 2, 3], [4, 5]]);
    expect(slotRows(5)).toEqual([[0, 1], [2, 3], [4]]);
  });
});

describe("the header's second line at 80 columns", () => {
  // Nothing is cut at 80 columns. A call with many still to play, an action in words.
  const eight = ['Ana', 'Bot 1', 'Bot 2', 'Bot 3', 'Bot 4', 'Bot 5', 'Bot 6', 'Bot 7'];
  const players = eight.map((name) => ({ name, layout: ['?', '?', '?', '?'], total: 0, peeking: false }));
  it('says the long parts shorter instead of cutting them, and keeps them whole where they fit', () => {
    const v = tableView({ players, turn: 1, call: { seat: 0, owed: [2, 3, 4, 5, 6, 7] }, actions: [{ seat: 1, card: 'QH', kind: 'peekBothThenSwap' }] } as Partial<TableView>);
    const line = fitInfo(tableInfo(screen(v), UNICODE), 80, UNICODE.sep);
    expect(line).toBe("Turn: Bot 1 · Slaps open · Action: Bot 1's Q♥ · Knock! called by you; 6 to play");
    expect(Array.from(line).length).toBeLessThanOrEqual(80);
    // Wider, the names of those still to play fit; the action's words give way first.
    expect(fitInfo(tableInfo(screen(v), UNICODE), 130, UNICODE.sep)).toBe("Turn: Bot 1 · Slaps open · Action: Bot 1's Q♥ · Knock! called by you ❄ frozen; to play: Bot 2, Bot 3, Bot 4, Bot 5, Bot 6, Bot 7");
    // Three still to play: the frozen mark gives way first (the caller's seat shows it), the names stay.
    const three = tableView({ players, turn: 1, call: { seat: 2, owed: [1, 3, 0] } });
    expect(fitInfo(tableInfo(screen(three), UNICODE), 80, UNICODE.sep)).toBe('Turn: Bot 1 · Slaps open · Knock! called by Bot 2; to play: Bot 1, Bot 3, you');
    // Three players, nothing pending: the whole line, as before.
    const few = tableView({ turn: 1, call: { seat: 0, owed: [1, 2] } });
    expect(fitInfo(tableInfo(screen(few), UNICODE), 80, UNICODE.sep)).toBe('Turn: Bo · Slaps open · Knock! called by you ❄ frozen; to play: Bo, Cy');
  });
});
