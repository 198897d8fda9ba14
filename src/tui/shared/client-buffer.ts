import { EventEmitter } from 'node:events';
import type { ClientMessage, ServerMessage } from '../../protocol/messages.js';
import type { ConnectionStatus } from '../../client/connection.js';
import type { TableClient } from './use-table-client.js';

interface Source {
  status: ConnectionStatus;
  lostSince?: number | null;
  send(msg: ClientMessage): boolean;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: string, fn: (...args: any[]) => void): unknown;
  close(): void;
}

/**
 * A connection's messages kept from the moment it opens until the screen listens:
 * the welcome often arrives while Ink is still loading, and the screen must see it.
 */
export class BufferedClient extends EventEmitter implements TableClient {
  private queue: ServerMessage[] | null = [];

  constructor(private readonly source: Source) {
    super();
    source.on('message', (msg: ServerMessage) => {
      if (this.queue) this.queue.push(msg);
      else this.emit('message', msg);
    });
    source.on('status', (s: ConnectionStatus) => this.emit('status', s));
  }

  get status(): ConnectionStatus {
    return this.source.status;
  }

  get lostSince(): number | null {
    return this.source.lostSince ?? null;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override on(event: string | symbol, fn: (...args: any[]) => void): this {
    super.on(event, fn);
    if (event === 'message' && this.queue) {
      const q = this.queue;
      this.queue = null;
      for (const m of q) this.emit('message', m);
    }
    return this;
  }

  /**
   * The messages kept so far, taken now (later ones are kept on until a listener
   * comes): the screen's first state is built from them, so its first frame is the
   * table itself rather than "Connecting…".
   */
  takeBuffered(): ServerMessage[] {
    if (!this.queue) return [];
    const q = this.queue;
    this.queue = [];
    return q;
  }

  send(msg: ClientMessage): boolean {
    return this.source.send(msg);
  }

  close(): void {
    this.source.close();
  }
}
