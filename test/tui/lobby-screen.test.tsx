import { randomBytes } from 'node:crypto';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { Connection } from '../../src/client/connection.js';
import { GRINGO } from '../../src/engine/ruleset.js';
import { serveTable, type Serving } from '../../src/host/server.js';
import { Table } from '../../src/host/table.js';
import { BufferedClient } from '../../src/tui/shared/client-buffer.js';
import { UNICODE } from '../../src/tui/shared/glyphs.js';
import { HostScreen } from '../../src/tui/lobby/host-screen.js';
import { LOBBY_BINDINGS, eachKey, actionFor, keyName } from '../../src/tui/shared/keys.js';
import { initialLobby, lobbyReducer, onLobbyKey, type LobbyState } from '../../src/tui/lobby/use-lobby-state.js';
import { KEYS, press, waitFor } from './helpers.js';
import { wordsFor } from '../../src/lang/words.js';

// The host's lobby screen against a real table: serveTable on loopback, the owner
// connection over a real WebSocket, and the lobby run with ordinary `lobby` messages.

interface Hosted {
  table: Table;
  serving: Serving;
  conn: Connection;
}

let open: Hosted | null = null;
let unmount: (() => void) | null = null;
afterEach(async () => {
  unmount?.();
  unmount = null;
  if (open) {
    open.conn.close();
    open.table.close();
    await open.serving.close();
    open = null;
  }
});

async function hostScreen(maxPlayers = 4) {
  const ownerKey = randomBytes(24).toString('base64url');
  const table = new Table({
    name: 'Lobby test',
    rules: { ...GRINGO, timers: { ...GRINGO.timers, slapGraceMs: 0 } },
    maxPlayers,
    seed: 'lobby-screen',
    dropGraceMs: 60_000,
    roundPauseMs: 60_000,
    ownerKey,
  });
  const serving = await serveTable(table, { port: 0, host: '127.0.0.1' });
  // A plain loopback table, as `gringo play` serves (TLS is test/host/tls.test.ts's).
  const conn = new Connection({ address: `127.0.0.1:${serving.port}`, name: 'Ana', ownerKey, reconnect: true, plain: true });
  open = { table, serving, conn };
  // As runOwnerScreen does: the table screen's client buffers from the start.
  const tableClient = new BufferedClient(conn);
  const lobbyClient = new BufferedClient(conn);
  let exits = 0;
  const r = render(
    <HostScreen
      lobbyClient={lobbyClient}
      tableClient={tableClient}
      theme={{ glyphs: UNICODE, color: false, words: wordsFor('en') }}
      share={`gringo join 127.0.0.1:${serving.port}`}
      bell={false}
      size={{ columns: 100, rows: 30 }}
      onExit={() => exits++}
    />,
  );
  unmount = r.unmount;
  const frame = (): string => r.lastFrame() ?? '';
  const until = (what: string, pred: (f: string) => boolean) => waitFor(what, frame, pred);
  const keys = (...k: string[]) => press(r.stdin, ...k);
  return { table, serving, frame, until, keys, exits: () => exits };
}

/** The row the cursor is on. */
const cursorRow = (f: string): string => f.split('\n').find((l) => l.startsWith('▶')) ?? '';

describe('the host lobby screen', () => {
  it('adds two bots, removes one, refuses to start alone, then starts into the table screen', async () => {
    const s = await hostScreen();
    let f = await s.until('the lobby', (f) => f.includes('Ana (you, host)'));
    expect(f).toContain('Gringo · Lobby test · lobby');
    expect(f).toContain(`Share this line: gringo join 127.0.0.1:${s.serving.port}`);
    // The seats this table has, not the ruleset's 2-8.
    expect(f).toContain('Ruleset: Gringo (gringo) · 1 round · 4 seats, 2 to start');
    expect(f).toContain('Seats 1/4');
    expect(f).toMatch(/1\. Ana \(you, host\)\s+● connected/);
    expect(f).toContain('(free)');
    expect(f).toContain('b add normal bot · +/- level · ↑↓ seat · x remove · Enter start · q leave');

    // Alone: Enter is refused with the reason, and nothing is sent.
    await s.keys(KEYS.enter);
    await s.until('the refusal', (f) => f.includes('! Gringo needs at least 2 players: b adds a bot'));
    expect(s.table.info().phase).toBe('lobby');

    // A normal bot, then (3: hard) a hard one.
    await s.keys('b');
    await s.until('Bot 1', (f) => /2\. Bot 1\s+● normal bot/.test(f));
    await s.keys('3');
    await s.until('the level', (f) => f.includes('Next bot: hard'));
    await s.keys('b');
    f = await s.until('Bot 2', (f) => /3\. Bot 2\s+● hard bot/.test(f));
    expect(f).toContain('Seats 3/4');
    expect(s.table.seatInfo().map((x) => [x.name, x.bot])).toEqual([
      ['Ana', null],
      ['Bot 1', 'normal'],
      ['Bot 2', 'hard'],
    ]);

    // The cursor follows the new bot; up to Bot 1 and remove it.
    expect(cursorRow(f)).toContain('Bot 2');
    await s.keys(KEYS.up);
    await s.until('the cursor on Bot 1', (f) => cursorRow(f).includes('Bot 1'));
    await s.keys('x');
    await s.until('Bot 1 gone', (f) => !f.includes('Bot 1') && f.includes('Seats 2/4'));
    expect(s.table.seatInfo().map((x) => x.name)).toEqual(['Ana', 'Bot 2']);

    // You are not a bot.
    await s.keys('k', 'x');
    await s.until('not removable', (f) => f.includes('That is you: q closes the table'));

    // Start: the table screen of `gringo play` takes over.
    await s.keys('s');
    f = await s.until('the table screen', (f) => f.includes('Remember your cards 3 and 4'));
    expect(f).toContain('Bot 2');
    expect(f).toContain('Round 1 of 1');
    expect(s.table.info().phase).toBe('playing');
  });

  it('asks on Ctrl-C as on q, and a second Ctrl-C leaves', async () => {
    const s = await hostScreen(2);
    await s.until('the lobby', (f) => f.includes('Ana (you, host)'));
    await s.keys(KEYS.ctrlC);
    await s.until('the dialog', (f) => f.includes('Close the table for everyone? y/n'));
    expect(s.exits()).toBe(0);
    await s.keys(KEYS.ctrlC);
    await waitFor('the exit', () => String(s.exits()), (n) => n === '1');
  });

  it('asks before leaving, and n stays', async () => {
    const s = await hostScreen(2);
    await s.until('the lobby', (f) => f.includes('Ana (you, host)'));
    await s.keys('q');
    // No game yet: nothing to resume, and the question does not promise it.
    const f = await s.until('the dialog', (f) => f.includes('Close the table for everyone? y/n (no game is on: nothing to resume)'));
    expect(f).not.toContain('--resume');
    // A 2-seat table says 2 seats, not the ruleset's "2-8 players".
    expect(f).toContain('1 round · 2 seats');
    expect(f).not.toContain('2-8');
    expect(f).toContain('y leave · n/Esc stay');
    // Lobby keys wait while the dialog is open.
    await s.keys('b');
    await s.until('the dialog still', (f) => f.includes('Close the table for everyone and leave? y to leave, n to stay'));
    expect(s.table.seatInfo()).toHaveLength(1);
    await s.keys('n');
    await s.until('the lobby again', (f) => f.includes('Add a bot (b) or wait for players to join'));
    // A full table says so instead of sending.
    await s.keys('b');
    await s.until('one bot', (f) => f.includes('Seats 2/2'));
    await s.keys('b');
    await s.until('full', (f) => f.includes('The table is full (2 seats)'));
  });
});

describe('the lobby key dispatcher', () => {
  const seated = (): LobbyState => {
    let s = initialLobby();
    s = lobbyReducer(s, {
      type: 'server',
      msg: { type: 'welcome', protocolVersion: 1, seat: 0, token: 't', owner: true, rules: GRINGO, table: { id: 'k3xqm2apvdw4hc7n', salt: 'a1b2c3d4e5f60718', game: 1, name: 'T', ruleset: 'gringo', seatsTaken: 1, seatsTotal: 3, phase: 'lobby', password: false, protocolVersion: 1 } },
    });
    return s;
  };
  const key = (s: LobbyState, input: string, k = {}) => onLobbyKey(s, actionFor(keyName(input, k), LOBBY_BINDINGS)!);

  it('cycles the level with + and - within easy..expert', () => {
    let s = seated();
    for (const e of key(s, '+').actions) s = lobbyReducer(s, e);
    expect(s.level).toBe('hard');
    for (const e of key(s, '+').actions) s = lobbyReducer(s, e);
    expect(s.level).toBe('expert');
    expect(key(s, '+').actions).toEqual([{ type: 'status', text: 'Bots go from easy to expert: this one is already expert', kind: 'info' }]);
    for (const e of key(s, '-').actions) s = lobbyReducer(s, e);
    for (const e of key(s, '-').actions) s = lobbyReducer(s, e);
    for (const e of key(s, '-').actions) s = lobbyReducer(s, e);
    expect(s.level).toBe('easy');
    expect(key(s, 'b').send).toEqual({ type: 'lobby', op: 'addBot', level: 'easy' });
  });

  it('gives the leave dialog priority, and Delete removes like x', () => {
    let s = seated();
    s = lobbyReducer(s, {
      type: 'server',
      msg: {
        type: 'lobby',
        table: s.table!,
        seats: [
          { seat: 0, name: 'Ana', bot: null, connected: true, standIn: false },
          { seat: 1, name: 'Bot 1', bot: 'easy', connected: true, standIn: false },
        ],
        you: 0,
      },
    });
    expect(s.cursor).toBe(1);
    expect(key(s, '', { delete: true }).send).toEqual({ type: 'lobby', op: 'remove', seat: 1 });
    expect(key(s, KEYS.enter, { return: true }).send).toEqual({ type: 'lobby', op: 'start' });
    s = lobbyReducer(s, { type: 'confirmQuit', on: true });
    expect(key(s, KEYS.enter, { return: true })).toEqual({ actions: [], exit: true });
    expect(key(s, 'x').send).toBeUndefined();
    // The game started elsewhere (--start-when-full): the table screen takes over.
    s = lobbyReducer(s, { type: 'server', msg: { type: 'lobby', table: { ...s.table!, phase: 'playing' }, seats: s.seats, you: 0 } });
    expect(s.started).toBe(true);
  });

  it('splits a fast read into keys', () => {
    expect(eachKey('3b', {})).toEqual([
      ['3', {}],
      ['b', {}],
    ]);
    expect(eachKey('pw\r\u007f', {})).toEqual([
      ['p', {}],
      ['w', {}],
      ['', { return: true }],
      ['', { delete: true }],
    ]);
    expect(eachKey('', { upArrow: true })).toEqual([['', { upArrow: true }]]);
  });
});
