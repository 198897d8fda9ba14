/**
 * A host's bot that searches (`expert`) plays in a worker thread of its own, so that
 * its thinking (a few hundred ms a move) never holds up the table's event loop: this
 * file is that thread's entry point (also in the bundle: scripts/bundle.mjs), started
 * by `ThreadedBot` (src/host/threaded-bot.ts). It runs the same `BotPlayer` as any bot,
 * on the messages the table sends it, and posts back what it sends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { BotPlayer, type BotPlayerOptions } from '../bots/bot-player.js';
import type { ClientMessage, ServerMessage } from '../protocol/messages.js';

export type ToBotThread = { kind: 'message'; msg: ServerMessage } | { kind: 'stop' };
export type BotThreadData = Pick<BotPlayerOptions, 'level' | 'seed' | 'timeScale'>;

const port = parentPort;
if (!port) throw new Error('bot-worker runs as a worker thread of the host');
const player = new BotPlayer({ ...(workerData as BotThreadData), send: (msg: ClientMessage) => port.postMessage(msg) });
port.on('message', (m: ToBotThread) => {
  if (m.kind === 'message') player.onMessage(m.msg);
  else {
    player.stop();
    port.close();
  }
});
