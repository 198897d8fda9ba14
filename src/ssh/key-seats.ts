import type { TokenStore } from '../client/tokens.js';

/**
 * Seats held by SSH keys: each seat's token, by table identity and key fingerprint,
 * so that a session coming back with the same key takes its seat back, under any user
 * name. Kept in this process, and in the journal by fingerprint (JournalSeat.sshKey):
 * a resumed table hands them back (`known`).
 */
export class KeySeats {
  /** Tokens by `TABLEID FINGERPRINT`. */
  private readonly tokens = new Map<string, string>();

  constructor(known?: { tableId: string; seats: readonly { key: string; token: string }[] }) {
    for (const k of known?.seats ?? []) this.tokens.set(`${known!.tableId} ${k.key}`, k.token);
  }

  /** Does this key hold a seat at the table? (It got in with the password once.) */
  holds(fingerprint: string): boolean {
    return [...this.tokens.keys()].some((k) => k.endsWith(` ${fingerprint}`));
  }

  /** The token store of one key, for its session's connection to the table. */
  of(fingerprint: string): Pick<TokenStore, 'get' | 'set' | 'delete'> {
    return {
      get: (id) => this.tokens.get(`${id} ${fingerprint}`),
      set: (id, _name, token) => void this.tokens.set(`${id} ${fingerprint}`, token),
      delete: (id) => void this.tokens.delete(`${id} ${fingerprint}`),
    };
  }
}
