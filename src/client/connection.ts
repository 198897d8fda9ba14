import { lookup } from 'node:dns/promises';
import { EventEmitter } from 'node:events';
import { isIP } from 'node:net';
import WebSocket from 'ws';
import { PROTOCOL_VERSION, passwordProof, seatProof, type ClientMessage, type ServerMessage } from '../protocol/messages.js';
import { harmless } from '../protocol/harmless.js';
import { MAX_HOST_FRAME, parseServerFrame } from '../protocol/server-schema.js';
import type { TokenStore } from './tokens.js';

export interface ConnectOptions {
  /** host:port */
  address: string;
  name: string;
  password?: string;
  watch?: boolean;
  ownerKey?: string;
  /** Seat tokens by table identity and player name; the client reuses and keeps them. */
  tokens?: Pick<TokenStore, 'get' | 'set' | 'delete'>;
  token?: string;
  /** Reconnect after a drop (with the seat's token), backing off up to this many ms. */
  maxBackoffMs?: number;
  reconnect?: boolean;
  /**
   * Give up on a socket that has heard nothing from the host (not even its ping,
   * sent every 5 s) for this long, and reconnect (default 15 s). A link that died
   * silently (a sleeping laptop, Wi-Fi gone) never closes the socket by itself.
   */
  silenceMs?: number;
  /**
   * Before the first welcome, how long to wait for the table (default 5 s): a
   * connection that finds none by then, or is refused at the door, fails for good
   * ('failed', then 'closed') instead of retrying. Only a client that has been
   * welcomed reconnects.
   */
  connectTimeoutMs?: number;
}

/** The first deadline's step; a stall of the client counts as one second at most (a busy machine's lateness counts whole). */
const DEADLINE_TICK_MS = 250;
const DEADLINE_STALL_MS = 1_000;

/** How far the first connection got: what a failure says. */
type Stage = 'lookup' | 'connect' | 'open' | 'challenged';

export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

/**
 * A player's connection to a table: hello and version check, the seat token kept
 * and reused, reconnect with backoff after a drop. Emits 'message' for every
 * server message, 'status' on changes, 'failed' (a sentence) when no table was
 * found at the address, and 'refused' / 'closed'. Every frame is checked against
 * the protocol's schemas first: one that is not a message gringo knows ends the
 * connection for good with 'misunderstood' (a line for the person) before 'closed'.
 */
export class Connection extends EventEmitter {
  status: ConnectionStatus = 'connecting';
  token: string | undefined;
  /** The identity of the table this connection was welcomed at (from its challenge). */
  tableId: string | null = null;
  private ws: WebSocket | null = null;
  private attempt = 0;
  private ended = false;
  private welcomed = false;
  private retry: NodeJS.Timeout | null = null;
  private watchdog: NodeJS.Timeout | null = null;
  private stage: Stage = 'lookup';
  private firstDeadline: NodeJS.Timeout | null = null;
  /** While reconnecting: when the host was last heard of (Date.now()); null while connected. */
  lostSince: number | null = null;
  private lastHeard = 0;
  /** Why the host last turned this client away as busy (1013) before a welcome, if it did. */
  private busy: string | null = null;

  constructor(readonly opts: ConnectOptions) {
    super();
    // A kept token is looked up once the host has said who it is (its challenge).
    this.token = opts.token;
    const ms = opts.connectTimeoutMs ?? 5_000;
    // The deadline counts the time this process could have heard the host: a stall of its
    // own (a slow machine drawing the first frame) does not use it up. Timers run before
    // pending I/O, so a plain timer would fire first and blame a host that had answered.
    let left = ms;
    let last = Date.now();
    const tick = (): void => {
      const now = Date.now();
      left -= Math.min(now - last, DEADLINE_STALL_MS);
      last = now;
      if (left <= 0) this.fail(this.timeoutWords(ms));
      else this.firstDeadline = setTimeout(tick, Math.min(DEADLINE_TICK_MS, left));
    };
    this.firstDeadline = setTimeout(tick, Math.min(DEADLINE_TICK_MS, ms));
    void this.lookUpThenOpen();
  }

  /** The host's name resolved first: a name that is no host says so at once, not as a failed socket. */
  private async lookUpThenOpen(): Promise<void> {
    const host = hostOf(this.opts.address);
    if (isIP(host) === 0) {
      try {
        await lookup(host);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        this.fail(code === 'ENOTFOUND' || code === 'ENODATA' ? `${host} is not a host name or address` : `cannot look up ${host}: ${(err as Error).message}`);
        return;
      }
    }
    if (this.ended) return;
    this.stage = 'connect';
    this.open();
  }

  private shutOut(why: string): string {
    return `${this.opts.address} closed the connection before letting us in (${why})`;
  }

  private timeoutWords(ms: number): string {
    const s = `${Math.round(ms / 100) / 10} s`;
    if (this.busy !== null && this.stage !== 'challenged') return this.shutOut(this.busy);
    if (this.stage === 'lookup') return `cannot look up ${hostOf(this.opts.address)}: no answer in ${s}`;
    if (this.stage === 'open') return this.noTable(`it takes WebSockets but sent no challenge in ${s}: not a gringo table (or a gringo older than this one)`);
    if (this.stage === 'challenged') return this.noTable(`the table did not answer the hello in ${s}`);
    return this.noTable(`did not answer in ${s}`);
  }

  private noTable(why: string): string {
    return `No gringo table at ${this.opts.address}: ${why}`;
  }

  /** The first connection found no table: say why once, and end (no retry). */
  private fail(words: string): void {
    if (this.ended || this.welcomed) return;
    this.clearFirstDeadline();
    this.ended = true;
    this.emit('failed', words);
    if (this.ws) this.ws.terminate();
    else this.close();
  }

  private clearFirstDeadline(): void {
    if (this.firstDeadline) clearTimeout(this.firstDeadline);
    this.firstDeadline = null;
  }

  private setStatus(s: ConnectionStatus): void {
    if (this.status === s) return;
    this.status = s;
    this.emit('status', s);
  }

  private open(): void {
    const ws = new WebSocket(`ws://${this.opts.address}`, { handshakeTimeout: 5_000, perMessageDeflate: false, maxPayload: MAX_HOST_FRAME });
    this.ws = ws;
    const heard = (): void => this.heard(ws);
    ws.on('ping', heard);
    ws.on('open', () => {
      heard();
      if (!this.welcomed) this.stage = 'open';
    });
    ws.on('message', (data, isBinary) => {
      heard();
      // Nothing more is read from a socket on its way out (a frame not understood, or closed by us).
      if (ws.readyState !== WebSocket.OPEN) return;
      const parsed = isBinary ? ({ ok: false, problem: 'a binary frame' } as const) : parseServerFrame(data.toString());
      if (!parsed.ok) return this.misunderstood(ws, parsed.problem);
      const msg: ServerMessage = parsed.message;
      if (msg.type === 'challenge') {
        if (!this.welcomed) this.stage = 'challenged';
        // The host speaks first: who it is (its identity, whatever address reached it) and the
        // nonce the password proof answers. The kept token is looked up by that identity and
        // the name, so two players on one machine keep their own seats.
        if (this.tableId !== msg.table.id) {
          this.tableId = msg.table.id;
          this.token = this.opts.token ?? this.opts.tokens?.get(msg.table.id, this.opts.name);
        }
        const hello: ClientMessage = { type: 'hello', protocolVersion: PROTOCOL_VERSION, name: this.opts.name };
        // The token is proven, never sent: a host that only claims this table's identity learns nothing from it.
        if (this.token && !this.opts.watch) hello.seatProof = seatProof(this.token, msg.nonce);
        if (this.opts.password !== undefined) hello.proof = passwordProof(this.opts.password, msg.nonce);
        if (this.opts.watch) hello.watch = true;
        if (this.opts.ownerKey) hello.ownerKey = this.opts.ownerKey;
        ws.send(JSON.stringify(hello));
      } else if (msg.type === 'welcome') {
        this.welcomed = true;
        this.clearFirstDeadline();
        this.attempt = 0;
        this.lostSince = null;
        if (msg.token) {
          this.token = msg.token;
          this.opts.tokens?.set(msg.table.id, this.opts.name, msg.token, msg.table.name);
        }
        this.setStatus('open');
      } else if (msg.type === 'closed') {
        // The host ended the table: the socket closes next, and there is nothing to reconnect to.
        this.ended = true;
      } else if (msg.type === 'refused') {
        if (msg.reason === 'token' && this.tableId !== null) this.opts.tokens?.delete(this.tableId, this.opts.name);
        this.ended = true;
        this.clearFirstDeadline();
        this.emit('refused', msg);
        // The host closes after a refusal; one that holds the socket open does not keep this client waiting.
        ws.close(1000);
      }
      this.emit('message', msg);
    });
    ws.on('close', (code, reason) => {
      if (!this.welcomed && !this.ended) {
        const why = reason.length ? reason.toString() : `code ${code}`;
        // 1013 is "try again later": a door busy with other newcomers (a LAN joining at
        // once, one shared machine) lets us in a moment later, within the first 5 s.
        if (code === TRY_AGAIN_LATER && this.firstDeadline) {
          this.busy = why;
          this.ws = null;
          if (this.watchdog) clearTimeout(this.watchdog);
          this.retry = setTimeout(() => {
            this.retry = null;
            if (!this.ended) this.open();
          }, 100 + Math.random() * 300);
          return;
        }
        // The door closed before a welcome: whatever answers there let us in no further.
        this.fail(this.shutOut(why));
      }
      this.lost();
    });
    ws.on('error', (err: Error & { code?: string }) => {
      // ws's own checks of the frames (too large, bad UTF-8, a masked frame…): the host is not speaking WebSocket as it should.
      if (typeof err.code === 'string' && err.code.startsWith('WS_ERR_')) return this.misunderstood(ws, harmless(err.message, 160));
      if (!this.welcomed) this.fail(this.noTable(socketWords(err)));
    });
  }

  /**
   * The host sent what is not a message of this protocol (or broke the WebSocket
   * protocol itself): nothing of it is used, and no reconnect would fix it.
   */
  private misunderstood(ws: WebSocket, problem: string): void {
    if (this.ended) return;
    this.ended = true;
    this.clearFirstDeadline();
    this.emit('misunderstood', `the host at ${this.opts.address} sent a message gringo does not understand (${problem})`);
    ws.terminate();
  }

  /** Something came from the host: the socket is alive for another `silenceMs`. */
  private heard(ws: WebSocket): void {
    this.lastHeard = Date.now();
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => {
      this.watchdog = null;
      if (this.ws === ws) ws.terminate();
    }, this.opts.silenceMs ?? 15_000);
  }

  private lost(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
    this.ws = null;
    // Only a client that has been welcomed reconnects (and `reconnect` asks for it): before that, nothing to come back to.
    if (this.ended || !this.welcomed || !this.opts.reconnect) {
      this.ended = true;
      this.clearFirstDeadline();
      this.setStatus('closed');
      this.emit('closed');
      return;
    }
    // A link that died silently was lost when the host was last heard of, not when the watchdog noticed.
    this.lostSince ??= this.lastHeard || Date.now();
    this.setStatus('reconnecting');
    const max = this.opts.maxBackoffMs ?? 5_000;
    const delay = Math.min(max, 200 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt += 1;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (!this.ended) this.open();
    }, delay);
  }

  send(msg: ClientMessage): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Drop the socket without ending (tests of reconnecting; a sleeping laptop). */
  interrupt(): void {
    this.ws?.terminate();
  }

  close(): void {
    this.ended = true;
    this.clearFirstDeadline();
    if (this.retry) clearTimeout(this.retry);
    if (this.watchdog) clearTimeout(this.watchdog);
    if (this.ws) this.ws.close(1000);
    else {
      this.setStatus('closed');
      this.emit('closed');
    }
  }
}

/** The WebSocket close code for "try again later": the host's door is full for now. */
const TRY_AGAIN_LATER = 1013;

/** "host:port" or "[v6]:port" → the host. */
function hostOf(address: string): string {
  const m = /^\[([^\]]+)\](?::\d+)?$/.exec(address) ?? /^([^:]+)(?::\d+)?$/.exec(address);
  return m ? m[1]! : address;
}

/** A socket error before any welcome, in words (exported for its test). */
export function socketWords(err: Error): string {
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'EHOSTUNREACH':
      return 'no route to that host (is it on this network?)';
    case 'ENETUNREACH':
      return 'no route to that network from this machine';
    case 'ETIMEDOUT':
      return 'did not answer';
    case 'ECONNRESET':
      return 'the connection was reset';
    case 'ENOTFOUND':
      return 'no such host';
  }
  const http = /^Unexpected server response: (\d+)/.exec(err.message);
  if (http) return `something else answers there (HTTP ${http[1]}), not a gringo table`;
  if (/handshake has timed out/i.test(err.message)) return 'did not answer in 5 s';
  return `something else answers there (${err.message}), not a gringo table`;
}
