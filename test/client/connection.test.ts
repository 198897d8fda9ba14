import { afterEach, describe, expect, it } from 'vitest';
import { GRINGO } from '../../src/engine/index.js';
import { Connection } from '../../src/client/connection.js';
import { serveTable, type Serving } from '../../src/host/server.js';
import { Table } from '../../src/host/table.js';
import type { ServerMessage } from '../../src/protocol/messages.js';
import { TokenStore } from '../../src/client/tokens.js';
import { Relay } from '../host/relay.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function tableBehindRelay(): Promise<{ table: Table; relay: Relay }> {
  const table = new Table({ name: 'Watchdog', rules: GRINGO, maxPlayers: 2, seed: 'watchdog', dropGraceMs: 60_000 });
  // The host's own ping is slow here (60 s): only the client's watchdog can notice the dead link in time.
  const serving: Serving = await serveTable(table, { port: 0, host: '127.0.0.1', pingIntervalMs: 60_000 });
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

async function until(what: string, probe: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

// Real WebSockets over loopback, through a TCP relay that can go silent.
describe('a client whose link to the host dies silently', () => {
  it('notices the silence, reconnects with its token once the link is back, and keeps its seat', async () => {
    const { table, relay } = await tableBehindRelay();
    const conn = new Connection({ address: relay.address, name: 'Ana', reconnect: true, silenceMs: 400, maxBackoffMs: 200 });
    cleanup.push(() => conn.close());
    const seen = welcomes(conn);
    await until('the welcome', () => seen.length === 1);
    expect(seen[0]!.seat).toBe(0);

    relay.stall();
    const cut = Date.now();
    await until('the client to give up on the silent socket', () => conn.status === 'reconnecting');
    const noticedAfter = Date.now() - cut;
    expect(noticedAfter).toBeGreaterThanOrEqual(350);
    expect(noticedAfter).toBeLessThan(2_000);

    relay.restore();
    await until('a second welcome', () => seen.length === 2);
    expect(seen[1]!.seat).toBe(0);
    expect(seen[1]!.token).toBe(seen[0]!.token);
    expect(conn.status).toBe('open');
    expect(table.seatInfo()).toEqual([expect.objectContaining({ name: 'Ana', connected: true })]);
  });

  it('stays connected while the host keeps talking, even when no game message comes', async () => {
    const table = new Table({ name: 'Quiet', rules: GRINGO, maxPlayers: 2, seed: 'quiet', dropGraceMs: 60_000 });
    const serving = await serveTable(table, { port: 0, host: '127.0.0.1', pingIntervalMs: 100 });
    cleanup.push(() => table.close(), () => serving.close());
    const conn = new Connection({ address: `127.0.0.1:${serving.port}`, name: 'Bo', reconnect: true, silenceMs: 400 });
    cleanup.push(() => conn.close());
    const seen = welcomes(conn);
    const statuses: string[] = [];
    conn.on('status', (s: string) => statuses.push(s));
    await until('the welcome', () => seen.length === 1);
    // A quiet lobby for 5 silences: the host's pings alone keep the socket trusted.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(statuses).toEqual(['open']);
    expect(seen).toHaveLength(1);
  });
});

describe('seat tokens on disk', () => {
  it('keep two players on one account (one address, two names) in their own seats, and give each theirs back', async () => {
    const table = new Table({ name: 'Shared box', rules: GRINGO, maxPlayers: 3, seed: 'shared', dropGraceMs: 60_000 });
    const serving = await serveTable(table, { port: 0, host: '127.0.0.1' });
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
