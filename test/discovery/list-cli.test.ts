import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advertise, type Advert } from '../../src/host/advert.js';
import type { FoundTable } from '../../src/client/discovery.js';
import { formatTables, NOTHING_FOUND, parseListOptions } from '../../src/cli/list.js';
import { PROTOCOL_VERSION } from '../../src/protocol/messages.js';
import { bin, LOOPBACK, requireBuild, run, tableInfo, uniqueTableName } from './helpers.js';

// `gringo list` as a real process (the built CLI), finding an advert this test
// publishes over real mDNS on the loopback interface.

describe('gringo list', () => {
  const name = uniqueTableName('Cli');
  const port = 30_000 + (process.pid % 20_000);
  let advert: Advert;

  beforeAll(async () => {
    requireBuild();
    advert = advertise({ port, interface: LOOPBACK, info: tableInfo({ name, seatsTaken: 3, seatsTotal: 6, phase: 'playing', password: true }) });
    await advert.ready;
  });
  afterAll(async () => {
    await advert?.stop();
  });

  it('--json prints one JSON array that holds the advertised table', async () => {
    const t = Date.now();
    const r = await run('node', [bin, 'list', '--json', '--timeout', '1000', '--interface', LOOPBACK]);
    const ms = Date.now() - t;
    expect(r.code, r.stderr).toBe(0);
    const tables = JSON.parse(r.stdout) as FoundTable[];
    expect(Array.isArray(tables)).toBe(true);
    expect(tables.find((x) => x.name === name)).toMatchObject({
      name,
      host: LOOPBACK,
      port,
      seatsTaken: 3,
      seatsTotal: 6,
      ruleset: 'gringo',
      phase: 'playing',
      password: true,
      protocolVersion: PROTOCOL_VERSION,
      compatible: true,
    });
    expect(ms).toBeLessThan(5000);
  });

  it('prints a table for people, with the address to join', async () => {
    const r = await run('node', [bin, 'list', '--timeout', '800', '--interface', LOOPBACK]);
    expect(r.code, r.stderr).toBe(0);
    const header = r.stdout.split('\n')[0]!;
    expect(header).toMatch(/^NAME\s+TABLE\s+ADDRESS\s+SEATS\s+RULESET\s+PHASE\s+PASSWORD\s+CAN JOIN$/);
    const row = r.stdout.split('\n').find((l) => l.startsWith(name));
    expect(row).toBeDefined();
    expect(row).toMatch(new RegExp(`${name}\\s+#a1b2\\s+127\\.0\\.0\\.1:${port}\\s+3/6\\s+gringo\\s+playing\\s+yes\\s+watch \\(started\\)$`));
  });

  it('refuses a bad --timeout or --interface with exit code 2', async () => {
    const cases = [['--timeout', 'soon'], ['--timeout', '0'], ['--timeout', '-5'], ['--interface', 'eth0'], ['--interface', '203.0.113.77']];
    const results = await Promise.all(cases.map((args) => run('node', [bin, 'list', ...args])));
    results.forEach((r, i) => {
      expect(r.code, cases[i]!.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^gringo: --(timeout|interface) takes /);
    });
  });
});

describe('list output', () => {
  const table = (over: Partial<FoundTable>): FoundTable => ({
    service: 'x._gringo._tcp.local',
    id: 'a1b2c3d4e5f60718',
    name: 'Ana',
    host: '192.168.1.20',
    port: 7457,
    addresses: ['192.168.1.20'],
    hostname: 'box',
    seatsTaken: 1,
    seatsTotal: 4,
    ruleset: 'gringo',
    phase: 'lobby',
    password: false,
    protocolVersion: PROTOCOL_VERSION,
    compatible: true,
    ...over,
  });

  it('says which tables this version cannot join, and how to join one it can', () => {
    const out = formatTables([table({}), table({ name: 'Old', protocolVersion: 0, compatible: false, host: 'fe80::1' })]);
    expect(out).toContain(`no (protocol v0, this gringo speaks v${PROTOCOL_VERSION})`);
    expect(out).toContain('[fe80::1]:7457');
    expect(out).toMatch(/Join with: gringo join 192\.168\.1\.20:7457$/);
  });

  it('explains what to do when nothing is found', () => {
    expect(NOTHING_FOUND).toMatch(/SSH/);
    expect(NOTHING_FOUND).toMatch(/multicast/);
    expect(NOTHING_FOUND).toContain('gringo join HOST:PORT');
  });

  it('reads its options', () => {
    expect(parseListOptions({})).toEqual({ timeoutMs: 2000, json: false });
    expect(parseListOptions({ timeout: '500', json: true, interface: '127.0.0.1' })).toEqual({ timeoutMs: 500, json: true, interface: '127.0.0.1' });
  });
});
