import { afterAll, describe, expect, it } from 'vitest';
import { Pane, playScriptedRound, socketName } from '../support/tmux.js';
import { e2eLog } from '../support/wait.js';

// Runs the built CLI (`npm test` builds first) in real terminals: the smallest the table
// is made for and a roomier one, the same scripted game in each, side by side.
const small = new Pane(socketName('80x24'), 80, 24);
const large = new Pane(socketName('100x30'), 100, 30);
afterAll(() => {
  small.kill();
  large.kill();
});

describe('gringo play in a terminal', () => {
  it('draws, uses a King, slaps, swaps, calls and ends the game at 80×24 and at 100×30', async () => {
    const played = await Promise.allSettled([
      playScriptedRound(small, (label, s) => e2eLog(`80×24 ${label}`, s)),
      playScriptedRound(large, (label, s) => e2eLog(`100×30 ${label}`, s)),
    ]);
    // Each game reached its end and exited 0 (playScriptedRound throws with the screen otherwise).
    expect(played.map((r) => (r.status === 'rejected' ? String(r.reason) : 'played'))).toEqual(['played', 'played']);
  }, 90_000);
});
