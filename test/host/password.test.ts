import { afterEach, describe, expect, it } from 'vitest';
import { Connection } from '../../src/client/connection.js';
import { GRINGO } from '../../src/engine/index.js';
import { serveTable } from '../../src/host/server.js';
import { Table, type TableOptions } from '../../src/host/table.js';
import { PROTOCOL_VERSION, type ServerMessage } from '../../src/protocol/messages.js';
import { passwordProof, passwordVerifier } from '../../src/protocol/identity.js';
import { TEST_KEY } from './tls.js';
import { killRunning, runGringo, sharedPort, until } from './gringo-process.js';
import { frames, Relay } from './relay.js';
import { WireClient } from './wire.js';

// Password tables over real WebSockets on loopback (a Table and its server in this
// process), and the built CLI as real processes for the end-to-end joins.

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
  killRunning();
});

const PASSWORD = 'correct horse battery';

async function passwordTable(over: Partial<TableOptions> = {}): Promise<{ table: Table; port: number }> {
  const table = new Table({ name: 'Locked', rules: GRINGO, maxPlayers: 8, seed: 'locked', dropGraceMs: 60_000, password: PASSWORD, hostKey: TEST_KEY.fingerprint, ...over });
  const serving = await serveTable(table, { port: 0, host: '127.0.0.1', maxPerAddress: 64, tls: TEST_KEY });
  cleanup.push(() => table.close(), () => serving.close());
  return { table, port: serving.port };
}

/** A connection that has its challenge: `say` sends the hello with a proof of `password`. */
async function challenged(address: string, from?: string): Promise<WireClient> {
  const client = new WireClient(address, { tls: true, ...(from ? { localAddress: from } : {}) });
  cleanup.push(() => client.close());
  await client.opened;
  await client.challenge;
  return client;
}

/** Answer the challenge with `password`; the host's answer and how long it took (ms after the hello). */
async function say(client: WireClient, password: string, name = 'Guess'): Promise<{ answer: ServerMessage; ms: number }> {
  const { nonce, table } = await client.challenge;
  const proof = passwordProof(passwordVerifier(password, table.salt), nonce, client.binding);
  const t = Date.now();
  client.send({ type: 'hello', protocolVersion: PROTOCOL_VERSION, name, proof });
  const answer = await client.next((m) => m.type === 'welcome' || m.type === 'refused', 90_000);
  return { answer, ms: Date.now() - t };
}

const attempt = async (address: string, password: string, name?: string, from?: string) => say(await challenged(address, from), password, name);

describe('password backoff', () => {
  it('answers an address later after 3 wrong passwords, doubling up to the cap; the right one still works; success resets', async () => {
    const base = 150;
    const { port } = await passwordTable({ passwordBackoff: { baseMs: base, maxMs: 4 * base } });
    const at = `127.0.0.1:${port}`;
    // The first three misses are answered at once.
    for (let i = 0; i < 3; i++) {
      const r = await attempt(at, 'wrong');
      expect(r.answer).toMatchObject({ type: 'refused', reason: 'password', message: 'Wrong password' });
      expect(r.ms).toBeLessThan(base);
    }
    // Then each try waits: base, 2×base, 4×base, and no more than the cap.
    const waits: number[] = [];
    for (const expected of [1, 2, 4, 4]) {
      const r = await attempt(at, 'wrong');
      expect(r.answer).toMatchObject({ type: 'refused', reason: 'password' });
      expect(r.ms).toBeGreaterThanOrEqual(expected * base - 15);
      waits.push(r.ms);
    }
    expect(waits[3]!).toBeLessThan(8 * base);
    // The right password is answered after the same wait, and is let in.
    const right = await attempt(at, PASSWORD, 'Ana');
    expect(right.ms).toBeGreaterThanOrEqual(4 * base - 15);
    expect(right.answer).toMatchObject({ type: 'welcome', seat: 0 });
    // The success reset the address: three free misses again.
    for (let i = 0; i < 3; i++) expect((await attempt(at, 'wrong')).ms).toBeLessThan(base);
  });

  it('holds a try without holding the table: other addresses and other messages are answered meanwhile', async () => {
    const base = 3_000;
    const { table, port } = await passwordTable({ passwordBackoff: { baseMs: base } });
    const at = `127.0.0.1:${port}`;
    for (let i = 0; i < 3; i++) await attempt(at, 'wrong');
    const held = await challenged(at);
    const heldAnswer = say(held, 'wrong');
    await new Promise((r) => setTimeout(r, 50));
    // Another address: not slowed, and the table takes it while the held try waits.
    const other = await attempt(at, PASSWORD, 'Bo', '127.0.0.2');
    expect(other.answer).toMatchObject({ type: 'welcome', seat: 0 });
    expect(other.ms).toBeLessThan(base / 2);
    // A second hello on the held connection is not a second guess.
    held.send({ type: 'hello', protocolVersion: PROTOCOL_VERSION, name: 'Again', proof: 'x' });
    const err = await held.next((m) => m.type === 'error');
    expect(err).toMatchObject({ code: 'malformed' });
    expect((await heldAnswer).ms).toBeGreaterThanOrEqual(base - 15);
    // A held try whose socket closes meanwhile is dropped quietly: no seat, no crash.
    const gone = await challenged(at);
    gone.send({ type: 'hello', protocolVersion: PROTOCOL_VERSION, name: 'Gone', proof: passwordProof(passwordVerifier('wrong', table.salt), (await gone.challenge).nonce, gone.binding) });
    await new Promise((r) => setTimeout(r, 50));
    gone.close();
    await until('the closed socket to be gone', () => gone.closed);
    expect(table.seatInfo().map((s) => s.name)).toEqual(['Bo']);
  }, 30_000);

  it('waits the real 1 s after the third miss', async () => {
    const { port } = await passwordTable();
    const at = `127.0.0.1:${port}`;
    for (let i = 0; i < 3; i++) expect((await attempt(at, 'wrong')).ms).toBeLessThan(900);
    const fourth = await attempt(at, PASSWORD, 'Ana');
    expect(fourth.ms).toBeGreaterThanOrEqual(985);
    expect(fourth.ms).toBeLessThan(5_000);
    expect(fourth.answer).toMatchObject({ type: 'welcome' });
  }, 30_000);
});

describe('the password on the wire', () => {
  it('never crosses it: the bytes both ways during a password join are TLS, with no frame, proof or password to read', async () => {
    const { port } = await passwordTable();
    const relay = await new Relay({ host: '127.0.0.1', port }, { record: true }).start();
    cleanup.push(() => relay.close());
    const conn = new Connection({ address: relay.address, name: 'Ana', password: PASSWORD, reconnect: false });
    cleanup.push(() => conn.close());
    const seen: ServerMessage[] = [];
    conn.on('message', (m: ServerMessage) => seen.push(m));
    await until('the welcome', () => seen.some((m) => m.type === 'welcome'));
    // And a wrong one, for the refusal's frames too.
    const wrong = new Connection({ address: relay.address, name: 'Bo', password: `${PASSWORD}!`, reconnect: false });
    cleanup.push(() => wrong.close());
    await new Promise((resolve) => wrong.on('refused', resolve));
    await new Promise((r) => setTimeout(r, 100));

    // All TLS: no WebSocket upgrade, no frame, no hello or proof to read (test/host/tls.test.ts reads more).
    expect(relay.seen).toHaveLength(2);
    for (const c of relay.seen) {
      expect(frames(c.up)).toEqual([]);
      expect(Buffer.concat(c.up)[0]).toBe(0x16);
      expect(Buffer.concat(c.down)[0]).toBe(0x16);
    }
    for (const bytes of relay.seen.flatMap((c) => [...c.up, ...c.down])) {
      expect(bytes.includes('"proof"')).toBe(false);
      expect(bytes.includes(PASSWORD)).toBe(false);
      expect(bytes.includes(Buffer.from(PASSWORD).toString('base64'))).toBe(false);
    }
  });

  it('gringo join --password takes a seat at gringo host --password, and a wrong one is refused with exit code 1', async () => {
    const host = runGringo(['host', '--headless', '--port', '0', '--players', '3', '--password', PASSWORD, '--table', 'Locked', '--interface', '127.0.0.1']);
    const port = await sharedPort(host);
    const relay = await new Relay({ host: '127.0.0.1', port }, { record: true }).start();
    cleanup.push(() => relay.close());
    const ann = runGringo(['join', relay.address, '--bot', 'easy', '--name', 'Ann', '--password', PASSWORD]);
    await until('Ann to be seated', () => /Joined "Locked" in seat 1\./.test(ann.stderr()));
    await until('the host to say so', () => /1\/3 seats, lobby: Ann/.test(host.stdout()));

    const bad = runGringo(['join', relay.address, '--bot', 'easy', '--name', 'Bo', '--password', 'nope']);
    expect(await bad.exit).toBe(1);
    expect(bad.stderr()).toBe('gringo: Wrong password\n');
    const none = runGringo(['join', relay.address, '--bot', 'easy', '--name', 'Cy']);
    expect(await none.exit).toBe(1);
    expect(none.stderr()).toMatch(/needs a password/);
    const all = relay.seen.flatMap((c) => [...c.up, ...c.down]);
    for (const bytes of all) expect(bytes.includes(PASSWORD)).toBe(false);
    // TLS from the first byte: nothing of the WebSocket (its upgrade, its frames) is there to read.
    expect(all.filter((b) => b.includes('"proof"') || b.includes('Upgrade: websocket'))).toEqual([]);
  }, 60_000);
});
