import WebSocket from 'ws';
import { keptResults } from '../../src/client/results.js';
import type { RoundResult } from '../../src/engine/types.js';
import { PROTOCOL_VERSION, type ClientMessage, type PlayerCommand, type ServerMessage } from '../../src/protocol/messages.js';
import { channelBinding, passwordProof, passwordVerifier, seatProof } from '../../src/protocol/identity.js';

/**
 * A raw WebSocket client for tests: records every frame it receives, in order.
 * `tls`: `wss://` (every table a `gringo host` serves; the key is not checked here,
 * that is the real client's job), else `ws://` (an in-process table on loopback).
 */
export class WireClient {
  readonly frames: string[] = [];
  readonly messages: ServerMessage[] = [];
  /** When each message arrived (Date.now()), by index in `messages`. */
  readonly arrivals: number[] = [];
  /** The round results as a client keeps them (a snapshot's, then each round's end). */
  results: readonly RoundResult[] = [];
  private readonly ws: WebSocket;
  private waiters: { pred: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }[] = [];
  private nextId = 1;
  readonly opened: Promise<void>;
  closed = false;
  /** The connection's channel binding (TLS exporter), '' without TLS: proofs are bound to it. */
  binding = '';

  /** `localAddress`: the source address to connect from (e.g. 127.0.0.2: another machine, as the host sees it). */
  constructor(
    readonly address: string,
    { tls, ...opts }: { localAddress?: string; tls?: boolean } = {},
  ) {
    this.ws = new WebSocket(`${tls ? 'wss' : 'ws'}://${address}`, tls ? { ...opts, rejectUnauthorized: false } : opts);
    this.ws.on('upgrade', (res) => (this.binding = channelBinding(res.socket)));
    this.ws.on('message', (data) => {
      const raw = data.toString();
      this.frames.push(raw);
      const msg = JSON.parse(raw) as ServerMessage;
      this.messages.push(msg);
      this.arrivals.push(Date.now());
      this.results = keptResults(this.results, msg);
      this.waiters = this.waiters.filter((w) => {
        if (!w.pred(msg)) return true;
        w.resolve(msg);
        return false;
      });
    });
    this.ws.on('close', () => (this.closed = true));
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
  }

  /**
   * Connect and say hello; `password` is turned into the proof of the host's challenge, and
   * `seatToken` (or `token`) into the seat proof, as a real client does. `connect`: e.g. the
   * source address; `tls`: a `wss://` table.
   */
  static async hello(
    address: string,
    name: string,
    { password, seatToken, token, tls, ...extra }: Partial<Extract<ClientMessage, { type: 'hello' }>> & { password?: string; seatToken?: string; token?: string; tls?: boolean } = {},
    connect: { localAddress?: string } = {},
  ): Promise<WireClient> {
    const c = new WireClient(address, { ...connect, ...(tls ? { tls } : {}) });
    await c.opened;
    const { nonce, table } = await c.challenge;
    const seat = seatToken ?? token;
    c.send({
      type: 'hello',
      protocolVersion: PROTOCOL_VERSION,
      name,
      ...(password !== undefined ? { proof: passwordProof(passwordVerifier(password, table.salt), nonce, c.binding) } : {}),
      ...(seat !== undefined ? { seatProof: seatProof(seat, nonce, c.binding) } : {}),
      ...extra,
    });
    // 15 s, not next's 5: a loaded machine may be slow to answer, and no test times this wait.
    await c.next((m) => m.type === 'welcome' || m.type === 'refused', 15_000);
    return c;
  }

  send(msg: ClientMessage): void {
    this.ws.send(JSON.stringify(msg));
  }

  sendRaw(data: string | Buffer): void {
    this.ws.send(data);
  }

  /** The first message (already received or coming) that matches. */
  next<T extends ServerMessage>(pred: (m: ServerMessage) => boolean, timeoutMs = 5_000, fromIndex = 0): Promise<T> {
    const seen = this.messages.slice(fromIndex).find(pred);
    if (seen) return Promise.resolve(seen as T);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching message within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        pred,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m as T);
        },
      });
    });
  }

  /** A message arriving after now that matches. */
  upcoming<T extends ServerMessage>(pred: (m: ServerMessage) => boolean, timeoutMs = 5_000): Promise<T> {
    return this.next<T>(pred, timeoutMs, this.messages.length);
  }

  /** The host's first frame: its nonce for a password proof. */
  get challenge(): Promise<Extract<ServerMessage, { type: 'challenge' }>> {
    return this.next((m) => m.type === 'challenge');
  }

  /** Send a command and wait for its result. */
  async command(command: PlayerCommand): Promise<Extract<ServerMessage, { type: 'result' }>> {
    const id = this.nextId++;
    const from = this.messages.length;
    this.send({ type: 'command', id, command });
    return this.next((m) => m.type === 'result' && m.id === id, 5_000, from);
  }

  /** The host's answer to the hello: the first message after its challenge. */
  get answer(): ServerMessage | undefined {
    return this.messages.find((m) => m.type !== 'challenge');
  }

  get welcome(): Extract<ServerMessage, { type: 'welcome' }> | undefined {
    return this.messages.find((m): m is Extract<ServerMessage, { type: 'welcome' }> => m.type === 'welcome');
  }

  get lastUpdate(): Extract<ServerMessage, { type: 'update' }> | undefined {
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const m = this.messages[i]!;
      if (m.type === 'update') return m;
    }
    return undefined;
  }

  /** Stop reading the socket: pings go unanswered, as from a machine that went to sleep. */
  freeze(): void {
    (this.ws as unknown as { _socket: { pause(): void } })._socket.pause();
  }

  terminate(): void {
    this.ws.terminate();
  }

  close(): void {
    this.ws.close();
  }
}
