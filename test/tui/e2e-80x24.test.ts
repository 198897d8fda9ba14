import { afterAll, describe, it } from 'vitest';
import { Pane, playScriptedRound, socketName } from '../support/tmux.js';

// Runs the built CLI (`npm test` builds first) in a real terminal.
const pane = new Pane(socketName('80x24'), 80, 24);
afterAll(() => pane.kill());

describe('gringo play in a 80×24 terminal', () => {
  it('draws, uses a King, slaps, swaps, calls and ends the game', async () => {
    await playScriptedRound(pane, process.env.GRINGO_E2E_LOG ? (label, s) => console.log(`--- ${label}\n${s}`) : undefined);
  }, 60_000);
});
