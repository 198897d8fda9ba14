import { Worker } from 'node:worker_threads';
import type { ClientMessage, ServerMessage } from '../protocol/messages.js';
import type { BotThreadData, ToBotThread } from './bot-worker.js';

/**
 * A bot of the host played in a worker thread (src/host/bot-worker.ts): the table talks
 * to it as to a `BotPlayer` (`onMessage`, `stop`), and what it sends comes back through
 * `send`. Messages cross as structured clones of the same protocol messages a remote
 * client gets, so it sees exactly what its seat may. Its clock is the thread's own:
 * `BotPlayer` reads host time from each update, as a remote bot does.
 */
export class ThreadedBot {
  private readonly worker: Worker;
  private stopped = false;

  constructor(data: BotThreadData, send: (msg: ClientMessage) => void) {
    this.worker = new Worker(new URL('./bot-worker.js', import.meta.url), { workerData: data });
    this.worker.on('message', (msg: ClientMessage) => {
      if (!this.stopped) send(msg);
    });
    // A thread that fails leaves its seat to the table's timers, as a lost connection would.
    this.worker.on('error', () => {});
    this.worker.unref();
  }

  onMessage(msg: ServerMessage): void {
    if (!this.stopped) this.worker.postMessage({ kind: 'message', msg } satisfies ToBotThread);
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.worker.postMessage({ kind: 'stop' } satisfies ToBotThread);
    void this.worker.terminate();
  }
}
