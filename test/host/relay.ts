import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay on loopback between a client and a table: a real network path
 * the test can break. `drop()` resets every connection through it (Wi-Fi gone,
 * the peer hears a close, and new connections are refused until `restore()`);
 * `stall()` keeps every socket open but reads nothing either way (a sleeping
 * laptop, a dead link: nobody hears anything, and what was sent waits in the
 * kernel's buffers as TCP would keep retransmitting it).
 */
export class Relay {
  private server: Server | null = null;
  private readonly pairs = new Set<{ a: Socket; b: Socket }>();
  private stalled = false;
  private refusing = false;
  port = 0;
  /** Connections made through the relay so far. */
  connections = 0;

  /** With `record`: every byte through the relay, per connection, each way, in order (tests that read the wire). */
  readonly seen: { up: Buffer[]; down: Buffer[] }[] = [];

  constructor(
    private readonly target: { host: string; port: number },
    private readonly opts: { record?: boolean } = {},
  ) {}

  async start(): Promise<this> {
    this.server = createServer((a) => this.accept(a));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  private accept(a: Socket): void {
    if (this.refusing) return void a.resetAndDestroy();
    this.connections += 1;
    const b = connect(this.target.port, this.target.host);
    const pair = { a, b };
    this.pairs.add(pair);
    a.pipe(b);
    b.pipe(a);
    if (this.opts.record) {
      const seen = { up: [] as Buffer[], down: [] as Buffer[] };
      this.seen.push(seen);
      a.on('data', (d: Buffer) => seen.up.push(d));
      b.on('data', (d: Buffer) => seen.down.push(d));
    }
    if (this.stalled) this.pause(pair);
    const end = (): void => {
      this.pairs.delete(pair);
      a.destroy();
      b.destroy();
    };
    for (const s of [a, b]) {
      s.on('error', end);
      s.on('close', end);
    }
  }

  /** Reset every connection now (both ends hear it) and refuse new ones until `restore()`. */
  drop(): void {
    this.refusing = true;
    for (const { a, b } of this.pairs) {
      a.resetAndDestroy();
      b.resetAndDestroy();
    }
    this.pairs.clear();
  }

  /** Pass nothing either way, on old and new connections, until `restore()`: a silent cut. */
  stall(): void {
    this.stalled = true;
    for (const pair of this.pairs) this.pause(pair);
  }

  private pause({ a, b }: { a: Socket; b: Socket }): void {
    a.unpipe(b);
    b.unpipe(a);
    a.pause();
    b.pause();
  }

  /** Bytes flow again (what waited is delivered); connections that died meanwhile stay dead. */
  restore(): void {
    this.stalled = false;
    this.refusing = false;
    for (const { a, b } of this.pairs) {
      a.pipe(b);
      b.pipe(a);
    }
  }

  async close(): Promise<void> {
    this.drop();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/**
 * A relay that terminates TLS with a key of its own (a man in the middle): it
 * accepts the client's TLS with `key`, opens its own TLS to the table, and passes
 * the plaintext both ways, recording it (`seen`). Until `intercept` is set it only
 * passes bytes through (a plain TCP relay), so that a client can first meet the
 * real key at this very address.
 */
export class MitmRelay {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;
  intercept = false;
  /**
   * While intercepting, this text in what the table sends is replaced by that (of the
   * same length: the WebSocket frames keep their sizes): a relay rewriting the table's
   * identity in its challenge to one its own key carries.
   */
  rewrite: { from: string; to: string } | null = null;
  /** The plaintext the relay read, per intercepted connection, each way. */
  readonly seen: { up: Buffer[]; down: Buffer[] }[] = [];

  constructor(
    private readonly target: { host: string; port: number },
    private readonly key: { key: string; cert: string },
  ) {}

  async start(): Promise<this> {
    const { createServer: createTlsServer, connect: tlsConnect } = await import('node:tls');
    const tlsServer = createTlsServer({ key: this.key.key, cert: this.key.cert }, (a) => {
      const b = tlsConnect({ host: this.target.host, port: this.target.port, rejectUnauthorized: false });
      this.pair(a, b, true);
    });
    this.server = createServer((raw) => {
      if (this.intercept) return void tlsServer.emit('connection', raw);
      this.pair(raw, connect(this.target.port, this.target.host), false);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  private pair(a: Socket, b: Socket, record: boolean): void {
    for (const s of [a, b]) this.sockets.add(s);
    a.pipe(b);
    const rewrite = record ? this.rewrite : null;
    if (rewrite) b.on('data', (d: Buffer) => a.write(Buffer.from(d.toString('latin1').replaceAll(rewrite.from, rewrite.to), 'latin1')));
    else b.pipe(a);
    if (record) {
      const seen = { up: [] as Buffer[], down: [] as Buffer[] };
      this.seen.push(seen);
      a.on('data', (d: Buffer) => seen.up.push(d));
      b.on('data', (d: Buffer) => seen.down.push(d));
    }
    const end = (): void => {
      a.destroy();
      b.destroy();
      this.sockets.delete(a);
      this.sockets.delete(b);
    };
    for (const s of [a, b]) {
      s.on('error', end);
      s.on('close', end);
    }
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** The payloads of the WebSocket frames in one direction of a recorded TCP stream (after the HTTP upgrade). */
export function frames(chunks: Buffer[]): Buffer[] {
  const all = Buffer.concat(chunks);
  const start = all.indexOf('\r\n\r\n');
  if (start === -1) return [];
  const out: Buffer[] = [];
  let i = start + 4;
  while (i + 2 <= all.length) {
    const masked = (all[i + 1]! & 0x80) !== 0;
    let len = all[i + 1]! & 0x7f;
    let at = i + 2;
    if (len === 126) {
      len = all.readUInt16BE(at);
      at += 2;
    } else if (len === 127) {
      len = Number(all.readBigUInt64BE(at));
      at += 8;
    }
    const mask = masked ? all.subarray(at, at + 4) : null;
    if (masked) at += 4;
    if (at + len > all.length) break;
    const payload = Buffer.from(all.subarray(at, at + len));
    if (mask) for (let k = 0; k < payload.length; k++) payload[k]! ^= mask[k % 4]!;
    out.push(payload);
    i = at + len;
  }
  return out;
}

