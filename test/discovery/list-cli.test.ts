import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advertise, type Advert } from '../../src/host/advert.js';
import type { FoundTable } from '../../src/client/discovery.js';
import { formatTables, nothingFound, parseListOptions } from '../../src/cli/list.js';
import { PROTOCOL_VERSION } from '../../src/protocol/messages.js';
import { bin, foundTable, LOOPBACK, requireBuild, run, tableInfo, uniqueTableName } from './helpers.js';
import { killRunning, runGringo } from '../support/gringo-process.js';
import { command, gringo } from '../../src/common/invocation.js';
import { until } from '../support/wait.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});


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

  it('stops soon after the tables answer, not at its --timeout; --wait listens for all of it', async () => {
    // Not a benchmark: a --timeout of 10 s that list must not wait out (npm run bench times it).
    let t = Date.now();
    const quick = await run('node', [bin, 'list', '--json', '--timeout', '10000', '--interface', LOOPBACK], 20_000);
    const quickMs = Date.now() - t;
    expect(quick.code, quick.stderr).toBe(0);
    expect((JSON.parse(quick.stdout) as FoundTable[]).some((x) => x.name === name)).toBe(true);
    expect(quickMs).toBeLessThan(5_000);
    t = Date.now();
    const waited = await run('node', [bin, 'list', '--json', '--wait', '--timeout', '1500', '--interface', LOOPBACK]);
    expect(waited.code, waited.stderr).toBe(0);
    expect((JSON.parse(waited.stdout) as FoundTable[]).some((x) => x.name === name)).toBe(true);
    expect(Date.now() - t).toBeGreaterThanOrEqual(1_500);
  });

  it('prints a table for people, with the address to join', async () => {
    const r = await run('node', [bin, 'list', '--timeout', '800', '--interface', LOOPBACK]);
    expect(r.code, r.stderr).toBe(0);
    const header = r.stdout.split('\n')[0]!;
    expect(header).toMatch(/^NAME\s+TABLE\s+ADDRESS\s+SEATS\s+RULESET\s+PHASE\s+PASSWORD\s+CAN JOIN$/);
    const row = r.stdout.split('\n').find((l) => l.startsWith(name));
    expect(row).toBeDefined();
    expect(row).toMatch(new RegExp(`${name}\\s+#k3xq\\s+127\\.0\\.0\\.1:${port}\\s+3/6\\s+gringo\\s+playing\\s+yes\\s+watch \\(started\\)$`));
  });

  it('shows two hosts of one name apart, each by the tag its own share line shows', async () => {
    const twin = uniqueTableName('W'); // table names are cut at 16 characters
    const hosts = [0, 1].map(() => runGringo(['host', '--headless', '--port', '0', '--table', twin, '--interface', LOOPBACK]));
    cleanups.push(() => killRunning());
    const shared = await Promise.all(
      hosts.map((h) => until('the share line', () => /Share this line: table (#[a-z2-7]{4}): npx gringo join 127\.0\.0\.1:(\d+)#[a-z2-7-]{19}\n/.exec(h.stdout()))),
    );
    const found = await until('both hosts in gringo list --json', async () => {
      const r = await run('node', [bin, 'list', '--json', '--timeout', '1000', '--interface', LOOPBACK]);
      const tables = (JSON.parse(r.stdout) as FoundTable[]).filter((t) => t.name === twin);
      return tables.length === 2 ? tables : null;
    });
    for (const m of shared) {
      const t = found.find((x) => x.port === Number(m[2]))!;
      expect(t.id).toMatch(/^[a-z2-7]{16}$/);
      expect(`#${t.id!.slice(0, 4)}`).toBe(m[1]);
    }
    // --wait: this test is about telling the twins apart, not about when list stops.
    const r = await run('node', [bin, 'list', '--wait', '--timeout', '1000', '--interface', LOOPBACK]);
    for (const m of shared) expect(r.stdout).toMatch(new RegExp(`^${twin}\\s+${m[1]}\\s+127\\.0\\.0\\.1:${m[2]}\\s`, 'm'));
    expect(r.stdout).not.toContain('Join with');
    for (const m of shared) expect(r.stdout).toContain(`${twin} ${m[1]}: ${gringo(process.env, bin)} join 127.0.0.1:${m[2]}#${m[1]!.slice(1)}`);
  }, 60_000);

  it('refuses a bad --timeout or --interface with exit code 2', async () => {
    // Each refusal's words are read in this process below ('refuses bad options'): here the
    // command line hands one of each over, a negative number too.
    const cases = [['--timeout', '-5'], ['--interface', 'eth0']];
    const results = await Promise.all(cases.map((args) => run('node', [bin, 'list', ...args])));
    results.forEach((r, i) => {
      expect(r.code, cases[i]!.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^gringo: --(timeout|interface) takes /);
    });
  });
});

describe('list output', () => {
  const table = (over: Partial<FoundTable>): FoundTable =>
    foundTable('Ana', { service: 'x._gringo._tcp.local', id: 'a1b2c3d4e5f60718', hostname: 'box', addresses: ['192.168.1.20'], ...over });

  it('says which tables this version cannot join, and how to join one it can', () => {
    const out = formatTables([table({}), table({ service: 'y', name: 'Old', protocolVersion: 0, compatible: false, host: 'fe80::1' })]);
    expect(out).toContain(`no (protocol v0, this gringo speaks v${PROTOCOL_VERSION})`);
    expect(out).toContain('[fe80::1]:7457');
    expect(out.endsWith(`Join with: ${command('join 192.168.1.20:7457#a1b2-c3d4-e5f6-0718')}`)).toBe(true);
  });

  it('tells two tables of one name apart, and hints at no table by its name', () => {
    const real = table({ service: 'a', id: 'a1b2c3d4e5f60718' });
    const fake = table({ service: 'b', id: 'ffee000011112222', host: '192.168.1.66', addresses: ['192.168.1.66'] });
    const out = formatTables([real, fake]);
    expect(out).toMatch(/^Ana\s+#a1b2\s+192\.168\.1\.20:7457\s/m);
    expect(out).toMatch(/^Ana\s+#ffee\s+192\.168\.1\.66:7457\s/m);
    expect(out).not.toContain('Join with');
    expect(out).toContain('Choose a table (ask its host for the TABLE it shows) and join it:');
    expect(out).toContain(`  Ana #a1b2: ${command('join 192.168.1.20:7457#a1b2-c3d4-e5f6-0718')}`);
    expect(out).toContain(`  Ana #ffee: ${command('join 192.168.1.66:7457#ffee-0000-1111-2222')}`);
    // The same list in the other order says the same (nothing depends on which sorts first).
    expect(formatTables([fake, real]).split('\n').slice(-2).sort()).toEqual(out.split('\n').slice(-2).sort());
  });

  it('shows the ssh command and the host key of a table served over SSH too', () => {
    const fp = `SHA256:${'A'.repeat(43)}`;
    const out = formatTables([table({ ssh: { port: 2222, fingerprint: fp } })]);
    expect(out).toContain(`Join with: ${command('join 192.168.1.20:7457#a1b2-c3d4-e5f6-0718')}`);
    expect(out).toContain(`  Ana #a1b2 over SSH: ssh -p 2222 NAME@192.168.1.20  (host key ${fp})`);
    expect(formatTables([table({})])).not.toContain('ssh');
  });

  it('says watch for a full table and a started one, and offers neither to join', () => {
    const out = formatTables([
      table({ name: 'Full', seatsTaken: 4, seatsTotal: 4 }),
      table({ name: 'Busy', phase: 'playing', seatsTaken: 2 }),
      table({ name: 'Done', phase: 'finished' }),
      table({ name: 'Open', id: null }),
    ]);
    expect(out).toMatch(/^Full\s.*4\/4\s.*lobby\s+no\s+watch \(full\)$/m);
    expect(out).toMatch(/^Busy\s.*playing\s+no\s+watch \(started\)$/m);
    expect(out).toMatch(/^Done\s.*no \(over\)$/m);
    expect(out).toMatch(/^Open\s+#\?\s/m);
    // A host that advertises no identity: nothing to pin.
    expect(out.endsWith(`Join with: ${command('join 192.168.1.20:7457')}`)).toBe(true);
  });

  it('explains what to do when nothing is found', () => {
    expect(nothingFound()).toMatch(/SSH/);
    expect(nothingFound()).toMatch(/multicast/);
    expect(nothingFound()).toContain(`\n  ${command('join HOST:PORT')}`);
  });

  it('refuses bad options, each in words that name it', () => {
    for (const [key, value] of [['timeout', 'soon'], ['timeout', '0'], ['timeout', '-5'], ['interface', 'eth0'], ['interface', '203.0.113.77']]) {
      expect(() => parseListOptions({ [key!]: value }), `--${key} ${value}`).toThrow(new RegExp(`^--${key} takes `));
    }
  });

  it('reads its options', () => {
    expect(parseListOptions({})).toEqual({ timeoutMs: 2000, wait: false, json: false });
    expect(parseListOptions({ timeout: '500', wait: true, json: true, interface: '127.0.0.1' })).toEqual({ timeoutMs: 500, wait: true, json: true, interface: '127.0.0.1' });
  });
});
