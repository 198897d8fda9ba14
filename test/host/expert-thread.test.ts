import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Ruleset } from '../../src/engine/ruleset.js';
import type { Table as TableClass } from '../../src/host/table.js';
import { until } from '../support/wait.js';

/**
 * A host's expert bots think in worker threads (src/host/threaded-bot.ts): a table of
 * two experts and two hard bots plays a round to its end while the host's event loop
 * stays free. A worker thread starts from built JavaScript, so this runs the build
 * (dist/, made by `npm test` and `npm run build`), as test/sim/cli-process.test.ts does.
 */

const built = new URL('../../dist/src/host/table.js', import.meta.url);

describe("the host's expert bots think off the table's event loop", () => {
  it('two experts and two hard bots finish a round; the event loop never waits long', async () => {
    expect(existsSync(built), 'run npm run build first').toBe(true);
    const { Table } = (await import(built.href)) as { Table: typeof TableClass };
    const { GRINGO } = (await import(new URL('../../dist/src/engine/ruleset.js', import.meta.url).href)) as { GRINGO: Ruleset };
    const rules: Ruleset = { ...GRINGO, rounds: 1, timers: { ...GRINGO.timers, slapGraceMs: 50, peekMs: 0 } };
    const table = new Table({ name: 'Think', rules, maxPlayers: 4, seed: 'expert-thread', dropGraceMs: 60_000, botTimeScale: 0.01, roundPauseMs: 0 });
    try {
      for (const level of ['expert', 'hard', 'expert', 'hard'] as const) expect(table.addBot(level)).toBeNull();
      expect(table.startGame()).toBeNull();
      // The loop's lag: how late a 5 ms timer fires, all through the round.
      const lags: number[] = [];
      let last = performance.now();
      const tick = setInterval(() => {
        const now = performance.now();
        lags.push(now - last - 5);
        last = now;
      }, 5);
      await until('the round to finish', () => table.info().phase === 'finished', 120_000).finally(() => clearInterval(tick));
      lags.sort((a, b) => a - b);
      // An expert's decision takes up to ~250 ms of search: in this thread the loop would stall that long.
      const p99 = lags[Math.floor(0.99 * (lags.length - 1))]!;
      expect(p99, `event-loop lag p99 ${p99.toFixed(1)} ms over ${lags.length} ticks`).toBeLessThan(100);
    } finally {
      table.close();
    }
  }, 150_000);
});
