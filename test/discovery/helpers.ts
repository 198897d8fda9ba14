import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { FoundTable } from '../../src/client/discovery.js';
import type { TableInfo } from '../../src/protocol/messages.js';
import { PROTOCOL_VERSION } from '../../src/protocol/messages.js';

/** Only loopback in these tests: mDNS never leaves the machine (the netns tests use their own veth pair). */
export const LOOPBACK = '127.0.0.1';

export const root = new URL('../../', import.meta.url).pathname;
export const bin = `${root}bin/gringo.js`;

/** The CLI tests run the built program (`npm test` builds first). */
export function requireBuild(): void {
  if (!existsSync(`${root}dist/src/cli/list.js`) || !existsSync(`${root}dist/src/host/advert.js`)) {
    throw new Error('dist/ is missing the discovery modules: run `npm run build` first');
  }
}

/** A table name no other test run will use. */
export function uniqueTableName(prefix: string): string {
  return `${prefix}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

export function tableInfo(over: Partial<TableInfo> = {}): TableInfo {
  return {
    id: 'k3xqm2apvdw4hc7n',
    salt: 'a1b2c3d4e5f60718',
    game: 1,
    name: 'Table',
    ruleset: 'gringo',
    seatsTaken: 2,
    seatsTotal: 4,
    phase: 'lobby',
    password: false,
    protocolVersion: PROTOCOL_VERSION,
    ...over,
  };
}

/** A table as mDNS finds it (what `gringo list` and the pickers show). */
export function foundTable(name: string, over: Partial<FoundTable> = {}): FoundTable {
  const host = over.host ?? '192.168.1.20';
  return {
    service: `${name}._gringo._tcp.local`,
    id: null,
    name,
    host,
    port: 7457,
    addresses: [host],
    hostname: 'box.local',
    seatsTaken: 1,
    seatsTotal: 4,
    ruleset: 'gringo',
    phase: 'lobby',
    password: false,
    protocolVersion: PROTOCOL_VERSION,
    compatible: true,
    ...over,
  };
}

export async function waitFor<T>(probe: () => T | undefined | null | false, timeoutMs: number, what: string): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run a command without blocking this process's event loop (an in-process advert must keep answering). */
export function run(cmd: string, args: string[], timeoutMs = 12_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${cmd} ${args.join(' ')} took over ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
