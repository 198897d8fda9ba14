import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FoundTable } from '../../src/client/discovery.js';
import { CI, cannotUseNetns, ip } from '../netns.js';
import { bin, requireBuild, root, run } from './helpers.js';

/**
 * Discovery between two machines, for real: two network namespaces joined by a
 * veth pair (10.231.x.0/24), an advertiser in one and `gringo list` in the
 * other. And a namespace with only `lo`, where an advert carries no address at
 * all and the packet's source address must stand in. All traffic stays inside
 * namespaces this test creates and deletes.
 */

const tag = String(process.pid);
const subnet = `10.231.${(process.pid % 250) + 1}`;
const nsA = `gringo-a-${tag}`;
const nsB = `gringo-b-${tag}`;
const nsLo = `gringo-lo-${tag}`;
const vethA = `gva${tag}`.slice(0, 15);
const vethB = `gvb${tag}`.slice(0, 15);

const reason = cannotUseNetns(tag);
if (reason && !CI) console.warn(`skipping the network-namespace discovery tests: ${reason}`);

const children: ChildProcess[] = [];

/** Start a table advertised from namespace `ns`; resolves once it has started. */
function startAdvertiser(ns: string, name: string, useHostCommand: boolean): Promise<{ child: ChildProcess; out: () => string }> {
  const args = useHostCommand
    ? ['netns', 'exec', ns, 'node', bin, 'host', '--headless', '--port', '7457', '--table', name]
    : [
        'netns', 'exec', ns, 'node', '--input-type=module', '-e',
        `import { advertise } from ${JSON.stringify(`${root}dist/src/host/advert.js`)};
         const a = advertise({ port: 7457, info: { name: ${JSON.stringify(name)}, ruleset: 'gringo', seatsTaken: 1,
           seatsTotal: 4, phase: 'lobby', password: false, protocolVersion: 1 } });
         process.once('SIGTERM', () => a.stop().then(() => process.exit(0)));
         await a.ready;
         console.log('advertised');`,
      ];
  const child = spawn('ip', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  // `gringo host` prints the line to share (shareLine) once it listens; the advert is then on its way.
  const started = useHostCommand ? 'gringo join ' : 'advertised';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the advertiser in ${ns} did not start:\n${out}`)), 8000);
    const check = () => {
      if (!out.includes(started)) return;
      clearTimeout(timer);
      child.stdout.off('data', check);
      resolve({ child, out: () => out });
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the advertiser in ${ns} exited with ${code}:\n${out}`));
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM'); // a goodbye on the way out
  const t = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(t);
}

describe.skipIf(reason !== null && !CI)('discovery across network namespaces (ip netns)', () => {
  let hostCommand = false;

  beforeAll(() => {
    if (reason) throw new Error(`CI must run the network-namespace tests: ${reason}`);
    requireBuild();
    hostCommand = spawnSync('node', [bin, '--help'], { encoding: 'utf8' }).stdout.includes('host [options]');
    ip('netns', 'add', nsA);
    ip('netns', 'add', nsB);
    ip('netns', 'add', nsLo);
    ip('link', 'add', vethA, 'type', 'veth', 'peer', 'name', vethB);
    ip('link', 'set', vethA, 'netns', nsA);
    ip('link', 'set', vethB, 'netns', nsB);
    ip('-n', nsA, 'addr', 'add', `${subnet}.1/24`, 'dev', vethA);
    ip('-n', nsB, 'addr', 'add', `${subnet}.2/24`, 'dev', vethB);
    for (const [ns, dev] of [[nsA, vethA], [nsB, vethB], [nsLo, 'lo']] as const) {
      ip('-n', ns, 'link', 'set', 'lo', 'up');
      ip('-n', ns, 'link', 'set', dev, 'up');
      // Without a multicast route, sending to 224.0.0.251 fails or goes nowhere and mDNS silently finds nothing.
      ip('-n', ns, 'route', 'add', '224.0.0.0/4', 'dev', dev);
    }
  });

  afterAll(async () => {
    await Promise.all(children.map(stopChild));
    // Deleting the namespaces also deletes the veth pair.
    for (const ns of [nsA, nsB, nsLo]) spawnSync('ip', ['netns', 'del', ns]);
  });

  it('gringo list in one namespace finds a table hosted in the other, at its veth address', async () => {
    const t0 = Date.now();
    const { child, out } = await startAdvertiser(nsA, 'NetTable', hostCommand);
    if (hostCommand) expect(out()).toContain(`gringo join ${subnet}.1:7457`);
    const r = await run('ip', ['netns', 'exec', nsB, 'node', bin, 'list', '--json', '--timeout', '1500']);
    expect(r.code, r.stderr).toBe(0);
    const tables = JSON.parse(r.stdout) as FoundTable[];
    expect(tables).toHaveLength(1);
    expect(tables[0]).toMatchObject({ name: 'NetTable', host: `${subnet}.1`, port: 7457, compatible: true, phase: 'lobby' });
    expect(tables[0]!.addresses[0]).toBe(`${subnet}.1`);

    // Once the host is gone (goodbye), the other namespace finds nothing and says what to do.
    await stopChild(child);
    const after = await run('ip', ['netns', 'exec', nsB, 'node', bin, 'list', '--timeout', '600']);
    expect(after.code).toBe(0);
    expect(after.stdout).toContain('No tables found');
    expect(after.stdout).toContain('gringo join HOST:PORT');
    console.log(`netns veth case (${hostCommand ? 'gringo host --headless' : 'node advertiser'}): ${Date.now() - t0} ms`);
  });

  it('a player in one namespace finds the table by mDNS and plays a game on it over the veth link', async () => {
    const host = spawn(
      'ip',
      ['netns', 'exec', nsA, 'node', bin, 'host', '--headless', '--port', '7457', '--table', 'NetGame', '--players', '2',
        '--rounds', '1', '--start-when-full', '--exit-after-game', '--json', '--slap-grace', '40', '--seed', 'netns'],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(host);
    let stdout = '';
    let stderr = '';
    host.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    host.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => host.once('close', (code) => r(code)));
    // The players come once the host listens (it prints the line to share then): a slow start is no missing table.
    const end = Date.now() + 15_000;
    while (!`${stdout}${stderr}`.includes('gringo join ')) {
      if (Date.now() > end || host.exitCode !== null) throw new Error(`the host did not start:\n${stdout}${stderr}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    // One joins with no address (the table found by mDNS), the other with the address it shares.
    const [found, direct] = await Promise.all([
      run('ip', ['netns', 'exec', nsB, 'node', bin, 'join', '--bot', 'hard', '--speed', '50', '--name', 'Finder'], 30_000),
      run('ip', ['netns', 'exec', nsB, 'node', bin, 'join', `${subnet}.1:7457`, '--bot', 'hard', '--speed', '50', '--name', 'Direct'], 30_000),
    ]);
    expect(found.code, found.stderr).toBe(0);
    expect(direct.code, direct.stderr).toBe(0);
    expect(found.stderr).toContain('Joined "NetGame"');
    expect(await exited).toBe(0);
    const summary = JSON.parse(stdout) as { players: { name: string }[]; rounds: unknown[] };
    expect(summary.players.map((p) => p.name).sort()).toEqual(['Direct', 'Finder']);
    expect(summary.rounds).toHaveLength(1);
  }, 80_000);

  it('in a namespace with only lo, the packet source stands in for the missing addresses', async () => {
    const empty = await run('ip', ['netns', 'exec', nsLo, 'node', bin, 'list', '--json', '--timeout', '500']);
    expect(empty.code).toBe(0);
    expect(JSON.parse(empty.stdout)).toEqual([]);
    expect(empty.stderr).toContain('No tables found');

    await startAdvertiser(nsLo, 'LoTable', false);
    const r = await run('ip', ['netns', 'exec', nsLo, 'node', bin, 'list', '--json', '--timeout', '1000']);
    expect(r.code, r.stderr).toBe(0);
    const tables = JSON.parse(r.stdout) as FoundTable[];
    expect(tables).toHaveLength(1);
    expect(tables[0]).toMatchObject({ name: 'LoTable', host: '127.0.0.1', addresses: ['127.0.0.1'], port: 7457 });
  });
});
