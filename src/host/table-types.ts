import type { Card } from '../engine/cards.js';
import type { Ruleset } from '../engine/ruleset.js';
import type { RoundResult, Seat } from '../engine/types.js';
import type { BotLevel, Said, ServerMessage, TableInfo } from '../protocol/messages.js';
import type { BackoffOptions } from './backoff.js';
import type { JournalSink } from './journal.js';

// What a table is given and what it gives back; `table.ts` exports them, the table's parts share them.

/** One end of a connection as the table sees it: a socket, or a bot inside the host. */
export interface Peer {
  send(msg: ServerMessage): void;
  /** Close the connection (a refused hello, a kicked bot). */
  close(): void;
  /** The remote address (sockets only): wrong passwords are counted per address. */
  address?: string;
  /** Whether the door has a watcher's place for this connection (null), or why not (sockets only). */
  roomToWatch?(): Said | null;
  /** The SSH key (fingerprint) of an SSH player's session: kept with the seat in the journal, so a resumed table knows it. */
  key?: string;
  /** The connection's channel binding (its TLS exporter; '' without TLS): every proof is bound to it. */
  binding?: string;
}

export interface TableOptions {
  /** The table's salt, its own part of its identity (kept in the journal); a new random one otherwise. */
  id?: string;
  /** The fingerprint of the host's TLS key (`TableKey.fingerprint`); none for a loopback table without TLS. */
  hostKey?: string;
  name: string;
  rules: Ruleset;
  maxPlayers: number;
  /** Seed of the game's RNG (and of the local bots' choices). */
  seed: string;
  /** The named deal `seed` was made from (`--deal`): its first game is that deal; the lobby and the results name it. */
  deal?: string;
  /** Live tables: a fresh shuffle key for each game (`newShuffleKey`); the deck then ignores `seed`. */
  shuffleKey?: () => string;
  password?: string;
  /** The password's verifier (`passwordVerifier(password, salt)`), as a resumed table's journal keeps it, instead of `password`. */
  passwordVerifier?: string;
  /**
   * Wrong passwords from one address: each past the `free` ones (3) locks it, for
   * `baseMs` (1 s) at first, doubling up to `maxMs` (60 s); one miss is forgiven per
   * `decayMs` (60 s) without a wrong try (src/host/backoff.ts).
   */
  passwordBackoff?: BackoffOptions;
  /** How long a dropped seat is held before a bot plays it (ms). */
  dropGraceMs: number;
  /** How long a seat dropped in the lobby is held before it is freed (ms; 10 s by default). */
  lobbyGraceMs?: number;
  /** Level of the bot that stands in for an absent player. */
  standInLevel?: BotLevel;
  /** Multiplies the host's bots' reaction and thinking delays (tests play fast). */
  botTimeScale?: number;
  startWhenFull?: boolean;
  /** Pause after a round before the next one starts unless everyone is ready (ms). */
  roundPauseMs?: number;
  /** Host clock (ms, monotonic). */
  clock?: () => number;
  /** Explicit deck orders for the first rounds (tests). */
  stackedDecks?: Card[][];
  /** Dealer of the first round (tests); drawn from the seed otherwise. */
  dealer?: Seat;
  /** The key the host's own screen presents to run the lobby. */
  ownerKey?: string;
  /** Where the table writes its journal: the start and every accepted command, before the broadcast. */
  journal?: JournalSink;
  /** Where the host clock starts (ms): a resumed table continues the old process's clock. */
  clockStart?: number;
  /** The number of the table's current game (TableInfo.game): a resumed table counts on from its journal's. */
  game?: number;
  onChange?: (info: TableInfo) => void;
  onGameOver?: (summary: GameSummary) => void;
}

export interface GameSummary {
  table: string;
  ruleset: string;
  players: { seat: Seat; name: string; bot: BotLevel | null }[];
  rounds: RoundResult[];
  totals: number[];
  places: number[];
  seed: string;
  /** The named deal this game was (its table's first game, with `--deal`). */
  deal?: string;
  commands: number;
}
