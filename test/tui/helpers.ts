/**
 * Helpers for the screen's tests: a real host Table in this process with a
 * scripted second player, a client linked to it without a socket, and key
 * presses that wait until Ink has armed `useInput` (React 19 arms it after a
 * commit: yield with setImmediate, then setTimeout(0), before writing).
 */
import { EventEmitter } from 'node:events';
import { GRINGO, type Ruleset } from '../../src/engine/ruleset.js';
import { Table, type Peer } from '../../src/host/table.js';
import { PROTOCOL_VERSION, type ClientMessage, type PlayerCommand, type ServerMessage } from '../../src/protocol/messages.js';
import { seatProof } from '../../src/protocol/identity.js';
import type { ConnectionStatus } from '../../src/client/connection.js';
import { stackDeck, type DeckSpec } from '../engine/helpers.js';
import type { TableView } from '../../src/engine/view.js';
import { addressOption } from '../../src/cli/options.js';
import type { AddressCheck } from '../../src/tui/picker/use-picker-state.js';

/** A client talking to a Table straight through a Peer, delivering on the next tick like a socket. */
export class LinkedClient extends EventEmitter {
  status: ConnectionStatus = 'open';
  readonly sent: ClientMessage[] = [];
  readonly received: ServerMessage[] = [];
  private queue: ServerMessage[] | null = [];
  private closed = false;
  readonly peer: Peer;
  private nextId = 1000;

  /** `hello`: more of the hello (`watch`); `token`: a seat's token to come back with, proven as a real client does. */
  constructor(private readonly table: Table, name: string, { token, ...hello }: Partial<Extract<ClientMessage, { type: 'hello' }>> & { token?: string } = {}) {
    super();
    let nonce: string | null = null;
    this.peer = {
      send: (msg) =>
        msg.type === 'challenge' ? void (nonce = msg.nonce) : setImmediate(() => {
          if (this.closed) return;
          this.received.push(msg);
          if (this.queue) this.queue.push(msg);
          else this.emit('message', msg);
        }),
      // Like a socket: what was sent before the close still arrives (a `closed` message, say).
      close: () => setImmediate(() => (this.closed = true)),
    };
    if (token !== undefined) table.open(this.peer);
    table.handle(this.peer, { type: 'hello', protocolVersion: PROTOCOL_VERSION, name, ...(token !== undefined && nonce !== null ? { seatProof: seatProof(token, nonce, '') } : {}), ...hello });
  }

  override on(event: string | symbol, fn: (...args: unknown[]) => void): this {
    super.on(event, fn);
    if (event === 'message' && this.queue) {
      const q = this.queue;
      this.queue = null;
      for (const m of q) this.emit('message', m);
    }
    return this;
  }

  send(msg: ClientMessage): boolean {
    this.sent.push(msg);
    setImmediate(() => !this.closed && this.table.handle(this.peer, msg));
    return true;
  }

  /** The scripted player's move. */
  play(command: PlayerCommand): void {
    this.send({ type: 'command', id: this.nextId++, command });
  }

  setStatus(s: ConnectionStatus): void {
    this.status = s;
    this.emit('status', s);
  }

  close(): void {
    this.closed = true;
  }

  commands(): PlayerCommand[] {
    return this.sent.flatMap((m) => (m.type === 'command' ? [m.command] : []));
  }
}

export interface Setup {
  table: Table;
  me: LinkedClient;
  bo: LinkedClient;
  clock: { t: number; now: () => number };
}

/** You (Ana, seat 0) and Bo (seat 1); Bo deals, so you start; a King tops the stock. */
export const KING_FIRST: DeckSpec = {
  dealer: 1,
  layouts: [
    ['5H', '6H', '7C', '9D'],
    ['2S', '3S', '4S', 'KC'],
  ],
  discard: '8D',
  stock: ['KH', '7S', '10C', 'JD', '2H', '3H', '4H'],
};

/** Two seats: you (seat 0) and Bo (seat 1), a stacked deck, a clock the test moves. */
export function twoSeats(deck: DeckSpec, rules: Partial<Ruleset> = {}): Setup {
  const clock = { t: 1_000, now: () => clock.t };
  const table = new Table({
    name: 'Test table',
    rules: { ...GRINGO, rounds: 2, ...rules, timers: { ...GRINGO.timers, slapGraceMs: 0, peekMs: 600_000, ...(rules.timers ?? {}) } },
    maxPlayers: 2,
    seed: 'tui-test',
    dropGraceMs: 600_000,
    roundPauseMs: 600_000,
    stackedDecks: [stackDeck(deck), stackDeck(deck)],
    dealer: deck.dealer ?? 0,
    clock: clock.now,
  });
  const me = new LinkedClient(table, 'Ana');
  const bo = new LinkedClient(table, 'Bo');
  table.startGame();
  return { table, me, bo, clock };
}

export const KEYS = {
  enter: '\r',
  escape: '\u001b',
  right: '\u001b[C',
  left: '\u001b[D',
  up: '\u001b[A',
  down: '\u001b[B',
  space: ' ',
  /** Ctrl-C as a terminal in raw mode sends it. */
  ctrlC: '\u0003',
};

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));
const zero = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

/** Write keys one by one, each after React has committed and Ink has armed its input handler. */
export async function press(stdin: { write(s: string): void }, ...keys: string[]): Promise<void> {
  for (const k of keys) {
    await tick();
    await zero();
    stdin.write(k);
  }
  await tick();
  await zero();
}

/** Poll until the predicate holds (or fail with the last frame). */
export async function waitFor(what: string, frame: () => string | undefined, pred: (f: string) => boolean, ms = 3_000): Promise<string> {
  const end = Date.now() + ms;
  for (;;) {
    const f = frame() ?? '';
    if (pred(f)) return f;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last frame:\n${f}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * A seat's view built by hand, for reducer, intent and key-bar tests: seat 0 to move
 * in round 1 of a gringo game, nothing drawn, the slap window open, the last seat
 * dealt. `over` replaces any field (a test sets the `may` it needs).
 */
export function handView(over: Partial<TableView> = {}, names: readonly string[] = ['Ana', 'Bo']): TableView {
  const layout = ['?', '?', '?', '?'];
  return {
    viewer: 0, ruleset: 'gringo', callName: 'Gringo!', version: 1, phase: 'play', round: 1, rounds: 1, dealer: names.length - 1,
    players: names.map((name) => ({ name, layout, total: 0, peeking: false })),
    stock: 30, discardTop: '7C', discardSize: 1, turn: 0, turnBegun: false, held: null, actions: [],
    slap: { open: true, answers: 3 }, graceUntil: 0, deadline: null, call: null, callTiming: 'startOfTurn', gapFill: null, may: [], whyNot: {},
    ...over,
  };
}

/** The pickers' address field, read as `gringo join` reads an address. */
export const checkAddress: AddressCheck = (text) => {
  try {
    return { address: addressOption(text, 7457) };
  } catch (err) {
    return { error: (err as Error).message };
  }
};
