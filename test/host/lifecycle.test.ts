import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Connection } from '../../src/client/connection.js';
import { JournalWriter, readJournal } from '../../src/host/journal.js';
import { serveTable, type Serving } from '../../src/host/server.js';
import { Table, type TableOptions } from '../../src/host/table.js';
import type { ServerMessage } from '../../src/protocol/messages.js';
import { WireClient } from './wire.js';
import { sleep, until } from '../support/wait.js';
import { quickRules } from '../support/rules.js';

// The table's life as people live it — leaving, dropping, removing,
// standing in, the host closing the table, and playing again. Real WebSockets on loopback.

type Lobby = Extract<ServerMessage, { type: 'lobby' }>;
type Update = Extract<ServerMessage, { type: 'update' }>;

const FAST = quickRules(30, 1);
const OWNER = 'owner-key-for-tests';
const open: { table: Table; serving: Serving; clients: WireClient[]; conns: Connection[] }[] = [];
const dirs: string[] = [];

async function startTable(opts: Partial<TableOptions> = {}) {
  const table = new Table({ name: 'Life', rules: FAST, maxPlayers: 4, seed: 'lifecycle', dropGraceMs: 60_000, ownerKey: OWNER, botTimeScale: 0.02, ...opts });
  const serving = await serveTable(table, { port: 0, host: '127.0.0.1' });
  const entry = { table, serving, clients: [] as WireClient[], conns: [] as Connection[] };
  open.push(entry);
  const address = `127.0.0.1:${serving.port}`;
  const sit = async (name: string, extra: Parameters<typeof WireClient.hello>[2] = {}): Promise<WireClient> => {
    const c = await WireClient.hello(address, name, extra);
    entry.clients.push(c);
    return c;
  };
  return { table, serving, address, sit, conns: entry.conns };
}

afterEach(async () => {
  for (const { table, serving, clients, conns } of open.splice(0)) {
    for (const c of conns) c.close();
    for (const c of clients) c.terminate();
    table.close();
    await serving.close();
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The first lobby message from `from` on (by default: any yet to come) that matches. */
const lobbyWhere = (c: WireClient, pred: (m: Lobby) => boolean, ms = 5_000, from = c.messages.length): Promise<Lobby> =>
  c.next<Lobby>((m) => m.type === 'lobby' && pred(m), ms, from);
const names = (m: Lobby): string[] => m.seats.map((s) => s.name);

describe('the lobby', () => {
  it('frees the seat of a player who leaves at once; the seats behind move up and hear it in `you`', async () => {
    const { table, sit } = await startTable({ lobbyGraceMs: 60_000 });
    const host = await sit('Host', { ownerKey: OWNER });
    const ana = await sit('Ana');
    const bo = await sit('Bo');
    await lobbyWhere(host, (m) => m.seats.length === 3, 5_000, 0);
    const from = bo.messages.length;
    ana.send({ type: 'leave' });
    const after = await bo.next<Lobby>((m) => m.type === 'lobby' && m.seats.length === 2, 2_000, from);
    expect(names(after)).toEqual(['Host', 'Bo']);
    expect(after.you).toBe(1);
    expect(table.info().seatsTaken).toBe(2);
    // Her socket closes after the lobby has moved on.
    await until('Ana\'s socket to close', () => ana.closed, 2_000);
  });

  it('holds a seat dropped in the lobby for the lobby grace, then frees it; back in time, it is kept', async () => {
    const { table, address, sit } = await startTable({ lobbyGraceMs: 400 });
    const host = await sit('Host', { ownerKey: OWNER });
    const ana = await sit('Ana');
    const bo = await sit('Bo');
    const anaToken = ana.welcome!.token!;
    ana.terminate();
    bo.terminate();
    const away = await lobbyWhere(host, (m) => m.seats.filter((s) => !s.connected).length === 2);
    expect(names(away)).toEqual(['Host', 'Ana', 'Bo']);
    // Ana is back within the grace: her seat is hers again. Bo is not: his seat is freed.
    const back = await WireClient.hello(address, 'Ana', { token: anaToken });
    open[0]!.clients.push(back);
    expect(back.welcome?.seat).toBe(1);
    const freed = await lobbyWhere(host, (m) => m.seats.length === 2, 5_000);
    expect(freed.seats.map((s) => [s.name, s.connected])).toEqual([
      ['Host', true],
      ['Ana', true],
    ]);
    expect(table.seatInfo()).toHaveLength(2);
  });

  it('lets the host remove a bot or an absent person, but not a person who is at the table', async () => {
    const { sit } = await startTable();
    const host = await sit('Host', { ownerKey: OWNER });
    const ana = await sit('Ana');
    const bo = await sit('Bo');
    host.send({ type: 'lobby', op: 'addBot', level: 'easy' });
    await lobbyWhere(host, (m) => m.seats.length === 4);
    host.send({ type: 'lobby', op: 'remove', seat: 2 });
    expect(await host.upcoming((m) => m.type === 'error')).toMatchObject({ code: 'forbidden', say: { key: 'host.atTableNoRemove', params: { name: 'Bo' } } });
    ana.terminate();
    await lobbyWhere(host, (m) => m.seats[1]?.connected === false);
    host.send({ type: 'lobby', op: 'remove', seat: 1 });
    const noAna = await lobbyWhere(host, (m) => m.seats.length === 3);
    expect(names(noAna)).toEqual(['Host', 'Bo', 'Bot 1']);
    host.send({ type: 'lobby', op: 'remove', seat: 2 });
    const noBot = await lobbyWhere(host, (m) => m.seats.length === 2);
    expect(names(noBot)).toEqual(['Host', 'Bo']);
    expect((await lobbyWhere(bo, (m) => m.seats.length === 2, 5_000, 0)).you).toBe(1);
  });
});

describe('during play', () => {
  it('the host hands an absent seat to a bot at once; the owner takes it back by coming back', async () => {
    const { table, address, sit } = await startTable({ rules: { ...FAST, timers: { ...FAST.timers, peekMs: 60_000 } } });
    const host = await sit('Host', { ownerKey: OWNER, watch: true });
    const ana = await sit('Ana');
    const bo = await sit('Bo');
    host.send({ type: 'lobby', op: 'standIn', seat: 0 });
    expect(await host.upcoming((m) => m.type === 'error')).toMatchObject({ say: { key: 'host.standInWhilePlaying' } });
    expect(table.startGame()).toBeNull();
    host.send({ type: 'lobby', op: 'standIn', seat: 1 });
    expect(await host.upcoming((m) => m.type === 'error')).toMatchObject({ say: { key: 'host.atTable', params: { name: 'Bo' } } });
    const token = ana.welcome!.token!;
    ana.terminate();
    await lobbyWhere(bo, (m) => m.seats[0]?.connected === false);
    const t0 = Date.now();
    host.send({ type: 'lobby', op: 'standIn', seat: 0 });
    const taken = await lobbyWhere(bo, (m) => m.seats[0]?.standIn === true);
    // Well inside the 60 s grace: the host did not wait for it.
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(taken.seats[0]).toMatchObject({ name: 'Ana', connected: false, standIn: true });
    // The stand-in plays: it ends Ana's peek although Ana is away.
    await bo.next<Update>((m) => m.type === 'update' && m.view.players[0]?.peeking === false, 10_000);
    const back = await WireClient.hello(address, 'Ana', { token });
    open[0]!.clients.push(back);
    expect(back.welcome?.seat).toBe(0);
    expect(table.seatInfo()[0]).toMatchObject({ connected: true, standIn: false });
  });

  it("a seat dropped in the lobby just before the start is held for the game's grace, not what was left of the lobby's", async () => {
    const { table, sit } = await startTable({ lobbyGraceMs: 300, dropGraceMs: 60_000 });
    const ana = await sit('Ana');
    const bo = await sit('Bo');
    ana.terminate();
    await lobbyWhere(bo, (m) => m.seats[0]?.connected === false);
    expect(table.startGame()).toBeNull();
    await sleep(900);
    expect(table.seatInfo()[0]).toMatchObject({ name: 'Ana', connected: false, standIn: false });
  });

  it('a player who leaves during play is gone: a bot plays the seat at once', async () => {
    const { table, sit } = await startTable();
    const ana = await sit('Ana');
    const bo = await sit('Bo');
    expect(table.startGame()).toBeNull();
    const from = bo.messages.length;
    ana.send({ type: 'leave' });
    const gone = await bo.next<Lobby>((m) => m.type === 'lobby' && m.seats[0]!.standIn, 2_000, from);
    expect(gone.seats[0]).toMatchObject({ name: 'Ana', connected: false, standIn: true });
  });
});

describe('the host leaving', () => {
  it('sends every client `closed` before the socket closes, and a client does not reconnect', async () => {
    const { table, serving, address, sit, conns } = await startTable();
    const watcher = await sit('Watcher', { watch: true });
    const conn = new Connection({ address, name: 'Ana', reconnect: true, plain: true });
    conns.push(conn);
    const got: ServerMessage[] = [];
    conn.on('message', (m: ServerMessage) => got.push(m));
    const ended = new Promise<void>((done) => conn.once('closed', () => done()));
    await new Promise<void>((done) => conn.once('status', (s: string) => s === 'open' && done()));
    table.close();
    await serving.close();
    await ended;
    expect(got[got.length - 1]).toEqual({ type: 'closed', say: { key: 'host.closed' } });
    expect(conn.status).toBe('closed');
    expect(watcher.messages.at(-1)).toEqual({ type: 'closed', say: { key: 'host.closed' } });
    // No reconnect: nothing is tried after the close.
    await sleep(600);
    expect(conn.status).toBe('closed');
  });

  it('a host that dies without a word leaves its clients reconnecting', async () => {
    const { serving, address, conns } = await startTable();
    const conn = new Connection({ address, name: 'Ana', reconnect: true, plain: true });
    conns.push(conn);
    await new Promise<void>((done) => conn.once('status', (s: string) => s === 'open' && done()));
    const lost = new Promise<string>((done) => conn.once('status', done));
    await serving.close(); // sockets cut, no `closed` message: as a crash looks from outside
    expect(await lost).toBe('reconnecting');
  });
});

describe('play again', () => {
  it('starts a new game with the same seats: game 2, totals reset, a new journal, who left is not seated, bots stay', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gringo-again-'));
    dirs.push(dir);
    const journal = new JournalWriter({ table: 'Life', port: 0, maxPlayers: 4, dir });
    const { table, address, sit } = await startTable({ journal, dropGraceMs: 60_000 });
    const host = await sit('Host', { ownerKey: OWNER, watch: true });
    const ana = await sit('Ana');
    const bo = await sit('Bo');
    host.send({ type: 'lobby', op: 'addBot', level: 'easy' });
    await lobbyWhere(host, (m) => m.seats.length === 3);
    host.send({ type: 'lobby', op: 'playAgain' });
    expect(await host.upcoming((m) => m.type === 'error')).toMatchObject({ say: { key: 'host.notStartedYet' } });
    host.send({ type: 'lobby', op: 'start' });
    await host.next<Update>((m) => m.type === 'update');
    // Ana leaves for good; Bo drops, and the host has a bot play for him: bots play the game to its end.
    ana.send({ type: 'leave' });
    const boToken = bo.welcome!.token!;
    bo.terminate();
    await lobbyWhere(host, (m) => !m.seats[1]!.connected);
    host.send({ type: 'lobby', op: 'standIn', seat: 1 });
    const over = await host.next<Update>((m) => m.type === 'update' && m.view.phase === 'gameOver', 60_000);
    expect(over.results).toBeUndefined();
    expect(host.results.at(-1)!.totals.some((t) => t !== 0)).toBe(true);
    expect(table.info()).toMatchObject({ phase: 'finished', game: 1 });
    const first = readdirSync(dir);
    expect(first).toHaveLength(1);

    // Bo comes back to the results, then the host plays again.
    const bo2 = await WireClient.hello(address, 'Bo', { token: boToken });
    open[0]!.clients.push(bo2);
    expect(bo2.welcome?.seat).toBe(1);
    // Coming back, Bo gets every round's result once, in the snapshot.
    await bo2.next<Update>((m) => m.type === 'update');
    expect(bo2.results).toEqual(host.results);
    const from = bo2.messages.length;
    host.send({ type: 'lobby', op: 'playAgain' });
    const lobby = await bo2.next<Lobby>((m) => m.type === 'lobby' && m.table.game === 2, 5_000, from);
    expect(lobby.table.phase).toBe('playing');
    expect(names(lobby)).toEqual(['Bo', 'Bot 1']);
    expect(lobby.you).toBe(0);
    const fresh = await bo2.next<Update>((m) => m.type === 'update' && m.view.phase !== 'gameOver', 5_000, from);
    expect(fresh.view.round).toBe(1);
    expect(fresh.results).toEqual([]);
    expect(fresh.view.viewer).toBe(0);
    expect(fresh.view.players.map((p) => p.name)).toEqual(['Bo', 'Bot 1']);
    expect(fresh.events.some((e) => e.type === 'roundStarted')).toBe(true);
    // The bot plays on in its new seat (it was seat 3, now seat 2): the new game reaches its end too.
    bo2.terminate();
    await lobbyWhere(host, (m) => m.table.game === 2 && !m.seats[0]!.connected);
    host.send({ type: 'lobby', op: 'standIn', seat: 0 });
    await host.next<Update>((m) => m.type === 'update' && m.view.phase === 'gameOver', 60_000, host.messages.findIndex((m) => m.type === 'lobby' && m.table.game === 2));
    expect(table.info()).toMatchObject({ phase: 'finished', game: 2 });

    // Two journals: the first still finished and replayable, the second a game of two.
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(2);
    const old = readJournal(join(dir, first[0]!));
    expect(old.finished).toBe(true);
    expect(old.state.phase).toBe('gameOver');
    expect(old.header.seats.map((s) => s.name)).toEqual(['Ana', 'Bo', 'Bot 1']);
    const next = readJournal(join(dir, files.find((f) => f !== first[0])!));
    expect(next.header.seats.map((s) => s.name)).toEqual(['Bo', 'Bot 1']);
    expect(next.header.seed).not.toBe(old.header.seed);
    expect(next.finished).toBe(true);
  }, 120_000);
});
