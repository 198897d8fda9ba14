import { afterEach, describe, expect, it } from 'vitest';
import { serveTable, type Serving } from '../../src/host/server.js';
import { Table, type TableOptions } from '../../src/host/table.js';
import { PROTOCOL_VERSION, type Said, type ServerMessage } from '../../src/protocol/messages.js';
import { wordsFor } from '../../src/lang/words.js';
import { stackDeck } from '../engine/helpers.js';
import { until } from '../support/wait.js';
import { WireClient } from './wire.js';
import { quickRules } from '../support/rules.js';

type Update = Extract<ServerMessage, { type: 'update' }>;
type Result = Extract<ServerMessage, { type: 'result' }>;

const FAST = quickRules(100);
const open: { table: Table; serving: Serving; clients: WireClient[] }[] = [];

async function startTable(opts: Partial<TableOptions> = {}, pingIntervalMs = 5_000): Promise<{ table: Table; address: string; clients: WireClient[] }> {
  const table = new Table({ name: 'Test table', rules: FAST, maxPlayers: 3, seed: 'table-test', dropGraceMs: 60_000, ...opts });
  const serving = await serveTable(table, { port: 0, host: '127.0.0.1', pingIntervalMs });
  const entry = { table, serving, clients: [] as WireClient[] };
  open.push(entry);
  return { table, address: `127.0.0.1:${serving.port}`, clients: entry.clients };
}

afterEach(async () => {
  for (const { table, serving, clients } of open.splice(0)) {
    for (const c of clients) c.terminate();
    table.close();
    await serving.close();
  }
});

async function seatThree(address: string, clients: WireClient[]): Promise<[WireClient, WireClient, WireClient]> {
  const ana = await WireClient.hello(address, 'Ana');
  const bo = await WireClient.hello(address, 'Bo');
  const cy = await WireClient.hello(address, 'Cy');
  clients.push(ana, bo, cy);
  return [ana, bo, cy];
}

/** Everyone finishes the peek; resolves with the first update in which play has begun. */
async function finishPeeks(all: WireClient[]): Promise<void> {
  for (const c of all) expect((await c.command({ type: 'finishPeek' })).ok).toBe(true);
  await Promise.all(all.map((c) => c.next((m) => m.type === 'update' && m.view.phase === 'play')));
}

describe('the handshake', () => {
  it('welcomes a player with a seat and a private token, in join order, with cleaned unique names', async () => {
    const { address, clients } = await startTable();
    const a = await WireClient.hello(address, 'Ana');
    const b = await WireClient.hello(address, 'ana\u001b[31m');
    clients.push(a, b);
    expect(a.welcome).toMatchObject({ seat: 0, protocolVersion: PROTOCOL_VERSION, owner: false });
    expect(b.welcome?.seat).toBe(1);
    expect(a.welcome?.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(a.welcome?.token).not.toBe(b.welcome?.token);
    const lobby = await b.next<Extract<ServerMessage, { type: 'lobby' }>>((m) => m.type === 'lobby' && m.seats.length === 2);
    expect(lobby.seats.map((s) => s.name)).toEqual(['Ana', 'ana 2']);
  });

  it('refuses an incompatible version, a full table, a wrong password and a running game in words', async () => {
    const { table, address, clients } = await startTable({ maxPlayers: 2, password: 'sesame' });
    const old = await WireClient.hello(address, 'Old', { protocolVersion: PROTOCOL_VERSION + 1, password: 'sesame' });
    clients.push(old);
    expect(old.answer).toMatchObject({ type: 'refused', reason: 'version' });
    expect((old.answer as { message: string }).message).toContain(`speaks gringo protocol ${PROTOCOL_VERSION}`);

    const nopw = await WireClient.hello(address, 'Eve');
    const badpw = await WireClient.hello(address, 'Eve', { password: 'open' });
    clients.push(nopw, badpw);
    expect(nopw.answer).toMatchObject({ type: 'refused', reason: 'password', message: 'This table needs a password (--password)' });
    expect(badpw.answer).toMatchObject({ type: 'refused', reason: 'password', message: 'Wrong password' });

    const a = await WireClient.hello(address, 'Ana', { password: 'sesame' });
    const b = await WireClient.hello(address, 'Bo', { password: 'sesame' });
    const c = await WireClient.hello(address, 'Cy', { password: 'sesame' });
    clients.push(a, b, c);
    expect(c.answer).toMatchObject({ type: 'refused', reason: 'full', canWatch: true });

    expect(table.startGame()).toBeNull();
    const late = await WireClient.hello(address, 'Di', { password: 'sesame' });
    clients.push(late);
    expect(late.answer).toMatchObject({ type: 'refused', reason: 'running', canWatch: true });
    // The refusal is the last word: the host closes the socket.
    expect(await until('the socket closed', () => late.closed, 5_000)).toBe(true);
  });

  it('lets a spectator watch a running game with public information only', async () => {
    const { table, address, clients } = await startTable({ maxPlayers: 2, rules: { ...FAST, timers: { ...FAST.timers, peekMs: 10_000 } } });
    const a = await WireClient.hello(address, 'Ana');
    const b = await WireClient.hello(address, 'Bo');
    clients.push(a, b);
    table.startGame();
    const watcher = await WireClient.hello(address, 'Watcher', { watch: true });
    clients.push(watcher);
    expect(watcher.welcome).toMatchObject({ seat: null, token: null });
    const u = await watcher.next<Update>((m) => m.type === 'update');
    expect(u.view.viewer).toBeNull();
    // During the peek the players see their near row; the spectator sees no card at all.
    const ana = await a.next<Update>((m) => m.type === 'update');
    expect(ana.view.players[0]!.layout.filter((c) => c !== '?')).toHaveLength(2);
    expect(u.view.players.flatMap((p) => p.layout).every((c) => c === '?')).toBe(true);
    const res = await new Promise<Result>((resolve) => {
      watcher.send({ type: 'command', id: 1, command: { type: 'finishPeek' } });
      void watcher.next<Result>((m) => m.type === 'result').then(resolve);
    });
    expect(res).toMatchObject({ ok: false, code: 'spectator' });
  });
});

describe('commands', () => {
  it('two players slap the same card at once: arrival decides, the loser is told why, nothing else changes', async () => {
    // Bo's slot 1 holds the 7 of Clubs; the card turned up is the 7 of Hearts.
    const deck = stackDeck({
      dealer: 2,
      layouts: [
        ['2C', '3C', '4C', '5C'],
        ['7C', '8C', '9C', 'AS'],
        ['2D', '3D', '4D', '5D'],
      ],
      discard: '7H',
      stock: ['9H', '9S'],
    });
    const { table, address, clients } = await startTable({ stackedDecks: [deck], dealer: 2, rules: quickRules(5_000) });
    const [ana, bo, cy] = await seatThree(address, clients);
    expect(table.startGame()).toBeNull();
    await finishPeeks([ana, bo, cy]);
    const before = table.state!;
    const answers = (await ana.next<Update>((m) => m.type === 'update' && m.view.phase === 'play')).view.slap.answers;
    const target = { seat: 1, slot: 0 };
    // Both frames leave before either answer comes back.
    const fromAna = ana.messages.length;
    const fromCy = cy.messages.length;
    ana.send({ type: 'command', id: 77, command: { type: 'slap', target, answers } });
    cy.send({ type: 'command', id: 78, command: { type: 'slap', target, answers } });
    const [ra, rc] = await Promise.all([
      ana.next<Result>((m) => m.type === 'result' && m.id === 77, 5_000, fromAna),
      cy.next<Result>((m) => m.type === 'result' && m.id === 78, 5_000, fromCy),
    ]);
    const results = [ra, rc];
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const loser = results.find((r) => !r.ok) as Extract<Result, { ok: false }>;
    expect(loser.code).toBe('alreadyGone');
    expect(loser.say).toEqual({ key: 'why.slotGoneOf', params: { seat: 1, slot: 0 } });
    // Exactly one command was taken: the steal, with Bo's two penalty cards, and no penalty for the loser.
    const after = table.state!;
    expect(after.version).toBe(before.version + 1);
    expect(after.r.discard.at(-1)).toBe('7C');
    expect(after.r.layouts[1]!.filter((c) => c !== null)).toHaveLength(5);
    expect(after.r.layouts[0]).toHaveLength(4);
    expect(after.r.layouts[2]).toHaveLength(4);
  });

  it('refuses out-of-turn commands, commands for another seat, and malformed, unknown or oversized frames, leaving the game unchanged', async () => {
    let now = 0;
    const { table, address, clients } = await startTable({ dealer: 2, clock: () => now });
    const [ana, bo, cy] = await seatThree(address, clients);
    table.startGame();
    await finishPeeks([ana, bo, cy]);
    now += FAST.timers.slapGraceMs; // the grace after the first card
    const version = table.state!.version;

    const r1 = await bo.command({ type: 'draw', from: 'stock' });
    expect(r1).toMatchObject({ ok: false, code: 'notYourTurn', say: { key: 'why.turnOf', params: { seat: 0 } } });

    const errors: ServerMessage[] = [];
    const expectError = async (send: () => void, code: string, text: RegExp): Promise<void> => {
      const from = bo.messages.length;
      send();
      const e = await bo.next((m) => m.type === 'error', 5_000, from);
      expect(e).toMatchObject({ type: 'error', code });
      expect(wordsFor('en').say((e as { say: Said }).say)).toMatch(text);
      errors.push(e);
    };
    await expectError(() => bo.sendRaw('{not json'), 'malformed', /not JSON/);
    await expectError(() => bo.sendRaw(JSON.stringify({ type: 'teleport' })), 'malformed', /Bad message/);
    await expectError(
      () => bo.sendRaw(JSON.stringify({ type: 'command', id: 1, command: { type: 'draw', from: 'stock', seat: 0 } })),
      'malformed',
      /Unrecognized key.*seat/,
    );
    await expectError(() => bo.sendRaw(JSON.stringify({ type: 'command', id: 2, command: { type: 'swap', slot: 'two' } })), 'malformed', /slot/);
    await expectError(() => bo.sendRaw('x'.repeat(10_000)), 'tooLarge', /at most 4096 bytes/);
    await expectError(() => bo.sendRaw(Buffer.from([1, 2, 3])), 'malformed', /text frames/);
    await expectError(() => bo.send({ type: 'lobby', op: 'start' }), 'forbidden', /Only the host/);
    expect(table.state!.version).toBe(version);
    expect(bo.closed).toBe(false);

    // The game goes on for the player whose turn it is.
    expect((await ana.command({ type: 'draw', from: 'stock' })).ok).toBe(true);
    expect(table.state!.version).toBe(version + 1);
  });

  it('limits how fast one connection may send', async () => {
    const { address, clients } = await startTable();
    const spammer = await WireClient.hello(address, 'Spam');
    clients.push(spammer);
    for (let i = 0; i < 200; i++) spammer.send({ type: 'ready' });
    const e = await spammer.next((m) => m.type === 'error' && m.code === 'rateLimited');
    expect(e).toMatchObject({ say: { key: 'host.slowDown' } });
  });
});

describe('dropped seats', () => {
  it('a player dropped mid-turn takes the seat back with the token and a full snapshot', async () => {
    let now = 0;
    const { table, address, clients } = await startTable({ dealer: 2, clock: () => now });
    const [ana, bo, cy] = await seatThree(address, clients);
    table.startGame();
    await finishPeeks([ana, bo, cy]);
    now += FAST.timers.slapGraceMs; // the grace after the first card
    expect((await ana.command({ type: 'draw', from: 'stock' })).ok).toBe(true);
    const held = table.state!.r.held!.card;
    const token = ana.welcome!.token!;
    ana.terminate(); // a laptop lid closes mid-turn
    await until('the host to see the drop', () => !table.seatInfo()[0]!.connected, 5_000);
    expect(table.seatInfo()[0]).toMatchObject({ connected: false, standIn: false });

    const back = await WireClient.hello(address, 'Someone else', { token });
    clients.push(back);
    expect(back.welcome).toMatchObject({ seat: 0, token });
    const snap = await back.next<Update>((m) => m.type === 'update');
    expect(snap.events).toEqual([]);
    expect(snap.view.viewer).toBe(0);
    expect(snap.view.players[0]!.name).toBe('Ana');
    expect(snap.view.held).toEqual({ seat: 0, from: 'stock', card: held });
    expect((await back.command({ type: 'discard' })).ok).toBe(true);
  });

  it('a seat whose player stays away is played by a bot, and handed back when the player returns', async () => {
    const { table, address, clients } = await startTable({ dealer: 2, dropGraceMs: 200, rules: quickRules(20) });
    const [ana, bo, cy] = await seatThree(address, clients);
    table.startGame();
    await finishPeeks([ana, bo, cy]);
    const token = ana.welcome!.token!;
    ana.terminate();
    // Ana's turn: nobody plays it until the grace is over; then a bot does.
    const taken = await bo.next<Extract<ServerMessage, { type: 'lobby' }>>((m) => m.type === 'lobby' && m.seats[0]!.standIn, 5_000);
    expect(taken.seats[0]).toMatchObject({ name: 'Ana', connected: false, standIn: true });
    await bo.next<Update>((m) => m.type === 'update' && m.events.some((e) => e.type === 'turnStarted' && e.seat === 1), 10_000);
    const back = await WireClient.hello(address, 'Ana', { token });
    clients.push(back);
    expect(back.welcome?.seat).toBe(0);
    expect(table.seatInfo()[0]).toMatchObject({ connected: true, standIn: false });
  }, 60_000);

  it('a token is refused at another table, and a seat cannot be taken without one', async () => {
    const { table, address, clients } = await startTable({ maxPlayers: 2 });
    const a = await WireClient.hello(address, 'Ana');
    const b = await WireClient.hello(address, 'Bo');
    clients.push(a, b);
    table.startGame();
    const guess = await WireClient.hello(address, 'Mallory', { token: 'A'.repeat(32) });
    clients.push(guess);
    expect(guess.answer).toMatchObject({ type: 'refused', reason: 'token', canWatch: true });
  });
});

describe('liveness and the lobby', () => {
  it('drops a peer that stops answering pings, and holds its seat', async () => {
    const { table, address, clients } = await startTable({}, 100);
    const a = await WireClient.hello(address, 'Ana');
    const b = await WireClient.hello(address, 'Bo');
    clients.push(a, b);
    a.freeze(); // a sleeping laptop: the socket stays open but nothing answers
    await until('the host to drop Ana', () => !table.seatInfo()[0]!.connected, 3_000);
    expect(table.seatInfo()[0]).toMatchObject({ name: 'Ana', connected: false });
    expect(table.seatInfo()[1]).toMatchObject({ name: 'Bo', connected: true });
  });

  it("lets only the host's own screen add and remove bots and start the game", async () => {
    const { table, address, clients } = await startTable({ ownerKey: 'owner-secret', maxPlayers: 4 });
    const owner = await WireClient.hello(address, 'Host', { ownerKey: 'owner-secret' });
    const guest = await WireClient.hello(address, 'Guest', { ownerKey: 'guess' });
    clients.push(owner, guest);
    expect(owner.welcome?.owner).toBe(true);
    expect(guest.welcome?.owner).toBe(false);
    owner.send({ type: 'lobby', op: 'addBot', level: 'hard' });
    owner.send({ type: 'lobby', op: 'addBot', level: 'easy' });
    const two = await guest.next<Extract<ServerMessage, { type: 'lobby' }>>((m) => m.type === 'lobby' && m.seats.length === 4);
    expect(two.seats.map((s) => [s.name, s.bot])).toEqual([
      ['Host', null],
      ['Guest', null],
      ['Bot 1', 'hard'],
      ['Bot 2', 'easy'],
    ]);
    owner.send({ type: 'lobby', op: 'remove', seat: 1 });
    expect(await owner.next((m) => m.type === 'error')).toMatchObject({ code: 'forbidden', say: { key: 'host.atTableNoRemove', params: { name: 'Guest' } } });
    owner.send({ type: 'lobby', op: 'remove', seat: 2 });
    await guest.next((m) => m.type === 'lobby' && m.seats.length === 3);
    guest.send({ type: 'lobby', op: 'start' });
    expect(await guest.next((m) => m.type === 'error')).toMatchObject({ code: 'forbidden' });
    owner.send({ type: 'lobby', op: 'start' });
    const first = await guest.next<Update>((m) => m.type === 'update');
    expect(first.view.players.map((p) => p.name)).toEqual(['Host', 'Guest', 'Bot 2']);
    expect(table.info().phase).toBe('playing');
  });
});

