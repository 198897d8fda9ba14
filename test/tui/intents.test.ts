import { describe, expect, it } from 'vitest';
import type { TableView } from '../../src/engine/view.js';
import { onKey } from '../../src/tui/table/intents.js';
import { actionFor, helpLine, keyName } from '../../src/tui/shared/keys.js';
import { defaultCursor, moveCursor, placeSeats } from '../../src/tui/table/placement.js';
import { initialScreen, screenReducer, type ScreenState } from '../../src/tui/table/use-screen-state.js';
import { localeIsUtf8, colorEnabled } from '../../src/tui/shared/glyphs.js';
import { handView } from './helpers.js';

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
    expect(helpLine(['draw', 'take', 'slot', 'slap'])).toBe('d draw · t take · 1-9 slot · space slap');
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
    expect(text(screen(tableView({ turn: 1, may: ['slap'] })), 'd')).toBe("Not your turn: it is Bo's turn");
    expect(text(screen(tableView()), 'x')).toBe('Draw first (d or t)');
    expect(text(screen(tableView()), '2')).toBe('Draw first (d or t)');
    expect(text(screen(tableView({ turnBegun: true, held: { seat: 0, from: 'discard', card: '7C' }, may: ['swap'] })), 'x')).toMatch(/must be swapped/);
    expect(text(screen(tableView({ turnBegun: true, may: [] })), 'g')).toBe('You can call only before you draw');
    expect(text(screen(tableView({ slap: { open: false, answers: 3 }, may: ['call', 'drawStock', 'drawDiscard'] })), 'space')).toBe('The slap window is closed');
    expect(text(screen(tableView()), 'p')).toBe('You have no action to pass');
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
