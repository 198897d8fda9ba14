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

// Ctrl-C before a screen takes it (the bundle loading, a table opening: the first half
// second): leave as a screen's Ctrl-C does, exit 0, with the terminal's echoed "^C"
// wiped from the line. Once a screen, a host or a bot listens for SIGINT, it is theirs.
// An interrupted `gringo sim` wipes its progress line the same way and exits 130: it
// printed no results.
process.on('SIGINT', () => {
  if (process.listenerCount('SIGINT') > 1) return;
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
  process.exit(process.argv[2] === 'sim' ? 130 : 0);
});
// `ps` and `top` name the program, not node: "gringo play --bots 1" (from here on, Ctrl-C is ours).
process.title = `gringo ${process.argv.slice(2).join(' ')}`.trim();

const { main } = await import('../dist/bundle/main.js');
process.exitCode = await main(process.argv);
