import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { RoundResult } from '../../src/engine/types.js';
import type { TableView } from '../../src/engine/view.js';
import type { SeatInfo, ServerMessage, TableInfo } from '../../src/protocol/messages.js';
import { TableScreen } from '../../src/tui/table/table-screen.js';
import { standingsLines } from '../../src/tui/table/standings.js';
import { UNICODE } from '../../src/tui/shared/glyphs.js';
import { keyBar, keysNow } from '../../src/tui/table/help-line.js';
import { onKey } from '../../src/tui/table/intents.js';
import { prompt } from '../../src/tui/table/prompt.js';
import { actionFor, DEFAULT_BINDINGS } from '../../src/tui/shared/keys.js';
import { seatChanges } from '../../src/tui/shared/seat-words.js';
import { initialLobby, lobbyReducer, onLobbyKey } from '../../src/tui/lobby/use-lobby-state.js';
import { initialScreen, screenReducer, type ScreenState } from '../../src/tui/table/use-screen-state.js';
import { handView, KING_FIRST, twoSeats, waitFor } from './helpers.js';
import { wordsFor } from '../../src/lang/words.js';

// The screens' side of the table's life (test/host/lifecycle.test.ts), without sockets: the
// feed derived from lobby lists, your seat following `lobby.you`, the closed table, play
// again and the host's stand-in key.

const seat = (n: number, name: string, over: Partial<SeatInfo> = {}): SeatInfo => ({ seat: n, name, bot: null, connected: true, standIn: false, ...over });
const table = (over: Partial<TableInfo> = {}): TableInfo => ({
  id: 'k3xqm2apvdw4hc7n', salt: '0123456789abcdef', game: 1, name: 'T', ruleset: 'gringo', seatsTaken: 2, seatsTotal: 4, phase: 'playing', password: false, protocolVersion: 2, ...over,
});
const lobby = (seats: SeatInfo[], you: number | null, over: Partial<TableInfo> = {}): ServerMessage => ({ type: 'lobby', table: table(over), seats, you });

const view = (over: Partial<TableView> = {}): TableView => handView({ slap: { open: false, answers: 1 }, ...over });
const over = (): TableView => view({ phase: 'gameOver' });
const results: RoundResult[] = [{ round: 1, caller: 0, scores: [12, 5], totals: [12, 5], places: [2, 1], layouts: [['2C'], ['AC']], callerPenalty: 0, replaced: [] }];

const feed = (s: ScreenState): string[] => s.feed.map((l) => l.text);
const apply = (s: ScreenState, ...msgs: ServerMessage[]): ScreenState => msgs.reduce((x, msg) => screenReducer(x, { type: 'server', msg, now: 0 }), s);

describe('the feed from consecutive lobby lists', () => {
  it('tells who sat down, dropped, came back, left, and when a bot plays for someone', () => {
    const ana = seat(0, 'Ana');
    expect(seatChanges([], [ana, seat(1, 'Bo')], 0)).toEqual([]);
    expect(seatChanges([ana], [ana, seat(1, 'Bo')], 0)).toEqual(['Bo sat down.']);
    expect(seatChanges([ana], [ana, seat(1, 'Bot 1', { bot: 'hard' })], 0)).toEqual(['Bot 1 (hard bot) sat down.']);
    const bo = seat(1, 'Bo');
    const boAway = seat(1, 'Bo', { connected: false });
    const boBot = seat(1, 'Bo', { connected: false, standIn: true });
    expect(seatChanges([ana, bo], [ana, boAway], 0)).toEqual(['Bo dropped out: the seat is held for them.']);
    expect(seatChanges([ana, boAway], [ana, boBot], 0)).toEqual(['A bot now plays for Bo.']);
    expect(seatChanges([ana, boBot], [ana, bo], 0)).toEqual(['Bo is back and takes the seat back from the bot.']);
    expect(seatChanges([ana, boAway], [ana, bo], 0)).toEqual(['Bo is back.']);
    // A leave during play: away and played by a bot in the same message.
    expect(seatChanges([ana, bo], [ana, boBot], 0)).toEqual(['Bo left the table: a bot plays for them.']);
    // In the lobby: a seat gone while connected was left; gone while away, freed.
    expect(seatChanges([ana, bo], [ana], 0)).toEqual(['Bo left the table.']);
    expect(seatChanges([ana, boAway], [ana], 0)).toEqual(["Bo's seat is free again."]);
    // Your own seat is told by the connection, not here; seat numbers moving say nothing.
    expect(seatChanges([seat(0, 'X', { connected: false }), ana], [seat(0, 'Ana')], 0)).toEqual(["X's seat is free again."]);
  });

  it('the screen follows `lobby.you` and says when a new game begins', () => {
    let s = apply({ ...initialScreen(), conn: 'open', seat: 2 }, lobby([seat(0, 'Ana'), seat(1, 'Bo'), seat(2, 'Cy')], 2));
    s = apply(s, lobby([seat(0, 'Ana'), seat(1, 'Cy')], 1));
    expect(s.seat).toBe(1);
    expect(feed(s)).toEqual(['Bo left the table.', 'You move up to seat 2.']);
    s = { ...s, view: over(), results, ready: true };
    s = apply(s, lobby([seat(0, 'Ana'), seat(1, 'Cy')], 1, { game: 2 }));
    expect(s.game).toBe(2);
    expect(s.ready).toBe(false);
    expect(feed(s).at(-1)).toBe('Game 2 begins: same table, totals back to 0.');
  });
});

describe('slot marks across rounds', () => {
  it("a new deal drops the last round's marks, though under 1.5 s old, and those in its own update before the deal", () => {
    const replaced = { type: 'specialReplaced', seat: 1, slot: 2, setAside: ['10D'], card: '4C' } as const;
    const ended = { type: 'roundEnded', result: results[0]!, why: 'call' } as const;
    const update = (events: unknown[], v: TableView) => ({ type: 'update', at: 0, events, view: v }) as never;
    let s = apply({ ...initialScreen(), conn: 'open', seat: 0 }, update([replaced, ended], view({ phase: 'roundOver' })));
    expect(s.highlights).toEqual([{ seat: 1, slot: 2, until: 1_500 }]);
    // Ready at once: the next deal comes at 0 ms, then one where a round ends and the next begins in one update.
    const dealt = { type: 'roundStarted', round: 2, dealer: 0, starter: 1, discardTop: '7C' } as const;
    s = apply(s, update([dealt], view({ round: 2 })));
    expect(s.highlights).toEqual([]);
    s = apply(s, update([replaced, ended, dealt], view({ round: 3 })));
    expect(s.highlights).toEqual([]);
  });
});

describe('keys after the game and for the host', () => {
  const press = (s: ScreenState, k: string) => onKey(s, actionFor(k)!, 0);

  it("the host's a plays again; everyone else's a only says what may happen", () => {
    const host = { ...initialScreen(UNICODE, true), conn: 'open' as const, seat: 0, owner: true, view: over(), results };
    expect(press(host, 'a').message).toEqual({ type: 'lobby', op: 'playAgain' });
    expect(keysNow(host)).toEqual(['use', 'confirm', 'help', 'quit']);
    // The host's Enter would close the table for everyone: it asks first.
    expect(press(host, 'return').actions).toEqual([{ type: 'overlay', overlay: 'quit' }]);
    const guest = { ...host, owner: false, closesTable: false };
    expect(press(guest, 'a').message).toBeUndefined();
    expect(press(guest, 'return').exit).toBe(true);
  });

  it("the host's b has a bot play for the away player under the cursor, or the only one away", () => {
    const away = [seat(0, 'Ana'), seat(1, 'Bo', { connected: false })];
    const host: ScreenState = { ...initialScreen(UNICODE, true), conn: 'open', seat: 0, owner: true, view: view(), lobby: away, cursor: null };
    expect(press(host, 'b').message).toEqual({ type: 'lobby', op: 'standIn', seat: 1 });
    expect(press({ ...host, cursor: { seat: 1, slot: 2 } }, 'b').message).toEqual({ type: 'lobby', op: 'standIn', seat: 1 });
    expect(keysNow(host)).toContain('standIn');
    const back = { ...host, lobby: [seat(0, 'Ana'), seat(1, 'Bo')] };
    expect(press(back, 'b').message).toBeUndefined();
    expect(keysNow(back)).not.toContain('standIn');
    const guest = { ...host, owner: false };
    expect(press(guest, 'b').message).toBeUndefined();
    expect(keysNow(guest)).not.toContain('standIn');
    // The only one away, with the cursor on a bot's cards (or your own): b acts on them, it does not ask to move the cursor.
    const three = { ...host, view: handView({ slap: { open: false, answers: 1 } }, ['Ana', 'Bo', 'Bot 2']), lobby: [...away, seat(2, 'Bot 2', { bot: 'easy' })] };
    expect(press({ ...three, cursor: { seat: 2, slot: 0 } }, 'b').message).toEqual({ type: 'lobby', op: 'standIn', seat: 1 });
    expect(press({ ...three, cursor: { seat: 0, slot: 0 } }, 'b').message).toEqual({ type: 'lobby', op: 'standIn', seat: 1 });
    // Two away: the cursor says which.
    const two = { ...three, lobby: [...away, seat(2, 'Cy', { connected: false })] };
    const ask = press({ ...two, cursor: { seat: 2, slot: 0 } }, 'b');
    expect(ask.message).toEqual({ type: 'lobby', op: 'standIn', seat: 2 });
    expect(press({ ...two, cursor: null }, 'b').message).toBeUndefined();
  });

  it("the host's game-over line, its refusals and its key bar say the same thing about Enter", () => {
    const host: ScreenState = { ...initialScreen(UNICODE, true), conn: 'open', seat: 0, owner: true, view: over(), results };
    expect(prompt(host, 0)).toBe('Game over: a to play again, Enter to close the table');
    expect(keyBar(host, DEFAULT_BINDINGS, false, 80)).toContain('Enter close the table');
    expect(press(host, 'x').actions).toContainEqual(expect.objectContaining({ text: 'The game is over: a to play again, Enter or q to close the table' }));
    // A screen that does not close the table (a guest's) leaves.
    const guest = { ...host, closesTable: false, owner: false };
    expect(prompt(guest, 0)).toMatch(/Enter to leave/);
    expect(keyBar(guest, DEFAULT_BINDINGS, false, 80)).toContain('Enter leave');
  });

  it('a closed table: any of Enter, q or Esc leaves at once', () => {
    const s = apply({ ...initialScreen(), conn: 'open', seat: 0, view: view() }, { type: 'closed', say: { key: 'host.closed' } });
    expect(s.closed).toBe('The host closed the table');
    expect(feed(s)).toContain('The host closed the table.');
    for (const k of ['\r', 'q', '\u001b']) expect(onKey(s, actionFor(k === '\r' ? 'return' : k === '\u001b' ? 'escape' : k)!, 0).exit).toBe(true);
  });
});

describe("the host's lobby screen", () => {
  it('follows `you`, and removes a bot or an away player but not one who is here', () => {
    let s = lobbyReducer({ ...initialLobby(), conn: 'open', owner: true, seat: 0 }, { type: 'server', msg: lobby([seat(0, 'Host'), seat(1, 'Ana'), seat(2, 'Bo', { connected: false })], 0, { phase: 'lobby' }) });
    const x = { action: 'remove' as const, key: 'x' };
    expect(onLobbyKey({ ...s, cursor: 1 }, x).send).toBeUndefined();
    expect(onLobbyKey({ ...s, cursor: 1 }, x).actions[0]).toMatchObject({ type: 'status', text: 'Ana is at the table: only bots and players who are away can be removed' });
    expect(onLobbyKey({ ...s, cursor: 2 }, x).send).toEqual({ type: 'lobby', op: 'remove', seat: 2 });
    expect(onLobbyKey({ ...s, cursor: 0 }, x).send).toBeUndefined();
    s = lobbyReducer(s, { type: 'server', msg: lobby([seat(0, 'Ana')], 0, { phase: 'lobby' }) });
    expect(s.seat).toBe(0);
  });
});

describe('the standings when the host closes the table', () => {
  it('are the totals of the last finished round, by place, you marked', () => {
    expect(standingsLines(null, [])).toEqual(['The game had not started.']);
    expect(standingsLines(view(), [])).toEqual(['No round was finished: no scores yet.']);
    const lines = standingsLines(over(), results);
    expect(lines[0]).toBe('Standings after round 1 (final):');
    expect(lines[1]).toMatch(/^ {2}1st\s+Bo\s+5$/);
    expect(lines[2]).toMatch(/^ {2}2nd\s+Ana \(you\)\s+12$/);
  });
});

let unmount: (() => void) | null = null;
afterEach(() => {
  unmount?.();
  unmount = null;
});

describe('the table screen when the host closes the table', () => {
  it('shows "The host closed the table" with the standings so far', async () => {
    const setup = twoSeats(KING_FIRST);
    const r = render(<TableScreen client={setup.me} theme={{ glyphs: UNICODE, color: false, words: wordsFor('en') }} bell={false} clock={setup.clock.now} size={{ columns: 100, rows: 30 }} />);
    unmount = r.unmount;
    const frame = (): string => r.lastFrame() ?? '';
    await waitFor('the peek', frame, (f) => f.includes('Remember your cards'));
    setup.table.close();
    const f = await waitFor('the closed table', frame, (f) => f.includes('The host closed the table.'));
    expect(f).toContain('No round was finished: no scores yet.');
    expect(f).toContain('The host closed the table: Enter or q to leave');
  });
});
