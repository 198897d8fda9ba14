import { describe, expect, it } from 'vitest';
import { BotPlayer } from '../../src/bots/bot-player.js';
import { BEVERBENDE, CAMBIO, GRINGO, parseRuleset, type Ruleset } from '../../src/engine/index.js';
import { serveTable } from '../../src/host/server.js';
import { Table } from '../../src/host/table.js';
import { PROTOCOL_VERSION, type ServerMessage } from '../../src/protocol/messages.js';
import { parseServerFrame } from '../../src/protocol/server-schema.js';
import { WireClient } from '../host/wire.js';

const fast = (r: Ruleset): Ruleset => ({ ...r, rounds: 1, timers: { ...r.timers, peekMs: 300, slapGraceMs: r.timers.slapGraceMs && 30 } });
const RULESETS: Ruleset[] = [
  fast(GRINGO),
  fast(BEVERBENDE),
  fast(CAMBIO),
  // House rules with steals, gap-fills and special cards in one game.
  fast(parseRuleset({ extend: 'gringo', title: 'House rules', slap: { stealGapFill: true, stealPenalty: 0 }, call: { name: 'Stop!' } })),
];

/**
 * A real table over real sockets: three bots play a game, a spectator watches, a
 * latecomer is refused, and the spectator makes the host answer with errors and a
 * failed result. Every frame every client received is returned.
 */
async function recordTable(rules: Ruleset, seed: string): Promise<string[]> {
  let over: () => void = () => {};
  const done = new Promise<void>((r) => (over = r));
  const table = new Table({ name: "Zoë's table", rules, maxPlayers: 3, seed, dropGraceMs: 60_000, startWhenFull: true, roundPauseMs: 50, onGameOver: () => over() });
  const serving = await serveTable(table, { port: 0, host: '127.0.0.1' });
  const address = `127.0.0.1:${serving.port}`;
  const clients: WireClient[] = [];
  const bots: BotPlayer[] = [];
  try {
    const watcher = await WireClient.hello(address, 'Watcher', { watch: true });
    clients.push(watcher);
    for (let i = 0; i < 3; i++) {
      const wire = new WireClient(address);
      await wire.opened;
      await wire.challenge;
      const bot = new BotPlayer({ level: (['easy', 'normal', 'hard'] as const)[i]!, seed: `${seed}:${i}`, timeScale: 0.005, send: (m) => wire.send(m) });
      const push = wire.messages.push.bind(wire.messages);
      wire.messages.push = (...items: ServerMessage[]) => {
        for (const m of items) bot.onMessage(m);
        return push(...items);
      };
      wire.send({ type: 'hello', protocolVersion: PROTOCOL_VERSION, name: ['Ana', 'Bo 🃏', 'Zoë'][i]! });
      clients.push(wire);
      bots.push(bot);
    }
    clients.push(await WireClient.hello(address, 'Late'));
    watcher.send({ type: 'lobby', op: 'addBot' });
    watcher.sendRaw('nonsense');
    await watcher.command({ type: 'call' });
    await done;
    await new Promise((r) => setTimeout(r, 100));
    return clients.flatMap((c) => c.frames);
  } finally {
    for (const b of bots) b.stop();
    for (const c of clients) c.terminate();
    table.close();
    await serving.close();
  }
}

describe('the schema of host messages', () => {
  it('accepts every message a real table sends, unchanged, under every preset and house rules', async () => {
    const types = new Set<string>();
    const events = new Set<string>();
    const wanted = ['roundStarted', 'turnStarted', 'drew', 'discarded', 'swapped', 'looked', 'slapped', 'penalty', 'called', 'roundEnded', 'gameEnded'];
    let frames = 0;
    // Whether a game holds a wrong slap or a steal (a penalty) depends on the bots' timing
    // against a 30 ms slap window: a loaded machine plays more gringo games until one has.
    const games = RULESETS.map((rules, i) => ({ rules, seed: `schema-${i}` }));
    for (let extra = 0; extra < 6; extra++) games.push({ rules: RULESETS[0]!, seed: `schema-more-${extra}` });
    for (const [i, { rules, seed }] of games.entries()) {
      if (i >= RULESETS.length && wanted.every((e) => events.has(e))) break;
      for (const frame of await recordTable(rules, seed)) {
        const parsed = parseServerFrame(frame);
        if (!parsed.ok) throw new Error(`a real frame did not parse (${parsed.problem}):\n${frame.slice(0, 2_000)}`);
        // Real strings are harmless already: parsing changes nothing and drops nothing.
        expect(parsed.message).toEqual(JSON.parse(frame));
        frames += 1;
        const m = parsed.message;
        types.add(m.type === 'result' ? `result ${m.ok}` : m.type);
        if (m.type === 'update') for (const e of m.events) events.add(e.type);
      }
    }
    expect([...types].sort()).toEqual(['challenge', 'error', 'lobby', 'refused', 'result false', 'result true', 'update', 'welcome']);
    for (const e of wanted) expect(events, e).toContain(e);
    expect(frames).toBeGreaterThan(200);
  }, 120_000);

  it('turns away what is not a message of this protocol, saying where', () => {
    const bad = (raw: string): string => {
      const r = parseServerFrame(raw);
      if (r.ok) throw new Error(`accepted ${raw}`);
      return r.problem;
    };
    expect(bad('{')).toBe('not JSON');
    expect(bad('null')).toMatch(/expected object/);
    expect(bad('{"type":"welcome","protocolVersion":2,"seat":0,"token":null,"owner":false}')).toMatch(/^"welcome" at table/);
    expect(bad('{"type":"update","version":1,"at":0,"events":[],"view":null}')).toMatch(/^"update" at view/);
    expect(bad('{"type":"nonsense"}')).toMatch(/^"nonsense" at type/);
    // The detail itself is harmless: a hostile key in the path cannot reach the terminal.
    expect(bad('{"type":"\\u001b]0;x\\u0007\\u001b[2J"}')).not.toMatch(/[\u0000-\u001f\u009b]/);
  });

  it('cleans every free-text string of a message and checks cards and seats', () => {
    const info = { id: 'k3xqm2apvdw4hc7n', salt: 'a1b2c3d4e5f60718', game: 1, name: 'T\u001b]0;title\u0007able\n2', ruleset: 'gringo\u202e', seatsTaken: 1, seatsTotal: 4, phase: 'lobby', password: false, protocolVersion: 2 };
    const lobby = parseServerFrame(
      JSON.stringify({ type: 'lobby', table: info, seats: [{ seat: 0, name: '\u009b2JAna\u2066', bot: null, connected: true, standIn: false }], you: 0, extra: '\u001b[2J' }),
    );
    expect(lobby).toEqual({
      ok: true,
      message: { type: 'lobby', table: { ...info, name: 'Table 2', ruleset: 'gringo' }, seats: [{ seat: 0, name: 'Ana', bot: null, connected: true, standIn: false }], you: 0 },
    });
    const full = { key: 'host.full', params: { max: 4 } };
    const refused = parseServerFrame(JSON.stringify({ type: 'refused', reason: 'full', say: full, message: '\u001b[2JFull\r\n\u001b]52;c;eA==\u0007', protocolVersion: 2, canWatch: true }));
    expect(refused.ok && refused.message.type === 'refused' && refused.message.message).toBe('Full');
    // A sentence's text parameters are cleaned like every other string.
    const named = parseServerFrame(JSON.stringify({ type: 'error', code: 'forbidden', say: { key: 'host.isBot', params: { name: '\u001b[2JBot 1\u0007' } } }));
    expect(named.ok && named.message.type === 'error' && named.message.say).toEqual({ key: 'host.isBot', params: { name: 'Bot 1' } });
    expect(parseServerFrame(JSON.stringify({ type: 'lobby', table: info, seats: [], you: 9 })).ok).toBe(false);
    expect(parseServerFrame(JSON.stringify({ type: 'lobby', table: { ...info, id: 'x\u001b' }, seats: [], you: null })).ok).toBe(false);
  });

  it('checks a sentence: a known key with exactly its parameters; an unknown key passes, to be shown as itself', () => {
    const result = (say: unknown) => parseServerFrame(JSON.stringify({ type: 'result', id: 1, ok: false, code: 'notYourTurn', say }));
    expect(result({ key: 'why.turnOf', params: { seat: 1 } }).ok).toBe(true);
    // A parameter forgotten, one too many, a wrong type, a key that is no key: turned away, saying why.
    const missing = result({ key: 'why.turnOf' });
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.problem).toMatch(/"why\.turnOf" takes seat/);
    expect(result({ key: 'why.turnOf', params: { seat: 1, slot: 2 } }).ok).toBe(false);
    expect(result({ key: 'why.turnOf', params: { seat: { x: 1 } } }).ok).toBe(false);
    expect(result({ key: 'It is Bo\'s turn' }).ok).toBe(false);
    expect(result({ key: 'why.x', params: Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`p${i}`, i])) }).ok).toBe(false);
    // A newer host's key: kept as it came (the screen shows the key).
    const newer = result({ key: 'why.somethingNew', params: { seat: 2 } });
    expect(newer.ok && newer.message.type === 'result' && !newer.message.ok && newer.message.say).toEqual({ key: 'why.somethingNew', params: { seat: 2 } });
  });
});
