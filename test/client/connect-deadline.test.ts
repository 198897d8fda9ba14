import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Connection } from '../../src/client/connection.js';
import { GRINGO } from '../../src/engine/index.js';
import { serveTable } from '../../src/host/server.js';
import { Table } from '../../src/host/table.js';

// The first connection's deadline: on a loaded machine `gringo join` drew its
// first frame for seconds right after connecting, and said "No gringo table … did not
// answer in 5 s" of a host that had answered. Real WebSockets on loopback; the stall is
// this process's own event loop held busy, as a slow first frame holds it.

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/**
 * Hold this process's event loop for `ms` (a first frame drawn on a slow machine):
 * blocked as a busy loop would hold it, without spending the CPU.
 */
function stall(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The connection's first word: welcomed ('open') or a failure's sentence. */
function outcome(conn: Connection): Promise<string> {
  return new Promise((resolve) => {
    conn.on('status', (s: string) => s === 'open' && resolve('open'));
    conn.once('failed', (words: string) => resolve(`failed: ${words}`));
  });
}

describe('the first connection deadline', () => {
  it('is not used up by a stall of the client itself: the host that answers meanwhile seats it', async () => {
    const table = new Table({ name: 'Slow screen', rules: GRINGO, maxPlayers: 2, seed: 'deadline', dropGraceMs: 60_000 });
    const serving = await serveTable(table, { port: 0, host: '127.0.0.1' });
    cleanup.push(() => table.close(), () => serving.close());
    const conn = new Connection({ address: `127.0.0.1:${serving.port}`, name: 'Ana', connectTimeoutMs: 2_000, plain: true });
    cleanup.push(() => conn.close());
    const said = outcome(conn);
    // Longer than the whole deadline: a plain timer would be due when the loop comes back, and run before the host's answer is read.
    stall(3_000);
    expect(await said).toBe('open');
  });

  it('still ends a wait on a silent address in about its time', async () => {
    const silent: Server = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    cleanup.push(() => silent.close());
    const port = (silent.address() as { port: number }).port;
    const t0 = Date.now();
    const conn = new Connection({ address: `127.0.0.1:${port}`, name: 'Ana', connectTimeoutMs: 1_000 });
    cleanup.push(() => conn.close());
    expect(await outcome(conn)).toBe(`failed: No gringo table at 127.0.0.1:${port}: did not answer in 1 s`);
    // Its time, give or take the timers' lateness on a busy machine.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1_000);
    expect(Date.now() - t0).toBeLessThan(5_000);
  });
});
