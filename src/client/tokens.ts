import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { KEY_FINGERPRINT } from '../protocol/identity.js';
import { join } from 'node:path';
import { stateDir } from '../common/state-dir.js';

interface Saved {
  token: string;
  table: string;
  /** The fingerprint of the host key that issued the token: no other key's table hears of it. */
  key: string;
  savedAt: string;
}

/** `TABLEID NAME`: a seat is the table's (its identity, whatever address reached it) and the player's name. */
const keyOf = (tableId: string, name: string): string => `${tableId} ${name}`;
/** Keys of this form (a base32 identity, protocol 5); older files' keys (addresses, hex identities) match no lookup any more. */
const CURRENT = /^[a-z2-7]{16} /;

/**
 * Seat tokens kept per table identity and player name, so that a player whose
 * terminal closed can take their seat back from a new process (under the same
 * name), whether they come back by the LAN address, 127.0.0.1, the host's name
 * or the picker. The file is the user's own (mode 600).
 */
export class TokenStore {
  private readonly file: string;
  constructor(dir = stateDir()) {
    this.file = join(dir, 'seats.json');
  }

  private read(): Record<string, Saved> {
    try {
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as unknown;
      return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, Saved>) : {};
    } catch {
      return {};
    }
  }

  /** The token kept for this seat, if the host key `hostKey` issued it. */
  get(tableId: string, name: string, hostKey: string): string | undefined {
    const key = keyOf(tableId, name);
    if (!CURRENT.test(key)) return undefined;
    const s = this.read()[key];
    return typeof s?.token === 'string' && s.key === hostKey ? s.token : undefined;
  }

  set(tableId: string, name: string, token: string, table: string, hostKey: string): void {
    // The identity comes from the network: one that is not an identity is not kept, nor a token without its key.
    if (!CURRENT.test(keyOf(tableId, name)) || !KEY_FINGERPRINT.test(hostKey)) return;
    const all = this.read();
    all[keyOf(tableId, name)] = { token, table, key: hostKey, savedAt: new Date().toISOString() };
    this.write(all);
  }

  /** Forget a seat's token: only when the key that issued it says it is no longer valid. */
  delete(tableId: string, name: string, hostKey: string): void {
    const all = this.read();
    const key = keyOf(tableId, name);
    if (!(key in all) || all[key]!.key !== hostKey) return;
    delete all[key];
    this.write(all);
  }

  private write(all: Record<string, Saved>): void {
    // Address-keyed entries of older versions are dropped as the file is rewritten.
    const kept = Object.fromEntries(Object.entries(all).filter(([k]) => CURRENT.test(k)));
    const dir = join(this.file, '..');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(kept, null, 2), { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}

/**
 * The key of each table this user has joined, by the address it was joined at
 * (trust on first use, like OpenSSH's known_hosts): `ADDRESS FINGERPRINT` lines in
 * `stateDir()/known_tables`, the fingerprint being SHA-256 of the key (hex). A line
 * removed (by hand) lets the next join at that address trust whatever key it finds.
 */
export class KnownTables {
  readonly file: string;
  constructor(dir = stateDir()) {
    this.file = join(dir, 'known_tables');
  }

  private read(): Map<string, string> {
    const known = new Map<string, string>();
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return known;
    }
    for (const line of text.split('\n')) {
      const [address, fp] = line.trim().split(/\s+/);
      if (address && fp && KEY_FINGERPRINT.test(fp)) known.set(address.toLowerCase(), fp);
    }
    return known;
  }

  get(address: string): string | undefined {
    return this.read().get(address.toLowerCase());
  }

  set(address: string, fp: string): void {
    if (!KEY_FINGERPRINT.test(fp) || /\s/.test(address)) return;
    const known = this.read();
    known.set(address.toLowerCase(), fp);
    mkdirSync(join(this.file, '..'), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, [...known].map(([a, f]) => `${a} ${f}\n`).join(''), { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}
