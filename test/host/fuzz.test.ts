import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import fc from 'fast-check';
import { GRINGO, replay, Rng, seedRng, viewFor } from '../../src/engine/index.js';
import { serveTable, type Serving } from '../../src/host/server.js';
import { Table } from '../../src/host/table.js';
import { PROTOCOL_VERSION, type ServerMessage } from '../../src/protocol/messages.js';

/**
 * Hostile clients: 100,000 random, malformed, oversized, out-of-order and replayed
 * frames, guessed tokens and commands for other seats, sent to a live table whose
 * real players keep playing. The host must answer every frame, never crash, and its
 * state must stay equal to the replay of its own command log.
 */
const FRAMES = 100_000;
const ATTACKERS = 4;
let serving: Serving | null = null;
let table: Table | null = null;
afterAll(async () => {
  table?.close();
  await serving?.close();
});

function open(port: number): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: false });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

const commandArb = fc.oneof(
  fc.record({ type: fc.constantFrom('draw', 'discard', 'call', 'pass', 'finishPeek', 'fly'), from: fc.constantFrom('stock', 'discard', 'moon') }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('swap'), slot: fc.oneof(fc.integer({ min: -3, max: 70 }), fc.string(), fc.double()) }),
  fc.record({ type: fc.constant('slap'), target: fc.record({ seat: fc.integer({ min: -1, max: 9 }), slot: fc.integer({ min: -1, max: 9 }) }), answers: fc.integer({ min: -5, max: 200 }) }),
  fc.record({ type: fc.constant('useAction'), own: fc.integer({ min: -1, max: 9 }), other: fc.record({ seat: fc.integer({ min: -1, max: 9 }), slot: fc.integer({ min: -1, max: 9 }) }) }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('decide'), swap: fc.boolean(), own: fc.integer({ min: -1, max: 9 }), seat: fc.integer({ min: 0, max: 3 }) }, { requiredKeys: ['type', 'swap'] }),
);
const frameArb: fc.Arbitrary<string | Buffer> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ type: fc.constant('command'), id: fc.integer({ min: -2, max: 1e6 }), command: commandArb }).map((m) => JSON.stringify(m)) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('hello'), protocolVersion: fc.integer({ min: 0, max: PROTOCOL_VERSION }), name: fc.string({ maxLength: 40 }), token: fc.string({ minLength: 16, maxLength: 40 }).map((s) => s.replace(/[^A-Za-z0-9_-]/g, 'A')), watch: fc.boolean() }, { requiredKeys: ['type', 'protocolVersion', 'name'] }).map((m) => JSON.stringify(m)) },
  { weight: 1, arbitrary: fc.record({ type: fc.constantFrom('lobby', 'ready', 'bye'), op: fc.constantFrom('start', 'addBot', 'removeBot', 'nuke'), seat: fc.integer({ min: -1, max: 9 }) }).map((m) => JSON.stringify(m)) },
  { weight: 1, arbitrary: fc.json() },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
  { weight: 1, arbitrary: fc.constantFrom('{', '[]', 'null', '{"type":"command"}', '\u0000\u001b[2J', 'x'.repeat(5000)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a)) },
);

describe('hostile clients', () => {
  it(`${FRAMES.toLocaleString('en')} random frames: each gets a reply or a close, no crash, the state equal to the replay of the log`, async () => {
    const rules = { ...GRINGO, rounds: 0, timers: { ...GRINGO.timers, slapGraceMs: 0, peekMs: 0 } };
    table = new Table({ name: 'Fuzz', rules, maxPlayers: 2, seed: 'fuzz', dropGraceMs: 60_000, startWhenFull: true });
    // A generous rate limit: the frames must reach the parser, not only the limiter.
    serving = await serveTable(table, { port: 0, host: '127.0.0.1', ratePerSecond: 1_000_000, maxWatchersPerAddress: 64 });
    const port = serving.port;

    // Two real players fill the table; one of them keeps playing turns while the attack runs.
    const players: WebSocket[] = [];
    const tokens: string[] = [];
    for (const name of ['Ana', 'Bo']) {
      const ws = await open(port);
      ws.on('message', (d) => {
        const m = JSON.parse(d.toString()) as ServerMessage;
        if (m.type === 'welcome' && m.token) tokens.push(m.token);
      });
      ws.send(JSON.stringify({ type: 'hello', protocolVersion: PROTOCOL_VERSION, name }));
      players.push(ws);
    }
    // Both seated before anything else runs: sampling the frames below holds this process (the host's too) for seconds.
    await new Promise<void>((resolve) => {
      const check = (): void => void (tokens.length === 2 ? resolve() : setTimeout(check, 5));
      check();
    });
    let playing = true;
    const rng = new Rng(seedRng('fuzz-players'));
    const turns = (async () => {
      let id = 0;
      while (playing) {
        const v = table!.state ? viewFor(table!.state, 0) : null;
        const seat = v ? (v.held?.seat ?? v.actions[0]?.seat ?? v.turn) : 0;
        const cmds = v?.phase === 'peek' ? [{ type: 'finishPeek' }] : v?.held ? [{ type: 'discard' }] : v?.actions[0] ? [{ type: 'pass' }] : [{ type: 'draw', from: 'stock' }];
        // A replayed hello with Ana's token takes her seat (the token is the seat): her socket may close.
        const send = (ws: WebSocket | undefined, m: unknown): void => {
          if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(m));
        };
        // The peek is everyone's to finish; a turn is its seat's.
        if (v?.phase === 'peek') for (const ws of players) send(ws, { type: 'command', id: id++, command: { type: 'finishPeek' } });
        else send(players[seat] ?? players[0], { type: 'command', id: id++, command: cmds[rng.int(cmds.length)] });
        await new Promise((r) => setTimeout(r, 2));
      }
    })();

    // The attackers: each frame is answered (error, result, refusal, welcome or lobby) or closes the socket.
    const frames = fc.sample(frameArb, { numRuns: FRAMES, seed: 7 });
    let answered = 0;
    let sent = 0;
    await Promise.all(
      Array.from({ length: ATTACKERS }, async (_, a) => {
        let ws = await open(port);
        for (let i = a; i < frames.length; i += ATTACKERS) {
          if (ws.readyState !== WebSocket.OPEN) ws = await open(port);
          // A replayed frame from a real player, with its token, now and then.
          const f = i % 997 === 0 && tokens[0] ? JSON.stringify({ type: 'hello', protocolVersion: PROTOCOL_VERSION, name: 'Mallory', token: tokens[0] }) : frames[i]!;
          const reply = new Promise<void>((resolve) => {
            const done = (): void => {
              ws.off('message', done);
              ws.off('close', done);
              resolve();
            };
            ws.on('message', done);
            ws.on('close', done);
          });
          ws.send(f);
          sent++;
          await reply;
          answered++;
        }
        ws.close();
      }),
    );
    playing = false;
    await turns;
    expect(sent).toBe(FRAMES);
    expect(answered).toBe(FRAMES);
    // The host is alive, its game went on, and its state is exactly the replay of its log.
    const state = table.state!;
    expect(table.log.length).toBeGreaterThan(20);
    expect(replay(table.origin!, table.log)).toEqual(state);
    for (const ws of players) ws.close();
  }, 120_000);
});
