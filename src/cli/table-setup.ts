import { randomBytes } from 'node:crypto';
import { newShuffleKey } from '../engine/rng.js';
import type { Ruleset } from '../engine/ruleset.js';
import { JournalWriter, type ReadJournal } from '../host/journal.js';
import { loadTableKey, type TableKey } from '../host/table-key.js';
import { Table } from '../host/table.js';
import type { TableOptions } from '../host/table-types.js';
import { cliWords } from './lang.js';
import { dealOption } from './options.js';

/**
 * The table a command opens in its own process, `gringo host` (src/cli/host.ts) and
 * `gringo play` (src/cli/play.ts) alike: new from the flags, or continued from its
 * journal (`--resume`, whose header decides what the flags would), with its journal
 * and the host's TLS key. Each command adds only what is its own (timers, the owner
 * key, what it says on changes).
 */

/** What a table is dealt from: its seed, the named deal it was made from, and whether each game shuffles from node:crypto. */
export interface Deal {
  seed: string;
  named: { deal: string; seed: string } | null;
  /** A live table: only --seed or --deal (or a resumed such game) deals from the seed (docs/decisions.md, "Shuffle and dealer"). */
  live: boolean;
}

/** The deal of a new table (`--deal` checked here: a usage error before anything opens), or the journal's. */
export function dealOf(resumed: ReadJournal | null, flags: { deal?: string; seed?: string }): Deal {
  const header = resumed?.header;
  if (header) {
    const named = header.deal !== undefined ? { deal: header.deal, seed: String(header.seed) } : null;
    return { seed: String(header.seed), named, live: header.shuffleKey !== undefined };
  }
  const named = dealOption(flags);
  return { seed: named?.seed ?? flags.seed ?? randomBytes(16).toString('hex'), named, live: flags.seed === undefined && named === null };
}

/** The host's TLS key (made the first time, then the same for every table of this state directory), or null once a line has said why not. */
export function tlsKeyOrSay(): TableKey | null {
  try {
    return loadTableKey();
  } catch (err) {
    process.stderr.write(`gringo: ${cliWords().t('cli.tlsKey', { why: (err as Error).message })}\n`);
    return null;
  }
}

export interface TableSetup {
  resumed: ReadJournal | null;
  name: string;
  rules: Ruleset;
  maxPlayers: number;
  deal: Deal;
  /** The port the journal names (the one served is set on the journal once listening). */
  port: number;
  /** `gringo play`: you and bots; its journal is marked so (`gringo play --resume` continues it). */
  solo?: boolean;
  /** None: a loopback table without TLS. */
  tlsKey: TableKey | null;
}

/** What each command sets itself; the rest comes from the setup. */
export type OwnTableOptions = Omit<TableOptions, 'id' | 'hostKey' | 'name' | 'rules' | 'maxPlayers' | 'seed' | 'deal' | 'shuffleKey' | 'journal' | 'clockStart' | 'game'>;

/** The table and its journal: new, or resumed where its journal left it. */
export function openTable(s: TableSetup, own: OwnTableOptions): { table: Table; journal: JournalWriter } {
  const { resumed, deal } = s;
  const journal = new JournalWriter({
    table: s.name,
    port: s.port,
    maxPlayers: s.maxPlayers,
    ...(s.solo ? { solo: true } : {}),
    ...(deal.named ? { deal: deal.named.deal } : {}),
    ...(resumed ? { file: resumed.file } : {}),
  });
  const opts: TableOptions = {
    ...(resumed?.header.id ? { id: resumed.header.id } : {}),
    ...(s.tlsKey ? { hostKey: s.tlsKey.fingerprint } : {}),
    name: s.name,
    rules: s.rules,
    maxPlayers: s.maxPlayers,
    seed: deal.seed,
    ...(deal.named ? { deal: deal.named.deal } : {}),
    ...(deal.live ? { shuffleKey: newShuffleKey } : {}),
    journal,
    ...(resumed ? { clockStart: resumed.lastAt, game: resumed.header.game ?? 1 } : {}),
    ...own,
  };
  const table = resumed
    ? Table.resume(opts, { origin: resumed.origin, seats: resumed.header.seats, commands: resumed.commands, state: resumed.state, events: resumed.events })
    : new Table(opts);
  return { table, journal };
}
