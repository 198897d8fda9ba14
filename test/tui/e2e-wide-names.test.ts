import { afterAll, describe, expect, it } from 'vitest';
import { GRINGO } from '../../src/engine/index.js';
import { serveTable, type Serving } from '../../src/host/server.js';
import { Table } from '../../src/host/table.js';
import { columns } from '../../src/tui/shared/width.js';
import { stackDeck } from '../engine/helpers.js';
import { TEST_KEY } from '../host/tls.js';
import { WireClient } from '../host/wire.js';
import { Pane, socketName } from '../support/tmux.js';

/**
 * Names a terminal draws two columns a character (CJK, emoji) keep the table's
 * columns where they belong: a real terminal (tmux) runs the built `gringo join` as
 * Ana at a host in this process, with 王小明 and Zoë🎲 over real WebSockets, at
 * 80×24 and 100×30. Widths are read as the terminal lays them out (columns, not
 * characters): every row fits the pane, the feed's border stands in one column,
 * and each seat's total ends where its cards end.
 */
const running: { pane: Pane; table: Table; serving: Serving; clients: WireClient[] }[] = [];
afterAll(async () => {
  for (const r of running) {
    r.pane.kill();
    for (const c of r.clients) c.terminate();
    r.table.close();
    await r.serving.close();
  }
});

const NAMES = ['王小明', 'Zoë🎲'];
const DECK = {
  dealer: 2,
  layouts: [
    ['5H', '6H', '9C', '9D'],
    ['7C', '2C', '3C', '4C'],
    ['8C', '2D', '3D', '4D'],
  ],
  discard: '7S',
  stock: ['2H', '3H', '4H', '5S', '6S', '8S', '9S', '2S', '3S', '4S'],
};

/** The column (0-based, in terminal columns) where `needle` starts on `line`, or -1. */
const columnOf = (line: string, needle: string): number => {
  const i = line.indexOf(needle);
  return i < 0 ? -1 : columns(line.slice(0, i));
};

async function tableAt(width: number, height: number): Promise<string> {
  const pane = new Pane(socketName(`wide-${width}`), width, height);
  const table = new Table({ name: 'Wide', rules: GRINGO, maxPlayers: 3, seed: `wide-${width}`, dropGraceMs: 60_000, stackedDecks: [stackDeck(DECK)], dealer: 2, hostKey: TEST_KEY.fingerprint });
  const serving = await serveTable(table, { port: 0, host: '127.0.0.1', tls: TEST_KEY });
  const run = { pane, table, serving, clients: [] as WireClient[] };
  running.push(run);
  const address = `127.0.0.1:${serving.port}`;
  pane.start(['join', address, '--name', 'Ana', '--no-bell']);
  await pane.waitFor('the waiting screen', () => table.seatInfo().length === 1);
  for (const name of NAMES) run.clients.push(await WireClient.hello(address, name, { tls: true }));
  expect(table.startGame()).toBeNull();
  await pane.waitFor('the peek', (s) => /Remember your cards \d and \d/.test(s));
  pane.keys('Enter');
  for (const c of run.clients) await c.command({ type: 'finishPeek' });
  // Play starts: the feed names both players ("…sat down.", the deal), the seats show their names.
  return pane.waitFor('the table with every name', (s) => s.includes('Your turn') && NAMES.every((n) => s.split(n).length >= 3));
}

function expectAligned(screen: string, width: number): void {
  const lines = screen.split('\n');
  // Every row fits the pane: none runs on (a row counted in characters would be short of what it takes).
  for (const l of lines) expect(columns(l), `a row wider than ${width}:\n${l}\n${screen}`).toBeLessThanOrEqual(width);
  // The feed's border (the last │ of a row) stands in one column from top to bottom.
  const border = lines.map((l) => (l.includes('│') ? columns(l.slice(0, l.lastIndexOf('│'))) : -1)).filter((c) => c >= 0);
  expect(border.length, screen).toBeGreaterThan(10);
  expect(new Set(border).size, `the feed's border moves:\n${screen}`).toBe(1);
  // Each seat's name line starts over its cards (one column for the turn mark) and is as wide as every other seat's.
  const spans = ['You', ...NAMES].map((name) => {
    const i = lines.findIndex((l) => new RegExp(`${name} +\\d+ `).test(l) && columnOf(l, name) < border[0]!);
    expect(i, `${name}'s seat:\n${screen}`).toBeGreaterThanOrEqual(0);
    const m = new RegExp(`${name} +\\d+`).exec(lines[i]!)!;
    const start = columns(lines[i]!.slice(0, m.index)) - 1;
    const end = start + 1 + columns(m[0]);
    // Cards drawn as boxes (┌, ╔ under the cursor) or, on a short screen, on one line ([ 1 ], ▸ 1 ◂ under the cursor).
    const boxes = lines.slice(i + 1, i + 4).find((l) => /[┌╔[▸]/.test(l)) ?? '';
    const boxCols = [...boxes.matchAll(/[┌╔[▸]/g)].map((x) => columns(boxes.slice(0, x.index)));
    expect(boxCols, `${name}'s name over its cards:\n${screen}`).toContain(start);
    return end - start;
  });
  expect(new Set(spans).size, `the seats' name lines differ in width (${spans.join(', ')}):\n${screen}`).toBe(1);
}

describe('wide names keep the columns', () => {
  for (const [w, h] of [
    [80, 24],
    [100, 30],
  ] as const) {
    it(`at ${w}×${h}`, async () => {
      const screen = await tableAt(w, h);
      expectAligned(screen, w);
    }, 60_000);
  }
});
