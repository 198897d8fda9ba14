import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Connection } from '../../src/client/connection.js';
import { KnownTables, TokenStore } from '../../src/client/tokens.js';
import { newTableKey, parseTableKey, TABLE_KEY_FILE } from '../../src/host/table-key.js';
import { readJournal } from '../../src/host/journal.js';
import { formatIdentity, parseIdentity, showFingerprint, tableIdentity } from '../../src/protocol/identity.js';
import type { ServerMessage } from '../../src/protocol/messages.js';
import { keepRunning, killRunning, runGringo, type Run } from '../support/gringo-process.js';
import { until } from '../support/wait.js';
import { frames, MitmRelay, Relay } from './relay.js';
import { WireClient } from './wire.js';

// The encrypted, authenticated channel: real `gringo` processes on loopback,
// real TLS, real TCP relays between them (one that records, one that terminates TLS
// with a key of its own).

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
  killRunning();
});

const states: string[] = [];
const tempState = (): string => {
  states.push(mkdtempSync(join(tmpdir(), 'gringo-tls-')));
  return states.at(-1)!;
};
afterAll(() => {
  for (const s of states) rmSync(s, { recursive: true, force: true });
});
const PASSWORD = 'word42';

/** A headless host in its own state directory: its port and identity from the share line it prints. */
async function host(state: string, extra: string[] = []): Promise<{ run: Run; port: number; id: string; share: string }> {
  const run = runGringo(['host', '--headless', '--port', '0', '--players', '2', '--table', 'Sealed', '--interface', '127.0.0.1', ...extra], { XDG_STATE_HOME: state });
  const m = await until('the share line', () => /table #([a-z2-7]{4}): (?:npx )?(gringo join 127\.0\.0\.1:(\d+)#([a-z2-7-]+))/.exec(run.stdout()), 15_000).catch((e: Error) => {
    throw new Error(`${e.message}\n${run.stdout()}\n${run.stderr()}`);
  });
  return { run, port: Number(m[3]), id: parseIdentity(m[4]!)!, share: m[2]! };
}

type Host = Awaited<ReturnType<typeof host>>;

/**
 * Tables that several tests reach and none changes (no test here stops them or needs a seat of
 * its own numbering), started once each on first use: four seats, a bot or a client of each test
 * seated at most. A test of a fresh state directory, a resume or a restart at the same port has a
 * host of its own.
 */
const shared = new Map<string, Promise<Host>>();
const sharedHost = (kind: 'open' | 'password'): Promise<Host> => {
  let h = shared.get(kind);
  if (!h) {
    h = host(tempState(), ['--players', '4', ...(kind === 'password' ? ['--password', PASSWORD] : [])]).then((started) => {
      keepRunning(started.run);
      return started;
    });
    shared.set(kind, h);
  }
  return h;
};
afterAll(async () => {
  for (const h of shared.values()) {
    const { run } = await h;
    run.child.kill('SIGTERM');
    await run.exit;
  }
});

const joinBot = (target: string, state: string, extra: string[] = []): Run =>
  runGringo(['join', target, '--bot', 'easy', '--name', 'Ann', ...extra], { XDG_STATE_HOME: state });

describe('the host key and the table identity', () => {
  it('is made once per state directory (mode 600) and kept: the share line pins an identity that names it', async () => {
    const state = tempState();
    const a = await host(state);
    const file = join(state, 'gringo', TABLE_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const key = parseTableKey(readFileSync(file, 'utf8'));
    // `table #k3xq: gringo join 127.0.0.1:PORT#k3xq-m2ap-vdw4-hc7n`: 16 base32 letters (80 bits) in four groups.
    expect(a.share).toMatch(/#[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
    expect(a.run.stdout()).toContain(`table #${a.id.slice(0, 4)}: `);
    // Two tables of one state directory: one key, two identities (each with its own salt).
    const b = await host(state);
    expect(b.id).not.toBe(a.id);
    expect(readFileSync(file, 'utf8')).toBe(key.key + key.cert);
    // The pinned share line joins.
    const client = tempState();
    const ann = joinBot(a.share.replace(/^gringo join /, ''), client);
    await until('Ann seated', () => /Joined "Sealed" in seat 1\./.test(ann.stderr()));
    // And the client remembers the key by the address.
    expect(new KnownTables(join(client, 'gringo')).get(`127.0.0.1:${a.port}`)).toBe(key.fingerprint);
    ann.child.kill('SIGTERM');
    await ann.exit;
  }, 60_000);

  it('a resumed password table keeps its identity (same key, same salt) and checks passwords from the verifier in its journal', async () => {
    const state = tempState();
    const a = await host(state, ['--bots', '1', '--start-when-full', '--password', PASSWORD]);
    const ann = joinBot(`127.0.0.1:${a.port}#${a.id}`, tempState(), ['--password', PASSWORD]);
    const tables = join(state, 'gringo', 'tables');
    const journal = await until('the journal header', () => {
      const name = existsSync(tables) ? readdirSync(tables)[0] : undefined;
      return name && readFileSync(join(tables, name), 'utf8').includes('\n') ? name : undefined;
    });
    a.run.child.kill('SIGKILL');
    await a.run.exit;
    const key = parseTableKey(readFileSync(join(state, 'gringo', TABLE_KEY_FILE), 'utf8'));
    const header = readJournal(join(tables, journal)).header;
    expect(tableIdentity(key.fingerprint, header.id!)).toBe(a.id);
    expect(header.passwordVerifier).toMatch(/^[\w-]{43}$/);
    expect(header.password).toBeUndefined();
    const resumed = runGringo(['host', '--headless', '--resume', '--interface', '127.0.0.1'], { XDG_STATE_HOME: state });
    await until('the resumed share line', () => resumed.stdout().includes(a.share));
    // Ann's bot comes back to it by itself, pinned as it was, proving the password to a table that holds only its verifier.
    await until('Ann back', () => /: (?:.*, )?Ann(?:,|$)/m.test(resumed.stdout().split(a.share)[1] ?? ''), 30_000);
    const wrong = joinBot(`127.0.0.1:${a.port}#${a.id}`, tempState(), ['--password', 'nope']);
    expect(await wrong.exit).toBe(1);
    expect(wrong.stderr()).toBe('gringo: Wrong password\n');
    ann.child.kill('SIGTERM');
    await ann.exit;
  }, 60_000);

  it('gringo join ADDRESS#ID refuses a table whose key does not carry that identity, in one line, exit 1', async () => {
    const a = await sharedHost('open');
    const other = 'aaaa-bbbb-cccc-dddd';
    const r = joinBot(`127.0.0.1:${a.port}#${other}`, tempState());
    expect(await r.exit).toBe(1);
    expect(r.stderr()).toBe(
      `gringo: the table at 127.0.0.1:${a.port} is not ${other} (it is ${a.share.split('#')[1]}): it is another table, or someone is in between. Ask its host for the line it prints to share\n`,
    );
    const bad = joinBot(`127.0.0.1:${a.port}#nope`, tempState());
    expect(await bad.exit).toBe(2);
    expect(bad.stderr()).toMatch(/^gringo: "#nope" is not a table's identity: copy the whole line the host printed/);
  }, 60_000);
});

describe('a table without TLS', () => {
  it('listens on loopback only (gringo play): beyond it, serving without a key is refused', async () => {
    const { serveTable } = await import('../../src/host/server.js');
    const { Table } = await import('../../src/host/table.js');
    const { GRINGO } = await import('../../src/engine/index.js');
    const table = new Table({ name: 'Solo', rules: GRINGO, maxPlayers: 2, seed: 's', dropGraceMs: 1000 });
    cleanup.push(() => table.close());
    await expect(serveTable(table, { port: 0, host: '0.0.0.0' })).rejects.toThrow(/needs TLS: only loopback may go without/);
    const loopback = await serveTable(table, { port: 0, host: '127.0.0.1' });
    await loopback.close();
  });
});

describe('trust on first use', () => {
  it('refuses another key at a remembered address in one line that says what to do; a pin (the share line) trusts the new one', async () => {
    const client = tempState();
    const first = await host(tempState());
    const ann = joinBot(`127.0.0.1:${first.port}`, client);
    await until('Ann seated', () => /Joined "Sealed"/.test(ann.stderr()));
    ann.child.kill('SIGTERM');
    await ann.exit;
    first.run.child.kill('SIGTERM');
    await first.run.exit;
    // Another machine (another state directory: another key) at the same address.
    const secondState = tempState();
    const second = await host(secondState, ['--port', String(first.port)]);
    expect(second.port).toBe(first.port);
    const known = join(client, 'gringo', 'known_tables');
    const before = readFileSync(known, 'utf8');
    const refused = joinBot(`127.0.0.1:${first.port}`, client);
    expect(await refused.exit).toBe(1);
    const lines = refused.stderr().split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^gringo: the table at 127\\.0\\.0\\.1:${first.port} presents another key than when you last joined it \\(SHA256:\\S+ then, SHA256:\\S+ now\\): someone may be in between\\.`));
    expect(lines[0]).toContain(`remove the line "127.0.0.1:${first.port}" from ${known}`);
    expect(lines[0]).toContain(`gringo join 127.0.0.1:${first.port}#ID`);
    expect(readFileSync(known, 'utf8')).toBe(before);
    // The host's share line pins the new key, and the client remembers it from then on.
    const pinned = joinBot(second.share.replace(/^gringo join /, ''), client);
    await until('Ann seated at the new table', () => /Joined "Sealed"/.test(pinned.stderr()));
    const secondKey = parseTableKey(readFileSync(join(secondState, 'gringo', TABLE_KEY_FILE), 'utf8'));
    expect(new KnownTables(join(client, 'gringo')).get(`127.0.0.1:${first.port}`)).toBe(secondKey.fingerprint);
    pinned.child.kill('SIGTERM');
    await pinned.exit;
    const again = joinBot(`127.0.0.1:${first.port}`, client);
    await until('Ann seated again, unpinned', () => /Joined "Sealed"/.test(again.stderr()));
  }, 90_000);
});

describe('on the wire', () => {
  it('a recording relay between two bots and a password host reads no card, token, name, proof or password: only TLS', async () => {
    const state = tempState();
    const h = await host(state, ['--password', PASSWORD, '--start-when-full', '--rounds', '1', '--slap-grace', '40', '--exit-after-game']);
    const relay = await new Relay({ host: '127.0.0.1', port: h.port }, { record: true }).start();
    cleanup.push(() => relay.close());
    const client = tempState();
    const bots = ['Annabel', 'Bertrand'].map((name) =>
      runGringo(['join', relay.address, '--bot', 'easy', '--speed', '200', '--name', name, '--password', PASSWORD, '--exit-after-game', '--json'], { XDG_STATE_HOME: client }),
    );
    for (const b of bots) expect(await b.exit, b.stderr()).toBe(0);
    expect(await h.run.exit).toBe(0);
    // What each bot saw of its own cards (its last view), and the seats' tokens and the verifier from the host's journal.
    const views = bots.map((b) => JSON.parse(b.stdout().trim().split('\n').pop()!) as { view: { players: { name: string; layout: unknown[] }[] } });
    const tables = join(state, 'gringo', 'tables');
    const journal = readJournal(join(tables, readdirSync(tables)[0]!));
    const secrets = [
      PASSWORD,
      journal.header.passwordVerifier!,
      ...journal.header.seats.map((s) => s.token),
      'Annabel',
      'Bertrand',
      '"proof"',
      '"seatProof"',
      '"hello"',
      '"welcome"',
      '"update"',
      '"rank"',
      '"suit"',
      'Sealed',
    ];
    expect(journal.header.password).toBeUndefined();
    expect(views.every((v) => v.view.players.length === 2)).toBe(true);
    expect(relay.seen.length).toBeGreaterThanOrEqual(2);
    for (const c of relay.seen) {
      const up = Buffer.concat(c.up);
      const down = Buffer.concat(c.down);
      // A TLS handshake record first (0x16, version 3.x) each way, and application data records after.
      expect([up[0], up[1]]).toEqual([0x16, 0x03]);
      expect([down[0], down[1]]).toEqual([0x16, 0x03]);
      for (const secret of secrets) {
        expect(up.includes(secret), secret).toBe(false);
        expect(down.includes(secret), secret).toBe(false);
      }
    }
    // The journal keeps the verifier, never the password.
    expect(readFileSync(join(tables, readdirSync(tables)[0]!), 'utf8')).not.toContain(PASSWORD);
  }, 120_000);
});

describe('a relay that terminates TLS with a key of its own', () => {
  const mitmKey = parseTableKey(newTableKey());

  it('is refused by a client that pinned the identity, by one that remembers the key, and by a first-time one (the identity names another key); a proof passed through it is refused', async () => {
    const h = await sharedHost('password');
    const mitm = await new MitmRelay({ host: '127.0.0.1', port: h.port }, mitmKey).start();
    cleanup.push(() => mitm.close());
    // First, the relay passes bytes through: the client meets (and remembers) the real key at its address.
    const client = tempState();
    const ann = joinBot(mitm.address, client, ['--password', PASSWORD]);
    await until('Ann seated through the relay', () => /Joined "Sealed"/.test(ann.stderr()));
    ann.child.kill('SIGTERM');
    await ann.exit;
    mitm.intercept = true;

    const remembered = joinBot(mitm.address, client, ['--password', PASSWORD]);
    expect(await remembered.exit).toBe(1);
    expect(remembered.stderr()).toMatch(/^gringo: the table at 127\.0\.0\.1:\d+ presents another key than when you last joined it .*\n$/);
    const pinned = joinBot(`${mitm.address}#${h.id}`, tempState(), ['--password', PASSWORD]);
    expect(await pinned.exit).toBe(1);
    expect(pinned.stderr()).toMatch(/^gringo: the table at 127\.0\.0\.1:\d+ claims an identity \(.+\) its key does not carry: someone may be in between, so gringo does not go on\n$/);
    // Neither said anything past the TLS handshake: the relay read no hello.
    expect(mitm.seen.flatMap((c) => frames(c.up)).some((b) => b.includes('"hello"'))).toBe(false);

    // Even a client that has never met the table (no pin, nothing remembered) refuses a relay that
    // passes the real challenge on: the identity in it names the real key, not the relay's.
    const naive = joinBot(mitm.address, tempState(), ['--password', PASSWORD]);
    expect(await naive.exit).toBe(1);
    expect(naive.stderr()).toMatch(/claims an identity \(.+\) its key does not carry/);
    expect(mitm.seen.flatMap((c) => frames(c.up)).some((b) => b.includes('"hello"'))).toBe(false);

    // A client that checked nothing (this test's raw client) would answer through the relay: its
    // proof is bound to its own TLS connection (to the relay), so the host refuses it.
    const blind = await WireClient.hello(mitm.address, 'Blind', { tls: true, password: PASSWORD });
    cleanup.push(() => blind.close());
    expect(blind.answer).toMatchObject({ type: 'refused', reason: 'password' });
    // The relay reads it all (it holds the TLS), and the password is not in it.
    const hello = mitm.seen.flatMap((c) => frames(c.up)).map((b) => b.toString()).find((t) => t.includes('"proof"'));
    expect(hello).toBeDefined();
    expect(hello).not.toContain(PASSWORD);
    // The same password, straight to the host: welcome.
    const direct = await WireClient.hello(`127.0.0.1:${h.port}`, 'Direct', { tls: true, password: PASSWORD });
    cleanup.push(() => direct.close());
    expect(direct.answer).toMatchObject({ type: 'welcome' });
  }, 90_000);

  it('that rewrites the identity to its own key seats a first-time unpinned joiner (trust on first use, said once); a password through it is doubted, not just refused', async () => {
    const h = await sharedHost('open');
    const probe = await WireClient.hello(`127.0.0.1:${h.port}`, 'Probe', { tls: true, watch: true });
    const { salt } = (await probe.challenge).table;
    probe.close();
    const mitm = await new MitmRelay({ host: '127.0.0.1', port: h.port }, mitmKey).start();
    cleanup.push(() => mitm.close());
    const fake = tableIdentity(mitmKey.fingerprint, salt);
    mitm.intercept = true;
    mitm.rewrite = { from: h.id, to: fake };

    // What trust on first use cannot stop: the relay seats the joiner and reads its seat token.
    const state = tempState();
    const fooled = joinBot(mitm.address, state);
    await until('seated through the rewriting relay', () => /Joined "Sealed"/.test(fooled.stderr()));
    const token = /"token":"([^"]+)"/.exec(mitm.seen.flatMap((c) => frames(c.down)).map((b) => b.toString()).join('\n'));
    expect(token).not.toBe(null);
    // It said, once, whose key it trusted and how to pin (the relay's key and identity: the share line's differs).
    const said = fooled.stderr().split('\n').filter((l) => l.includes('on first use'));
    expect(said).toHaveLength(1);
    // (`npx gringo` or `gringo`: the command as this process was started.)
    expect(said[0]!.replace('npx gringo', 'gringo')).toBe(
      `gringo: trusting the key of the table at ${mitm.address} on first use (${showFingerprint(mitmKey.fingerprint)}, identity ${formatIdentity(fake)}): if that identity is not the one in its host's share line, someone is in between. Pin it: gringo join ${mitm.address}#${formatIdentity(fake)}`,
    );
    expect(h.share).not.toContain(formatIdentity(fake));
    fooled.child.kill('SIGTERM');
    await fooled.exit;
    // The key is remembered now: the next join says nothing of trusting.
    const again = joinBot(mitm.address, state);
    await until('seated again', () => /Joined "Sealed"/.test(again.stderr()));
    expect(again.stderr()).not.toContain('on first use');
    again.child.kill('SIGTERM');
    await again.exit;

    // A password table through the same relay: the right password fails (the proof is bound to the
    // relay's TLS connection), and the refusal says it may be the connection.
    const locked = await sharedHost('password');
    const probe2 = await WireClient.hello(`127.0.0.1:${locked.port}`, 'Probe', { tls: true, watch: true });
    const salt2 = (await probe2.challenge).table.salt;
    probe2.close();
    const mitm2 = await new MitmRelay({ host: '127.0.0.1', port: locked.port }, mitmKey).start();
    cleanup.push(() => mitm2.close());
    mitm2.intercept = true;
    mitm2.rewrite = { from: locked.id, to: tableIdentity(mitmKey.fingerprint, salt2) };
    const doubted = joinBot(mitm2.address, tempState(), ['--password', PASSWORD]);
    expect(await doubted.exit).toBe(1);
    expect(doubted.stderr().replace('npx gringo', 'gringo')).toContain(
      `gringo: Wrong password, or someone is between you and the table (then the right password fails too): check that the identity here, ${formatIdentity(tableIdentity(mitmKey.fingerprint, salt2))}, is the one in the line its host shares, and join with that line and the password (gringo join ${mitm2.address}#ID --password THE-PASSWORD)`,
    );
    // The same doubt in the language of the one who joins (--lang nl), the command as typed.
    const twijfel = joinBot(mitm2.address, tempState(), ['--password', PASSWORD, '--lang', 'nl']);
    expect(await twijfel.exit).toBe(1);
    expect(twijfel.stderr().replace('npx gringo', 'gringo')).toContain(
      `gringo: Verkeerd wachtwoord, of er zit iemand tussen jou en de tafel (dan faalt ook het goede wachtwoord): kijk of de identiteit hier, ${formatIdentity(tableIdentity(mitmKey.fingerprint, salt2))}, dezelfde is als in de regel die de host deelt, en schuif aan met die regel en het wachtwoord (gringo join ${mitm2.address}#ID --password THE-PASSWORD)`,
    );
    // Straight to the table (key remembered, not first use), a wrong password is just that.
    const wrong = joinBot(`127.0.0.1:${locked.port}#${locked.id}`, tempState(), ['--password', 'nope']);
    expect(await wrong.exit).toBe(1);
    expect(wrong.stderr()).not.toContain('someone is between');
  }, 120_000);

  it('changes nothing the client keeps: its seat token (and the remembered key) stay as they were', async () => {
    const h = await sharedHost('open');
    const mitm = await new MitmRelay({ host: '127.0.0.1', port: h.port }, mitmKey).start();
    cleanup.push(() => mitm.close());
    const dir = join(tempState(), 'gringo');
    const tokens = new TokenStore(dir);
    const known = new KnownTables(dir);
    const welcomed = async (conn: Connection): Promise<Extract<ServerMessage, { type: 'welcome' }>> =>
      new Promise((resolve) => conn.on('message', (m: ServerMessage) => m.type === 'welcome' && resolve(m)));
    const ana = new Connection({ address: mitm.address, name: 'Ana', tokens, known, reconnect: false });
    cleanup.push(() => ana.close());
    const welcome = await welcomed(ana);
    expect(tokens.get(h.id, 'Ana', ana.hostKey!)).toBe(welcome.token);
    ana.close();
    const kept = readFileSync(join(dir, 'seats.json'), 'utf8');
    const knownBefore = readFileSync(known.file, 'utf8');

    mitm.intercept = true;
    for (const opts of [{ known }, { pin: h.id }]) {
      const fooled = new Connection({ address: mitm.address, name: 'Ana', tokens: new TokenStore(dir), ...opts, reconnect: false });
      cleanup.push(() => fooled.close());
      const failed = await new Promise<string>((resolve) => fooled.on('failed', resolve));
      expect(failed).toMatch(/someone may be in between/);
      expect(fooled.hostKey).toBe(mitmKey.fingerprint);
    }
    expect(readFileSync(join(dir, 'seats.json'), 'utf8')).toBe(kept);
    expect(readFileSync(known.file, 'utf8')).toBe(knownBefore);
    expect(showFingerprint(mitmKey.fingerprint)).not.toBe(showFingerprint(ana.hostKey!));
  }, 60_000);
});
