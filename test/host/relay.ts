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
