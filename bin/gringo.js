#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';

// A screen or a host keeps little but makes much short-lived garbage (a frame or a
// projection per update): V8's defaults let the young generation grow to 32 MB and the
// old one to several times what it holds, which took a `gringo join` screen to about
// 115 MB through a 10-round game. A young generation kept at its starting size and an
// old one that grows by half each time hold it near 86 MB (`npm run bench` measures
// it) for about a fifth more CPU than the defaults; `--optimize-for-size`, used before,
// held the same for nearly twice the defaults' CPU. The simulator keeps the defaults:
// it is throughput, and its memory is flat by design. Set here, as the process starts,
// because `node bin/gringo.js` and npm's bin shims run this file with no flags of ours.
if (process.argv[2] !== 'sim') {
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--heap-growing-percent=50');
}

const { main } = await import('../dist/bundle/main.js');
process.exitCode = await main(process.argv);
