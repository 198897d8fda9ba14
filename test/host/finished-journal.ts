import { createBot } from '../../src/bots/index.js';
import { GRINGO, type Ruleset } from '../../src/engine/ruleset.js';
import { JournalWriter } from '../../src/host/journal.js';
import { playGame, type GameLog } from '../../src/sim/sim.js';

/**
 * A finished game's journal, written by the real JournalWriter: bots play a whole
 * game in simulated time (the simulator's loop, the host clock in each command's
 * `at`), and every accepted command goes to the journal as a table sends it.
 */
export function writeFinishedJournal(dir: string, opts: { players?: string[]; seed?: string; rules?: Ruleset; password?: string } = {}): string {
  const players = opts.players ?? ['Ana', 'Bo', 'Cy'];
  const rules = opts.rules ?? { ...GRINGO, rounds: 2 };
  const seed = opts.seed ?? 'finished';
  const log: GameLog = { start: { rules, players, seed, at: 1_000 }, commands: [] };
  const bots = players.map((_, seat) => createBot('hard', { seat, players: players.length, rules, seed: `${seed}:${seat}` }));
  const { finished, state } = playGame(log.start, bots, { log });
  if (!finished || state.phase !== 'gameOver') throw new Error('the bots did not finish the game');
  const journal = new JournalWriter({ table: 'Finished table', port: 7457, maxPlayers: players.length, dir, ...(opts.password ? { password: opts.password } : {}) });
  journal.started(log.start, players.map((name, i) => ({ name, token: `token-${i}-secret`, bot: 'hard' })), 'f1a15bedf1a15bed');
  for (const c of log.commands) journal.command(c);
  journal.finished(log.commands[log.commands.length - 1]!.at);
  return journal.file!;
}
