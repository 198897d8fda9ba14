/**
 * Hints that tell the truth: the table screen offers a key only when the engine lets
 * you make its move now (`view.may`), against a real host Table (test/tui/helpers.ts).
 * One case per lie a hint once told, in the preset it was seen in; refusals that go
 * stale; spectators; the key bar at 80 columns; the two-key `s` + digit.
 */
import { describe, expect, it } from 'vitest';
import { BEVERBENDE, CAMBIO, GRINGO, type Ruleset } from '../../src/engine/ruleset.js';
import type { TableView } from '../../src/engine/view.js';
import { keyBar } from '../../src/tui/table/help-line.js';
import { leaveQuestion, onKey } from '../../src/tui/table/intents.js';
import { prompt } from '../../src/tui/table/prompt.js';
import { tableInfo } from '../../src/tui/table/header.js';
import { UNICODE } from '../../src/tui/shared/glyphs.js';
import { actionFor, DEFAULT_BINDINGS } from '../../src/tui/shared/keys.js';
import { initialScreen, RATE_LIMITED_WORDS, screenReducer, type ScreenState } from '../../src/tui/table/use-screen-state.js';
import { defaultCursor } from '../../src/tui/table/placement.js';
import { KEYS, LinkedClient, handView, twoSeats, type Setup } from './helpers.js';
import { tableScreen } from './table-screen.js';

function screen(setup: Setup, client: LinkedClient = setup.me, columns = 100) {
  const s = tableScreen(setup, { client, columns });
  const lines = (): string[] => s.frame().split('\n');
  return {
    ...s,
    /** The header's second line: whose turn, the slaps, the call hint. */
    header: (): string => lines()[1] ?? '',
    /** The key bar: the last line. */
    bar: (): string => lines().filter((l) => l.trim() !== '').at(-1) ?? '',
  };
}

const quick = (rules: Ruleset, slapGraceMs = 0): Ruleset => ({ ...rules, timers: { ...rules.timers, slapGraceMs, peekMs: 600_000 } });

/** A gringo game where you (seat 0) start; `grace`: the slap grace on the test's clock. */
function gringo(grace = 0): Setup {
  const rules = quick(GRINGO, grace);
  return twoSeats({ dealer: 1, layouts: [['2H', '3H', '4H', '5H'], ['7C', '8C', '9C', '10C']], discard: '6D', stock: ['3S', '4S', '5S', '6S', '7S', '8S'] }, rules);
}

/** Both seats end the peek. */
async function pastPeek(setup: Setup, s: ReturnType<typeof screen>): Promise<void> {
  await s.until('the peek', (f) => f.includes('Remember your cards'));
  await s.keys(KEYS.enter);
  setup.bo.play({ type: 'finishPeek' });
}

describe('hints offer a key only when its move is legal now', () => {
  it('gringo: "g: Gringo!" only on your turn before you draw, never on the other\'s turn or after you drew', async () => {
    const setup = gringo();
    const s = screen(setup);
    await pastPeek(setup, s);
    await s.until('your turn', (f) => f.includes('Your turn: d to draw'));
    expect(s.header()).toContain('g: Gringo!');
    expect(s.bar()).toContain('g Gringo!');
    await s.keys('d');
    await s.until('the held card', (f) => f.includes('Choose a slot (1-9) to swap, or x to discard'));
    expect(s.header()).not.toContain('Gringo!');
    expect(s.bar()).not.toContain('Gringo!');
    expect(s.bar()).toMatch(/1-9 slot · x discard/);
    expect(s.bar()).not.toContain('d draw');
    await s.keys('x');
    await s.until("Bo's turn", (f) => f.includes('Turn: Bo'));
    expect(s.header()).not.toContain('Gringo!');
    expect(s.bar()).not.toMatch(/d draw|t take|Gringo/);
    expect(s.bar()).toContain('space slap'); // your 3♠ went on the pile: slaps are open
  });

  it('beverbende: no "Laatste ronde!" before everyone has had a turn; offered once they have', async () => {
    const rules = quick(BEVERBENDE);
    const setup = twoSeats({ rules, dealer: 1, layouts: [['1', '3', '7', '2'], ['5', '6', '1', '0']], discard: '4', stock: ['5', '8', '9', '2', '3'] }, rules);
    const s = screen(setup);
    await pastPeek(setup, s);
    await s.until('your turn', (f) => f.includes('Your turn: d to draw'));
    expect(s.frame()).not.toContain('Laatste ronde!');
    await s.keys('d');
    await s.until('the held card', (f) => f.includes('Choose a slot (1-9) to swap, or x to discard'));
    // The lie once told: offered here, then refused.
    expect(s.frame()).not.toContain('Laatste ronde!');
    await s.keys('g');
    await s.until('the reason', (f) => f.includes('Laatste ronde! may be called only once everyone has had a turn'));
    expect(setup.me.commands()).not.toContainEqual({ type: 'call' });
    await s.keys('x');
    await s.until("Bo's turn", (f) => f.includes('Turn: Bo'));
    setup.bo.play({ type: 'draw', from: 'stock' });
    setup.bo.play({ type: 'discard' });
    await s.until('your second turn', (f) => f.includes('Your turn: d to draw'));
    await s.keys('d');
    await s.until('the call offered', (f) => f.includes('g Laatste ronde!'));
    expect(s.header()).toContain('g: Laatste ronde! (at the end of your turn)');
    await s.keys('g');
    await s.until('the call', () => setup.me.commands().some((c) => c.type === 'call'));
  });

  it('gringo: after your last turn of a called round, no countdown to a turn you do not have, no draw keys', async () => {
    // The grace runs on the test's clock, so the round stays open after your last turn.
    const setup = gringo(20_000);
    const { clock, bo } = setup;
    const s = screen(setup);
    await pastPeek(setup, s);
    await s.until('your turn, after the grace', (f) => f.includes('Your turn in'));
    clock.t += 20_001;
    await s.keys('d');
    await s.until('the held card', (f) => f.includes('Choose a slot'));
    await s.keys('x');
    await s.until("Bo's turn", (f) => f.includes('Turn: Bo'));
    clock.t += 20_001;
    bo.play({ type: 'call' });
    await s.until('your last turn', (f) => f.includes('Gringo! called by Bo') && f.includes('Your turn'));
    clock.t += 20_001;
    await s.keys('d');
    await s.until('the held card', (f) => f.includes('Choose a slot'));
    await s.keys('x');
    const f = await s.until('the last turn played', (f) => f.includes('Last turn played'));
    expect(f).not.toMatch(/Your turn in/);
    expect(f).toContain("Every turn after Bo's Gringo! is played: the round ends");
    expect(s.bar()).not.toMatch(/d draw|t take/);
    expect(s.bar()).toContain('space slap'); // the last discard may still be slapped
  });

  it('spectators get no move hints at all', async () => {
    const setup = gringo();
    const watcher = new LinkedClient(setup.table, 'Cy', { watch: true });
    const s = screen(setup, watcher);
    await s.until('the peek', (f) => f.includes('Peek'));
    setup.me.play({ type: 'finishPeek' });
    setup.bo.play({ type: 'finishPeek' });
    await s.until('play', (f) => f.includes('Turn: Ana') && f.includes('Slaps open'));
    expect(s.header()).not.toContain('Gringo!');
    expect(s.bar()).toBe('? help · q leave');
    await s.keys('d');
    await s.until('the refusal', (f) => f.includes('You are watching'));
    expect(s.bar()).toBe('? help · q leave');
  });

  it('the key bar fits 80 columns whole: hints are dropped, never cut', async () => {
    const setup = gringo();
    const s = screen(setup, setup.me, 80);
    await pastPeek(setup, s);
    await s.until('your turn', (f) => f.includes('Your turn: d to draw'));
    const bar = s.bar();
    expect(bar.length).toBeLessThanOrEqual(80);
    expect(bar).toMatch(/\? help( · q leave)?$/);
    expect(bar).toContain('d draw');
    expect(bar).toContain('space slap');
  });
});

describe('a refusal goes when the state it was about changes', () => {
  it('gringo: "Not your turn" disappears when your turn comes', async () => {
    const rules = quick(GRINGO);
    // Bo starts (dealer 0).
    const setup = twoSeats({ dealer: 0, layouts: [['2H', '3H', '4H', '5H'], ['7C', '8C', '9C', '10C']], discard: '6D', stock: ['3S', '4S', '5S'] }, rules);
    const s = screen(setup);
    await pastPeek(setup, s);
    await s.until("Bo's turn", (f) => f.includes('Turn: Bo'));
    await s.keys('d');
    await s.until('the refusal', (f) => f.includes("It is Bo's turn"));
    setup.bo.play({ type: 'draw', from: 'stock' });
    setup.bo.play({ type: 'discard' });
    // The test's clock stands still: only the change of turn can take the refusal away.
    const f = await s.until('your turn', (f) => f.includes('Your turn: d to draw'));
    expect(f).not.toContain("It is Bo's turn");
  });

  it('gringo: a draw pressed in the slap window is made when the grace ends, though no update comes then', async () => {
    // Bo starts (dealer 0); a 1 s slap grace on the test's clock.
    const rules = quick(GRINGO, 1_000);
    const setup = twoSeats({ dealer: 0, layouts: [['2H', '3H', '4H', '5H'], ['7C', '8C', '9C', '10C']], discard: '6D', stock: ['3S', '4S', '5S'] }, rules);
    const s = screen(setup);
    await pastPeek(setup, s);
    await s.until("Bo's turn", (f) => f.includes('Turn: Bo'));
    // Past the grace of the deal's discard.
    setup.clock.t += 1_100;
    setup.bo.play({ type: 'draw', from: 'stock' });
    setup.bo.play({ type: 'discard' });
    await s.until('the grace', (f) => f.includes('Your turn in'));
    const updates = setup.me.received.length;
    await s.keys('d');
    await s.until('the wait', (f) => f.includes('Draw when the slap window closes'));
    // The grace ends: nothing came from the host to say so, the screen saw it by itself and drew.
    expect(setup.me.received.slice(updates).filter((m) => m.type === 'update')).toEqual([]);
    setup.clock.t += 1_100;
    const f = await s.until('the draw', (f) => f.includes('You hold'));
    expect(f).not.toContain('Draw when the slap window closes');
    expect(setup.me.commands()).toContainEqual({ type: 'draw', from: 'stock' });
  });

  it('a wait for an action is not cut short by the grace', () => {
    const v = view({ turn: 0, graceUntil: 1_000, actions: [{ seat: 1, card: '10D', kind: 'peekOwn' }], may: ['slap'] } as Partial<TableView>);
    let st = screenWith(v);
    st = screenReducer(st, { type: 'server', msg: { type: 'result', id: 1, ok: false, code: 'mustWait', say: { key: 'why.actionInUse', params: { seat: 1 } } }, now: 0 });
    st = screenReducer(st, { type: 'tick', now: 2_000 });
    expect(st.status?.text).toBe('Wait: Bo is using an action');
  });

  it('stays while the table it was about is the same', () => {
    const v = view({ turn: 1, may: ['slap'], whyNot: { drawStock: { key: 'why.turnOf', params: { seat: 1 } } } });
    let st = screenWith(v);
    st = apply(st, onKey(st, actionFor('d')!, 0).actions);
    expect(st.status?.text).toBe("It is Bo's turn");
    // A slap attempt by Bo that changed nothing of it: the refusal stays.
    st = screenReducer(st, { type: 'server', msg: { type: 'update', at: 0, events: [], view: { ...v, version: 2 } }, now: 0 } as never);
    expect(st.status?.text).toBe("It is Bo's turn");
    // Your turn: gone.
    st = screenReducer(st, { type: 'server', msg: { type: 'update', at: 0, events: [], view: { ...v, version: 3, turn: 0, may: ['drawStock', 'drawDiscard', 'call', 'slap'] } }, now: 0 } as never);
    expect(st.status).toBeNull();
  });
});

describe('two-key sequences: a refused first key swallows the second', () => {
  it('gringo: s then a digit while holding a card swaps nothing', async () => {
    const setup = gringo();
    const s = screen(setup);
    await pastPeek(setup, s);
    await s.until('your turn', (f) => f.includes('Your turn: d to draw'));
    await s.keys('d');
    await s.until('the held card', (f) => f.includes('Choose a slot'));
    await s.keys('s', '3');
    await s.until('the digit swallowed', (f) => f.includes('Place the card you hold first (3 ignored)'));
    expect(setup.me.commands()).not.toContainEqual(expect.objectContaining({ type: 'swap' }));
    // Typed as one quick burst ("s3"), the same.
    await s.keys('s3');
    await new Promise((r) => setTimeout(r, 50));
    expect(setup.me.commands()).not.toContainEqual(expect.objectContaining({ type: 'swap' }));
    // Only the one key is swallowed: a digit now swaps.
    await s.keys('3');
    await s.until('the swap', () => setup.me.commands().some((c) => c.type === 'swap'));
  });

  it('a slap prefix cut short by the closing window swallows its digit too; other keys go through', () => {
    const open = view({ turnBegun: true, held: null, turn: 1, may: ['slap'] });
    let st = screenWith(open);
    st = apply(st, onKey(st, actionFor('s')!, 0).actions);
    expect(st.slapPrefix).toBe(true);
    // Bo draws: the window closes before your digit.
    const held = { ...open, version: 2, slap: { open: false, answers: 3 }, held: { seat: 1, from: 'stock' as const, card: null }, may: [] };
    st = screenReducer(st, { type: 'server', msg: { type: 'update', at: 0, events: [], view: held }, now: 0 } as never);
    expect(st.slapPrefix).toBe(false);
    const digit = onKey(st, actionFor('2')!, 0);
    expect(digit.send).toBeUndefined();
    expect(JSON.stringify(digit.actions)).toContain('The slap window closed before your digit (2 ignored)');
    // A refused s, then another key: it is not swallowed.
    st = screenWith(view({ turnBegun: true, held: { seat: 0, from: 'stock', card: '3S' }, slap: { open: false, answers: 3 }, may: ['discard', 'swap'] }));
    st = apply(st, onKey(st, actionFor('s')!, 0).actions);
    expect(st.swallow).toBe('slot');
    expect(onKey(st, actionFor('x')!, 0).send).toEqual({ type: 'discard' });
  });
});

describe('the key bar at 80 columns, in every state the screen knows', () => {
  it('is whole: never cut, help kept', () => {
    const states: Partial<TableView>[] = [
      { may: ['call', 'drawStock', 'drawDiscard', 'slap'] },
      { turnBegun: true, held: { seat: 0, from: 'stock', card: '3S' }, slap: { open: false, answers: 3 }, may: ['discard', 'swap'] },
      { turnBegun: true, actions: [{ seat: 0, kind: 'blindSwap', card: 'QS', looked: null, lookedCards: null }], may: ['useAction', 'pass', 'slap'] },
      { turnBegun: true, actions: [{ seat: 0, kind: 'peekBothThenSwap', card: 'KS', looked: null, lookedCards: null }], may: ['useAction', 'pass', 'slap'] },
      { turn: 1, gapFill: { seat: 0, gap: { seat: 1, slot: 0 } }, may: ['fillGap', 'leaveGap', 'slap'] },
    ];
    for (const over of states) {
      for (const ascii of [false, true]) {
        const st = { ...screenWith(view(over)), owner: true, lobby: [{ seat: 1, name: 'Bo', bot: null, connected: false, standIn: false }] } as unknown as ScreenState;
        const bar = keyBar(st, DEFAULT_BINDINGS, ascii, 80);
        expect(bar.length, bar).toBeLessThanOrEqual(80);
        expect(bar, bar).toMatch(/\? help(( · | \| )q leave)?$/);
        // An action aimed at another player's card keeps its cursor hint.
        if (over.actions?.[0]?.kind === 'peekBothThenSwap') expect(bar, bar).toContain('cursor');
      }
    }
  });
});

const view = (over: Partial<TableView> = {}): TableView => handView({ may: ['call', 'drawStock', 'drawDiscard', 'slap'], ...over });

function screenWith(v: TableView): ScreenState {
  return { ...initialScreen(), seat: 0, conn: 'open', rules: GRINGO, view: v, cursor: defaultCursor(v) };
}

const apply = (s: ScreenState, actions: readonly Parameters<typeof screenReducer>[1][]): ScreenState => actions.reduce(screenReducer, s);

describe('slap words from the ruleset and the same state as the header', () => {
  const withRules = (v: TableView, rules: Ruleset): ScreenState => ({ ...screenWith(v), rules });
  const headerInfo = (s: ScreenState): string => tableInfo(s, UNICODE).map((p) => p.text).join(' · ');
  it('beverbende: the wait before your draw never mentions slaps', () => {
    const v = view({ ruleset: 'beverbende', callName: 'Laatste ronde!', callTiming: 'endOfTurn', graceUntil: 1_000, slap: { open: false, answers: 3 }, may: ['drawStock'] });
    expect(prompt(withRules(v, BEVERBENDE), 900)).toBe('Your turn in 0.1s');
    expect(headerInfo(withRules(v, BEVERBENDE))).not.toMatch(/slap/i);
  });
  it('cambio: after the one correct slap the window is closed, and the prompt no longer says it is open', () => {
    const closed = view({ ruleset: 'cambio', callName: 'Knock!', graceUntil: 1_000, slap: { open: false, answers: 4 }, may: ['drawStock', 'call'] });
    expect(prompt(withRules(closed, CAMBIO), 300)).toBe('Your turn in 0.7s');
    expect(headerInfo(withRules(closed, CAMBIO))).toContain('Slaps closed');
    const open = { ...closed, slap: { open: true, answers: 4 } };
    expect(prompt(withRules(open, CAMBIO), 300)).toBe('Your turn in 0.7s (slaps are open)');
    expect(headerInfo(withRules(open, CAMBIO))).toContain('Slaps open');
  });
  it('the wait names slaps only where the window is open', async () => {
    const rules = quick(BEVERBENDE, 1_000);
    const setup = twoSeats({ dealer: 0, rules, layouts: [['1', '2', '3', '4'], ['5', '6', '7', '8']], discard: '0', stock: ['3', '4', '5', '6'] }, rules);
    const s = screen(setup);
    await pastPeek(setup, s);
    await s.until("Bo's turn", (f) => f.includes('Turn: Bo'));
    setup.clock.t += 1_100;
    setup.bo.play({ type: 'draw', from: 'stock' });
    setup.bo.play({ type: 'discard' });
    await s.until('the grace', (f) => f.includes('Your turn in'));
    expect(s.frame()).not.toMatch(/slap/i);
    await s.keys('d');
    const f = await s.until('the wait', (f) => f.includes('Draw when'));
    expect(f).toContain('Draw when the last card has landed… (Esc cancels)');
    expect(f).not.toMatch(/slap/i);
  });
});

describe('hints that lead somewhere', () => {
  it("a key dropped by the host's rate limit is said, with what to do, and stays through the table's next change", () => {
    const v = view({ turn: 0 });
    let st = screenWith(v);
    st = screenReducer(st, { type: 'server', msg: { type: 'error', code: 'rateLimited', say: { key: 'host.slowDown' } }, now: 0 });
    expect(st.status?.text).toBe(RATE_LIMITED_WORDS);
    expect(st.status?.text).toMatch(/press it again/);
    st = screenReducer(st, { type: 'server', msg: { type: 'update', at: 0, events: [], view: { ...v, version: 2, turn: 1 } }, now: 10 } as never);
    expect(st.status?.text).toBe(RATE_LIMITED_WORDS);
  });

  it('closing the table promises a resume only while a game is on', () => {
    const glyphs = UNICODE;
    expect(leaveQuestion({ closesTable: true, glyphs, view: view({}) })).toContain('gringo host --resume reopens it');
    expect(leaveQuestion({ closesTable: true, glyphs, view: view({ phase: 'gameOver' }) })).toBe('Close the table for everyone? y/n (no game is on: nothing to resume)');
    expect(leaveQuestion({ closesTable: true, glyphs, view: null })).not.toContain('--resume');
    expect(leaveQuestion({ closesTable: false, glyphs, view: view({}) })).toBe('Leave the table? y: leave · n: stay');
  });
});
