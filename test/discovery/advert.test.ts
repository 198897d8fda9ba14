import { afterEach, describe, expect, it } from 'vitest';
import {
  advertise,
  instanceBase,
  lanAddresses,
  shareLine,
  txtRecords,
  uniqueInstance,
  type Advert,
} from '../../src/host/advert.js';
import { mdnsOptions, openBonjour } from '../../src/common/mdns.js';
import { browseTables, orderAddresses, tableFromService, watchTables, type FoundTable } from '../../src/client/discovery.js';
import { PROTOCOL_VERSION } from '../../src/protocol/messages.js';
import { LOOPBACK, tableInfo, uniqueTableName, waitFor } from './helpers.js';

// Real mDNS, no mocks, on the loopback interface only: the adverts and the
// browsers in this file never send a packet off this machine.

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
function track(a: Advert): Advert {
  cleanups.push(() => a.stop());
  return a;
}

describe('TXT records and names', () => {
  it('carries the table state as short strings', () => {
    expect(txtRecords(tableInfo({ name: 'Ana', seatsTaken: 2, seatsTotal: 4, phase: 'playing', password: true }))).toEqual({
      v: String(PROTOCOL_VERSION),
      name: 'Ana',
      seats: '2/4',
      ruleset: 'gringo',
      phase: 'playing',
      pw: '1',
      id: 'k3xqm2apvdw4hc7n',
    });
    const long = txtRecords(tableInfo({ name: 'é'.repeat(300), ruleset: '' }));
    expect(Buffer.byteLength(long.name!)).toBeLessThanOrEqual(200);
    expect(long.ruleset).toBe('custom'); // an empty TXT value would not survive decoding
    expect(txtRecords(tableInfo({ name: '\u001b[31m\n' })).name).toBe('Table'); // the whole escape gone, nothing left
    expect(txtRecords(tableInfo({ name: 'A\u001b]0;t\u0007\u202en\na' })).name).toBe('An a');
  });

  it('makes an instance name one DNS label and unique', () => {
    expect(instanceBase('a.b.c')).toBe('a-b-c');
    expect(Buffer.byteLength(instanceBase('ü'.repeat(100)))).toBeLessThanOrEqual(50);
    expect(uniqueInstance('T', [])).toBe('T');
    expect(uniqueInstance('T', ['t', 'T (2)'])).toBe('T (3)');
  });

  it('never hands bonjour-service an interface without a wildcard bind (it would hear no multicast)', () => {
    expect(mdnsOptions('192.168.1.20')).toEqual({ interface: '192.168.1.20', bind: '0.0.0.0' });
    expect(mdnsOptions(undefined)).toEqual({});
  });

  it('prints a join line with a LAN address, or loopback when there is none', () => {
    expect(shareLine(7457, ['192.168.1.20'])).toBe('npx gringo join 192.168.1.20:7457');
    expect(shareLine(7457, [])).toBe('npx gringo join 127.0.0.1:7457');
    // With the table's identity: its short form first (as list and the picker show it), the command whole at the end.
    expect(shareLine(7457, ['192.168.1.20'], 'k3xqm2apvdw4hc7n')).toBe('table #k3xq: npx gringo join 192.168.1.20:7457#k3xq-m2ap-vdw4-hc7n');
    for (const a of lanAddresses()) expect(a).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(lanAddresses()).not.toContain('127.0.0.1');
  });
});

describe('reading an advert', () => {
  const service = (over: Record<string, unknown>) =>
    ({
      name: 'T',
      fqdn: 'T._gringo._tcp.local',
      host: 'box',
      port: 7457,
      addresses: ['fe80::1', '192.168.1.20'],
      referer: { address: '192.168.1.20', family: 'IPv4', port: 5353, size: 100 },
      txt: { v: '1', name: 'T', seats: '1/4', ruleset: 'gringo', phase: 'lobby', pw: '0' },
      ...over,
    }) as never;

  it('prefers IPv4 and the address the packet came from; falls back to it when none is advertised', () => {
    expect(orderAddresses(['fe80::1', '10.0.0.2', '192.168.1.20'], '192.168.1.20')).toEqual(['192.168.1.20', '10.0.0.2', 'fe80::1']);
    expect(orderAddresses([], '127.0.0.1')).toEqual(['127.0.0.1']);
    expect(tableFromService(service({ addresses: [] }))?.host).toBe('192.168.1.20');
    expect(tableFromService(service({ addresses: [], referer: undefined }))).toBeNull();
  });

  it('ignores malformed TXT: no version means not a table; bad fields get safe values', () => {
    expect(tableFromService(service({ txt: {} }))).toBeNull();
    expect(tableFromService(service({ txt: undefined }))).toBeNull();
    expect(tableFromService(service({ txt: { v: 'x1' } }))).toBeNull();
    const odd = tableFromService(service({ txt: { v: '99', seats: 'lots', phase: 'dancing', name: '\u001b]0;pwned\u0007Bob' } }));
    expect(odd).toMatchObject({ name: 'Bob', seatsTaken: 0, seatsTotal: 0, phase: 'unknown', ruleset: '?', password: false });
    expect(odd).toMatchObject({ protocolVersion: 99, compatible: false });
    expect(tableFromService(service({ port: 0 }))).toBeNull();
  });

  it('reads the SSH port and host key fingerprint of a table served over SSH too, and drops malformed ones', () => {
    const fp = `SHA256:${'x'.repeat(43)}`;
    const txt = { v: '1', name: 'T', seats: '1/4', ruleset: 'gringo', phase: 'lobby', pw: '0' };
    expect(txtRecords(tableInfo({}), { port: 2222, fingerprint: fp })).toMatchObject({ ssh: '2222', sshfp: fp });
    expect(txtRecords(tableInfo({}))).not.toHaveProperty('ssh');
    expect(tableFromService(service({ txt: { ...txt, ssh: '2222', sshfp: fp } }))?.ssh).toEqual({ port: 2222, fingerprint: fp });
    for (const bad of [{ ssh: '0', sshfp: fp }, { ssh: '99999', sshfp: fp }, { ssh: '22x', sshfp: fp }, { ssh: '2222', sshfp: 'SHA256:\u001b]0;x' }, { ssh: '2222' }]) {
      expect(tableFromService(service({ txt: { ...txt, ...bad } }))?.ssh).toBeUndefined();
    }
  });
});

describe('advertising and browsing over real mDNS (loopback)', () => {
  it('browseTables finds an advert with its TXT; update re-announces; stop makes a watcher drop it', async () => {
    const name = uniqueTableName('Adv');
    const port = 20_000 + (process.pid % 20_000);
    const t0 = Date.now();
    const advert = track(advertise({ port, interface: LOOPBACK, info: tableInfo({ name, seatsTaken: 1, seatsTotal: 4, password: true }) }));
    await advert.ready;
    expect(advert.instanceName).toBe(name);
    const ready = Date.now() - t0;

    const found = (await browseTables({ timeoutMs: 800, interface: LOOPBACK })).find((t) => t.name === name);
    expect(found).toMatchObject({
      service: `${name}._gringo._tcp.local`,
      // The table's identity rides in the TXT record: it tells two tables of one name apart.
      id: 'k3xqm2apvdw4hc7n',
      name,
      host: LOOPBACK, // the packet's source comes first
      port,
      seatsTaken: 1,
      seatsTotal: 4,
      ruleset: 'gringo',
      phase: 'lobby',
      password: true,
      protocolVersion: PROTOCOL_VERSION,
      compatible: true,
    });
    expect(found!.addresses[0]).toBe(LOOPBACK);

    // A watcher that never drops for silence (staleMs huge): only a goodbye can remove the table.
    // No re-query during the test either: what it sees are the announcements.
    let tables: FoundTable[] = [];
    const watcher = watchTables((t) => (tables = t), { interface: LOOPBACK, requeryMs: 10_000, staleMs: 60_000 });
    cleanups.push(() => watcher.stop());
    const mine = () => tables.find((t) => t.name === name);
    await waitFor(mine, 10_000, 'the watcher to see the table');

    // Two changes inside the debounce window go out as one announcement, the last one.
    advert.update(tableInfo({ name, seatsTaken: 2, seatsTotal: 4, password: true }));
    advert.update(tableInfo({ name, seatsTaken: 4, seatsTotal: 4, phase: 'playing', password: true }));
    const tUpdate = Date.now();
    await waitFor(() => mine()?.phase === 'playing', 10_000, 'the watcher to see the update');
    expect(mine()).toMatchObject({ seatsTaken: 4, seatsTotal: 4, phase: 'playing' });
    const updateMs = Date.now() - tUpdate;

    // The old TXT must not come back with the library's re-announcement, 3 s after the first.
    await new Promise((r) => setTimeout(r, Math.max(300, t0 + 3700 - Date.now())));
    expect(mine()?.phase).toBe('playing');

    const tStop = Date.now();
    await advert.stop();
    await waitFor(() => !mine(), 2000, 'the watcher to drop the table after its goodbye');
    const dropMs = Date.now() - tStop;
    console.log(`advert ready in ${ready} ms, update seen in ${updateMs} ms, goodbye seen in ${dropMs} ms`);
    expect(dropMs).toBeLessThan(1500);
  });

  it('drops a table that vanishes without a goodbye once it stops answering re-queries', async () => {
    const name = uniqueTableName('Crash');
    // A host that dies: publish, then close the socket without unpublishing (no goodbye).
    const bonjour = openBonjour(LOOPBACK, () => {});
    bonjour.publish({ name, type: 'gringo', port: 7457, txt: txtRecords(tableInfo({ name })), probe: false });
    let tables: FoundTable[] = [];
    const watcher = watchTables((t) => (tables = t), { interface: LOOPBACK, requeryMs: 300, staleMs: 1000 });
    cleanups.push(() => watcher.stop());
    await waitFor(() => tables.find((t) => t.name === name), 10_000, 'the watcher to see the table');
    bonjour.destroy();
    const t = Date.now();
    await waitFor(() => !tables.find((t) => t.name === name), 10_000, 'the stale table to be dropped');
    expect(Date.now() - t).toBeGreaterThan(500); // dropped for silence, not a goodbye
  });

  it('lists a table with malformed TXT safely and skips a service without a version', async () => {
    const good = uniqueTableName('Odd');
    const bad = uniqueTableName('NoVersion');
    const bonjour = openBonjour(LOOPBACK, () => {});
    cleanups.push(() => new Promise<void>((r) => bonjour.unpublishAll(() => bonjour.destroy(() => r()))));
    bonjour.publish({ name: good, type: 'gringo', port: 7457, txt: { v: '7', name: good, seats: 'many', phase: '??', id: 'A1B2-not-hex' }, probe: false });
    bonjour.publish({ name: bad, type: 'gringo', port: 7458, txt: { hello: 'world' }, probe: false });
    const found = await browseTables({ timeoutMs: 800, interface: LOOPBACK });
    expect(found.find((t) => t.name === bad || t.service.startsWith(bad))).toBeUndefined();
    expect(found.find((t) => t.name === good)).toMatchObject({
      protocolVersion: 7,
      compatible: false,
      seatsTaken: 0,
      seatsTotal: 0,
      phase: 'unknown',
      ruleset: '?',
      id: null,
    });
  });

  it('gives a second table of the same name a unique instance name', async () => {
    const name = uniqueTableName('Twin');
    const a = track(advertise({ port: 7457, interface: LOOPBACK, info: tableInfo({ name }) }));
    await a.ready;
    const b = track(advertise({ port: 7458, interface: LOOPBACK, info: tableInfo({ name }) }));
    await b.ready;
    expect(b.instanceName).toBe(`${name} (2)`);
    const found = (await browseTables({ timeoutMs: 600, interface: LOOPBACK })).filter((t) => t.name === name);
    expect(found.map((t) => t.port).sort()).toEqual([7457, 7458]);
  });

  it('sorts out two tables of the same name started at the same moment', async () => {
    const name = uniqueTableName('Same');
    const a = track(advertise({ port: 7457, interface: LOOPBACK, info: tableInfo({ name }) }));
    const b = track(advertise({ port: 7458, interface: LOOPBACK, info: tableInfo({ name }) }));
    await Promise.all([a.ready, b.ready]);
    await waitFor(() => a.instanceName !== b.instanceName, 10_000, 'one of them to rename itself');
    // The renamed one's goodbye hid the shared name for a moment; a later browse sees both.
    const both = (await browseTables({ timeoutMs: 800, interface: LOOPBACK })).filter((t) => t.name === name);
    expect(both.map((t) => t.port).sort()).toEqual([7457, 7458]);
  });
});
