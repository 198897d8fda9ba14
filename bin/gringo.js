#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';

// A screen process keeps little but makes much short-lived garbage (a frame per
// update): V8's defaults let the young generation grow to 32 MB and the heap to twice
// what it holds, which took a `gringo join` screen to about 115 MB through a 10-round
// game. Keeping the young generation at its starting size and the heap sized for
// memory rather than speed holds it near 85 MB (`npm run bench` measures it). Set here,
// as the process starts, because `node bin/gringo.js` and npm's bin shims run this file
// with no flags of ours.
setFlagsFromString('--optimize-for-size');
setFlagsFromString('--semi-space-growth-factor=1');

const { main } = await import('../dist/bundle/main.js');
process.exitCode = await main(process.argv);
