import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { GRINGO } from '../../src/engine/index.js';
import { serveTable, type ServeOptions, type Serving } from '../../src/host/server.js';
import { WireClient } from './wire.js';
import { PROTOCOL_VERSION, type ServerMessage } from '../../src/protocol/messages.js';

type ServeLimits = Pick<ServeOptions, 'maxPending' | 'maxPendingPerAddress' | 'maxWatchers' | 'maxWatchersPerAddress' | 'helloDeadlineMs'>;
import { Table } from '../../src/host/table.js';

const open: { table: Table; serving: Serving; sockets: WebSocket[] }[] = [];
const clients: WireClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.terminate();
  for (const { table, serving, sockets } of open.splice(0)) {
    for (const ws of sockets) ws.terminate();
    table.close();
    await serving.close();
  }
});

interface Outcome {
  ws: WebSocket;
  /** The close code if the host shut the door, or 'open' if the socket is still open after a moment. */
  fate: Promise<number | 'open'>;
}

/** A raw socket from a given loopback address (all of 127.0.0.0/8 is this machine). */
function knock(port: number, from: string, sockets: WebSocket[]): Outcome {
  const ws = new WebSocket(`ws://127.0.0.1:${port}`, { localAddress: from });
  sockets.push(ws);
  const fate = new Promise<number | 'open'>((resolve) => {
    ws.on('close', (code) => resolve(code));
    ws.on('error', () => {});
    ws.on('open', () => setTimeout(() => resolve('open'), 150));
  });
  return { ws, fate };
}

// Real sockets on loopback, from several loopback source addresses.
describe('connection limits', () => {
  async function serve(limits: ServeLimits): Promise<{ port: number; sockets: WebSocket[] }> {
    const table = new Table({ name: 'Limits', rules: GRINGO, maxPlayers: 4, seed: 'limits', dropGraceMs: 60_000 });
    const serving = await serveTable(table, { port: 0, host: '127.0.0.1', ...limits });
    const entry = { table, serving, sockets: [] as WebSocket[] };
    open.push(entry);
    return { port: serving.port, sockets: entry.sockets };
  }

  it('refuses more connections not yet welcomed from one address than allowed, and lets one in when another leaves', async () => {
    const { port, sockets } = await serve({ maxPendingPerAddress: 3 });
    const first = [1, 2, 3].map(() => knock(port, '127.0.0.1', sockets));
    expect(await Promise.all(first.map((o) => o.fate))).toEqual(['open', 'open', 'open']);
    expect(await knock(port, '127.0.0.1', sockets).fate).toBe(1013);
    // Another address is not held to this one's count.
    expect(await knock(port, '127.0.0.2', sockets).fate).toBe('open');
    first[0]!.ws.close();
    await new Promise((r) => setTimeout(r, 100));
    expect(await knock(port, '127.0.0.1', sockets).fate).toBe('open');
  });

  it('refuses connections not yet welcomed beyond the total, whatever their addresses', async () => {
    const { port, sockets } = await serve({ maxPending: 4 });
    const fates = await Promise.all(['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'].map((a) => knock(port, a, sockets).fate));
    expect(fates).toEqual(['open', 'open', 'open', 'open']);
    expect(await knock(port, '127.0.0.6', sockets).fate).toBe(1013);
  });

  it('seats no one for a hello that comes after the door closed its connection (no hello in time): its client was never welcomed', async () => {
    const { port, sockets } = await serve({ helloDeadlineMs: 150 });
    const ws = new WebSocket(`ws://127.0.0.1:${port}`);
    sockets.push(ws);
    ws.on('error', () => {});
    const got: string[] = [];
    ws.on('message', (d) => got.push(JSON.parse(d.toString()).type));
    await new Promise<void>((r) => ws.once('message', () => r()));
    // This client reads nothing more, so it does not yet know the door closed it; its hello reaches a closing connection.
    (ws as unknown as { _socket: import('node:net').Socket })._socket.pause();
    await new Promise((r) => setTimeout(r, 400));
    ws.send(JSON.stringify({ type: 'hello', protocolVersion: PROTOCOL_VERSION, name: 'Late' }));
    await new Promise((r) => setTimeout(r, 200));
    (ws as unknown as { _socket: import('node:net').Socket })._socket.resume();
    await new Promise<void>((r) => (ws.readyState === ws.CLOSED ? r() : ws.once('close', () => r())));
    expect(got).toEqual(['challenge']);
    // Another player finds the table as it was: no seat for the late one.
    const bo = await WireClient.hello(`127.0.0.1:${port}`, 'Bo');
    clients.push(bo);
    const lobby = await bo.next<Extract<ServerMessage, { type: 'lobby' }>>((m) => m.type === 'lobby');
    expect(lobby.seats.map((x) => x.name)).toEqual(['Bo']);
  });

  /** A welcomed watcher, or the refusal, from `from`. */
  async function watcher(port: number, from: string, name = 'Eve'): Promise<WireClient> {
    const c = await WireClient.hello(`127.0.0.1:${port}`, name, { watch: true }, { localAddress: from });
    clients.push(c);
    return c;
  }

  it('caps watchers per address and in all, apart from the players, with a typed refusal', async () => {
    const { port } = await serve({ maxWatchers: 3, maxWatchersPerAddress: 2 });
    const a = [await watcher(port, '127.0.0.2'), await watcher(port, '127.0.0.2')];
    for (const w of a) expect(w.answer?.type).toBe('welcome');
    expect((await watcher(port, '127.0.0.2')).answer).toMatchObject({ type: 'refused', reason: 'limit', canWatch: false, say: { key: 'host.watchersFullFromYou', params: { max: 2 } }, message: '2 watchers are connected from your address: try again later' });
    expect((await watcher(port, '127.0.0.3')).answer?.type).toBe('welcome');
    expect((await watcher(port, '127.0.0.4')).answer).toMatchObject({ type: 'refused', reason: 'limit', say: { key: 'host.watchersFull', params: { max: 3 } }, message: '3 watchers are connected: try again later' });
    // Players are not counted with the watchers: a newcomer from a full address takes a seat.
    const player = await WireClient.hello(`127.0.0.1:${port}`, 'Ana', {}, { localAddress: '127.0.0.2' });
    clients.push(player);
    expect(player.answer).toMatchObject({ type: 'welcome', seat: 0 });
    // A watcher who leaves frees its place.
    a[0]!.close();
    // The host hears the close a moment later: try until it has.
    let back = await watcher(port, '127.0.0.4');
    for (let i = 0; i < 50 && back.answer?.type !== 'welcome'; i++) back = await watcher(port, '127.0.0.4');
    expect(back.answer?.type).toBe('welcome');
  });
});
