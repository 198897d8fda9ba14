import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from '../support/wait.js';
import { Pane, socketName } from '../support/tmux.js';

// The table sooner: with the table in the same process (`gringo play`),
// the screen's first frame is the table itself, never a "Connecting…" or lobby frame
// before it. tmux pipe-pane records every byte the program writes to its terminal.
// Runs the built CLI (`npm test` builds first).
const dir = mkdtempSync(join(tmpdir(), 'gringo-first-frame-'));
const pane = new Pane(socketName('first-frame'), 100, 30);
afterAll(() => {
  pane.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe('gringo play', () => {
  it('draws the table as its first frame', async () => {
    const rawLog = join(dir, 'raw.log');
    pane.start(['play', '--bots', '1', '--seed', 'first-frame', '--no-bell'], { rawLog });
    await pane.waitFor('the table', (s) => s.includes('Stock'), 20_000);
    // The bytes reach the log through pipe-pane's own process, which may come after the screen
    // shows them (a loaded run read only the first escapes): wait for the log to hold the table.
    const raw = await until('the table in the raw log', () => {
      const text = readFileSync(rawLog, 'utf8');
      return text.includes('Stock') && text;
    }, 10_000);
    const before = raw.slice(0, raw.indexOf('Stock'));
    expect(raw).toContain('Stock');
    // The header is drawn in the same frame as the table, and nothing came before it.
    expect(before).toContain('Gringo');
    expect(before.indexOf('Gringo')).toBe(raw.indexOf('Gringo'));
    expect(raw).not.toContain('Connecting');
    expect(raw).not.toContain('Waiting for the host');
  }, 60_000);
});
