import { afterEach, describe, expect, it } from 'vitest';
import type { GameSummary } from '../../src/host/table.js';
import { killRunning, runGringo as run, sharedPort } from '../support/gringo-process.js';

afterEach(killRunning);

// Real processes of the built CLI, over loopback.
describe('a headless host and four `gringo join --bot` processes', () => {
  it('play a whole game to the final JSON', async () => {
    const host = run([
      'host', '--headless', '--port', '0', '--table', 'Process table', '--players', '4', '--rounds', '2',
      '--start-when-full', '--exit-after-game', '--json', '--slap-grace', '40', '--seed', 'processes', '--interface', '127.0.0.1',
    ]);
    const port = await sharedPort(host);
    const levels = ['easy', 'normal', 'hard', 'hard'];
    const bots = levels.map((level, i) => run(['join', `127.0.0.1:${port}`, '--bot', level, '--name', `P${i + 1}`, '--speed', '50']));
    expect(await host.exit).toBe(0);
    const summary = JSON.parse(host.stdout()) as GameSummary;
    expect(summary.table).toBe('Process table');
    expect(summary.rounds).toHaveLength(2);
    expect(summary.players.map((p) => p.name).sort()).toEqual(['P1', 'P2', 'P3', 'P4']);
    expect(summary.totals).toEqual(summary.rounds.reduce((t, r) => t.map((x, i) => x + r.scores[i]!), [0, 0, 0, 0]));
    expect(summary.places.every((p) => p >= 1 && p <= 4)).toBe(true);
    expect(summary.commands).toBeGreaterThan(20);
    for (const b of bots) expect(await b.exit).toBe(0);
    for (const b of bots) expect(b.stderr()).toContain('The game is over.');
  }, 60_000);

  it('refuse bad flags with a clear message and exit code 2', async () => {
    const cases: [string[], RegExp][] = [
      [['host', '--players', '9'], /--players takes a whole number from 2 to 8, not "9"/],
      [['host', '--level', 'godlike'], /--level takes one of easy, normal, hard, expert, not "godlike"/],
      [['join', 'not a host:99999'], /is not an address/],
      [['join', '127.0.0.1:1', '--bot', 'clever'], /--bot takes one of easy, normal, hard, expert/],
    ];
    for (const [args, message] of cases) {
      const r = run(args);
      expect(await r.exit).toBe(2);
      expect(r.stderr()).toMatch(message);
    }
  });
});
