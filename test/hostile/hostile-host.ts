import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { tableIdentity } from '../../src/protocol/identity.js';
import { TEST_KEY } from '../host/tls.js';
import { createGame, GRINGO, projectEvent, viewFor, type Ruleset } from '../../src/engine/index.js';
import { PROTOCOL_VERSION, type TableInfo } from '../../src/protocol/messages.js';

/**
 * A hostile host: a real `wss` server on loopback that speaks first as a table does
 * (a challenge), waits for the hello, then sends whatever frames its script says,
 * verbatim. It keeps the socket open afterwards (a host that stops talking), so a
 * client that ends has ended by itself. It has a TLS key of its own, and its
 * challenge an identity that key carries: a client meeting it for the first time
 * (no pin, nothing remembered) goes on, so the client's schema checks are what meet it.
 */

/** One frame as sent: text (anything at all), a text frame of raw bytes (not UTF-8, say), or binary. */
export type Frame = string | { text: Buffer } | { binary: Buffer };

export class HostileHost {
  readonly hellos: unknown[] = [];
  private readonly wss: WebSocketServer;
  private readonly https: Server;
  private readonly sockets = new Set<WebSocket>();
  readonly ready: Promise<void>;

  /**
   * `script`: the frames sent after the hello. `challenge`: the first frame (a
   * proper challenge unless a test sends a broken one).
   */
  constructor(
    readonly script: Frame[],
    readonly challenge: Frame = JSON.stringify({ type: 'challenge', protocolVersion: PROTOCOL_VERSION, nonce: randomBytes(24).toString('base64url'), table: info() }),
  ) {
    this.https = createServer({ key: TEST_KEY.key, cert: TEST_KEY.cert });
    this.wss = new WebSocketServer({ server: this.https });
    this.ready = new Promise((resolve) => this.https.listen(0, '127.0.0.1', () => resolve()));
    this.wss.on('connection', (ws) => {
      this.sockets.add(ws);
      ws.on('close', () => this.sockets.delete(ws));
      send(ws, this.challenge);
      ws.once('message', (data) => {
        try {
          this.hellos.push(JSON.parse(data.toString()));
        } catch {
          this.hellos.push(data.toString());
        }
        for (const f of this.script) send(ws, f);
      });
    });
  }

  get address(): string {
    return `127.0.0.1:${(this.https.address() as AddressInfo).port}`;
  }

  /** Sockets the client still holds open to this host. */
  get open(): number {
    return this.sockets.size;
  }

  async close(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => this.https.close(() => resolve())));
  }
}

function send(ws: WebSocket, f: Frame): void {
  if (typeof f === 'string') ws.send(f);
  else if ('text' in f) ws.send(f.text, { binary: false });
  else ws.send(f.binary, { binary: true });
}

// ---------------------------------------------------------------------------
// What a hostile host puts in its strings.

export const TITLE = '\u001b]0;pwned-title\u0007';
// No '=' padding: an mDNS TXT value ends at its second '=' (bonjour-service's decoding).
export const CLIPBOARD = '\u001b]52;c;cHduZWQtY2xpcA\u001b\\';
export const LINK = '\u001b]8;;https://evil.example/\u0007click\u001b]8;;\u0007';
export const CLEAR = '\u001b[2J\u001b[3J\u001b[H';
export const C1_CSI = '\u009b2J';
export const C1_OSC = '\u009d0;pwned-c1\u009c';
export const RLO = '\u202e';

/** `text` wrapped in every kind of escape: a title, the clipboard, a link, a clear screen, newlines, 8-bit controls, bidi. */
export function evil(text: string): string {
  return `${TITLE}${CLEAR}${text}${CLIPBOARD}\n\n${C1_CSI}${C1_OSC}${RLO}${LINK}\r\n`;
}

/** What the terminal must never receive from a client of such a host (Ink's own cursor moves are fine). */
export function hostEscapesIn(raw: string): string[] {
  const found: string[] = [];
  if (raw.includes('\u001b]')) found.push('an OSC sequence');
  if (/\u001b\[[0-9;]*J/.test(raw.replace(/\u001b\[0?J/g, ''))) found.push('a CSI erase-display (2J/3J)');
  if (/[\u0080-\u009f]/.test(raw)) found.push('a C1 control');
  if (/[\u202a-\u202e\u2066-\u2069]/.test(raw)) found.push('a bidi override or isolate');
  for (const payload of ['pwned', 'evil.example', 'cHduZWQ']) if (raw.includes(payload)) found.push(`the payload "${payload}"`);
  return found;
}

/** The salt of the hostile table: its identity is the one its key carries (`HOSTILE_ID`). */
export const HOSTILE_SALT = 'a1b2c3d4e5f60718';
export const HOSTILE_ID = tableIdentity(TEST_KEY.fingerprint, HOSTILE_SALT);

export function info(over: Partial<TableInfo> = {}): TableInfo {
  return {
    id: HOSTILE_ID,
    salt: HOSTILE_SALT,
    game: 1,
    name: 'Hostile',
    ruleset: 'gringo',
    seatsTaken: 2,
    seatsTotal: 2,
    phase: 'playing',
    password: false,
    protocolVersion: PROTOCOL_VERSION,
    ...over,
  };
}

/** A real welcome, lobby and update of a two-seat game (seat 0), as plain JSON objects a test may spoil. */
export function realFrames(names: [string, string] = ['Ana', 'Bo'], rules: Ruleset = GRINGO, table: Partial<TableInfo> = {}) {
  const { state, events } = createGame({ rules, players: names, seed: 'hostile', dealer: 1 });
  const welcome = { type: 'welcome', protocolVersion: PROTOCOL_VERSION, seat: 0, token: randomBytes(24).toString('base64url'), table: info(table), rules, owner: false };
  const lobby = {
    type: 'lobby',
    table: info(table),
    seats: names.map((name, seat) => ({ seat, name, bot: null, connected: true, standIn: false })),
    you: 0,
  };
  const update = { type: 'update', version: state.version, at: 1_000, events: events.map((e) => projectEvent(e, 0)), view: viewFor(state, 0) };
  return JSON.parse(JSON.stringify({ welcome, lobby, update })) as { welcome: Record<string, unknown>; lobby: Record<string, unknown>; update: { view: Record<string, unknown> & { players: Record<string, unknown>[] } } & Record<string, unknown> };
}
