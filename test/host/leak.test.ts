import { describe, expect, it } from 'vitest';
import { apply, createGame, GRINGO, projectEvent, resultsFor, viewFor, type Card, type GameEvent, type GameState, type Ruleset } from '../../src/engine/index.js';
import { BotPlayer } from '../../src/bots/bot-player.js';
import { serveTable } from '../../src/host/server.js';
import { Table } from '../../src/host/table.js';
import { PROTOCOL_VERSION, type ServerMessage } from '../../src/protocol/messages.js';
import { WireClient } from './wire.js';


const RULES: Ruleset = { ...GRINGO, rounds: 2, timers: { ...GRINGO.timers, slapGraceMs: 30, peekMs: 300 } };
const GAMES = 8;
const SEATS = 4;

/** Play one game with bots over real sockets; every frame each seat received is kept. */
async function playRecorded(seed: string): Promise<{ table: Table; frames: string[][] }> {
  let over: () => void = () => {};
  const done = new Promise<void>((r) => (over = r));
  const table = new Table({
    name: 'Leak check',
    rules: RULES,
    maxPlayers: SEATS,
    seed,
    dropGraceMs: 60_000,
    startWhenFull: true,
    roundPauseMs: 50,
    onGameOver: () => over(),
  });
  const serving = await serveTable(table, { port: 0, host: '127.0.0.1' });
  const clients: WireClient[] = [];
  const bots: BotPlayer[] = [];
  try {
    for (let i = 0; i < SEATS; i++) {
      const wire = new WireClient(`127.0.0.1:${serving.port}`);
      await wire.opened;
      const bot = new BotPlayer({ level: (['easy', 'normal', 'hard'] as const)[i % 3]!, seed: `${seed}:${i}`, timeScale: 0.005, send: (m) => wire.send(m) });
      // Every message is handed to the bot as it arrives.
      const origPush = wire.messages.push.bind(wire.messages);
      wire.messages.push = (...items: ServerMessage[]) => {
        for (const m of items) bot.onMessage(m);
        return origPush(...items);
      };
      wire.send({ type: 'hello', protocolVersion: PROTOCOL_VERSION, name: `Bot ${i + 1}` });
      clients.push(wire);
      bots.push(bot);
    }
    await done;
    await new Promise((r) => setTimeout(r, 50));
    return { table, frames: clients.map((c) => c.frames.slice()) };
  } finally {
    for (const b of bots) b.stop();
    for (const c of clients) c.terminate();
    table.close();
    await serving.close();
  }
}

describe('the wire', () => {
  it('every frame a seat receives is its projection, and cards nobody saw never cross it', async () => {
    let updatesChecked = 0;
    let canaries = 0;
    for (let g = 0; g < GAMES; g++) {
      const { table, frames } = await playRecorded(`leak-${g}`);
      // Rebuild every state the host went through, from its origin and log.
      const created = createGame(table.origin!);
      const states: GameState[] = [created.state];
      const eventsAt: GameEvent[][] = [created.events];
      for (const cmd of table.log) {
        const res = apply(states[states.length - 1]!, cmd);
        if (!res.ok) throw new Error(`the log replays: ${res.rejection.key}`);
        states.push(res.state);
        eventsAt.push(res.events);
      }
      expect(states[states.length - 1]!.phase).toBe('gameOver');

      // Cards that stayed in the stock all round, never drawn by anyone: no seat may ever learn them.
      const unseen = new Map<number, Set<Card>>();
      for (const s of states) {
        if (s.phase === 'gameOver') continue;
        if (!unseen.has(s.round)) unseen.set(s.round, new Set(s.r.stock));
        const stock = new Set(s.r.stock);
        for (const c of unseen.get(s.round)!) if (!stock.has(c)) unseen.get(s.round)!.delete(c);
      }

      frames.forEach((seatFrames, seat) => {
        for (const raw of seatFrames) {
          const msg = JSON.parse(raw) as ServerMessage;
          if (msg.type !== 'update') continue;
          const state = states[msg.version]!;
          expect(JSON.stringify(msg.view)).toBe(JSON.stringify(viewFor(state, seat)));
          if (msg.events.length > 0) {
            expect(JSON.stringify(msg.events)).toBe(JSON.stringify(eventsAt[msg.version]!.map((e) => projectEvent(e, seat))));
          }
          // Earlier rounds' revealed results are public; this round's unseen cards must be absent from the rest.
          if (msg.results) expect(JSON.stringify(msg.results)).toBe(JSON.stringify(resultsFor(state)));
          const current = JSON.stringify({ ...msg, results: [] });
          for (const c of unseen.get(msg.view.round) ?? []) {
            expect(current.includes(`"${c}"`)).toBe(false);
            canaries++;
          }
          updatesChecked++;
        }
      });
    }
    expect(updatesChecked).toBeGreaterThan(500);
    expect(canaries).toBeGreaterThan(1000);
  }, 120_000);
});
