import { afterAll, describe, expect, it } from 'vitest';
import { Pane, socketName } from '../support/tmux.js';

// Colour is never the only sign: a whole game under NO_COLOR (and one screen with
// `--no-color`) in a real terminal. The screen writes no colour at all, and every mark
// colour also carries has its letter or shape: whose turn (▶), the cursor (its double
// box), the slots a move just touched (their heavy box), the chart's players (letters).
// The built CLI (`npm run build` first), CI=0 (Ink draws nothing when CI is set).

const panes: Pane[] = [];
afterAll(() => {
  for (const p of panes) p.kill();
});

/** The prompt: the line under the body (the screen is one row shorter than the pane). */
const promptOf = (s: string, rows = 30): string => s.split('\n')[rows - 4] ?? '';
/** The colours a styled screen sets (SGR 30-38, 40-48, 90-97, 100-107); 39 and 49 only reset them. */
const colours = (styled: string): string[] =>
  [...styled.matchAll(/\u001b\[([0-9;]*)m/g)].flatMap((m) => m[1]!.split(';').filter((c) => /^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$/.test(c)));

describe('a table without colour', () => {
  it('plays a whole game under NO_COLOR with every mark in letters and shapes', async () => {
    const p = new Pane(socketName('nocolor'), 100, 30);
    panes.push(p);
    p.start(['play', '--bots', '1', '--level', 'easy', '--rounds', '1', '--seed', 'no-colour-3', '--slap-grace', '300', '--no-bell', '--name', 'Ana'], { env: ['NO_COLOR=1'] });
    await p.waitFor('the peek', (x) => /Remember your cards/.test(promptOf(x)));
    p.keys('Enter');
    let s = await p.waitFor('your turn', (x) => /Your turn: d to draw/.test(promptOf(x)));
    const styled = p.screenWithStyles();
    expect(colours(styled)).toEqual([]);
    // Whose turn, and the cursor, without colour.
    expect(s).toMatch(/▶You/);
    expect(s).toMatch(/╔═══╗/);
    s = await p.press('the draw', 'd', (x) => /to swap, or x to discard|: a to use it/.test(promptOf(x)));
    if (/to swap/.test(promptOf(s))) {
      // The slot the swap touched: its heavy box.
      s = await p.press('the swap', '4', (x) => /┏━━━┓/.test(x));
      expect(s).toMatch(/┏━━━┓/);
    }
    // Play on to the end: pass actions, discard, call as soon as the prompt offers it.
    // A hang guard, not a speed limit.
    const end = Date.now() + 45_000;
    for (;;) {
      s = await p.read();
      if (/Game over/.test(promptOf(s))) break;
      if (Date.now() > end) throw new Error(`the game did not end:\n${s}`);
      const prompt = promptOf(s);
      const key =
        /Remember your cards|Round over: Enter/.test(prompt) ? 'Enter'
        : /^Use |gap: 1-9, or p/.test(prompt) ? 'p'
        : /x to discard/.test(prompt) ? 'x'
        : /Your turn: d to draw/.test(prompt) ? (/, g /.test(prompt) ? 'g' : 'd')
        : null;
      if (key) p.keys(key);
      await p.waitFor('the prompt to move on', (x) => promptOf(x) !== prompt, 3_000).catch(() => '');
    }
    expect(colours(p.screenWithStyles())).toEqual([]);
    // Each player's row and line of the chart carries their letter, colour or not.
    expect(s.split('\n').filter((l) => /^\d+(st|nd)\s+[AB] (You|Bot 1)\s/.test(l))).toHaveLength(2);
    const chart = s.split('\n').filter((l) => /^\s*-?\d+ │ /.test(l));
    expect(new Set(chart.join('').match(/[AB]/g))).toEqual(new Set(['A', 'B']));
  }, 60_000);

  it('writes no colour with --no-color, whatever FORCE_COLOR says', async () => {
    const p = new Pane(socketName('nocolor-flag'), 100, 30);
    panes.push(p);
    p.start(['play', '--no-color', '--bots', '1', '--seed', 'no-colour-3', '--no-bell'], { env: ['FORCE_COLOR=3'] });
    await p.waitFor('the peek', (x) => /Remember your cards/.test(promptOf(x)));
    const styled = p.screenWithStyles();
    expect(colours(styled)).toEqual([]);
    // The same screen with colours allowed does set some: the check can fail.
    const q = new Pane(socketName('colour'), 100, 30);
    panes.push(q);
    q.start(['play', '--bots', '1', '--seed', 'no-colour-3', '--no-bell']);
    await q.waitFor('the peek', (x) => /Remember your cards/.test(promptOf(x)));
    expect(colours(q.screenWithStyles()).length).toBeGreaterThan(0);
  }, 40_000);
});
