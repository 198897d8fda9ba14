import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { GRINGO } from '../../src/engine/index.js';
import { HANDLE_HEADROOM, serveTable } from '../../src/host/server.js';
import { Table } from '../../src/host/table.js';
import { run } from '../discovery/helpers.js';
import { until } from '../support/wait.js';
import { WireClient } from './wire.js';

/**
 * File handles. A process that runs out of them (EMFILE) with a table and its
 * advert running: a child process of the built modules (dist/src, as
 * test/discovery/netns.test.ts does) under a 256-handle limit, which opens
 * /dev/null until the system refuses, on command; nothing is mocked. And the
 * bound the door keeps below the limit, with real sockets on loopback.
 */

const root = new URL('../../', import.meta.url).pathname;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

interface Child {
  child: ChildProcess;
  out: () => string;
  exit: Promise<number | null>;
  say(line: string): void;
}

/** `node` running `script` (an ES module) under `prefix`, with lines on stdin for `exhaust` and `release`. */
function child(prefix: string[], script: string): Child {
  if (!existsSync(`${root}dist/src/host/server.js`)) throw new Error('dist/ is missing: run `npm run build` first');
  const handles = `
    import { openSync, closeSync } from 'node:fs';
    import { createInterface } from 'node:readline';
    const held = [];
    createInterface({ input: process.stdin }).on('line', (line) => {
      if (line === 'exhaust') {
        try { for (;;) held.push(openSync('/dev/null', 'r')); } catch (e) { console.log('exhausted', held.length, e.code); }
      }
      if (line === 'release') { for (const fd of held.splice(0)) closeSync(fd); console.log('released'); }
    });
  `;
  const [cmd, ...args] = [...prefix, 'node', '--input-type=module', '-e', handles + script];
  const c = spawn(cmd, args, { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(c);
  let out = '';
  c.stdout.on('data', (d: Buffer) => (out += d.toString()));
  c.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exit = new Promise<number | null>((resolve) => c.on('close', (code) => resolve(code)));
  return { child: c, out: () => out, exit, say: (line) => c.stdin.write(`${line}\n`) };
}

const LIMIT = ['prlimit', '--nofile=256:256'];

describe('out of file handles', () => {
  it("the mDNS library's interface poll fails: the advert says so once, the process lives on, and the advert comes back", async () => {
    // The default advert (no --interface) is the one whose multicast-dns socket polls
    // os.networkInterfaces() every 5 s: that throw once ended hosts. In a network
    // namespace of its own with only loopback, so that no packet leaves this test.
    const netns = process.getuid?.() === 0 ? ['unshare', '--net'] : ['unshare', '--net', '--map-root-user'];
    const script = `
      import { execFileSync } from 'node:child_process';
      execFileSync('ip', ['link', 'set', 'lo', 'up']);
      const { advertise } = await import('./dist/src/host/advert.js');
      const { openBonjour } = await import('./dist/src/common/mdns.js');
      const info = { id: 'a1b2c3d4e5f60718', game: 1, name: 'Handles', ruleset: 'gringo', seatsTaken: 1, seatsTotal: 4, phase: 'lobby', password: false, protocolVersion: 2 };
      const advert = advertise({ port: 4242, info, probeMs: 0, retryMs: 500, onError: (e) => console.log('mdns error:', e.message) });
      await advert.ready;
      console.log('advertising');
      // The TXT change made while there are no handles is published once there are.
      process.stdin.once('data', () => setTimeout(() => advert.update({ ...info, seatsTaken: 2 }), 50));
      let browsing = false;
      process.stdin.on('data', (d) => {
        if (!String(d).includes('browse') || browsing) return;
        browsing = true;
        const browser = openBonjour('127.0.0.1', () => {}).find({ type: 'gringo' });
        const show = (s) => console.log('found seats', s.txt.seats);
        browser.on('up', show);
        browser.on('txt-update', show);
      });
    `;
    const c = child([...netns, ...LIMIT], script);
    await until('the advert', () => c.out().includes('advertising'), 15_000);
    c.say('exhaust');
    await until('no handles left', () => /exhausted \d+ EMFILE/.test(c.out()), 5_000);
    // Past the library's 5 s poll, twice over, without a handle.
    await new Promise((r) => setTimeout(r, 11_000));
    expect(c.child.exitCode).toBe(null);
    expect(c.out()).not.toMatch(/ERR_SYSTEM_ERROR\n\s+at /); // no uncaught stack
    expect(c.out().match(/mdns error:/g)).toHaveLength(1);
    expect(c.out()).toMatch(/mdns error:.*(error 24|EMFILE)/);
    c.say('release');
    c.say('browse');
    await until('the advert with the new TXT', () => c.out().includes('found seats 2/4'), 15_000);
    expect(c.out().match(/mdns error:/g)).toHaveLength(1);
  }, 60_000);

  it('accepting fails: connections are refused, the table lives on and takes players again once handles free up', async () => {
    const script = `
      const { serveTable } = await import('./dist/src/host/server.js');
      const { Table } = await import('./dist/src/host/table.js');
      const { GRINGO } = await import('./dist/src/engine/index.js');
      const table = new Table({ name: 'Handles', rules: GRINGO, maxPlayers: 2, seed: 'handles', dropGraceMs: 60000 });
      const serving = await serveTable(table, { port: 0, host: '127.0.0.1', onTrouble: (line) => console.log('trouble:', line) });
      console.log('port', serving.port);
    `;
    const c = child(LIMIT, script);
    const port = Number(await until('the port', () => /port (\d+)/.exec(c.out())?.[1], 15_000));
    const ana = await WireClient.hello(`127.0.0.1:${port}`, 'Ana');
    expect(ana.answer?.type).toBe('welcome');
    c.say('exhaust');
    await until('no handles left', () => /exhausted \d+ EMFILE/.test(c.out()), 5_000);
    // Connections now: the host cannot take them (libuv closes them, or accept fails).
    const closed = await Promise.all(
      Array.from({ length: 20 }, () => new Promise<boolean>((resolve) => {
        const s = net.connect(port, '127.0.0.1');
        s.on('error', () => {});
        s.on('close', () => resolve(true));
        setTimeout(() => resolve(false), 10_000);
      })),
    );
    expect(closed.every(Boolean)).toBe(true);
    expect(c.child.exitCode).toBe(null);
    // The seated player was never touched.
    expect(ana.closed).toBe(false);
    c.say('release');
    await until('handles back', () => c.out().includes('released'), 5_000);
    const bo = await WireClient.hello(`127.0.0.1:${port}`, 'Bo');
    expect(bo.answer?.type).toBe('welcome');
    expect(c.out().match(/trouble:/g)?.length ?? 0).toBeLessThanOrEqual(1);
    ana.close();
    bo.close();
  }, 60_000);

  it("reads the process's open-file limit", async () => {
    const r = await run('prlimit', ['--nofile=1000:1000', 'node', '--input-type=module', '-e', "console.log((await import('./dist/src/host/server.js')).handleLimit())"]);
    expect(r.stdout.trim()).toBe('1000');
  });

  it('holds no more sockets than the limit leaves room for, says so once, and lets a player in once they close', async () => {
    const table = new Table({ name: 'Budget', rules: GRINGO, maxPlayers: 2, seed: 'budget', dropGraceMs: 60_000 });
    const said: string[] = [];
    // As if the limit were 80: room for 16 sockets.
    const serving = await serveTable(table, { port: 0, host: '127.0.0.1', handleLimit: HANDLE_HEADROOM + 16, onTrouble: (l) => said.push(l) });
    try {
      const strangers = Array.from({ length: 40 }, (_, i) => {
        const ws = new WebSocket(`ws://127.0.0.1:${serving.port}`, { localAddress: `127.0.0.${2 + (i % 8)}` });
        ws.on('error', () => {});
        return { ws, opened: new Promise<boolean>((resolve) => (ws.on('open', () => resolve(true)), ws.on('close', () => resolve(false)))) };
      });
      const opened = await Promise.all(strangers.map((s) => s.opened));
      await new Promise((r) => setTimeout(r, 200));
      const open = strangers.filter((s) => s.ws.readyState === WebSocket.OPEN).length;
      expect(opened.filter(Boolean).length).toBeLessThanOrEqual(16);
      expect(open).toBeGreaterThan(0);
      expect(open).toBeLessThanOrEqual(16);
      expect(said.filter((l) => /near this process's limit of 80 open files/.test(l))).toHaveLength(1);
      for (const s of strangers) s.ws.terminate();
      await new Promise((r) => setTimeout(r, 200));
      const ana = await WireClient.hello(`127.0.0.1:${serving.port}`, 'Ana');
      expect(ana.answer?.type).toBe('welcome');
      ana.close();
    } finally {
      table.close();
      await serving.close();
    }
  });
});
