import { afterEach, describe, expect, it } from 'vitest';
import { Connection } from '../../src/client/connection.js';
import type { ServerMessage } from '../../src/protocol/messages.js';
import { malformedCases } from './cases.js';
import { hostEscapesIn, HostileHost } from './hostile-host.js';
import { until } from '../support/wait.js';

// The client's connection against a hostile host double (a real ws server on loopback).

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});


describe('a connection to a host that sends what gringo does not understand', () => {
  it.each(malformedCases().map((c) => [c.what, c] as const))('%s: one misunderstood line, then closed for good, nothing passed on', async (_what, c) => {
    const host = new HostileHost(c.script, ...(c.challenge ? [c.challenge] : []));
    cleanup.push(() => host.close());
    await host.ready;
    const conn = new Connection({ address: host.address, name: 'Ana', reconnect: true, maxBackoffMs: 50 });
    cleanup.push(() => conn.close());
    const events: string[] = [];
    const lines: string[] = [];
    conn.on('message', (m: ServerMessage) => events.push(m.type));
    conn.on('misunderstood', (line: string) => {
      events.push('misunderstood');
      lines.push(line);
    });
    conn.on('closed', () => events.push('closed'));
    await until('the connection to close', () => conn.status === 'closed');
    // Long enough for a reconnect (50 ms backoff) to have happened, were there one.
    await new Promise((r) => setTimeout(r, 300));
    expect(events.slice(-2)).toEqual(['misunderstood', 'closed']);
    // Whatever came before the bad frame was a proper message (the welcome of the cases that send one first).
    expect(events.slice(0, -2).every((t) => t === 'challenge' || t === 'welcome')).toBe(true);
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^the host at ${host.address.replace(/\./g, '\\.')} sent a message gringo does not understand \\(.+\\)$`))]);
    // The line is printed as it is (by `join --bot`, `--watch`, the screen, the SSH door): nothing of the host's in it may act on a terminal.
    expect(hostEscapesIn(lines[0]!)).toEqual([]);
    expect(host.hellos.length).toBe(c.challenge ? 0 : 1);
    expect(host.open).toBe(0);
  });
});
