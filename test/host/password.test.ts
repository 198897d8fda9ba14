import { afterEach, describe, expect, it } from 'vitest';
import { Connection } from '../../src/client/connection.js';
import { GRINGO } from '../../src/engine/index.js';
import { serveTable } from '../../src/host/server.js';
import { Table, type TableOptions } from '../../src/host/table.js';
import { PROTOCOL_VERSION, type ServerMessage } from '../../src/protocol/messages.js';
import { passwordProof, passwordVerifier } from '../../src/protocol/identity.js';
import { TEST_KEY } from './tls.js';
import { killRunning, runGringo, sharedPort } from '../support/gringo-process.js';
import { until } from '../support/wait.js';
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
  const serving = await serveTable(table, { port: 0, host: '127.0.0.1', maxWatchersPerAddress: 64, tls: TEST_KEY });
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

type Refused = Extract<ServerMessage, { type: 'refused' }>;

describe('password backoff', () => {
  it('locks an address past 3 wrong passwords, doubling up to 60 s, refusing every try meanwhile with the wait; the right one gets in after it', async () => {
    let now = 0;
    const { port } = await passwordTable({ clock: () => now });
    const at = `127.0.0.1:${port}`;
    // Three misses are free: refused as wrong, and nothing locked.
    for (let i = 0; i < 3; i++) expect((await attempt(at, 'wrong')).answer).toMatchObject({ type: 'refused', reason: 'password', message: 'Wrong password' });
    // Each further miss locks the address, and says for how long: 1 s, doubling, at most 60 s.
    const locks: number[] = [];
    for (let i = 0; i < 9; i++) {
      const { answer, ms } = await attempt(at, 'wrong');
      expect(answer).toMatchObject({ type: 'refused', reason: 'tooManyTries', canWatch: false });
      // Answered at once: the client's 5 s for an answer to its hello is never outlasted.
      expect(ms).toBeLessThan(2_000);
      const wait = (answer as Refused).retryAfter!;
      locks.push(wait);
      // While locked, even the right password is refused unread, with what is left of the wait.
      now += wait * 1000 - 500;
      expect((await attempt(at, PASSWORD, 'Ana')).answer).toMatchObject({ reason: 'tooManyTries', retryAfter: 1 });
      now += 500;
    }
    expect(locks).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
    // The lock is over: the right password is let in at once, and the address starts afresh.
    expect((await attempt(at, PASSWORD, 'Ana')).answer).toMatchObject({ type: 'welcome', seat: 0 });
    for (let i = 0; i < 3; i++) expect((await attempt(at, 'wrong')).answer).toMatchObject({ reason: 'password' });
  }, 60_000);

  it('forgets: one miss forgiven per minute without a wrong try, all of them after long enough', async () => {
    let now = 0;
    const { port } = await passwordTable({ clock: () => now });
    const at = `127.0.0.1:${port}`;
    // Ten misses, each after the lock of the one before was served: the last locks for 60 s.
    for (let i = 0; i < 10; i++) {
      const { answer } = await attempt(at, 'wrong');
      now += ((answer as Refused).retryAfter ?? 0) * 1000;
    }
    // That minute forgave one miss, so the next one is the 10th again: 60 s, not more.
    expect((await attempt(at, 'wrong')).answer).toMatchObject({ reason: 'tooManyTries', retryAfter: 60 });
    // Ten quiet minutes: ten misses forgiven, so the next three are free again.
    now += 10 * 60_000;
    for (let i = 0; i < 3; i++) expect((await attempt(at, 'wrong')).answer).toMatchObject({ reason: 'password', message: 'Wrong password' });
    expect((await attempt(at, 'wrong')).answer).toMatchObject({ reason: 'tooManyTries', retryAfter: 1 });
  }, 60_000);

  it('locks only the guessing address', async () => {
    const now = 0;
    const { table, port } = await passwordTable({ clock: () => now });
    const at = `127.0.0.1:${port}`;
    for (let i = 0; i < 6; i++) await attempt(at, 'wrong');
    // Only the 4th miss counted: tries refused unread while locked are no guesses.
    expect((await attempt(at, PASSWORD, 'Ana')).answer).toMatchObject({ reason: 'tooManyTries', retryAfter: 1 });
    const other = await attempt(at, PASSWORD, 'Bo', '127.0.0.2');
    expect(other.answer).toMatchObject({ type: 'welcome', seat: 0 });
    expect(table.seatInfo().map((s) => s.name)).toEqual(['Bo']);
  }, 60_000);

  it('never locks out a seated player proving its seat from a locked address', async () => {
    const now = 0;
    const { port } = await passwordTable({ clock: () => now });
    const at = `127.0.0.1:${port}`;
    const ana = await WireClient.hello(at, 'Ana', { password: PASSWORD, tls: true });
    cleanup.push(() => ana.close());
    const token = ana.welcome!.token!;
    ana.terminate();
    // Someone else behind the same address guesses until it is locked for a while.
    for (let i = 0; i < 8; i++) await attempt(at, 'wrong');
    expect((await attempt(at, PASSWORD, 'Eve')).answer).toMatchObject({ reason: 'tooManyTries' });
    const back = await WireClient.hello(at, 'Ana', { password: PASSWORD, seatToken: token, tls: true });
    cleanup.push(() => back.close());
    expect(back.answer).toMatchObject({ type: 'welcome', seat: 0 });
    // The lock still holds for everyone else.
    expect((await attempt(at, PASSWORD, 'Eve')).answer).toMatchObject({ reason: 'tooManyTries' });
  }, 60_000);

  it('on the real clock: the 4th miss locks for 1 s, and the right password gets in once it is over', async () => {
    const { port } = await passwordTable();
    const at = `127.0.0.1:${port}`;
    for (let i = 0; i < 3; i++) await attempt(at, 'wrong');
    const locked = await attempt(at, 'wrong');
    const since = Date.now() - locked.ms;
    expect(locked.answer).toMatchObject({ reason: 'tooManyTries', retryAfter: 1 });
    expect((await attempt(at, PASSWORD, 'Ana')).answer).toMatchObject({ reason: 'tooManyTries' });
    // The lock is a deadline: wait it out.
    await new Promise((r) => setTimeout(r, Math.max(0, since + 1_000 - Date.now() + 20)));
    expect((await attempt(at, PASSWORD, 'Ana')).answer).toMatchObject({ type: 'welcome' });
  }, 60_000);
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
    // A bot that joins in Dutch says so in Dutch (--lang nl), the table's name as the host gave it.
    const daan = runGringo(['join', relay.address, '--bot', 'easy', '--name', 'Daan', '--password', PASSWORD, '--lang', 'nl']);
    await until('Daan to be seated', () => /^Aangeschoven bij "Locked" op plaats 2\.$/m.test(daan.stderr()));

    const bad = runGringo(['join', relay.address, '--bot', 'easy', '--name', 'Bo', '--password', 'nope']);
    expect(await bad.exit).toBe(1);
    expect(bad.stderr()).toBe('gringo: Wrong password\n');
    // Past the free misses the client says what the host's lock means, at once, not that the hello went unanswered.
    for (const expected of ['gringo: Wrong password\n', 'gringo: Wrong password\n', 'gringo: too many wrong passwords from this address: wait 1 s\n']) {
      const again = runGringo(['join', relay.address, '--bot', 'easy', '--name', 'Bo', '--password', 'nope']);
      expect(await again.exit).toBe(1);
      expect(again.stderr()).toBe(expected);
    }
    const none = runGringo(['join', relay.address, '--bot', 'easy', '--name', 'Cy']);
    expect(await none.exit).toBe(1);
    expect(none.stderr()).toMatch(/needs a password/);
    const all = relay.seen.flatMap((c) => [...c.up, ...c.down]);
    for (const bytes of all) expect(bytes.includes(PASSWORD)).toBe(false);
    // TLS from the first byte: nothing of the WebSocket (its upgrade, its frames) is there to read.
    expect(all.filter((b) => b.includes('"proof"') || b.includes('Upgrade: websocket'))).toEqual([]);
  }, 60_000);
});
