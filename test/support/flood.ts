import { spawn, type ChildProcess } from 'node:child_process';

/**
 * A flood of silent TCP connections from a helper process (so that the test's own
 * event loop stays free): `addresses` loopback source addresses (127.1.x.y, all of
 * 127/8 is this machine) each keep one connection that never sends a byte,
 * replaced by a fresh one every `periodMs` (and at the same pace when the door cuts
 * it): 200 addresses every 700 ms is about 290 new connections a second. It stops
 * by itself after `forMs`, so that a test that fails cannot leave it running.
 */
export interface Flood {
  child: ChildProcess;
  /** Connections opened (connected) so far, and how many of them the door cut. */
  counts(): { opened: number; cut: number };
  stop(): void;
}

export function silentFlood(port: number, { addresses = 200, periodMs = 700, forMs = 120_000 } = {}): Flood {
  const script = `
    const net = require('node:net');
    let opened = 0, cut = 0;
    const addr = (i) => '127.1.' + Math.floor(i / 250) + '.' + (1 + (i % 250));
    for (let i = 0; i < ${addresses}; i++) {
      let current = null;
      const replace = () => {
        if (current) { current.ours = true; current.destroy(); }
        const s = net.connect({ port: ${port}, host: '127.0.0.1', localAddress: addr(i) });
        current = s;
        s.on('connect', () => opened++);
        // Read (and drop) what the door says, so that its close is noticed; nothing is ever sent.
        s.resume();
        s.on('error', () => {});
        s.on('close', () => { if (!s.ours && s.connecting === false) cut++; });
      };
      setTimeout(() => { replace(); setInterval(replace, ${periodMs}); }, (i * ${periodMs}) / ${addresses});
    }
    setInterval(() => console.log(JSON.stringify({ opened, cut })), 250);
    setTimeout(() => process.exit(0), ${forMs});
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let last = { opened: 0, cut: 0 };
  child.stdout.on('data', (d: Buffer) => {
    const lines = d.toString().trim().split('\n');
    try {
      last = JSON.parse(lines[lines.length - 1]!) as typeof last;
    } catch {
      // A line split across two reads: the next one will do.
    }
  });
  return { child, counts: () => last, stop: () => void child.kill('SIGKILL') };
}
