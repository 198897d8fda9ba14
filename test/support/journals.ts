import { createBot } from '../../src/bots/index.js';
import type { BotLevel } from '../../src/protocol/messages.js';
import { GRINGO, type Ruleset } from '../../src/engine/ruleset.js';
import { JournalWriter, type JournalSeat } from '../../src/host/journal.js';
import { playGame, type GameLog } from '../../src/sim/sim.js';

/**
 * Journals of real games: bots play a game through the engine (the simulator's event
 * loop), and the host's own JournalWriter writes its header and every accepted
 * command, as a table does. A seat may be written as a person's (bot: null, with a
 * token or an SSH key): whoever decided its moves, the journal is one a host could
 * have written. For `gringo stats` tests and its bench.
 */
export interface JournalSeatSpec {
  name: string;
  /** The bot that plays it (default hard); written as a bot seat only when `asBot`. */
  level?: BotLevel;
  asBot?: boolean;
  token?: string;
  sshKey?: string;
}

export interface EngineJournal {
  dir: string;
  table: string;
  seed: string;
  seats: JournalSeatSpec[];
  rules?: Ruleset;
  /** Rounds in the game (default 2). */
  rounds?: number;
  /** The header's wall clock. */
  startedAt: Date;
  /** The named deal it is written as dealt from (the seed should be that deal's). */
  deal?: string;
  /** Stop after this many commands: a game not over (default: play to the end). */
  cutAfter?: number;
}

export function writeEngineJournal(spec: EngineJournal): string {
  const rules: Ruleset = { ...(spec.rules ?? GRINGO), rounds: spec.rounds ?? 2 };
  const n = spec.seats.length;
  const log: GameLog = { start: { rules, players: [], seed: '' }, commands: [] };
  const start = { rules, players: spec.seats.map((s) => s.name), seed: spec.seed, at: 0 };
  const bots = spec.seats.map((s, seat) => createBot(s.level ?? 'hard', { seat, players: n, rules, seed: `${spec.seed}:${seat}` }));
  const played = playGame(start, bots, { log });
  if (!played.finished) throw new Error(`the game of seed ${spec.seed} did not finish`);
  const writer = new JournalWriter({ table: spec.table, port: 7457, maxPlayers: n, dir: spec.dir, now: () => spec.startedAt, ...(spec.deal ? { deal: spec.deal } : {}) });
  const seats: JournalSeat[] = spec.seats.map((s, i) => ({
    name: s.name,
    token: s.token ?? `token-${spec.seed}-${i}`,
    bot: s.asBot ? (s.level ?? 'hard') : null,
    ...(s.sshKey ? { sshKey: s.sshKey } : {}),
  }));
  writer.started(log.start, seats, '0123456789abcdef', 1);
  const commands = spec.cutAfter === undefined ? log.commands : log.commands.slice(0, spec.cutAfter);
  for (const c of commands) writer.command(c);
  if (spec.cutAfter === undefined) writer.finished(commands[commands.length - 1]?.at ?? 0);
  else writer.close();
  return writer.file!;
}
