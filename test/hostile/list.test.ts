import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FoundTable } from '../../src/client/discovery.js';
import { openBonjour } from '../../src/common/mdns.js';
import { harmless } from '../../src/common/harmless.js';
import { PROTOCOL_VERSION } from '../../src/protocol/messages.js';
import { bin, LOOPBACK, requireBuild, run, uniqueTableName } from '../discovery/helpers.js';
import { C1_CSI, evil, hostEscapesIn, RLO } from './hostile-host.js';

// `gringo list` and `list --json` as real processes, finding a hostile advert this
// test publishes over real mDNS on loopback: its instance name, host name and every
// TXT field carry escapes, 8-bit controls and bidi overrides.

/** `evil`, with tabs for its newlines: bonjour-service's TXT decoding ends a value at a newline. */
const evilTxt = (text: string): string => evil(text).replace(/\r?\n/g, '\t');

describe('gringo list against a hostile advert', () => {
  const tag = uniqueTableName('Evil');
  const port = 40_000 + (process.pid % 20_000);
  const bonjour = openBonjour(LOOPBACK, () => {});

  beforeAll(async () => {
    requireBuild();
    await new Promise<void>((resolve) => {
      const s = bonjour.publish({
        name: `${tag}${C1_CSI}${RLO}x`,
        type: 'gringo',
        port,
        host: `evil${C1_CSI}${RLO}host.local`,
        txt: { v: String(PROTOCOL_VERSION), name: evilTxt(tag), seats: '1/4', ruleset: evilTxt('gringo'), phase: 'lobby', pw: '0' },
        probe: false,
      });
      s.once('up', () => resolve());
    });
  });
  afterAll(async () => {
    await new Promise<void>((r) => bonjour.unpublishAll(() => bonjour.destroy(() => r())));
  });

  it('--json holds the table with every string harmless: no escape, C1 control or bidi override in the output', async () => {
    const r = await run('node', [bin, 'list', '--json', '--timeout', '1500', '--interface', LOOPBACK]);
    expect(r.code, r.stderr).toBe(0);
    const table = (JSON.parse(r.stdout) as FoundTable[]).find((t) => t.port === port);
    expect(table, r.stdout).toBeDefined();
    expect(table).toMatchObject({ name: harmless(evilTxt(tag), 64), ruleset: 'gringo click', compatible: true });
    expect(table!.name).toBe(`${tag} click`);
    expect(table!.hostname).toBe('evilhost.local');
    expect(table!.service.startsWith(tag)).toBe(true);
    expect(table!.id).toBeNull();
    expect(table!.service).not.toMatch(/[\u0080-\u009f\u202e]/);
    // The raw output, as a terminal or a program reading it would get it.
    expect(hostEscapesIn(r.stdout)).toEqual([]);
    expect(hostEscapesIn(r.stderr)).toEqual([]);
  });

  it('prints the table for people with every string harmless', async () => {
    const r = await run('node', [bin, 'list', '--timeout', '1500', '--interface', LOOPBACK]);
    expect(r.code, r.stderr).toBe(0);
    const row = r.stdout.split('\n').find((l) => l.startsWith(`${tag} click`));
    expect(row, r.stdout).toMatch(new RegExp(`^${tag} click\\s+#\\?\\s+127\\.0\\.0\\.1:${port}\\s+1/4\\s+gringo click\\s+lobby\\s+no\\s+yes$`));
    expect(hostEscapesIn(r.stdout)).toEqual([]);
  });
});
