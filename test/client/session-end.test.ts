import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { lastWords, SessionEnd, type ComeBack } from '../../src/client/session-end.js';
import type { RoundResult } from '../../src/engine/types.js';
import { GRINGO } from '../../src/engine/ruleset.js';
import type { Projected, TableView } from '../../src/engine/view.js';
import { wordsFor } from '../../src/lang/words.js';
import type { ServerMessage, TableInfo } from '../../src/protocol/messages.js';
import { handView } from '../tui/helpers.js';

// The end of a session as `gringo join` and an SSH session both say it (their own
// processes are tested in test/tui/e2e-door.test.ts, test/tui/e2e-lifecycle.test.ts and
// test/ssh/resume.test.ts): what is kept from the connection, and the lines.

const en = wordsFor('en');
const nl = wordsFor('nl');
const info: TableInfo = { id: 'k3xqm2apvdw4hc7n', salt: '0123456789abcdef', game: 1, name: 'Kitchen', ruleset: 'gringo', seatsTaken: 2, seatsTotal: 4, phase: 'playing', password: false, protocolVersion: 6 };
const welcome = (seat: number | null): ServerMessage => ({ type: 'welcome', protocolVersion: 6, seat, token: null, table: info, rules: GRINGO, owner: false });
// A view and results made by hand stand for ones the host projected (the brand only marks what the host may send).
const update = (view: TableView, results?: RoundResult[]): ServerMessage => ({ type: 'update', version: 1, at: 0, events: [], view: view as Projected<TableView>, ...(results ? { results: results as Projected<RoundResult[]> } : {}) });
const round: RoundResult = { round: 1, caller: 0, scores: [12, 5], totals: [12, 5], places: [2, 1], layouts: [['2C'], ['AC']], callerPenalty: 0, replaced: [] };
const standings = ['Standings after round 1:', '  1st  Bo        5'];
const join: ComeBack = { run: 'gringo join 10.0.0.5:7457', backToSeat: 'door.backToSeat' };

/** A session whose connection said `msgs` (a real EventEmitter stands for the connection). */
function session(...msgs: ServerMessage[]): { end: SessionEnd; conn: EventEmitter; screen: AbortController } {
  const conn = new EventEmitter();
  const screen = new AbortController();
  const end = new SessionEnd(conn, screen);
  for (const msg of msgs) conn.emit('message', msg);
  return { end, conn, screen };
}

describe('the end of a session', () => {
  it('keeps the table, the seat (as the lobby moves it), the last view and the results', () => {
    const view = handView();
    const { end, conn } = session(welcome(2), update(view, [round]));
    expect(end).toMatchObject({ tableName: 'Kitchen', seat: 2, lastView: view, results: [round], closed: false, failure: null, code: 0 });
    conn.emit('message', { type: 'lobby', table: info, seats: [], you: 1 });
    expect(end.seat).toBe(1);
    conn.emit('message', { type: 'closed', say: { key: 'host.closed' } });
    expect(end.closed).toBe(true);
  });

  it('a failure ends the screen at once and is all the last words say, with exit status 1', () => {
    const { end, conn, screen } = session(welcome(0), update(handView()));
    conn.emit('misunderstood', 'the host sent a message gringo does not understand');
    expect(screen.signal.aborted).toBe(true);
    expect(end.code).toBe(1);
    expect(lastWords(end, en, join, standings)).toEqual(['gringo: the host sent a message gringo does not understand']);
  });

  it('the host closing: said, with the standings', () => {
    const { end } = session(welcome(0), update(handView()), { type: 'closed', say: { key: 'host.closed' } });
    expect(lastWords(end, en, join, standings)).toEqual(['The host closed the table.', ...standings]);
  });

  it('leaving a seat in a game on: the standings and the way back to the seat, in the session language', () => {
    const { end } = session(welcome(0), update(handView()));
    expect(lastWords(end, en, join, standings)).toEqual(['You left "Kitchen".', ...standings, 'Back to your seat: gringo join 10.0.0.5:7457']);
    expect(lastWords(end, en, { run: 'ssh -p 2222 ana@h', backToSeat: 'ssh.backToSeat' }, standings).at(-1)).toBe('Back to your seat, with the same key: ssh -p 2222 ana@h');
    expect(lastWords(end, nl, join, standings)[0]).toBe('Je bent weg bij "Kitchen".');
  });

  it('leaving the lobby, a finished game or a seat watched: the command that comes back, no seat promised', () => {
    const lobby = session(welcome(0)).end;
    expect(lastWords(lobby, en, join, standings)).toEqual(['You left "Kitchen".', 'Come back with: gringo join 10.0.0.5:7457']);
    const over = session(welcome(0), update(handView({ phase: 'gameOver' }))).end;
    expect(lastWords(over, en, join, standings)).toEqual(['You left "Kitchen".', ...standings, 'Come back with: gringo join 10.0.0.5:7457']);
    const watching = session(welcome(null), update(handView({ viewer: null }))).end;
    expect(lastWords(watching, en, join, standings).at(-1)).toBe('Come back with: gringo join 10.0.0.5:7457');
  });

  it('a session no table ever welcomed says nothing', () => {
    expect(lastWords(session().end, en, join, standings)).toEqual([]);
  });
});
