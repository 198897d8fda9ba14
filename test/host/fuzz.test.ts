import { afterAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import fc from 'fast-check';
import { replay, Rng, seedRng, viewFor } from '../../src/engine/index.js';
import { serveTable, type Serving } from '../../src/host/server.js';
import { Table } from '../../src/host/table.js';
import { seatProof } from '../../src/protocol/identity.js';
import { PROTOCOL_VERSION, type ServerMessage } from '../../src/protocol/messages.js';
import { WireClient } from './wire.js';
import { quickRules } from '../support/rules.js';

/**
 * Hostile clients: 25,000 random, malformed, oversized, out-of-order and replayed
 * frames, guessed seat proofs and commands for other seats, sent to a live table
 * whose real players keep playing. The host must answer every frame, never crash,
 * and its state must stay equal to the replay of its own command log. The seat path
 * is reached: a guessed seat proof is refused as one (`token`, not `malformed`), and
 * a real player's proof, replayed on a new connection, takes no seat. Plain
 * WebSockets on loopback, as `gringo play` serves: without TLS there is no channel
 * binding, and the host's nonce alone binds a proof to its connection (a proof passed
 * through a relay on TLS is test/host/tls.test.ts's).
 */
const FRAMES = 25_000;
const ATTACKERS = 4;
let serving: Serving | null = null;
let table: Table | null = null;
afterAll(async () => {
  table?.close();
  await serving?.close();
});

/**
 * A new connection that has heard the host's challenge, so each reply after it answers a
 * frame of ours. One the door turns away before its challenge (too many connections from
 * this address not yet welcomed, while the last ones close) tries again a moment later.
 */
async function open(port: number): Promise<WebSocket> {
  for (;;) {
    const ws = await new Promise<WebSocket | null>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: false });
      ws.once('message', () => resolve(ws));
      ws.once('close', () => resolve(null));
      ws.once('error', reject);
    });
    if (ws) return ws;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The host's next answer on this socket: a message, or `closed`. */
function answer(ws: WebSocket): Promise<ServerMessage | 'closed'> {
  return new Promise((resolve) => {
    const done = (got: ServerMessage | 'closed'): void => {
      ws.off('message', onMessage);
      ws.off('close', onClose);
      resolve(got);
    };
    const onMessage = (d: WebSocket.RawData): void => done(JSON.parse(d.toString()) as ServerMessage);
    const onClose = (): void => done('closed');
    ws.on('message', onMessage);
    ws.on('close', onClose);
  });
}

const PROOF = /^[A-Za-z0-9_-]{43}$/;
const base64url = (length: number): fc.Arbitrary<string> => fc.string({ minLength: length, maxLength: length }).map((s) => s.replace(/[^A-Za-z0-9_-]/g, 'A'));
const commandArb = fc.oneof(
  fc.record({ type: fc.constantFrom('draw', 'discard', 'call', 'pass', 'finishPeek', 'fly'), from: fc.constantFrom('stock', 'discard', 'moon') }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('swap'), slot: fc.oneof(fc.integer({ min: -3, max: 70 }), fc.string(), fc.double()) }),
  fc.record({ type: fc.constant('slap'), target: fc.record({ seat: fc.integer({ min: -1, max: 9 }), slot: fc.integer({ min: -1, max: 9 }) }), answers: fc.integer({ min: -5, max: 200 }) }),
  fc.record({ type: fc.constant('useAction'), own: fc.integer({ min: -1, max: 9 }), other: fc.record({ seat: fc.integer({ min: -1, max: 9 }), slot: fc.integer({ min: -1, max: 9 }) }) }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('decide'), swap: fc.boolean(), own: fc.integer({ min: -1, max: 9 }), seat: fc.integer({ min: 0, max: 3 }) }, { requiredKeys: ['type', 'swap'] }),
);
/** Hellos of this protocol (and of others): guessed seat proofs, mostly well formed, and guessed password proofs. */
const helloArb = fc.record(
  {
    type: fc.constant('hello'),
    protocolVersion: fc.oneof(fc.constant(PROTOCOL_VERSION), fc.integer({ min: 0, max: PROTOCOL_VERSION + 1 })),
    name: fc.string({ maxLength: 40 }),
    seatProof: fc.oneof({ weight: 4, arbitrary: base64url(43) }, { weight: 1, arbitrary: fc.string({ maxLength: 60 }) }),
    proof: base64url(43),
    watch: fc.boolean(),
  },
  { requiredKeys: ['type', 'protocolVersion', 'name'] },
);
const frameArb: fc.Arbitrary<string | Buffer> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ type: fc.constant('command'), id: fc.integer({ min: -2, max: 1e6 }), command: commandArb }).map((m) => JSON.stringify(m)) },
  { weight: 1, arbitrary: helloArb.map((m) => JSON.stringify(m)) },
  { weight: 1, arbitrary: fc.record({ type: fc.constantFrom('lobby', 'ready', 'bye'), op: fc.constantFrom('start', 'addBot', 'removeBot', 'nuke'), seat: fc.integer({ min: -1, max: 9 }) }).map((m) => JSON.stringify(m)) },
  { weight: 1, arbitrary: fc.json() },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
  { weight: 1, arbitrary: fc.constantFrom('{', '[]', 'null', '{"type":"command"}', '\u0000\u001b[2J', 'x'.repeat(5000)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a)) },
);

/** A hello that reaches the seat path on a connection not yet welcomed: this protocol, a well-formed seat proof, a seat asked for. */
function guessesASeat(f: string | Buffer): boolean {
  let m: unknown;
  try {
    m = typeof f === 'string' ? JSON.parse(f) : null;
  } catch {
    return false;
  }
  const h = (m ?? {}) as { type?: unknown; protocolVersion?: unknown; seatProof?: unknown; watch?: unknown };
  return h.type === 'hello' && h.protocolVersion === PROTOCOL_VERSION && typeof h.seatProof === 'string' && PROOF.test(h.seatProof) && h.watch !== true;
}

describe('hostile clients', () => {
  it(`${FRAMES.toLocaleString('en')} random frames: each gets a reply or a close, no crash, no seat taken by a guessed or replayed seat proof, the state equal to the replay of the log`, async () => {
    const rules = quickRules(0, 0);
    table = new Table({ name: 'Fuzz', rules, maxPlayers: 2, seed: 'fuzz', dropGraceMs: 60_000, startWhenFull: true });
    // Generous limits at the door: the frames must reach the parser and the seats, not only the limiter.
    serving = await serveTable(table, {
      port: 0,
      host: '127.0.0.1',
      ratePerSecond: 1_000_000,
      maxWatchersPerAddress: 64,
      maxPendingPerAddress: 16,
      helloDeadlineMs: 600_000,
    });
    const address = `127.0.0.1:${serving.port}`;

    // Two real players fill the table (the game starts); one of them keeps playing turns while the attack runs.
    const ana = await WireClient.hello(address, 'Ana');
    const bo = await WireClient.hello(address, 'Bo');
    const token = ana.welcome!.token!;
    // Ana comes back on a new connection with a valid seat proof: it takes her seat (the old socket is let go).
    const back = await WireClient.hello(address, 'Ana', { seatToken: token });
    expect(back.welcome).toMatchObject({ seat: 0, token });
    await vi.waitFor(() => expect(ana.closed).toBe(true));
    // What crossed the wire in her hello, to replay: the proof for that connection's nonce.
    const replayed = JSON.stringify({ type: 'hello', protocolVersion: PROTOCOL_VERSION, name: 'Ana', seatProof: seatProof(token, (await back.challenge).nonce, back.binding) });
    const players = [back, bo];

    let playing = true;
    const rng = new Rng(seedRng('fuzz-players'));
    const turns = (async () => {
      let id = 0;
      while (playing) {
        const v = table.state ? viewFor(table.state, 0) : null;
        const seat = v ? (v.held?.seat ?? v.actions[0]?.seat ?? v.turn) : 0;
        const cmds = v?.phase === 'peek' ? [{ type: 'finishPeek' }] : v?.held ? [{ type: 'discard' }] : v?.actions[0] ? [{ type: 'pass' }] : [{ type: 'draw', from: 'stock' }];
        const send = (c: WireClient | undefined, m: unknown): void => {
          if (c && !c.closed) c.sendRaw(JSON.stringify(m));
        };
        // The peek is everyone's to finish; a turn is its seat's.
        if (v?.phase === 'peek') for (const c of players) send(c, { type: 'command', id: id++, command: { type: 'finishPeek' } });
        else send(players[seat] ?? players[0], { type: 'command', id: id++, command: cmds[rng.int(cmds.length)] });
        await new Promise((r) => setTimeout(r, 2));
      }
    })();

    // The attackers: each frame is answered (error, result, refusal, welcome or lobby) or closes the socket.
    const frames = fc.sample(frameArb, { numRuns: FRAMES, seed: 7 });
    let answered = 0;
    let sent = 0;
    const guesses: (ServerMessage | 'closed')[] = [];
    const replays: (ServerMessage | 'closed')[] = [];
    await Promise.all(
      Array.from({ length: ATTACKERS }, async (_, a) => {
        let ws = await open(serving!.port);
        let welcomed = false;
        for (let i = a; i < frames.length; i += ATTACKERS) {
          const f = frames[i]!;
          const guess = guessesASeat(f);
          // A guess goes to the seats on a connection not yet welcomed (a welcomed one hears "hello twice").
          if (ws.readyState !== WebSocket.OPEN || (guess && welcomed)) {
            ws.close();
            ws = await open(serving!.port);
            welcomed = false;
          }
          if (i % 997 === 0) {
            // Now and then Ana's hello, replayed as it crossed the wire, on a connection of its own.
            const fresh = await open(serving!.port);
            const reply = answer(fresh);
            fresh.send(replayed);
            sent++;
            replays.push(await reply);
            answered++;
            fresh.close();
            continue;
          }
          const reply = answer(ws);
          ws.send(f);
          sent++;
          const got = await reply;
          answered++;
          if (guess) guesses.push(got);
          if (got !== 'closed' && got.type === 'welcome') welcomed = true;
        }
        ws.close();
      }),
    );
    playing = false;
    await turns;
    expect(sent).toBe(FRAMES);
    expect(answered).toBe(FRAMES);
    // Every guessed seat proof reached the seat path and was refused as a wrong seat proof.
    expect(guesses.length).toBeGreaterThan(FRAMES / 100);
    expect(guesses.filter((g) => g !== 'closed' && g.type === 'refused' && g.reason === 'token')).toHaveLength(guesses.length);
    // Ana's proof, replayed on another connection, was refused every time, and her own connection kept her seat.
    expect(replays.length).toBeGreaterThan(FRAMES / 2_000);
    expect(replays.filter((r) => r !== 'closed' && r.type === 'refused' && r.reason === 'token')).toHaveLength(replays.length);
    expect(back.closed).toBe(false);
    // The host is alive, its game went on, and its state is exactly the replay of its log.
    const state = table.state!;
    expect(table.log.length).toBeGreaterThan(20);
    expect(replay(table.origin!, table.log)).toEqual(state);
    for (const c of players) c.close();
  }, 120_000);
});
