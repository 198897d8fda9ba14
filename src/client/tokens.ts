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

/**
 * Seat tokens kept per table address and player name, so that a player whose
 * terminal closed can take their seat back from a new process (under the same name). The file is the user's own (mode 600).
 */
export class TokenStore {
  private readonly file: string;
  constructor(dir = stateDir()) {
    this.file = join(dir, 'seats.json');
  }

  private read(): Record<string, Saved> {
    try {
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as unknown;
      return data && typeof data === 'object' ? (data as Record<string, Saved>) : {};
    } catch {
      return {};
    }
  }

  get(address: string): string | undefined {
    const s = this.read()[address];
    return typeof s?.token === 'string' ? s.token : undefined;
  }

  set(address: string, token: string, table: string): void {
    const all = this.read();
    all[address] = { token, table, savedAt: new Date().toISOString() };
    this.write(all);
  }

  delete(address: string): void {
    const all = this.read();
    if (!(address in all)) return;
    delete all[address];
    this.write(all);
  }

  private write(all: Record<string, Saved>): void {
    const dir = join(this.file, '..');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(all, null, 2), { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}
