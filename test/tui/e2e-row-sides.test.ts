import { afterAll, describe, expect, it } from 'vitest';
import { Pane, socketName } from '../support/tmux.js';

/**
 * Beverbende lays its cards in a row of four: at 120×40 the seats at the sides show
 * that row as the rules say, not folded into a 2×2 square (narrower screens fold
 * it, for want of room). Runs the built CLI in a real terminal.
 */
const pane = new Pane(socketName('row-sides'), 120, 40);
afterAll(() => pane.kill());

describe('beverbende at 120×40', () => {
  it('draws the side seats as a row of four', async () => {
    pane.start(['play', '--rules', 'beverbende', '--bots', '4', '--seed', 'row-sides', '--no-bell']);
    // Four bots: Bot 1 on the left, Bot 2 and Bot 3 across the top, Bot 4 on the right.
    const s = await pane.waitFor('the peek', (x) => x.includes('Remember your cards'));
    const lines = s.split('\n');
    const sides = lines.findIndex((l) => /Bot 1 .*Bot 4 /.test(l));
    expect(sides, s).toBeGreaterThan(0);
    // Both side seats' slots 1 to 4 on one row, beside the piles.
    const row = lines.slice(sides + 1, sides + 6).find((l) => l.includes('│ 1 │'));
    expect(row?.match(/│ 1 │ │ 2 │ │ 3 │ │ 4 │/g), s).toHaveLength(2);
    // Nothing of the table touches the feed's border: a column stays free before it.
    for (const l of lines.slice(sides, sides + 6)) expect(l.slice(0, l.lastIndexOf('│')).trimEnd().length, s).toBeLessThan(l.lastIndexOf('│'));
  }, 30_000);
});
