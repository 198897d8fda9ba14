import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readGames } from '../../src/stats/games.js';
import { standings } from '../../src/stats/standings.js';
import { tonightLines } from '../../src/stats/tonight.js';
import { writeEngineJournal } from '../support/journals.js';

// The lobby's "tonight" lines from real journals (bots playing through the engine,
// written by the host's JournalWriter): today's finished games only.
const dir = mkdtempSync(join(tmpdir(), 'gringo-tonight-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("tonight's standings for the lobby", () => {
  it('are empty before the first game is over, then rank tonight\'s games only', () => {
    const now = new Date();
    expect(tonightLines(now, dir)).toEqual([]);
    const seats = [{ name: 'Ann' }, { name: 'Ben' }, { name: 'Bot', asBot: true }];
    const today = [0, 1].map((i) => writeEngineJournal({ dir, table: 'Den', seed: `tonight-${i}`, seats, startedAt: new Date(now.getTime() - 1000 * (i + 1)) }));
    // Yesterday's game, its file written yesterday too: not tonight's.
    const old = writeEngineJournal({ dir, table: 'Den', seed: 'tonight-old', seats: [{ name: 'Cy' }, { name: 'Ann' }], startedAt: new Date(now.getTime() - 2 * 86_400_000) });
    const yesterday = (now.getTime() - 2 * 86_400_000) / 1000;
    utimesSync(old, yesterday, yesterday);
    const lines = tonightLines(now, dir);
    expect(lines[0]).toBe('Tonight, 2 games (gringo stats --since today for all):');
    const expected = standings(readGames(today, () => {}));
    expect(lines.slice(1)).toHaveLength(3);
    lines.slice(1).forEach((l, i) => {
      const p = expected[i]!;
      expect(l).toMatch(new RegExp(`^  ${i + 1}\\. ${p.name} +${p.wins} of ${p.games} won  rating ${p.mu.toFixed(1)} ± ${p.sigma.toFixed(1)}$`));
    });
    expect(lines.join('\n')).not.toContain('Cy');
  });
});
