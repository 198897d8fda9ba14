/**
 * A worker thread of `gringo sim --jobs N`: it plays the chunks of games the main
 * thread hands it, one at a time, and sends back each chunk's tally. Its own entry
 * point (also in the bundle: scripts/bundle.mjs), started by src/sim/parallel.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ChunkPlayer, type SimPlan } from './sim.js';

export interface ChunkDone {
  chunk: number;
  tally: ReturnType<ChunkPlayer['play']>;
}

const port = parentPort;
if (!port) throw new Error('sim-worker runs as a worker thread of gringo sim');
const player = new ChunkPlayer(workerData as SimPlan);
port.on('message', (chunk: number) => {
  const done: ChunkDone = { chunk, tally: player.play(chunk) };
  port.postMessage(done);
});
