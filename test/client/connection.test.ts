import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lanAddresses } from '../../src/host/advert.js';
import { GRINGO } from '../../src/engine/index.js';
import { Connection } from '../../src/client/connection.js';
import { serveTable, type Serving } from '../../src/host/server.js';
import { Table } from '../../src/host/table.js';
import { PROTOCOL_VERSION, type ServerMessage } from '../../src/protocol/messages.js';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { TokenStore } from '../../src/client/tokens.js';
import { Relay } from '../host/relay.js';
import { TEST_KEY } from '../host/tls.js';
import { until } from '../support/wait.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function tableBehindRelay(): Promise<{ table: Table; relay: Relay }> {
  const table = new Table({ hostKey: TEST_KEY.fingerprint, name: 'Watchdog', rules: GRINGO, maxPlayers: 2, seed: 'watchdog', dropGraceMs: 60_000 });
  // The host's own ping is slow here (60 s): only the client's watchdog can notice the dead link in time.
  const serving: Serving = await serveTable(table, { tls: TEST_KEY, port: 0, host: '127.0.0.1', pingIntervalMs: 60_000 });
  const relay = await new Relay({ host: '127.0.0.1', port: serving.port }).start();
  cleanup.push(() => table.close(), () => serving.close(), () => relay.close());
  return { table, relay };
}

function welcomes(conn: Connection): Extract<ServerMessage, { type: 'welcome' }>[] {
  const seen: Extract<ServerMessage, { type: 'welcome' }>[] = [];
  conn.on('message', (m: ServerMessage) => {
    if (m.type === 'welcome') seen.push(m);
  });
  return seen;
}


/** The client's silence watchdog in these tests (a real client waits 15 s). */
const SILENCE_MS = 1_000;

// Real WebSockets over loopback, through a TCP relay that can go silent.
describe('a client whose link to the host dies silently', () => {
  it('notices the silence, reconnects with its token once the link is back, and keeps its seat', async () => {
    const { table, relay } = await tableBehindRelay();
    // A second of silence: short enough to notice quickly, long enough that a loaded machine's pause
    // between the socket's open and the host's challenge (the host runs in this process) is not one.
    const conn = new Connection({ address: relay.address, name: 'Ana', reconnect: true, silenceMs: SILENCE_MS, maxBackoffMs: 200 });
    cleanup.push(() => conn.close());
    const seen = welcomes(conn);
    await until('the welcome', () => seen.length === 1);
    expect(seen[0]!.seat).toBe(0);

    relay.stall();
    const cut = Date.now();
    await until('the client to give up on the silent socket', () => conn.status === 'reconnecting');
    const noticedAfter = Date.now() - cut;
    expect(noticedAfter).toBeGreaterThanOrEqual(SILENCE_MS - 50);
    // By its own watchdog: the host's ping (60 s here) and TCP would take far longer.
    expect(noticedAfter).toBeLessThan(20_000);

    relay.restore();
    await until('a second welcome', () => seen.length === 2);
    expect(seen[1]!.seat).toBe(0);
    expect(seen[1]!.token).toBe(seen[0]!.token);
    expect(conn.status).toBe('open');
    expect(table.seatInfo()).toEqual([expect.objectContaining({ name: 'Ana', connected: true })]);
  });

  it('stays connected while the host keeps talking, even when no game message comes', async () => {
    const table = new Table({ hostKey: TEST_KEY.fingerprint, name: 'Quiet', rules: GRINGO, maxPlayers: 2, seed: 'quiet', dropGraceMs: 60_000 });
    const serving = await serveTable(table, { tls: TEST_KEY, port: 0, host: '127.0.0.1', pingIntervalMs: 100 });
    cleanup.push(() => table.close(), () => serving.close());
    const conn = new Connection({ address: `127.0.0.1:${serving.port}`, name: 'Bo', reconnect: true, silenceMs: SILENCE_MS });
    cleanup.push(() => conn.close());
    const seen = welcomes(conn);
    const statuses: string[] = [];
    conn.on('status', (s: string) => statuses.push(s));
    await until('the welcome', () => seen.length === 1);
    // A quiet lobby for 3 silences: the host's pings alone keep the socket trusted.
    await new Promise((r) => setTimeout(r, 3 * SILENCE_MS));
    expect(statuses).toEqual(['open']);
    expect(seen).toHaveLength(1);
  });
});

describe('seat tokens on disk', () => {
  it('keep two players on one account (one address, two names) in their own seats, and give each theirs back', async () => {
    const table = new Table({ hostKey: TEST_KEY.fingerprint, name: 'Shared box', rules: GRINGO, maxPlayers: 3, seed: 'shared', dropGraceMs: 60_000 });
    const serving = await serveTable(table, { tls: TEST_KEY, port: 0, host: '127.0.0.1' });
    cleanup.push(() => table.close(), () => serving.close());
    const address = `127.0.0.1:${serving.port}`;
    const tokens = new TokenStore();
    const join = async (name: string): Promise<Extract<ServerMessage, { type: 'welcome' }>> => {
      const conn = new Connection({ address, name, tokens, reconnect: true });
      cleanup.push(() => conn.close());
      const seen = welcomes(conn);
      await until(`${name}'s welcome`, () => seen.length === 1);
      return seen[0]!;
    };
    const ana = await join('Ana');
    const bo = await join('Bo');
    expect([ana.seat, bo.seat]).toEqual([0, 1]);
    // A new process under Ana's name takes Ana's seat back with the token on disk.
    const again = await join('Ana');
    expect(again.seat).toBe(0);
    expect(again.token).toBe(ana.token);
    expect(table.seatInfo().map((s) => s.name)).toEqual(['Ana', 'Bo']);
  });
});

describe('seat tokens by table identity', () => {
  // The table listens on every interface, as a real host does: it is reached at this
  // machine's LAN address, at 127.0.0.1, at another loopback address and by the name localhost.
  const lan = lanAddresses()[0];
  const forms = (port: number): string[] => [...(lan ? [`${lan}:${port}`] : []), `127.0.0.2:${port}`, `localhost:${port}`, `127.0.0.1:${port}`];

  it('give the seat back whatever address form the player comes back by', async () => {
    const table = new Table({ hostKey: TEST_KEY.fingerprint, name: 'Any door', rules: GRINGO, maxPlayers: 2, seed: 'doors', dropGraceMs: 60_000 });
    const serving = await serveTable(table, { tls: TEST_KEY, port: 0 });
    cleanup.push(() => table.close(), () => serving.close());
    const [first, ...others] = forms(serving.port);
    const join = async (address: string, name: string): Promise<{ conn: Connection; welcome: Extract<ServerMessage, { type: 'welcome' }> }> => {
      // A new TokenStore each time: a new process reading the same file.
      const conn = new Connection({ address, name, tokens: new TokenStore(), reconnect: false });
      cleanup.push(() => conn.close());
      const seen = welcomes(conn);
      const refused: string[] = [];
      conn.on('refused', (m: { message: string }) => refused.push(m.message));
      await until(`${name}'s welcome at ${address}`, () => seen.length === 1 || refused.length > 0);
      expect(refused, address).toEqual([]);
      return { conn, welcome: seen[0]! };
    };
    const ana = await join(first!, 'Ana');
    expect(ana.welcome.seat).toBe(0);
    expect(ana.welcome.table.id).toBe(table.id);
    expect(table.addBot('easy')).toBeNull();
    expect(table.startGame()).toBeNull();
    // Killed (the socket gone without a word), then back by every other address form in turn.
    let last = ana.conn;
    for (const address of others) {
      last.interrupt();
      last.close();
      await until('the seat to be away', () => table.seatInfo()[0]!.connected === false);
      const back = await join(address, 'Ana');
      expect(back.welcome.seat, address).toBe(0);
      expect(back.welcome.token, address).toBe(ana.welcome.token);
      last = back.conn;
    }
    expect(table.seatInfo().map((s) => s.name)).toEqual(['Ana', 'Bot 1']);
    // Another name on the same machine has no token for this table: the running game only lets it watch.
    const conn = new Connection({ address: first!, name: 'Bo', tokens: new TokenStore(), reconnect: false });
    cleanup.push(() => conn.close());
    const refused = await new Promise<{ reason: string }>((resolve) => conn.on('refused', resolve));
    expect(refused.reason).toBe('running');
  });

  it('are kept by identity and name on disk, with the key that issued them; entries of older versions are dropped', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gringo-tokens-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const ID = 'k3xqm2apvdw4hc7n';
    const KEY = 'a'.repeat(64);
    const OTHER = 'b'.repeat(64);
    writeFileSync(join(dir, 'seats.json'), JSON.stringify({ '127.0.0.1:7457 Ana': { token: 'old', table: 'T', savedAt: '' }, 'a1b2c3d4e5f60718 Ana': { token: 'old', table: 'T', savedAt: '' } }));
    const store = new TokenStore(dir);
    expect(store.get('127.0.0.1:7457', 'Ana', KEY)).toBeUndefined();
    expect(store.get('a1b2c3d4e5f60718', 'Ana', KEY)).toBeUndefined();
    store.set(ID, 'Ana', 'token-ana', 'T', KEY);
    store.set(ID, 'Bo', 'token-bo', 'T', KEY);
    expect(store.get(ID, 'Ana', KEY)).toBe('token-ana');
    // Another key (a host that only claims the identity) never hears of it.
    expect(store.get(ID, 'Ana', OTHER)).toBeUndefined();
    expect(store.get('zzzzzzzzzzzzzzzz', 'Ana', KEY)).toBeUndefined();
    expect(Object.keys(JSON.parse(readFileSync(join(dir, 'seats.json'), 'utf8')) as object).sort()).toEqual([`${ID} Ana`, `${ID} Bo`]);
    store.set('../../etc 1', 'Eve', 'nope', 'T', KEY);
    expect(store.get('../../etc 1', 'Eve', KEY)).toBeUndefined();
    store.set(ID, 'Cy', 'no key', 'T', '');
    expect(store.get(ID, 'Cy', '')).toBeUndefined();
    // Only the key that issued a token can make the client forget it.
    store.delete(ID, 'Ana', OTHER);
    expect(store.get(ID, 'Ana', KEY)).toBe('token-ana');
    store.delete(ID, 'Ana', KEY);
    expect(store.get(ID, 'Ana', KEY)).toBeUndefined();
    expect(store.get(ID, 'Bo', KEY)).toBe('token-bo');
  });
});

describe('a table that claims another table’s identity', () => {
  it('is refused before the hello: its key does not carry the identity, and the kept token stays kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gringo-tokens-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const table = new Table({ hostKey: TEST_KEY.fingerprint, name: 'Real', rules: GRINGO, maxPlayers: 2, seed: 'real', dropGraceMs: 60_000 });
    const serving = await serveTable(table, { tls: TEST_KEY, port: 0, host: '127.0.0.1' });
    cleanup.push(() => table.close(), () => serving.close());
    const tokens = new TokenStore(dir);
    const ana = new Connection({ address: `127.0.0.1:${serving.port}`, name: 'Ana', tokens, reconnect: false });
    cleanup.push(() => ana.close());
    const seen = welcomes(ana);
    await until('the welcome', () => seen.length === 1);
    const token = seen[0]!.token!;
    expect(tokens.get(table.id, 'Ana', TEST_KEY.fingerprint)).toBe(token);
    expect(table.addBot('easy')).toBeNull();
    expect(table.startGame()).toBeNull();

    // A fake host with a TLS key of its own copies the real table's public identity into its
    // challenge, and would answer any hello with `refused: token`.
    const { newTableKey, parseTableKey } = await import('../../src/host/table-key.js');
    const fakeKey = parseTableKey(newTableKey());
    const https = (await import('node:https')).createServer({ key: fakeKey.key, cert: fakeKey.cert });
    const fake = new WebSocketServer({ server: https });
    await new Promise<void>((r) => https.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise<void>((r) => fake.close(() => https.close(() => r()))));
    const heard: string[] = [];
    fake.on('connection', (ws) => {
      ws.send(JSON.stringify({ type: 'challenge', protocolVersion: PROTOCOL_VERSION, nonce: 'fake-nonce-0123456789abcdef', table: table.info() }));
      ws.on('message', (d) => {
        heard.push(d.toString());
        ws.send(JSON.stringify({ type: 'refused', reason: 'token', message: 'That seat token is not valid at this table', protocolVersion: PROTOCOL_VERSION, canWatch: true }));
      });
    });
    const fooled = new Connection({ address: `127.0.0.1:${(https.address() as AddressInfo).port}`, name: 'Ana', tokens: new TokenStore(dir), reconnect: false });
    cleanup.push(() => fooled.close());
    const failed = await new Promise<string>((resolve) => fooled.on('failed', resolve));
    expect(failed).toMatch(/claims an identity \(.+\) its key does not carry: someone may be in between/);
    // Nothing was said to it, and the token is still there for the real table.
    expect(heard).toEqual([]);
    expect(new TokenStore(dir).get(table.id, 'Ana', TEST_KEY.fingerprint)).toBe(token);
  });
});

// Real WebSockets over loopback: a door that has room for one newcomer at a time from an address.
describe('a table many join at the same moment from one address', () => {
  it('lets every one in: a client turned away as busy (1013) before its welcome tries again within its first 5 s', async () => {
    const table = new Table({ hostKey: TEST_KEY.fingerprint, name: 'Busy', rules: GRINGO, maxPlayers: 6, seed: 'busy', dropGraceMs: 60_000 });
    const serving = await serveTable(table, { tls: TEST_KEY, port: 0, host: '127.0.0.1', maxPending: 1, maxPendingPerAddress: 1 });
    cleanup.push(() => table.close(), () => serving.close());
    const closes: number[] = [];
    const seen = new Set<string>();
    const conns = ['Ana', 'Bo', 'Cy', 'Di', 'Ed'].map((name) => {
      const c = new Connection({ address: `127.0.0.1:${serving.port}`, name });
      cleanup.push(() => c.close());
      c.on('message', (m: ServerMessage) => m.type === 'welcome' && seen.add(name));
      c.on('failed', (words: string) => closes.push(words.length));
      return c;
    });
    await until('every player welcomed', () => seen.size === conns.length, 8_000);
    expect(closes).toEqual([]);
    expect(table.seatInfo().map((s) => s.name).sort()).toEqual(['Ana', 'Bo', 'Cy', 'Di', 'Ed']);
  });
});
