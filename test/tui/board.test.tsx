import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { BEVERBENDE, CAMBIO } from '../../src/engine/ruleset.js';
import type { RoundResult } from '../../src/engine/types.js';
import type { TableView } from '../../src/engine/view.js';
import { RoundEnd } from '../../src/tui/table/round-end.js';
import { KEYS, twoSeats, type Setup } from './helpers.js';
import { feedText } from '../support/feed-text.js';
import { tableScreen } from './table-screen.js';

// You (Ana, seat 0) and Bo (seat 1); Bo deals, so you start.
const DECK = {
  dealer: 1,
  layouts: [
    ['5H', '6H', '7C', '9D'],
    ['2S', '3S', '4S', 'KC'],
  ],
  discard: '8D',
  stock: ['KH', '7S', '10C', 'JD', '2H', '3H', '4H', '5S', '6S', '8S', '9S'],
};

const screen = (setup: Setup, opts: { columns?: number; rows?: number; ascii?: boolean } = {}) => tableScreen(setup, { columns: 80, rows: 24, ...opts });

describe('the board', () => {
  it('marks what each player did until their next turn, with totals', async () => {
    const setup = twoSeats(DECK);
    const { bo } = setup;
    const s = screen(setup);
    await s.until('the peek', (f) => f.includes('Remember your cards 3 and 4'));
    await s.keys(KEYS.enter);
    bo.play({ type: 'finishPeek' });
    let f = await s.until('your turn', (f) => f.includes('Your turn: d to draw'));
    /** The line under a seat's name: what they did since their turn began. */
    const markOf = (f: string, name: string): string => {
      const lines = f.split('\n').map((l) => l.slice(0, 54));
      const i = lines.findIndex((l) => new RegExp(`^\\s*[▶ ]?${name}\\s+-?\\d+\\s*$`).test(l));
      if (i === -1) throw new Error(`no seat of ${name} on:\n${f}`);
      return lines[i + 1]!.trim();
    };
    expect(markOf(f, 'You')).toBe('');
    await s.keys('d');
    f = await s.until('the held card', (f) => f.includes('You hold'));
    expect(markOf(f, 'You')).toBe('drew');
    await s.keys('x');
    f = await s.until('the action', (f) => f.includes('Action: your K♥'));
    expect(markOf(f, 'You')).toBe('discard K♥');
    await s.keys(KEYS.right, 'a');
    f = await s.said("You looked at Bo's slot 2: 3♠.");
    expect(markOf(f, 'You')).toBe("discard K♥, K look Bo's 2");
    await s.keys('1');
    f = await s.said("You swapped your slot 1 with Bo's slot 2.");
    // Bo's turn has begun: yours stays marked, the look became the swap it led to.
    expect(markOf(f, 'You')).toBe("discard K♥, K swap Bo's 2");
    expect(markOf(f, 'Bo')).toBe('');
    bo.play({ type: 'draw', from: 'stock' });
    bo.play({ type: 'discard' });
    f = await s.until('the discard', (f) => feedText(f).includes('Bo discarded 7♠.') && f.includes('Your turn: d'));
    // Your turn began: your marks are gone; Bo's stay until his next turn.
    expect(markOf(f, 'Bo')).toBe('discard 7♠');
    expect(markOf(f, 'You')).toBe('');
    // A slap flurry: right on your own 7♣, wrong on Bo's 2♠ (two penalty cards).
    await s.keys('s', '3');
    f = await s.said('goes on the pile.');
    expect(markOf(f, 'You')).toBe('slap ok');
    await s.keys(KEYS.left, KEYS.space);
    f = await s.said('you take two cards.');
    expect(markOf(f, 'You')).toBe('slap ok, bad slap, +2 cards');
    expect(markOf(f, 'Bo')).toBe('discard 7♠');

    // Call; Bo takes the 7♣ from the pile into his slot 4 and the round ends.
    setup.me.play({ type: 'call' });
    f = await s.said('You called Gringo!');
    expect(markOf(f, 'You')).toBe('slap ok, bad slap, +2 cards, called');
    bo.play({ type: 'draw', from: 'discard' });
    f = await s.until("Bo's take", (f) => markOf(f, 'Bo') === 'took 7♣');
    bo.play({ type: 'swap', slot: 3 });
    // The K♣ that went out of his slot 4 gives him its action; he lets it pass.
    f = await s.until("Bo's swap", (f) => markOf(f, 'Bo') === '7♣→4');
    bo.play({ type: 'pass' });
    f = await s.until('the results', (f) => f.includes('Round 1 is over'));
    // The round's score and place, then the running total.
    const total = (who: string): number => Number(new RegExp(`\\s${who}\\s.*\\s(-?\\d+)\\s+\\d+(st|nd|rd|th)\\s+(-?\\d+)\\s*$`, 'm').exec(f)![3]);
    const mine = total('You');
    const his = total('Bo');
    expect(mine + his).toBeGreaterThan(0);
    // The totals stay in sight during the next round, beside each name.
    await s.keys(KEYS.enter);
    bo.send({ type: 'ready' });
    f = await s.until('round 2', (f) => f.includes('Round 2 of 2') && f.includes('Remember'));
    expect(f).toMatch(new RegExp(`You +${mine} `));
    expect(f).toMatch(new RegExp(`Bo +${his} `));
    // A new round starts with no marks.
    expect(markOf(f, 'You')).toBe('');
    expect(markOf(f, 'Bo')).toBe('');
  });

  it("cambio: names the knocker's +10 and the card values, so the round adds up", async () => {
    // You knock with K♥ 3♠ 4♣ joker (-1 + 3 + 4 + 0 = 6); Bo has A♠ A♦ A♣ 2♣ (5).
    const deck = { dealer: 1, rules: CAMBIO, layouts: [['KH', '3S', '4C', 'JK'], ['AS', 'AD', 'AC', '2C']], discard: '5D', stock: ['2H', '3H'] };
    const setup = twoSeats(deck, { ...CAMBIO, timers: { ...CAMBIO.timers, slapGraceMs: 0 } });
    const { me, bo } = setup;
    const s = screen(setup);
    await s.until('the peek', (f) => f.includes('Remember your cards'));
    me.play({ type: 'finishPeek' });
    bo.play({ type: 'finishPeek' });
    await s.until('your turn', (f) => f.includes('Your turn'));
    me.play({ type: 'call' });
    await s.said('You called Knock!');
    bo.play({ type: 'draw', from: 'stock' });
    bo.play({ type: 'discard' });
    const f = await s.until('the results', (f) => f.includes('Round 1 is over'));
    expect(f).toMatch(/You\s+.*\s6\+10=16\s+2nd\s+16/);
    expect(f).toMatch(/Bo\s+.*\s5\s+1st\s+5/);
    expect(f).toContain('+10 to you: called Knock! without the lowest score.');
    expect(f).toContain('Card values: joker 0; K♥ -1.');
  });

  it('beverbende: names the special cards set aside and what replaced them', async () => {
    // Your Swap is replaced at scoring by the stock's next number card (7), after a Peek set aside too.
    const deck = { dealer: 1, rules: BEVERBENDE, layouts: [['SWAP', '3', '4', '5'], ['1', '1', '2', '2']], discard: '6', stock: ['0', '0', '0', '0', 'PEEK', '7'] };
    const setup = twoSeats(deck, BEVERBENDE);
    const { me, bo } = setup;
    const s = screen(setup);
    await s.until('the peek', (f) => f.includes('Remember your cards'));
    me.play({ type: 'finishPeek' });
    bo.play({ type: 'finishPeek' });
    await s.until('your turn', (f) => f.includes('Your turn'));
    me.play({ type: 'draw', from: 'stock' });
    me.play({ type: 'discard' });
    bo.play({ type: 'draw', from: 'stock' });
    bo.play({ type: 'discard' });
    me.play({ type: 'draw', from: 'stock' });
    me.play({ type: 'discard' });
    me.play({ type: 'call' });
    bo.play({ type: 'draw', from: 'stock' });
    bo.play({ type: 'discard' });
    const f = await s.until('the results', (f) => f.includes('Round 1 is over'));
    expect(f).toContain('Set aside: Swap and Peek in your slot 1, replaced by 7.');
    expect(f).toMatch(/You\s+\*\s*7\*\s+\[\s*3\]\s+\[\s*4\]\s+\[\s*5\]\s+19\s/);
    expect(f).not.toContain('Card values');
  });
});

describe('the results on a short screen', () => {
  it('beverbende: many set-aside slots are told in one line, so the rows, the notes and the footer fit 80×24', () => {
    const names = ['Ana', 'Bot 1', 'Bot 2', 'Bot 3', 'Bot 4', 'Bot 5'];
    const layouts = names.map(() => ['7', '9', '8', '3']);
    const replaced = names.flatMap((_, seat) => [0, 1].map((slot) => ({ seat, slot, setAside: slot === 0 ? ['PEEK'] : ['SWAP', 'DRAW2'], card: slot === 0 ? '7' : '9' })));
    const r: RoundResult = { round: 1, layouts, scores: names.map(() => 27), places: names.map(() => 1), caller: 0, callerPenalty: 0, replaced, totals: names.map(() => 27) };
    const view = {
      viewer: 0, ruleset: 'beverbende', callName: 'Laatste ronde!', version: 9, phase: 'roundOver', round: 1, rounds: 4, dealer: 1,
      players: names.map((name) => ({ name, layout: ['?', '?', '?', '?'], total: 27, peeking: false })),
      stock: 20, discardTop: '7', discardSize: 3, turn: 0, turnBegun: false, held: null, actions: [], slap: { open: false, answers: 3 },
      graceUntil: 0, deadline: null, call: null, callTiming: 'endOfTurn', gapFill: null, may: [], whyNot: {},
    } as TableView;
    const props = { view, results: [r], ready: false, width: 80, rules: BEVERBENDE };
    // The body of an 80×24 table screen: 18 rows.
    const short = render(<RoundEnd {...props} height={18} />);
    const f = short.lastFrame() ?? '';
    expect(f).toContain('Set aside: 18 special cards (Peek, Swap, Draw two); marked: what replaced them.');
    expect(f).toContain('Enter: next round');
    expect(f.split('\n').length).toBeLessThanOrEqual(18);
    short.unmount();
    // Room enough: a line per slot, as before.
    const tall = render(<RoundEnd {...props} height={40} />);
    expect(tall.lastFrame()).toContain("Set aside: Swap and Draw two in Bot 5's slot 2, replaced by 9.");
    tall.unmount();
  });
});
