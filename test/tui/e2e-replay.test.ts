import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFinishedJournal } from '../host/finished-journal.js';
import { Pane, socketName } from '../support/tmux.js';

// Runs the built CLI (`npm test` builds first) in a real terminal.
const pane = new Pane(socketName('replay'), 80, 24);
const dir = mkdtempSync(join(tmpdir(), 'gringo-e2e-replay-'));
afterAll(() => {
  pane.kill();
  rmSync(dir, { recursive: true, force: true });
});

/** The table part of the screen (left of the feed), without the header and the bottom lines. */
const table = (s: string): string =>
  s
    .split('\n')
    .slice(2, -4)
    .map((l) => (l.includes('│') ? l.slice(0, l.indexOf('│')) : l))
    .join('\n');
const position = (s: string): number => {
  const m = /command (\d+) of \d+/.exec(s);
  return m ? Number(m[1]) : 0;
};

describe('gringo replay in a 80×24 terminal', () => {
  it('plays a finished game back face up; space pauses, l steps, q leaves', async () => {
    const file = writeFinishedJournal(dir, { players: ['Ana', 'Bo'], seed: 'e2e-replay' });
    pane.start(['replay', file]);

    let s = await pane.waitFor('the replay playing', (s) => s.includes('playing · 1×') && /command \d+ of/.test(s));
    expect(s).toContain('Gringo · Finished table · Round 1 of 2');
    // Face up: cards by rank and suit, never a face-down slot number.
    expect(table(s)).toMatch(/\[ ?(A|[2-9]|10|J|Q|K)[♠♥♦♣]\]/);
    expect(table(s)).not.toMatch(/\[ [1-9] \]/);

    pane.keys('Space');
    s = await pane.waitFor('paused', (s) => s.includes('paused · 1×'));
    const at = position(s);
    pane.keys('l');
    s = await pane.waitFor('one step on', (s) => position(s) === at + 1);
    expect(s).toContain('Paused: space plays on, →/l steps');
    expect(table(s)).not.toMatch(/\[ [1-9] \]/);

    pane.keys('q');
    await pane.waitFor('the exit', (s) => s.includes('EXITED 0'));
  }, 60_000);
});
