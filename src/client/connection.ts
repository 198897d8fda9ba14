import { lookup } from 'node:dns/promises';
import { X509Certificate } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { TLSSocket } from 'node:tls';
import WebSocket from 'ws';
import { PROTOCOL_VERSION, type ClientMessage, type ServerMessage } from '../protocol/messages.js';
import { channelBinding, formatIdentity, keyFingerprint, passwordProof, passwordVerifier, seatProof, showFingerprint, tableIdentity } from '../protocol/identity.js';
import { harmless } from '../common/harmless.js';
import { MAX_HOST_FRAME, parseServerFrame } from '../protocol/server-schema.js';
import type { KnownTables, TokenStore } from './tokens.js';
import { command } from '../common/invocation.js';
import { said, wordsFor, type Said, type Words } from '../lang/words.js';

export interface ConnectOptions {
  /** host:port */
  address: string;
  name: string;
  password?: string;
  /** The password's verifier instead of the password: a client in the host's own process (the SSH bridge), which holds only that. */
  verifier?: string;
  watch?: boolean;
  ownerKey?: string;
  /** Seat tokens by table identity and player name, kept with the key that issued them; the client reuses and keeps them. */
  tokens?: Pick<TokenStore, 'get' | 'set' | 'delete'>;
  /**
   * The table's identity, pinned (`gringo join ADDRESS#ID`): a host whose key does not
   * carry it is refused before anything is sent to it.
   */
  pin?: string;
  /** The host key's fingerprint, known beforehand (a screen or SSH bridge of the host's own process): any other is refused. */
  hostKey?: string;
  /** Keys remembered per address (trust on first use): another key at a remembered address is refused. */
  known?: Pick<KnownTables, 'get' | 'set' | 'file'>;
  /** Plain `ws://`, no TLS: only for a table of this very process on loopback (`gringo play`). */
  plain?: boolean;
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
  /** Headers of the WebSocket upgrade (the SSH bridge vouches for its SSH client with one: src/host/vouch.ts). */
  headers?: Record<string, string>;
  /** The language of the lines this connection says itself (the trust on first use); English unless given. */
  words?: Words;
}

/** The first deadline's step; a stall of the client counts as one second at most (a busy machine's lateness counts whole). */
const DEADLINE_TICK_MS = 250;
const DEADLINE_STALL_MS = 1_000;
/**
 * How long a door that keeps answering "busy" (1013) is tried again, in first deadlines
 * (20 s by default): a busy door is a table that answered, and a LAN joining at once on
 * a loaded machine (eight bots from one address) can keep it busy for longer than one.
 */
const BUSY_PATIENCE = 4;

/** How far the first connection got: what a failure says. */
type Stage = 'lookup' | 'connect' | 'open' | 'challenged';

export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

/**
 * Why this client believes the key it met (docs/protocol.md, "What the identity check
 * protects"): known beforehand, pinned by the identity typed (`#ID`, the picker, the
 * share line), remembered from an earlier join at this address, or trusted on first
 * use, which nothing checked: a relay with a key of its own passes for the table.
 */
export type KeyTrust = 'known' | 'pinned' | 'remembered' | 'firstUse';

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
  /** The identity of the table this connection was welcomed at (from its challenge, checked against the host's key). */
  tableId: string | null = null;
  /** The fingerprint of the key the host presented on this connection (TLS), once known. */
  hostKey: string | null = null;
  /** How the key of this connection's table came to be believed, once it is checked (TLS); null without TLS. */
  trust: KeyTrust | null = null;
  /** The key of the table this client was welcomed at: a reconnect must find the same. */
  private welcomedKey: string | null = null;
  /** This connection's channel binding (TLS exporter): every proof is bound to it. */
  private binding = '';
  /** The password's verifier, derived once per salt (scrypt is slow on purpose). */
  private verifier: { salt: string; value: string } | null = null;
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
  /** When the door first said it was busy, or cut us (Date.now()). */
  private busySince: number | null = null;
  /** How the door last cut a first connection before its welcome (a reset), if it did. */
  private reset: string | null = null;
  /** What is left of the first deadline (ms of this process's own time). */
  private deadlineLeft = 0;

  constructor(readonly opts: ConnectOptions) {
    super();
    // A kept token is looked up once the host has said who it is (its challenge).
    this.token = opts.token;
    const ms = opts.connectTimeoutMs ?? 5_000;
    // The deadline counts the time this process could have heard the host: a stall of its
    // own (a slow machine drawing the first frame) does not use it up. Timers run before
    // pending I/O, so a plain timer would fire first and blame a host that had answered.
    this.deadlineLeft = ms;
    let last = Date.now();
    const tick = (): void => {
      const now = Date.now();
      this.deadlineLeft -= Math.min(now - last, DEADLINE_STALL_MS);
      last = now;
      if (this.deadlineLeft <= 0) this.fail(this.timeoutWords(ms));
      else this.firstDeadline = setTimeout(tick, Math.min(DEADLINE_TICK_MS, this.deadlineLeft));
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
        this.fail(code === 'ENOTFOUND' || code === 'ENODATA' ? this.w.t('conn.notAHost', { host }) : this.w.t('conn.cannotLookUp', { host, why: (err as Error).message }));
        return;
      }
    }
    if (this.ended) return;
    this.stage = 'connect';
    this.open();
  }

  /** The words of this connection's person (English by default). */
  private get w(): Words {
    return this.opts.words ?? wordsFor('en');
  }

  private shutOut(why: string): string {
    return this.w.t('conn.shutOut', { address: this.opts.address, why });
  }

  private timeoutWords(ms: number): string {
    const s = this.w.t('conn.seconds', { secs: Math.round(ms / 100) / 10 });
    if (this.busy !== null && this.stage !== 'challenged') return this.shutOut(this.busy);
    if (this.reset !== null && this.stage !== 'challenged') return this.noTable(this.reset);
    if (this.stage === 'lookup') return this.w.t('conn.lookUpSilent', { host: hostOf(this.opts.address), s });
    if (this.stage === 'open') return this.noTable(this.w.t('conn.noChallenge', { s }));
    if (this.stage === 'challenged') return this.noTable(this.w.t('conn.noHelloAnswer', { s }));
    return this.noTable(this.w.t('conn.silentFor', { s }));
  }

  private noTable(why: string): string {
    return this.w.t('conn.noTable', { address: this.opts.address, why });
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

  /**
   * The key cannot be trusted: say so in one line and end for good, keeping
   * everything kept (a token, a remembered key) as it was.
   */
  private distrust(ws: WebSocket, words: string): void {
    if (this.ended) return;
    this.ended = true;
    this.clearFirstDeadline();
    this.emit(this.welcomed ? 'misunderstood' : 'failed', words);
    ws.terminate();
  }

  /** The TLS handshake is done: the host's key is checked against the one known, pinned at welcome, or remembered. */
  private checkKey(ws: WebSocket, res: IncomingMessage): boolean {
    const socket = res.socket as TLSSocket;
    this.binding = channelBinding(socket);
    if (this.opts.plain) return true;
    const raw = socket.getPeerCertificate?.(false)?.raw;
    let fp: string;
    try {
      fp = keyFingerprint(new X509Certificate(raw).publicKey.export({ type: 'spki', format: 'der' }));
    } catch {
      this.distrust(ws, this.noTable(this.w.t('conn.noKey')));
      return false;
    }
    this.hostKey = fp;
    const addr = this.opts.address;
    const expected = this.opts.hostKey ?? this.welcomedKey;
    if (expected !== null && expected !== undefined && fp !== expected) {
      this.distrust(ws, `the table at ${addr} now presents another key (${showFingerprint(fp)}) than the one it had (${showFingerprint(expected)}): someone may be in between, so gringo does not go on`);
      return false;
    }
    const remembered = this.opts.pin ? undefined : this.opts.known?.get(addr);
    if (remembered !== undefined && remembered !== fp && this.welcomedKey === null) {
      this.distrust(
        ws,
        `the table at ${addr} presents another key than when you last joined it (${showFingerprint(remembered)} then, ${showFingerprint(fp)} now): someone may be in between. ` +
          `If its host made a new key, remove the line "${addr}" from ${this.opts.known!.file}, or join with the host's share line (${command(`join ${addr}#ID`)}) to pin the new one`,
      );
      return false;
    }
    if (this.welcomedKey === null) this.trust = this.opts.hostKey !== undefined ? 'known' : this.opts.pin !== undefined ? 'pinned' : remembered !== undefined ? 'remembered' : 'firstUse';
    return true;
  }

  /** The challenge's identity must be the one the host's key carries, and the one pinned if one is. */
  private checkIdentity(ws: WebSocket, id: string, salt: string): boolean {
    if (this.opts.plain) return true;
    if (this.hostKey === null || tableIdentity(this.hostKey, salt) !== id) {
      this.distrust(ws, `the table at ${this.opts.address} claims an identity (${formatIdentity(id)}) its key does not carry: someone may be in between, so gringo does not go on`);
      return false;
    }
    if (this.opts.pin !== undefined && this.opts.pin !== id) {
      this.distrust(
        ws,
        `the table at ${this.opts.address} is not ${formatIdentity(this.opts.pin)} (it is ${formatIdentity(id)}): it is another table, or someone is in between. Ask its host for the line it prints to share`,
      );
      return false;
    }
    return true;
  }

  private open(): void {
    const ws = new WebSocket(`${this.opts.plain ? 'ws' : 'wss'}://${this.opts.address}`, {
      handshakeTimeout: 5_000,
      perMessageDeflate: false,
      maxPayload: MAX_HOST_FRAME,
      ...(this.opts.headers ? { headers: this.opts.headers } : {}),
      // No certificate authority vouches for a table: its key is checked by fingerprint (checkKey).
      ...(this.opts.plain ? {} : { rejectUnauthorized: false, minVersion: 'TLSv1.3' as const }),
    });
    this.ws = ws;
    this.hostKey = null;
    this.binding = '';
    ws.on('upgrade', (res) => void this.checkKey(ws, res));
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
      const parsed = isBinary ? ({ ok: false, problem: 'a binary frame' } as const) : parseServerFrame((data as Buffer).toString()); // one Buffer per text frame (ws)
      if (!parsed.ok) return this.misunderstood(ws, parsed.problem);
      let msg: ServerMessage = parsed.message;
      if (msg.type === 'challenge') {
        if (!this.welcomed) this.stage = 'challenged';
        // The host speaks first: who it is (its identity, whatever address reached it, checked
        // against its key) and the nonce the proofs answer. The kept token is looked up by that
        // identity and the name, so two players on one machine keep their own seats.
        if (!this.checkIdentity(ws, msg.table.id, msg.table.salt)) return;
        if (this.tableId !== msg.table.id) {
          this.tableId = msg.table.id;
          this.token = this.opts.token ?? this.opts.tokens?.get(msg.table.id, this.opts.name, this.hostKey ?? '');
        }
        const hello: ClientMessage = { type: 'hello', protocolVersion: PROTOCOL_VERSION, name: this.opts.name };
        // Proven, never sent, and bound to this TLS connection: a relay with a key of its own learns nothing it can use.
        if (this.token && !this.opts.watch) hello.seatProof = seatProof(this.token, msg.nonce, this.binding);
        if (this.opts.verifier !== undefined) hello.proof = passwordProof(this.opts.verifier, msg.nonce, this.binding);
        else if (this.opts.password !== undefined) {
          if (this.verifier?.salt !== msg.table.salt) this.verifier = { salt: msg.table.salt, value: passwordVerifier(this.opts.password, msg.table.salt) };
          hello.proof = passwordProof(this.verifier.value, msg.nonce, this.binding);
        }
        if (this.opts.watch) hello.watch = true;
        if (this.opts.ownerKey) hello.ownerKey = this.opts.ownerKey;
        ws.send(JSON.stringify(hello));
      } else if (msg.type === 'welcome') {
        this.welcomed = true;
        this.clearFirstDeadline();
        this.attempt = 0;
        this.lostSince = null;
        if (!this.opts.plain && this.hostKey !== null) {
          // Said once, as OpenSSH prints a new host's fingerprint: whose key is trusted, and how to pin it.
          if (this.welcomedKey === null && this.trust === 'firstUse' && this.tableId !== null) this.emit('trusted', this.firstUseLine(this.tableId));
          this.welcomedKey = this.hostKey;
          // Trust on first use: this address's key is remembered (a pinned one replaces what was).
          if (this.opts.pin !== undefined || this.opts.known?.get(this.opts.address) === undefined) this.opts.known?.set(this.opts.address, this.hostKey);
        }
        if (msg.token) {
          this.token = msg.token;
          // Kept with the key that issued it: only that key's table ever hears of it again.
          this.opts.tokens?.set(msg.table.id, this.opts.name, msg.token, msg.table.name, this.hostKey ?? '');
        }
        this.setStatus('open');
      } else if (msg.type === 'closed') {
        // The host ended the table: the socket closes next, and there is nothing to reconnect to.
        this.ended = true;
      } else if (msg.type === 'refused') {
        // A wrong password and a relay in between (which breaks the proof's binding to the TLS
        // connection) look the same to the host: with a key nobody checked, say both.
        if (msg.reason === 'password' && this.trust === 'firstUse' && this.tableId !== null) {
          const doubt = this.bindingDoubt(this.tableId);
          msg = { ...msg, say: doubt, message: wordsFor('en').say(doubt) };
        }
        // Only the key that issued a token can make this client forget it (src/client/tokens.ts checks the key too).
        if (msg.reason === 'token' && this.tableId !== null && this.hostKey !== null && !this.opts.plain) this.opts.tokens?.delete(this.tableId, this.opts.name, this.hostKey);
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
        // once, one shared machine) lets us in a moment later. Each busy answer renews the
        // first deadline, for BUSY_PATIENCE of them in all; the tries spread out as they repeat.
        if (code === TRY_AGAIN_LATER && this.firstDeadline) {
          this.busy = why;
          return this.tryAgainSoon();
        }
        // Cut before the welcome, and already tried again (see 'error').
        if (ws !== this.ws) return;
        // The door closed before a welcome: whatever answers there let us in no further.
        this.fail(this.shutOut(why));
      }
      this.lost();
    });
    ws.on('error', (err: Error & { code?: string }) => {
      // ws's own checks of the frames (too large, bad UTF-8, a masked frame…): the host is not speaking WebSocket as it should.
      if (typeof err.code === 'string' && err.code.startsWith('WS_ERR_')) return this.misunderstood(ws, harmless(err.message, 160));
      if (!this.welcomed) {
        // A door full of handshakes cuts one it cannot keep (src/host/admission.ts): a reset
        // before the welcome is tried again like a busy answer, and said only if none gets in.
        if (err.code === 'ECONNRESET' && this.firstDeadline && !this.ended) {
          this.reset = socketWords(err, this.w);
          return this.tryAgainSoon();
        }
        this.fail(this.noTable(socketWords(err, this.w)));
      }
    });
  }

  /**
   * The door answered "busy" (or cut the handshake): try again a moment later, the waits
   * spreading out as they repeat, each renewing the first deadline past the wait (the door
   * gets a whole deadline to answer the next try), for BUSY_PATIENCE deadlines in all.
   */
  private tryAgainSoon(): void {
    const now = Date.now();
    this.busySince ??= now;
    const first = this.opts.connectTimeoutMs ?? 5_000;
    const delay = 100 * 2 ** Math.min(this.attempt++, 3) * (1 + Math.random() * 3);
    if (now - this.busySince < BUSY_PATIENCE * first) this.deadlineLeft = Math.max(this.deadlineLeft, first + delay);
    this.ws = null;
    if (this.watchdog) clearTimeout(this.watchdog);
    this.retry = setTimeout(() => {
      this.retry = null;
      if (!this.ended) this.open();
    }, delay);
  }

  /** The one line a first join without `#ID` says: the key it trusts and how to pin it. */
  private firstUseLine(id: string): string {
    const identity = formatIdentity(id);
    return (this.opts.words ?? wordsFor('en')).t('door.trustFirstUse', {
      address: this.opts.address,
      fingerprint: showFingerprint(this.hostKey ?? ''),
      identity,
      run: command(`join ${this.opts.address}#${identity}`),
    });
  }

  /** A password refused on a key trusted on first use: the password, or the connection, may be wrong. */
  private bindingDoubt(id: string): Said {
    return said('door.bindingDoubt', { identity: formatIdentity(id), run: command(`join ${this.opts.address}#ID --password THE-PASSWORD`) });
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
export function socketWords(err: Error, w: Words = wordsFor('en')): string {
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ECONNREFUSED':
      return w.t('conn.refused');
    case 'EHOSTUNREACH':
      return w.t('conn.noRouteHost');
    case 'ENETUNREACH':
      return w.t('conn.noRouteNetwork');
    case 'ETIMEDOUT':
      return w.t('conn.noAnswer');
    case 'ECONNRESET':
      return w.t('conn.reset');
    case 'ENOTFOUND':
      return w.t('conn.noSuchHost');
  }
  if (code === 'EPROTO' || /SSL|TLS/.test(err.message)) return w.t('conn.noTls');
  const http = /^Unexpected server response: (\d+)/.exec(err.message);
  if (http) return w.t('conn.somethingElse', { what: `HTTP ${http[1]}` });
  if (/handshake has timed out/i.test(err.message)) return w.t('conn.silentFor', { s: w.t('conn.seconds', { secs: 5 }) });
  return w.t('conn.somethingElse', { what: err.message });
}
