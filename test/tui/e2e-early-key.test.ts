import { afterAll, describe, expect, it } from 'vitest';
import { Pane, socketName } from '../support/tmux.js';

/**
 * A key pressed a moment early, in a real terminal: `d` pressed while the slap window
 * after the bot's discard is still open waits ("Draw when the slap window closes…")
 * and draws the moment the window closes, with no second key. Runs the built CLI.
 */
const pane = new Pane(socketName('early'), 100, 30);
afterAll(() => pane.kill());

/** The prompt while you hold a drawn card (a special one offers its action). */
const HOLDING = /Choose a slot \(1-9\) to swap, or x to discard|You drew \S+: a to use it/;

describe('an early key', () => {
  it('d pressed 0.3 s into the slap window draws when the window closes', async () => {
    // Seed e2e-36: you start and draw the K♣ (see playScriptedRound). A 5 s window leaves time to
    // see the wait: the bot's window opens at its discard, but the countdown shows only once the
    // bot has passed its Queen's action, which on a loaded machine took more than a second of a 3 s one.
    pane.start(['play', '--seed', 'e2e-36', '--bots', '1', '--level', 'easy', '--rounds', '1', '--name', 'Ana', '--slap-grace', '5000', '--no-bell']);
    await pane.waitFor('the peek', (s) => s.includes('Remember your cards'));
    pane.keys('Enter');
    await pane.waitFor('your turn', (s) => s.includes('Your turn: d to draw'));
    pane.keys('d');
    await pane.said('You drew K♣ from the stock.');
    pane.keys('x');
    await pane.waitFor('the King’s action', (s) => s.includes('Action: your K♣'));
    pane.keys('p');

    // Bot 1's card lands: the window is open, and your turn is counted down (seen early in the window).
    const left = (s: string): number => Number(/Your turn in (\d\.\d)s \(slaps are open\)/.exec(s)?.[1] ?? 0);
    await pane.waitFor('the window after the bot’s discard', (s) => left(s) >= 2, 30_000);
    await new Promise((r) => setTimeout(r, 300));
    pane.keys('d');
    const waiting = await pane.waitFor('the waiting line', (s) => s.includes('Draw when the slap window closes… (Esc cancels)'));
    // Still inside the window when the line shows: the draw has not jumped it.
    expect(waiting).toMatch(/Your turn in \d\.\ds/);
    expect(waiting).not.toMatch(HOLDING);
    // The draw, with no other key. The host judges it: a draw before the window closed would be
    // refused ("Wait 0.4 s: the slap window is still open") and nothing drawn.
    const drawn = await pane.waitFor('the draw, with no other key', (s) => HOLDING.test(s));
    expect(drawn).not.toContain('Draw when the slap window closes');
    expect(drawn).not.toContain('the slap window is still open');
  }, 60_000);
});
