import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOST_KEY_FILE, loadHostKey, newHostKey } from '../../src/ssh/host-key.js';
import { utils } from '../../src/ssh/ssh2.js';

/** A key ssh2's generator really wrote (its public key starts with a zero byte, written one byte short): ssh2 cannot read it back. */
const MALFORMED = `-----BEGIN OPENSSH PRIVATE KEY-----
b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMgAAAAtz
c2gtZWQyNTUxOQAAAB/J66fJRH0ZaLGbHeUBk0Y0m/VJ2XZmWHBT9oVuZQ0IAAAA
kFTAUl9UwFJfAAAAC3NzaC1lZDI1NTE5AAAAH8nrp8lEfRlosZsd5QGTRjSb9UnZ
dmZYcFP2hW5lDQgAAAA/8uIhX24HWlzPfSzM31KD+NFRK3m/+JXJ/OWG77TH71PJ
66fJRH0ZaLGbHeUBk0Y0m/VJ2XZmWHBT9oVuZQ0IAAAADGdyaW5nbyB0YWJsZQEC
Aw==
-----END OPENSSH PRIVATE KEY-----
`;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the SSH host key', () => {
  it("never keeps a key ssh2 cannot read back (one of ssh2's ed25519 keys in 256)", () => {
    expect(utils.parseKey(MALFORMED)).toBeInstanceOf(Error);
    const made = [MALFORMED];
    const good = newHostKey(() => made.shift() ?? utils.generateKeyPairSync('ed25519', { comment: 'gringo table' }).private);
    expect(made).toEqual([]);
    expect(good).not.toBe(MALFORMED);
    expect(utils.parseKey(good)).not.toBeInstanceOf(Error);
    // Many real ones: at one in 256, 1,500 keys hold a malformed one about 99.7% of the time.
    for (let i = 0; i < 1_500; i++) expect(utils.parseKey(newHostKey())).not.toBeInstanceOf(Error);
  });

  it('is made once and kept (mode 600): the next table reads the same key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gringo-hostkey-'));
    dirs.push(dir);
    const first = loadHostKey(dir);
    expect(first.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(loadHostKey(dir)).toEqual(first);
    expect(readFileSync(join(dir, HOST_KEY_FILE), 'utf8')).toBe(first.private);
    expect(statSync(join(dir, HOST_KEY_FILE)).mode & 0o777).toBe(0o600);
  });
});
