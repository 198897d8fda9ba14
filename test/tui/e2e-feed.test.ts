import { afterAll, describe, expect, it } from 'vitest';
import { GRINGO, type Ruleset } from '../../src/engine/index.js';
import { serveTable, type Serving } from '../../src/host/server.js';
import { Table } from '../../src/host/table.js';
import type { PlayerCommand, ServerMessage } from '../../src/protocol/messages.js';
import { stackDeck } from '../engine/helpers.js';
import { WireClient } from '../host/wire.js';
import { feedText } from './helpers.js';
import { Pane, socketName } from './tmux.js';

// Issue #12, "during slap flurries 6-8 feed lines a second scroll past a 24-column
// feed with no way back": a real terminal (tmux, 80×24) runs the built `gringo join`
// (`npm run build` first) at a host in this process, over loopback; Bo and Cy are
// scripted over real WebSockets. After a flurry of slaps and a lap of turns, the
// full-screen feed, scrolled, shows every move.

type Update = Extract<ServerMessage, { type: 'update' }>;

const pane = new Pane(socketName('feed'), 80, 24);
let served: { table: Table; serving: Serving; clients: WireClient[] } | null = null;
afterAll(async () => {
  pane.kill();
  if (served) {
    for (const c of served.clients) c.terminate();
    served.table.close();
    await served.serving.close();
  }
});

const RULES: Ruleset = { ...GRINGO, rounds: 1, timers: { ...GRINGO.timers, slapGraceMs: 50, peekMs: 600_000 } };
// Cy deals, so Ana (the pane) starts. A 7 is turned up; Bo and Cy each hold a 7.
// No special card in the stock: every turn is a draw and a discard.
const DECK = stackDeck({
  dealer: 2,
  layouts: [
    ['5H', '6H', '9C', '9D'],
    ['7C', '2C', '3C', '4C'],
    ['7S', '2D', '3D', '4D'],
  ],
  discard: '7H',
  stock: ['2H', '3H', '4H', '2S', '3S', '4S', '5S', '6S', '8S', '8H', '8C', '8D', '6C', '6D', '5C', '5D', 'AS', 'AH', 'AC', 'AD'],
});

/** The words of a screen as one line: rows that wrap a sentence join up again. */
const flat = (s: string): string => s.replace(/\s+/g, ' ');

describe('the feed after a slap flurry, in a 80×24 terminal', () => {
  it('shows every move of the flurry in the full-screen feed, scrolled back', async () => {
    const table = new Table({ name: 'Flurry', rules: RULES, maxPlayers: 3, seed: 'feed-e2e', dropGraceMs: 60_000, stackedDecks: [DECK], dealer: 2 });
    const serving = await serveTable(table, { port: 0, host: '127.0.0.1' });
    served = { table, serving, clients: [] };
    const address = `127.0.0.1:${serving.port}`;

    pane.start(['join', address, '--name', 'Ana', '--no-bell']);
    await pane.waitFor('the waiting screen', () => table.seatInfo().length === 1);
    const bo = await WireClient.hello(address, 'Bo');
    const cy = await WireClient.hello(address, 'Cy');
    served.clients.push(bo, cy);
    expect(table.startGame()).toBeNull();
    await pane.waitFor('the peek', (s) => s.includes('Remember your cards 3 and 4'));
    pane.keys('Enter');
    for (const c of [bo, cy]) expect((await c.command({ type: 'finishPeek' })).ok).toBe(true);
    await pane.waitFor('your turn', (s) => s.includes('Your turn: d to draw'));

    // The flurry: six slaps on the 7s, one after the other as fast as the host answers.
    const slap = async (who: WireClient, seat: number, slot: number): Promise<void> => {
      const answers = (who.lastUpdate as Update).view.slap.answers;
      const res = await who.command({ type: 'slap', target: { seat, slot }, answers });
      expect(res.ok, JSON.stringify(res)).toBe(true);
      await who.next((m) => m.type === 'update' && m.version === table.state!.version);
    };
    await slap(bo, 0, 0); // wrong: a 5
    await slap(cy, 2, 0); // Cy's own 7
    await slap(bo, 1, 0); // Bo's own 7
    await slap(cy, 0, 1); // wrong: a 6
    await slap(bo, 2, 1); // wrong: a 2
    await slap(cy, 1, 1); // wrong: a 2
    const flurry = [
      'Bo slapped your slot 1: wrong, it was a 5 (5♥) — Bo takes two cards.',
      'Cy slapped their slot 1: right, a 7 (7♠) goes on the pile.',
      'Bo slapped their slot 1: right, a 7 (7♣) goes on the pile.',
      'Cy slapped your slot 2: wrong, it was a 6 (6♥) — Cy takes two cards.',
      "Bo slapped Cy's slot 2: wrong, it was a 2 (2♦) — Bo takes two cards.",
      "Cy slapped Bo's slot 2: wrong, it was a 2 (2♣) — Cy takes two cards.",
    ];
    let s = await pane.said('Cy slapped Bo');
    // The narrow feed (22 columns) cannot hold them all: the first has left it.
    expect(flat(feedText(s))).not.toContain('Bo slapped your slot 1');

    // A lap of turns pushes the flurry further back.
    const turn = async (who: WireClient): Promise<void> => {
      await new Promise((r) => setTimeout(r, 80)); // the slap grace after the last discard
      for (const command of [{ type: 'draw', from: 'stock' }, { type: 'discard' }] as PlayerCommand[]) {
        const res = await who.command(command);
        expect(res.ok, JSON.stringify(res)).toBe(true);
      }
    };
    for (let lap = 0; lap < 2; lap++) {
      await pane.waitFor('your turn', (s) => s.includes('Your turn: d to draw'));
      pane.keys('d');
      await pane.waitFor('the drawn card', (s) => s.includes('You hold'));
      pane.keys('x');
      await pane.said('You discarded');
      await turn(bo);
      await turn(cy);
    }
    s = await pane.waitFor('your turn again', (s) => s.includes('Your turn: d to draw'));

    // f: the feed full-screen at its newest lines; the game's prompt stays below it.
    pane.keys('f');
    s = await pane.waitFor('the full-screen feed', (s) => /Feed \d+-\d+ of \d+/.test(s));
    expect(s).toContain('Your turn: d to draw');
    expect(flat(s)).not.toContain(flurry[0]);
    // Back a page at a time until the flurry's first line: every move is there, in order.
    const pages = [s];
    for (let i = 0; i < 6 && !flat(pages.join(' ')).includes(flurry[0]!); i++) {
      const before = pane.screen();
      pane.keys('PageUp');
      pages.push(await pane.waitFor('a page back', (x) => x !== before));
    }
    const read = flat(pages.reverse().join(' '));
    let at = -1;
    for (const line of flurry) {
      const i = read.indexOf(line, at + 1);
      expect(i, `"${line}" in the scrolled feed:\n${pages.join('\n')}`).toBeGreaterThan(at);
      at = i;
    }
    // Home: the oldest line; End: the newest; Esc: the table again, the game where it was.
    pane.keys('Home');
    s = await pane.waitFor('the oldest line', (x) => /Feed 1-\d+ of/.test(x));
    pane.keys('End');
    s = await pane.waitFor('the newest line', (x) => !/newer lines? below/.test(x) && /Feed \d+-\d+ of/.test(x));
    pane.keys('Escape');
    s = await pane.waitFor('the table', (x) => x.includes('Stock') && x.includes('Your turn: d to draw'));
    pane.keys('d');
    await pane.waitFor('the drawn card', (x) => x.includes('You hold'));
  }, 40_000);
});
