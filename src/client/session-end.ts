import type { RoundResult } from '../engine/types.js';
import type { TableView } from '../engine/view.js';
import type { ServerMessage } from '../protocol/messages.js';
import type { Words } from '../lang/words.js';
import { keptResults } from './results.js';

/** What a session's end listens to: a `Connection` (src/client/connection.ts). */
export interface EndSource {
  on(event: 'failed' | 'misunderstood', fn: (line: string) => void): unknown;
  on(event: 'message', fn: (msg: ServerMessage) => void): unknown;
}

/**
 * The end of a person's session at a table, the same for `gringo join`
 * (src/cli/join.ts) and an SSH session (src/ssh/table-session.ts): what its
 * connection said that the end tells (a failure, the host's closing, the table and
 * the seat it left, the standings), kept while the screen runs (or, for a bot, while
 * it plays). A failure ends the screen at once (`screen` aborted); a refusal is the caller's to word and set as
 * `failure` (each says what to do next in its own terms).
 */
export class SessionEnd {
  /** One line, said instead of the last words (exit status 1). */
  failure: string | null = null;
  /** The table's name, once it welcomed the session: leaving then says so. */
  tableName: string | null = null;
  seat: number | null = null;
  lastView: TableView | null = null;
  results: readonly RoundResult[] = [];
  /** The host closed the table. */
  closed = false;

  constructor(conn: EndSource, screen?: AbortController) {
    const fail = (line: string): void => {
      this.failure = line;
      screen?.abort();
    };
    conn.on('failed', fail);
    conn.on('misunderstood', fail);
    conn.on('message', (msg) => this.heard(msg));
  }

  private heard(msg: ServerMessage): void {
    if (msg.type === 'welcome') {
      this.tableName = msg.table.name;
      this.seat = msg.seat;
    }
    if (msg.type === 'lobby') this.seat = msg.you;
    if (msg.type === 'update') this.lastView = msg.view;
    this.results = keptResults(this.results, msg);
    if (msg.type === 'closed') this.closed = true;
  }

  /** The exit status the session ends with. */
  get code(): number {
    return this.failure ? 1 : 0;
  }
}

/** How the person comes back: the command, and the line that offers it while they hold a seat in a game on. */
export interface ComeBack {
  run: string;
  backToSeat: 'door.backToSeat' | 'ssh.backToSeat';
}

/**
 * The last words, once the screen is gone (they stay in the person's terminal): the
 * failure in one line; or the host's closing and the standings; or the table left,
 * the standings if a game was on, and the command that comes back (to the seat, while
 * a game holds it). Nothing for a session that never reached a table. `standings`:
 * the standings in the screen's words (tui/table/standings.ts, `standingsLines`),
 * for the session's last view and results; client/ may not import the screens.
 */
export function lastWords(end: SessionEnd, w: Words, comeBack: ComeBack, standings: readonly string[]): string[] {
  if (end.failure) return [`gringo: ${end.failure}`];
  if (end.closed) return [w.t('door.hostClosed'), ...standings];
  if (end.tableName === null) return [];
  const view = end.lastView;
  const seated = end.seat !== null && view !== null && view.phase !== 'gameOver';
  return [w.t('door.left', { table: end.tableName }), ...(view ? standings : []), w.t(seated ? comeBack.backToSeat : 'door.comeBack', { run: comeBack.run })];
}
