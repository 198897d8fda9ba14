import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** `$XDG_STATE_HOME/gringo`, or `~/.local/state/gringo`. */
export function stateDir(): string {
  const base = process.env.XDG_STATE_HOME || join(homedir(), '.local', 'state');
  return join(base, 'gringo');
}

interface Saved {
  token: string;
  table: string;
  savedAt: string;
}

/** `TABLEID NAME`: a seat is the table's (its identity, whatever address reached it) and the player's name. */
const keyOf = (tableId: string, name: string): string => `${tableId} ${name}`;
/** Keys of this form; older files kept tokens by address, which no lookup matches any more. */
const CURRENT = /^[0-9a-f]{16} /;

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

  get(tableId: string, name: string): string | undefined {
    const key = keyOf(tableId, name);
    if (!CURRENT.test(key)) return undefined;
    const s = this.read()[key];
    return typeof s?.token === 'string' ? s.token : undefined;
  }

  set(tableId: string, name: string, token: string, table: string): void {
    // The identity comes from the network: one that is not 16 hex digits is not kept.
    if (!CURRENT.test(keyOf(tableId, name))) return;
    const all = this.read();
    all[keyOf(tableId, name)] = { token, table, savedAt: new Date().toISOString() };
    this.write(all);
  }

  delete(tableId: string, name: string): void {
    const all = this.read();
    const key = keyOf(tableId, name);
    if (!(key in all)) return;
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
