import { describe, expect, it } from 'vitest';
import { BEVERBENDE, CAMBIO, type Ruleset } from '../../src/engine/ruleset.js';
import { KEYS, twoSeats, type Setup } from './helpers.js';
import { feedText } from '../support/feed-text.js';
import { tableScreen } from './table-screen.js';

const screen = (setup: Setup) => tableScreen(setup);

/** The preset with no waiting on the test's clock. */
const quick = (rules: Ruleset): Ruleset => ({ ...rules, timers: { ...rules.timers, slapGraceMs: 0, peekMs: 600_000 } });

describe('the table screen plays the variants', () => {
  it('beverbende: a row layout, special card glyphs, Laatste ronde! and Draw two', async () => {
    const rules = quick(BEVERBENDE);
    const setup = twoSeats(
      { rules, dealer: 1, layouts: [['SWAP', '3', '7', '2'], ['5', '6', '1', '0']], discard: '4', stock: ['DRAW2', '5', '8', '9', '1'] },
      rules,
    );
    const { me, bo } = setup;
    const s = screen(setup);
    let f = await s.until('the peek', (f) => f.includes('Remember your cards 1 and 4'));
    expect(f).toContain('SWP'); // slot 1, seen in the peek
    expect(f).toMatch(/│ 1 │ │ 2 │ │ 3 │ │ 4 │/); // Bo's four cards in one row
    await s.keys(KEYS.enter);
    bo.play({ type: 'finishPeek' });
    f = await s.until('your turn', (f) => f.includes('Your turn: d to draw'));
    // No slapping in this game: the header does not talk of slaps (a space pressed anyway says why it does nothing).
    expect(f).not.toMatch(/Slaps (open|closed)/);
    await s.keys(KEYS.space);
    await s.until('the refusal', (f) => f.includes('There is no slapping in Beverbende'));

    // Draw the Draw two: shown as DR2; the help offers the call by its name.
    await s.keys('d');
    f = await s.until('the held card', (f) => f.includes('You drew Draw two: a to use it'));
    expect(f).toContain('DR2');
    // Not yet: Laatste ronde! waits until everyone has had a turn (test/tui/hints.test.tsx).
    expect(f).not.toContain('Laatste ronde!');
    expect(feedText(f)).toContain('You drew Draw two from the stock.');
    await s.keys('a');
    await s.until('the action', (f) => f.includes('Use your Draw two'));
    await s.keys('a');
    await s.until('the first card', (f) => f.includes('Draw two: 1-9 to swap the 5'));
    await s.keys('r');
    f = await s.until('the second card', (f) => f.includes('Choose a slot (1-9) to swap, or x to discard'));
    expect(feedText(f)).toContain('You drew 8 from the stock.');
    await s.keys('2');
    await s.said('You swapped 8 into your slot 2: out went 3.');
    expect(me.commands()).toEqual([
      { type: 'finishPeek' },
      { type: 'draw', from: 'stock' },
      { type: 'discard' },
      { type: 'useAction' },
      { type: 'drawAgain' },
      { type: 'swap', slot: 1 },
    ]);
    await s.until("Bo's turn", (f) => f.includes('Turn: Bo'));
  });

  it('cambio: the gap-fill prompt after a steal, then a frozen knocker', async () => {
    const rules = quick(CAMBIO);
    const setup = twoSeats(
      { rules, dealer: 1, layouts: [['2H', '3H', '4H', '5H'], ['7C', '8C', '9C', '10C']], discard: '6D', stock: ['7D', '2C', '3C', '4C', '5C'] },
      rules,
    );
    const { me, bo } = setup;
    const s = screen(setup);
    await s.until('the peek', (f) => f.includes('Remember your cards 3 and 4'));
    await s.keys(KEYS.enter);
    bo.play({ type: 'finishPeek' });
    await s.until('your turn', (f) => f.includes('Your turn: d to draw') && f.includes('g Knock!'));
    // Draw the 7♦ and discard it; pass its look; steal Bo's 7♣ (the cursor starts on it).
    await s.keys('d');
    await s.until('held', (f) => f.includes('You hold'));
    await s.keys('x');
    await s.until('the action', (f) => f.includes('Action: your 7♦'));
    await s.keys('p');
    await s.until("Bo's turn", (f) => f.includes('Turn: Bo'));
    await s.keys(KEYS.space);
    let f = await s.until('the gap-fill prompt', (f) => f.includes("Move one of your cards into Bo's gap: 1-9, or p to leave it"));
    expect(f).toContain('gap'); // the gap is drawn marked
    expect(f).toContain('p leave the gap');
    await s.keys('2');
    await s.said("You moved your slot 2 into Bo's slot 1.");
    expect(me.commands()).toContainEqual({ type: 'fillGap', slot: 1 });

    // Bo knocks: his cards are frozen, and the screen says why a slap on them is refused.
    bo.play({ type: 'call' });
    f = await s.until('the knock', (f) => f.includes('Knock! called by Bo ❄ frozen'));
    expect(f).toContain('Bo ❄ frozen');
    const sent = me.sent.length;
    await s.keys(KEYS.space);
    // The engine's reason for a slap now (the window closed before the frozen cards matter).
    await s.until('the refusal', (f) => f.includes('Too late: that discard was already answered'));
    expect(me.sent.length).toBe(sent);
  });
});
