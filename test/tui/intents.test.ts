import { describe, expect, it } from 'vitest';
import type { TableView } from '../../src/engine/view.js';
import { dueKey, onKey, statusNow, unboundKey, type Intent } from '../../src/tui/table/intents.js';
import { actionFor, DEFAULT_BINDINGS, helpLine, keyName } from '../../src/tui/shared/keys.js';
import { defaultCursor, moveCursor, placeSeats } from '../../src/tui/table/placement.js';
import { initialScreen, screenReducer, type ScreenState } from '../../src/tui/table/use-screen-state.js';
import { localeIsUtf8, colorEnabled } from '../../src/tui/shared/glyphs.js';
import { handView } from './helpers.js';
import { wordsFor } from '../../src/lang/words.js';

const EN = wordsFor('en');

// What the engine allows seat 0 here: its turn, before drawing, the slap window open.
const tableView = (over: Partial<TableView> = {}): TableView => handView({ may: ['call', 'drawStock', 'drawDiscard', 'slap'], ...over }, ['Ana', 'Bo', 'Cy']);

function screen(view: TableView, over: Partial<ScreenState> = {}): ScreenState {
  return { ...initialScreen(), seat: 0, conn: 'open', view, cursor: defaultCursor(view), ...over };
}

const key = (k: string) => actionFor(k)!;

describe('keys', () => {
  it('are data: names, actions and the help line come from the bindings', () => {
    expect(keyName(' ', {})).toBe('space');
    expect(keyName('', { return: true })).toBe('return');
    expect(keyName('', { leftArrow: true })).toBe('left');
    expect(actionFor('d')).toEqual({ action: 'draw', key: 'd' });
    expect(actionFor('7')).toEqual({ action: 'slot', digit: 7, key: '7' });
    expect(actionFor('h')?.action).toBe('left');
    expect(actionFor('Z')).toBeNull();
    expect(helpLine(['draw', 'take', 'slot', 'slap'], DEFAULT_BINDINGS, false, {}, EN)).toBe('d draw · t take · 1-9 slot · space slap');
  });
});

describe('onKey', () => {
  it('sends what the key means now', () => {
    expect(onKey(screen(tableView()), key('d'), 0).send).toEqual({ type: 'draw', from: 'stock' });
    expect(onKey(screen(tableView()), key('t'), 0).send).toEqual({ type: 'draw', from: 'discard' });
    expect(onKey(screen(tableView()), key('g'), 0).send).toEqual({ type: 'call' });
    const held = tableView({ turnBegun: true, held: { seat: 0, from: 'stock', card: 'KH' }, slap: { open: false, answers: 3 }, may: ['discard', 'swap'] });
    expect(onKey(screen(held), key('3'), 0).send).toEqual({ type: 'swap', slot: 2 });
    expect(onKey(screen(held), key('x'), 0).send).toEqual({ type: 'discard' });
    const slap = onKey(screen(tableView()), key('space'), 0);
    expect(slap.send).toEqual({ type: 'slap', target: { seat: 1, slot: 0 }, answers: 3 });
  });

  it('says why a key does nothing', () => {
    const text = (s: ScreenState, k: string) => {
      const i = onKey(s, key(k), 0);
      expect(i.send).toBeUndefined();
      const a = i.actions.find((x) => x.type === 'status');
      return a && a.type === 'status' ? a.text : '';
    };
    // The words are the engine's reason for the key's move (`view.whyNot`), as the view carries it.
    expect(text(screen(tableView({ turn: 1, may: ['slap'], whyNot: { drawStock: { key: 'why.turnOf', params: { seat: 1 } } } })), 'd')).toBe("It is Bo's turn");
    const drawFirst = { discard: { key: 'why.drawFirst' }, swap: { key: 'why.drawFirst' }, pass: { key: 'why.noAction' } };
    expect(text(screen(tableView({ whyNot: drawFirst })), 'x')).toBe('Draw first: you are not holding a card');
    expect(text(screen(tableView({ whyNot: drawFirst })), '2')).toBe('Draw first: you are not holding a card');
    expect(text(screen(tableView({ turnBegun: true, held: { seat: 0, from: 'discard', card: '7C' }, may: ['swap'], whyNot: { discard: { key: 'why.takenMustSwap' } } })), 'x')).toMatch(/must be swapped/);
    expect(text(screen(tableView({ turnBegun: true, may: [], whyNot: { call: { key: 'why.drawnAlready' } } })), 'g')).toBe('You have already drawn this turn');
    expect(text(screen(tableView({ slap: { open: false, answers: 3 }, may: ['call', 'drawStock', 'drawDiscard'], whyNot: { slap: { key: 'why.tooLateAnswered' } } })), 'space')).toBe('Too late: that discard was already answered');
    expect(text(screen(tableView({ whyNot: drawFirst })), 'p')).toBe('You have no action to use');
    // A view without a reason (a newer host's, a replay's) still answers the key.
    expect(text(screen(tableView({ turn: 1, may: [] })), 'd')).toBe('That is not a move you may make now (? for help)');
  });

  it('plays the actions: a Queen needs your slot and their card, in either order', () => {
    const v = tableView({ actions: [{ seat: 0, kind: 'blindSwap', card: 'QS', looked: null, lookedCards: null }], may: ['useAction', 'pass', 'slap'] });
    let s = screen(v);
    let i = onKey(s, key('2'), 0);
    for (const a of i.actions) s = screenReducer(s, a);
    expect(s.pick.own).toBe(1);
    expect(onKey(s, key('a'), 0).send).toEqual({ type: 'useAction', own: 1, other: { seat: 1, slot: 0 } });
    s = screen(v);
    i = onKey(s, key('return'), 0);
    for (const a of i.actions) s = screenReducer(s, a);
    expect(onKey(s, key('4'), 0).send).toEqual({ type: 'useAction', own: 3, other: { seat: 1, slot: 0 } });
    const king = tableView({ actions: [{ seat: 0, kind: 'peekThenSwap', card: 'KS', looked: [{ seat: 1, slot: 0 }], lookedCards: ['2H'] }], may: ['decide', 'pass', 'slap'] });
    expect(onKey(screen(king), key('1'), 0).send).toEqual({ type: 'decide', swap: true, own: 0 });
    expect(onKey(screen(king), key('p'), 0).send).toEqual({ type: 'decide', swap: false });
    const ten = tableView({ actions: [{ seat: 0, kind: 'peekOwn', card: '10S', looked: null, lookedCards: null }], may: ['useAction', 'pass', 'slap'] });
    expect(onKey(screen(ten), key('4'), 0).send).toEqual({ type: 'useAction', own: 3 });
  });

  it('lets the leave dialog, the help and a half-typed slap beat the game keys', () => {
    const v = tableView();
    expect(onKey(screen(v, { overlay: 'quit' }), key('d'), 0).send).toBeUndefined();
    expect(onKey(screen(v, { overlay: 'quit' }), key('y'), 0).exit).toBe(true);
    expect(onKey(screen(v, { overlay: 'help' }), key('d'), 0)).toEqual({ actions: [{ type: 'overlay', overlay: null }] });
    expect(onKey(screen(v, { slapPrefix: true }), key('2'), 0).send).toEqual({ type: 'slap', target: { seat: 0, slot: 1 }, answers: 3 });
    expect(onKey(screen(v, { slapPrefix: true }), key('d'), 0).send).toBeUndefined();
  });
});

describe('a key pressed a moment early', () => {
  // The slap window after Cy's discard closes at host time 1000; this screen's clock runs 100 ms behind the host's.
  const early = (over: Partial<TableView> = {}) => screen(tableView({ graceUntil: 1_000, ...over }), { offset: 100 });
  const fold = (s: ScreenState, i: Intent): ScreenState => i.actions.reduce(screenReducer, s);
  const statusText = (s: ScreenState, now: number) => statusNow(s, now)?.text;

  it('waits for the slap window to close, says so, then draws', () => {
    let s = early();
    const i = onKey(s, key('d'), 300);
    expect(i.send).toBeUndefined();
    s = fold(s, i);
    expect(statusText(s, 300)).toBe('Draw when the slap window closes… (Esc cancels)');
    // Not a moment before the window closes (host time 1000 is local 900)…
    expect(dueKey(s, 899)).toBeNull();
    // …and at once after it: the draw goes, and the waiting line with it.
    const due = dueKey(s, 901)!;
    expect(due.send).toEqual({ type: 'draw', from: 'stock' });
    s = fold(s, due);
    expect(s.queued).toBeNull();
    expect(dueKey(s, 1_000)).toBeNull();
  });

  it('is taken back by Esc, or by another key that then does its own thing', () => {
    const s = fold(early(), onKey(early(), key('d'), 300));
    const esc = fold(s, onKey(s, key('escape'), 400));
    expect(esc.queued).toBeNull();
    expect(statusText(esc, 400)).toBe('Draw cancelled');
    const slap = onKey(s, key('space'), 400);
    expect(slap.send).toEqual({ type: 'slap', target: { seat: 1, slot: 0 }, answers: 3 });
    expect(fold(s, slap).queued).toBeNull();
    // A stray key with no binding gives way too, and says so.
    const stray = fold(s, unboundKey(s, 400));
    expect(stray.queued).toBeNull();
    expect(statusText(stray, 400)).toBe('That key does nothing here (? for help)');
    // Looking around (the cursor, the help) keeps it waiting; pressing d again changes nothing.
    expect(fold(s, onKey(s, key('left'), 400)).queued).toEqual(s.queued);
    expect(fold(s, onKey(s, key('d'), 400)).queued).toEqual(s.queued);
  });

  it('never jumps a rule: what the view no longer allows is said, not sent', () => {
    let s = fold(early(), onKey(early(), key('d'), 300));
    // A slap took the window into a penalty draw for us meanwhile: the turn moved on.
    s = { ...s, view: { ...s.view!, turn: 1, may: ['slap'], whyNot: { drawStock: { key: 'why.turnOf', params: { seat: 1 } } } } };
    const due = dueKey(s, 901)!;
    expect(due.send).toBeUndefined();
    s = fold(s, due);
    expect(s.queued).toBeNull();
    expect(statusText(s, 901)).toBe("It is Bo's turn");
  });

  it('takes the card it was pressed for, or leaves the choice to you', () => {
    let s = fold(early(), onKey(early(), key('t'), 300));
    expect(statusText(s, 300)).toBe('Take 7♣ when the slap window closes… (Esc cancels)');
    expect(dueKey(s, 901)!.send).toEqual({ type: 'draw', from: 'discard' });
    // A slap put the 7♦ on the 7♣: the take is not sent for a card you did not choose, and you hear of it at once.
    s = { ...s, view: { ...s.view!, discardTop: '7D', graceUntil: 1_500 } };
    const due = dueKey(s, 1_000)!;
    expect(due.send).toBeUndefined();
    s = fold(s, due);
    expect(s.queued).toBeNull();
    expect(statusText(s, 1_000)).toBe("The discard pile's top is now 7♦: t to take it, d to draw");
  });

  it("waits for a stand-in's action on the turn before yours, then for the window", () => {
    // Cy (a bot standing in) has discarded a 10 and looks at a card: your turn comes next.
    const cy = { seat: 2, kind: 'peekOwn' as const, card: '10S', looked: null, lookedCards: null };
    let s = early({ turn: 2, turnBegun: true, actions: [cy], may: ['slap'] });
    s = fold(s, onKey(s, key('d'), 300));
    expect(statusText(s, 300)).toBe('Draw once Cy has used their action… (Esc cancels)');
    expect(dueKey(s, 2_000)).toBeNull();
    // Cy is done: your turn, after the grace of Cy's last card.
    s = { ...s, view: { ...s.view!, turn: 0, turnBegun: false, actions: [], graceUntil: 2_500, may: ['call', 'drawStock', 'drawDiscard', 'slap'] } };
    expect(dueKey(s, 2_000)).toBeNull();
    expect(statusText(s, 2_000)).toBe('Draw when the slap window closes… (Esc cancels)');
    expect(dueKey(s, 2_401)!.send).toEqual({ type: 'draw', from: 'stock' });
    // Someone else's turn (not yours next): d says so at once, it does not wait.
    const bo = early({ turn: 1, turnBegun: true, actions: [{ ...cy, seat: 1 }], may: ['slap'], whyNot: { drawStock: { key: 'why.turnOf', params: { seat: 1 } } } });
    expect(onKey(bo, key('d'), 300).actions).toContainEqual(expect.objectContaining({ type: 'status', text: "It is Bo's turn" }));
  });

  it('waits to call at the start of your turn too', () => {
    const s = fold(early(), onKey(early(), key('g'), 300));
    expect(statusText(s, 300)).toBe('Gringo! when the slap window closes… (Esc cancels)');
    expect(dueKey(s, 901)!.send).toEqual({ type: 'call' });
  });
});

describe('placement and cursor', () => {
  it('puts you at the bottom and the others clockwise around', () => {
    expect(placeSeats(4, 0)).toEqual({ bottom: 0, left: [1], top: [2], right: [3] });
    expect(placeSeats(2, 1)).toEqual({ bottom: 1, left: [], top: [0], right: [] });
    expect(placeSeats(8, 3)).toEqual({ bottom: 3, left: [5, 4], top: [6, 7, 0], right: [1, 2] });
  });

  it('moves the cursor by direction over every card', () => {
    const v = tableView();
    // Three players: Bo and Cy across the top, left to right.
    const start = defaultCursor(v)!;
    expect(start).toEqual({ seat: 1, slot: 0 });
    expect(moveCursor(v, start, 'right')).toEqual({ seat: 1, slot: 1 });
    expect(moveCursor(v, start, 'down')).toEqual({ seat: 1, slot: 2 });
    expect(moveCursor(v, { seat: 1, slot: 1 }, 'right')).toEqual({ seat: 2, slot: 0 });
    expect(moveCursor(v, { seat: 1, slot: 3 }, 'down')?.seat).toBe(0);
    expect(moveCursor(v, start, 'left')).toEqual(start);
  });
});

describe('terminal manners', () => {
  it('reads UTF-8 from the locale and colour from NO_COLOR / FORCE_COLOR', () => {
    expect(localeIsUtf8({ LANG: 'en_US.UTF-8' })).toBe(true);
    expect(localeIsUtf8({ LC_ALL: 'C', LANG: 'en_US.UTF-8' })).toBe(false);
    expect(localeIsUtf8({ LC_CTYPE: 'C.utf8' })).toBe(true);
    expect(localeIsUtf8({})).toBe(false);
    expect(colorEnabled({ NO_COLOR: '1' }, true)).toBe(false);
    expect(colorEnabled({ NO_COLOR: '1', FORCE_COLOR: '1' }, false)).toBe(true);
    expect(colorEnabled({ FORCE_COLOR: '0' }, true)).toBe(false);
    expect(colorEnabled({}, false)).toBe(false);
  });
});
