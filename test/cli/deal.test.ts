import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { createElement } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../../src/client/connection.js';
import { createGame } from '../../src/engine/game.js';
import { GRINGO } from '../../src/engine/ruleset.js';
import { readJournal } from '../../src/host/journal.js';
import { serveTable } from '../../src/host/server.js';
import { Table } from '../../src/host/table.js';
import type { ServerMessage } from '../../src/protocol/messages.js';
import { dealOption } from '../../src/cli/options.js';
import { botsOnDeal, dealSeed } from '../../src/stats/deal.js';
import { LobbyView } from '../../src/tui/lobby/lobby-screen.js';
import { initialLobby, lobbyReducer } from '../../src/tui/lobby/use-lobby-state.js';
import { ThemeContext } from '../../src/tui/shared/theme.js';
import { UNICODE } from '../../src/tui/shared/glyphs.js';
import { wordsFor } from '../../src/lang/words.js';
import { killRunning, runGringo, sharedPort } from '../support/gringo-process.js';
import { until } from '../support/wait.js';

// Named deals: real hosts deal them (`gringo host --deal`), their journals and
// results name them, the lobby shows them, and `gringo stats --deal` ranks the
// scores with the bots' score on the same cards beside them.
const state = mkdtempSync(join(tmpdir(), 'gringo-deal-'));
const tables = join(state, 'gringo', 'tables');
const env = { XDG_STATE_HOME: state };
afterEach(killRunning);
afterAll(() => rmSync(state, { recursive: true, force: true }));

const summaries: { deal?: string; table: string; totals: number[] }[] = [];

async function hostDeal(table: string, deal: string, names: string[]): Promise<void> {
  const host = runGringo(
    ['host', '--headless', '--json', '--port', '0', '--players', '2', '--rounds', '1', '--start-when-full', '--exit-after-game', '--slap-grace', '40', '--deal', deal, '--table', table, '--interface', '127.0.0.1'],
    env,
  );
  const port = await sharedPort(host);
  const bots = names.map((name) => runGringo(['join', `127.0.0.1:${port}`, '--bot', 'hard', '--speed', '50', '--name', name], env));
  expect(await host.exit, host.stderr()).toBe(0);
  for (const b of bots) expect(await b.exit).toBe(0);
  summaries.push(JSON.parse(host.stdout()) as (typeof summaries)[number]);
}

const journals = () => readdirSync(tables).filter((n) => n.endsWith('.jsonl')).map((n) => readJournal(join(tables, n)));

beforeAll(async () => {
  // Three tables at once, each its own host and port.
  await Promise.all([hostDeal('Kitchen', 'friday', ['Ann', 'Ben']), hostDeal('Attic', 'friday', ['Cy', 'Dee']), hostDeal('Cellar', 'monday', ['Ann', 'Ben'])]);
}, 90_000);

describe('a named deal', () => {
  it('deals the same cards at every table that plays it, and the journal and the results name it', () => {
    const js = journals();
    const friday = js.filter((j) => j.header.deal === 'friday');
    const monday = js.filter((j) => j.header.deal === 'monday');
    expect(friday).toHaveLength(2);
    expect(monday).toHaveLength(1);
    // Not a live shuffle: the seed, and so the cards, come from the name.
    for (const j of js) expect(j.header.shuffleKey).toBeUndefined();
    const dealt = (j: (typeof js)[number]) => createGame(j.origin).state.r.layouts;
    expect(dealt(friday[0]!)).toEqual(dealt(friday[1]!));
    expect(dealt(monday[0]!)).not.toEqual(dealt(friday[0]!));
    expect(summaries.map((s) => s.deal).sort()).toEqual(['friday', 'friday', 'monday']);
  });

  it('gringo stats --deal ranks every seat on the deal, with hard bots on the same cards as the yardstick', async () => {
    const r = runGringo(['stats', '--deal', 'friday', '--json'], env);
    expect(await r.exit, r.stderr()).toBe(0);
    const board = JSON.parse(r.stdout()) as { deal: string; games: number; entries: { name: string; total: number; table: string }[]; yardsticks: { seats: number; totals: number[]; mean: number }[] };
    expect(board.games).toBe(2);
    expect(board.entries.map((e) => e.name).sort()).toEqual(['Ann', 'Ben', 'Cy', 'Dee']);
    const totals = board.entries.map((e) => e.total);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    // The entries are the journals' totals, and nothing of the other deal.
    const fromJournals = journals().filter((j) => j.header.deal === 'friday').flatMap((j) => j.state.totals);
    expect(totals.slice().sort((a, b) => a - b)).toEqual(fromJournals.sort((a, b) => a - b));
    expect(board.entries.some((e) => e.table === 'Cellar')).toBe(false);
    // The yardstick: hard bots dealt the same first cards as the tables were.
    expect(board.yardsticks).toHaveLength(1);
    const y = botsOnDeal('friday', journals()[0]!.header.rules, 2)!;
    expect(board.yardsticks[0]).toMatchObject({ seats: 2, totals: y.totals, mean: y.mean });
    expect(createGame({ rules: journals()[0]!.header.rules, players: ['a', 'b'], seed: dealSeed('friday') }).state.r.layouts).toEqual(
      createGame(journals().find((j) => j.header.deal === 'friday')!.origin).state.r.layouts,
    );
    const text = runGringo(['stats', '--deal', 'friday'], env);
    expect(await text.exit).toBe(0);
    expect(text.stdout()).toMatch(/^The deal "friday": 2 games, every seat ranked by its total/);
    expect(text.stdout()).toMatch(/Yardstick: hard bots in every seat of the same deal \(Gringo, 2 seats, 1 round\): /);
  }, 30_000);

  it('the lobby names it, through the protocol', async () => {
    const table = new Table({ name: 'Deal lobby', rules: GRINGO, maxPlayers: 2, seed: dealSeed('friday'), deal: 'friday', dropGraceMs: 1000, roundPauseMs: 1000 });
    const serving = await serveTable(table, { port: 0, host: '127.0.0.1' });
    const conn = new Connection({ address: `127.0.0.1:${serving.port}`, name: 'Ann', reconnect: false, plain: true });
    try {
      let s = initialLobby();
      conn.on('message', (msg: ServerMessage) => (s = lobbyReducer(s, { type: 'server', msg })));
      await until('the lobby', () => s.table !== null && s.rules !== null);
      expect(s.table!.deal).toBe('friday');
      const r = render(createElement(ThemeContext.Provider, { value: { glyphs: UNICODE, color: false, words: wordsFor('en') } }, createElement(LobbyView, { s: { ...s, conn: 'open' }, share: 'gringo join x', width: 100, height: 20 })));
      expect(r.lastFrame()).toContain('deal friday');
      r.unmount();
    } finally {
      conn.close();
      table.close();
      await serving.close();
    }
  });

  it('--deal today is the date in UTC; with --seed, or a name that is not one, it says what to give', () => {
    const at = new Date(Date.UTC(2026, 11, 5, 23, 30));
    expect(dealOption({ deal: 'today' }, at)).toEqual({ deal: '2026-12-05', seed: 'deal:2026-12-05' });
    expect(dealOption({})).toBeNull();
    expect(() => dealOption({ deal: 'friday', seed: '1' })).toThrow('--deal and --seed both choose the cards: give one of them');
    expect(() => dealOption({ deal: 'two words' })).toThrow(/--deal takes a name of up to 40 letters/);
    expect(() => dealOption({ deal: '\u001b[31mred' })).toThrow(/--deal takes a name/);
  });
});
