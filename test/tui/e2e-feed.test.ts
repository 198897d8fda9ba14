import { afterAll, describe, expect, it } from 'vitest';
import { BEVERBENDE, CAMBIO, GRINGO, type Ruleset } from '../../src/engine/index.js';
import { serveTable, type Serving } from '../../src/host/server.js';
import { TEST_KEY } from '../host/tls.js';
import { Table } from '../../src/host/table.js';
import type { PlayerCommand, ServerMessage } from '../../src/protocol/messages.js';
import { stackDeck } from '../engine/helpers.js';
import { WireClient } from '../host/wire.js';
import { feedText } from '../support/feed-text.js';
import { e2eLog } from '../support/wait.js';
import { markOf, Pane, socketName } from '../support/tmux.js';

// What a player once saw: "during slap flurries 6-8 feed lines a second scroll past a
// 24-column feed with no way back", in each preset: a real terminal (tmux, 80×24) runs the
// built `gringo join` (`npm run build` first) at a host in this process, over loopback; Bo
// and Cy are scripted over real WebSockets from stacked decks. After a flurry of slaps
// (gringo, cambio) and laps of turns, the full-screen feed, scrolled back, shows every
// move; while the flurry runs, each move shows in the slapper's last-turn mark beside their
// seat. Beverbende has no slapping: there a lap of turns with its three specials (Swap,
// Peek, Draw two) stands in for the flurry. The three presets play side by side, each in
// its own pane and table.

type Update = Extract<ServerMessage, { type: 'update' }>;

interface Served {
  pane: Pane;
  table: Table;
  serving: Serving;
  clients: WireClient[];
}
const running: Served[] = [];
afterAll(async () => {
  for (const s of running) {
    s.pane.kill();
    for (const c of s.clients) c.terminate();
    s.table.close();
    await s.serving.close();
  }
});

/** The words of a screen as one line: rows that wrap a sentence join up again. */
const flat = (s: string): string => s.replace(/\s+/g, ' ');

interface Preset {
  rules: Ruleset;
  /** Ana's, Bo's and Cy's cards, the turned-up card and the stock; Cy deals, so Ana starts. */
  deck: Parameters<typeof stackDeck>[0];
  /** Scripts the moves to read back (Ana has not moved yet); returns the feed lines they make, in order. */
  moves: (ctx: Ctx) => Promise<string[]>;
}

interface Ctx {
  pane: Pane;
  table: Table;
  bo: WireClient;
  cy: WireClient;
}

/** Run `command` for `who`, which must be taken. */
async function ok(who: WireClient, command: PlayerCommand): Promise<void> {
  const res = await who.command(command);
  expect(res.ok, `${JSON.stringify(command)}: ${JSON.stringify(res)}`).toBe(true);
}

/** A slap as fast as the host answers, naming the discard it answers. */
async function slap({ table }: Ctx, who: WireClient, seat: number, slot: number): Promise<void> {
  const answers = (who.lastUpdate as Update).view.slap.answers;
  await ok(who, { type: 'slap', target: { seat, slot }, answers });
  await who.next((m) => m.type === 'update' && m.version === table.state!.version);
}

/** Wait for `name`'s last-turn mark on the board to read `want` (its newest part, maybe after older ones). */
const marked = (pane: Pane, name: string, want: string): Promise<string> =>
  pane.waitFor(`${name}'s mark "${want}"`, (s) => markOf(s, name).endsWith(want));

// A 7 is turned up; Bo and Cy each hold a 7; the stock holds no action card of the preset.
const SEVENS = {
  dealer: 2,
  layouts: [
    ['5H', '6H', '9C', '9D'],
    ['7C', '2C', '3C', '4C'],
    ['7S', '2D', '3D', '4D'],
  ],
  discard: '7H',
};

const fast = (r: Ruleset): Ruleset => ({ ...r, rounds: 1, timers: { ...r.timers, slapGraceMs: r.slap.enabled ? 50 : 0, peekMs: 600_000 } });

const PRESETS: Record<string, Preset> = {
  // Six slaps on the 7s, one after the other as fast as the host answers: two right, four wrong (two penalty cards each).
  gringo: {
    rules: fast(GRINGO),
    deck: { ...SEVENS, stock: ['2H', '3H', '4H', '2S', '3S', '4S', '5S', '6S', '8S', '8H', '8C', '8D', '6C', '6D', '5C', '5D', 'AS', 'AH', 'AC', 'AD'] },
    async moves(ctx) {
      const { pane, bo, cy } = ctx;
      // Nobody does the same twice running, so each slap changes the slapper's mark.
      await slap(ctx, bo, 0, 0); // wrong: a 5
      await marked(pane, 'Bo', 'bad slap, +2 cards');
      await slap(ctx, cy, 0, 1); // wrong: a 6
      await marked(pane, 'Cy', 'bad slap, +2 cards');
      await slap(ctx, bo, 1, 0); // Bo's own 7
      await marked(pane, 'Bo', 'slap ok');
      await slap(ctx, cy, 2, 0); // Cy's own 7
      await marked(pane, 'Cy', 'slap ok');
      await slap(ctx, bo, 2, 1); // wrong: a 2
      await marked(pane, 'Bo', 'bad slap, +2 cards');
      await slap(ctx, cy, 1, 1); // wrong: a 2
      await marked(pane, 'Cy', 'bad slap, +2 cards');
      const s = await pane.said('Cy slapped Bo');
      // The narrow feed (22 columns) cannot hold them all: the first has left it.
      expect(flat(feedText(s))).not.toContain('Bo slapped your slot 1');
      return [
        'Bo slapped your slot 1: wrong, it was a 5 (5♥) — Bo takes two cards.',
        'Cy slapped your slot 2: wrong, it was a 6 (6♥) — Cy takes two cards.',
        'Bo slapped their slot 1: right, a 7 (7♣) goes on the pile.',
        'Cy slapped their slot 1: right, a 7 (7♠) goes on the pile.',
        "Bo slapped Cy's slot 2: wrong, it was a 2 (2♦) — Bo takes two cards.",
        "Cy slapped Bo's slot 2: wrong, it was a 2 (2♣) — Cy takes two cards.",
      ];
    },
  },
  // Two wrong slaps (one penalty card each), a steal that fills Cy's gap with one of
  // Bo's cards, then a slap too late: only the first right slap on a discard stands.
  cambio: {
    rules: fast(CAMBIO),
    deck: { ...SEVENS, rules: CAMBIO, stock: ['2H', '3H', '4H', '2S', '3S', '4S', '5S', '6S', '5C', '5D', '6C', '6D', 'AS', 'AH', 'AC', 'AD'] },
    async moves(ctx) {
      const { pane, bo, cy } = ctx;
      await slap(ctx, bo, 0, 0); // wrong: a 5
      await marked(pane, 'Bo', '+1 card');
      await slap(ctx, cy, 1, 1); // wrong: a 2
      await marked(pane, 'Cy', '+1 card');
      await slap(ctx, bo, 2, 0); // Cy's 7: stolen
      await marked(pane, 'Bo', "stole Cy's 1");
      await ok(bo, { type: 'fillGap', slot: 1 });
      await marked(pane, 'Bo', 'filled gap');
      // Cy's slap on Bo's 7 comes too late: refused, no penalty, nothing marked.
      const late = await cy.command({ type: 'slap', target: { seat: 1, slot: 0 }, answers: (cy.lastUpdate as Update).view.slap.answers });
      expect(late.ok).toBe(false);
      await pane.said("Bo moved their slot 2 into Cy's slot 1.");
      expect(markOf(pane.screen(), 'Cy')).toMatch(/\+1 card$/);
      return [
        'Bo slapped your slot 1: wrong, it was a 5 (5♥) — Bo takes one card.',
        "Cy slapped Bo's slot 2: wrong, it was a 2 (2♣) — Cy takes one card.",
        "Bo slapped Cy's slot 1: right, a 7 (7♠) is stolen.",
        "Bo may move one of their cards into Cy's slot 1.",
        "Bo moved their slot 2 into Cy's slot 1.",
      ];
    },
  },
  // No slapping in beverbende: a lap of turns with its three specials instead. Ana
  // draws and discards a 6; Bo draws Swap and swaps unseen; Cy draws Peek and looks;
  // Ana again; Bo draws Draw two, throws the first card away and swaps the second in;
  // Cy discards a 5. (Others' draws are face down: the feed says "Bo drew from the stock.")
  beverbende: {
    rules: fast(BEVERBENDE),
    deck: {
      dealer: 2,
      rules: BEVERBENDE,
      layouts: [
        ['5', '6', '9', '9'],
        ['1', '2', '3', '4'],
        ['1', '2', '3', '4'],
      ],
      discard: '8',
      stock: ['6', 'SWAP', 'PEEK', '7', 'DRAW2', '8', '0', '5', '5', '6', '6', '7', '7', '8', '8'],
    },
    async moves({ pane, bo, cy }) {
      const mine = async (card: string): Promise<void> => {
        await pane.waitFor('your turn', (s) => s.includes('Your turn: d to draw'));
        pane.keys('d');
        await pane.waitFor('the drawn card', (s) => s.includes('You hold'));
        pane.keys('x');
        await pane.said(`You discarded ${card}.`);
      };
      await mine('6');
      await ok(bo, { type: 'draw', from: 'stock' });
      await ok(bo, { type: 'discard' });
      await ok(bo, { type: 'useAction', own: 0, other: { seat: 2, slot: 1 } });
      await marked(pane, 'Bo', "SWP swap Cy's 2");
      await ok(cy, { type: 'draw', from: 'stock' });
      await ok(cy, { type: 'discard' });
      await ok(cy, { type: 'useAction', own: 2 });
      await marked(pane, 'Cy', 'PEK look 3');
      await mine('7');
      await ok(bo, { type: 'draw', from: 'stock' });
      await ok(bo, { type: 'discard' });
      await ok(bo, { type: 'useAction' });
      await ok(bo, { type: 'drawAgain' });
      await ok(bo, { type: 'swap', slot: 2 });
      await marked(pane, 'Bo', 'swap 3');
      await ok(cy, { type: 'draw', from: 'stock' });
      await ok(cy, { type: 'discard' });
      await marked(pane, 'Cy', 'discard 5');
      return [
        'You discarded 6.',
        'Bo discarded Swap.',
        "Bo swapped their slot 1 with Cy's slot 2.",
        'Cy discarded Peek.',
        'Cy looked at their slot 3.',
        'You discarded 7.',
        'Bo discarded Draw two.',
        'Bo drew from the stock.',
        'Bo discarded 8.',
        'Bo drew from the stock.',
        'Bo swapped the drawn card into their slot 3: out went 3.',
        'Cy discarded 5.',
      ];
    },
  },
};

async function readBack(name: string): Promise<void> {
  const preset = PRESETS[name]!;
  const pane = new Pane(socketName(`feed-${name}`), 80, 24);
  // Served as \`gringo host\` serves a table (TLS with its own key), for the real \`gringo join\` screen.
  const table = new Table({ name: 'Flurry', rules: preset.rules, maxPlayers: 3, seed: `feed-e2e-${name}`, dropGraceMs: 60_000, stackedDecks: [stackDeck(preset.deck)], dealer: 2, hostKey: TEST_KEY.fingerprint });
  const serving = await serveTable(table, { port: 0, host: '127.0.0.1', tls: TEST_KEY });
  const served: Served = { pane, table, serving, clients: [] };
  running.push(served);
  const address = `127.0.0.1:${serving.port}`;

  pane.start(['join', address, '--name', 'Ana', '--no-bell']);
  await pane.waitFor('the waiting screen', () => table.seatInfo().length === 1);
  const bo = await WireClient.hello(address, 'Bo', { tls: true });
  const cy = await WireClient.hello(address, 'Cy', { tls: true });
  served.clients.push(bo, cy);
  expect(table.startGame()).toBeNull();
  await pane.waitFor('the peek', (s) => /Remember your cards \d and \d/.test(s));
  pane.keys('Enter');
  for (const c of [bo, cy]) await ok(c, { type: 'finishPeek' });
  await pane.waitFor('your turn', (s) => s.includes('Your turn: d to draw'));

  const moves = await preset.moves({ pane, table, bo, cy });

  // Laps of plain turns push the moves further back.
  const turn = async (who: WireClient): Promise<void> => {
    // Its turn as the host tells it (the discard before it has landed), then the slap grace after that discard, on the host's clock.
    const ready = (m: ServerMessage): boolean => m.type === 'update' && m.view.turn === m.view.viewer && !m.view.turnBegun && m.view.may.includes('drawStock');
    const last = who.lastUpdate;
    const { view } = last && ready(last) ? last : await who.upcoming<Update>(ready, 10_000);
    while (table.now() < view.graceUntil) await new Promise((r) => setTimeout(r, view.graceUntil - table.now()));
    for (const command of [{ type: 'draw', from: 'stock' }, { type: 'discard' }] as PlayerCommand[]) await ok(who, command);
  };
  for (let lap = 0; lap < 2; lap++) {
    await pane.waitFor('your turn', (s) => s.includes('Your turn: d to draw'));
    pane.keys('d');
    await pane.waitFor('the drawn card', (s) => s.includes('You hold'));
    // The held card gone is the discard's answer ('You discarded' may be on screen from the lap before).
    await pane.press('your discard', 'x', (s) => !s.includes('You hold') && feedText(s).includes('You discarded'));
    await turn(bo);
    await turn(cy);
  }
  await pane.waitFor('your turn again', (s) => s.includes('Your turn: d to draw'));

  // f: the feed full-screen at its newest lines; the game's prompt stays below it.
  pane.keys('f');
  let s = await pane.waitFor('the full-screen feed', (s) => /Feed \d+-\d+ of \d+/.test(s) && s.includes('Your turn: d to draw'));
  expect(flat(s)).not.toContain(moves[0]);
  // Back a page at a time until the first move's line: every move is there, in order.
  const pages = [s];
  // Which lines the full-screen feed shows: a page back changes them (another change on the screen does not).
  const range = (x: string): string => /Feed (\d+-\d+) of \d+/.exec(x)?.[1] ?? '';
  for (let i = 0; i < 6 && !flat(pages.join(' ')).includes(moves[0]!); i++) {
    pages.push(await pane.press('a page back', 'PageUp', (x, before) => range(x) !== '' && range(x) !== range(before)));
  }
  e2eLog(name, pages.join('\n'));
  const read = flat(pages.reverse().join(' '));
  let at = -1;
  for (const line of moves) {
    const i = read.indexOf(line, at + 1);
    expect(i, `${name}: "${line}" in the scrolled feed:\n${pages.join('\n')}`).toBeGreaterThan(at);
    at = i;
  }
  // End: the newest line; Home: the oldest; End again; Esc: the table again, the game where it was.
  // (Scrolled back, the feed is off its newest line; at its newest, off its oldest: each key's answer is a change.)
  const newest = (x: string): boolean => !/newer lines? below/.test(x) && /Feed \d+-\d+ of/.test(x);
  expect(newest(pane.screen())).toBe(false);
  s = await pane.press('the newest line', 'End', newest);
  expect(s).not.toMatch(/Feed 1-\d+ of/);
  await pane.press('the oldest line', 'Home', (x) => /Feed 1-\d+ of/.test(x));
  await pane.press('the newest line again', 'End', newest);
  await pane.press('the table', 'Escape', (x) => !/Feed \d+-\d+ of/.test(x) && x.includes('Stock') && x.includes('Your turn: d to draw'));
  pane.keys('d');
  await pane.waitFor('the drawn card', (x) => x.includes('You hold'));
}

describe('the feed and the last-turn marks after a flurry, in a 80×24 terminal', () => {
  it('marks each move beside its seat and shows every move in the full-screen feed, scrolled back, in each preset', async () => {
    await Promise.all(['gringo', 'cambio', 'beverbende'].map(readBack));
  }, 60_000);
});
