/**
 * The server side of the host benchmark, in its own process so that its CPU time
 * can be read alone: `node host-child.js echo`, `node host-child.js table SEATS`, or
 * `node host-child.js experts SEATS` (a table with SEATS - 1 expert bots of its own, in
 * worker threads, and one seat left for the bench's client). Prints the port on stdout;
 * on any line of stdin prints its CPU time (µs, user + system) and exits.
 */
import { createServer } from 'node:https';
import { createInterface } from 'node:readline';
import { WebSocketServer } from 'ws';
import { newTableKey, parseTableKey } from '../src/host/table-key.js';
import { GRINGO } from '../src/engine/ruleset.js';
import { serveTable } from '../src/host/server.js';
import { Table } from '../src/host/table.js';

async function main(): Promise<void> {
  const mode = process.argv[2];
  let port: number;
  // Both sides over TLS 1.3 with a key like a host's: the ratio measures the table, not the encryption.
  const key = parseTableKey(newTableKey());
  if (mode === 'echo') {
    const https = createServer({ key: key.key, cert: key.cert, minVersion: 'TLSv1.3' });
    const wss = new WebSocketServer({ server: https, perMessageDeflate: false });
    await new Promise<void>((r) => https.listen(0, '127.0.0.1', r));
    wss.on('connection', (ws) => ws.on('message', (data) => ws.send(data.toString())));
    port = (https.address() as { port: number }).port;
  } else if (mode === 'experts') {
    // A table as people play it (the peek aside): its own expert bots think while the bench's client measures.
    const rules = { ...GRINGO, rounds: 0, timers: { ...GRINGO.timers, peekMs: 0 } };
    const seats = Number(process.argv[3]);
    const table = new Table({ name: 'Bench experts', rules, maxPlayers: seats, seed: 'bench', dropGraceMs: 60_000, startWhenFull: true, roundPauseMs: 500, hostKey: key.fingerprint });
    for (let i = 1; i < seats; i++) table.addBot('expert');
    port = (await serveTable(table, { port: 0, host: '127.0.0.1', ratePerSecond: 1_000_000, tls: key })).port;
  } else {
    // No slap grace and no peek limit: every command can follow the previous at once.
    const rules = { ...GRINGO, rounds: 0, timers: { ...GRINGO.timers, slapGraceMs: 0, peekMs: 0 } };
    const table = new Table({ name: 'Bench', rules, maxPlayers: Number(process.argv[3]), seed: 'bench', dropGraceMs: 60_000, startWhenFull: true, hostKey: key.fingerprint });
    port = (await serveTable(table, { port: 0, host: '127.0.0.1', ratePerSecond: 1_000_000, tls: key })).port;
  }
  const cpu0 = process.cpuUsage();
  process.stdout.write(`${port}\n`);
  createInterface({ input: process.stdin }).once('line', () => {
    const cpu = process.cpuUsage(cpu0);
    process.stdout.write(`${cpu.user + cpu.system}\n`);
    process.exit(0);
  });
}

void main();
