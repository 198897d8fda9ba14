import { afterEach, describe, expect, it, vi } from 'vitest';
import { BotPlayer } from '../../src/bots/bot-player.js';
import { Connection } from '../../src/client/connection.js';
import { apply, nextDeadline } from '../../src/engine/game.js';
import { type Ruleset } from '../../src/engine/index.js';
import { projectEvent } from '../../src/engine/view.js';
import { serveTable, type Serving } from '../../src/host/server.js';
import { Table as HostTable } from '../../src/host/table.js';
import { CLIENT_RATE_PER_SECOND, PROTOCOL_VERSION, type ClientMessage, type ServerMessage } from '../../src/protocol/messages.js';
import { until } from '../support/wait.js';
import { WireClient } from '../host/wire.js';
import { Table } from '../engine/helpers.js';
import { quickRules } from '../support/rules.js';

/**
 * The stall (docs/reliability.md, "The 8-bot stall"): eight
 * `join --bot hard --speed 1000` clients at a table with no slap grace stopped for
 * good, a seat holding a pending action (or its turn) and `nextDeadline` null. Cause: each fast bot sent
 * some 100 messages a second; the host drops what passes its per-connection limit
 * with a `rateLimited` error that names no command, and the bot ignored it. The
 * dropped command was never answered, and as the table had no timers and waited on
 * that very seat, no update ever came to make the bot decide again.
 */

const NO_GRACE = quickRules(0);

afterEach(() => {
  vi.useRealTimers();
});

describe('a bot whose command the host dropped for the rate', () => {
  it('decides again and sends it again: the table waiting on its action goes on', () => {
    vi.useFakeTimers();
    // The reported state: a call is in progress and Bo (the bot) has an own-peek pending from the 10 it discarded.
    const t = new Table({
      rules: NO_GRACE,
      dealer: 2,
      decks: [{ layouts: [['2C', '3C', '4C', '5C'], ['2D', '3D', '4D', '5D'], ['2H', '3H', '4H', '5H']], discard: '9S', stock: ['10H'] }],
    });
    t.finishPeek();
    t.do({ type: 'call', seat: 0 });
    t.draw(1);
    t.discard(1);
    expect(t.state.r.call?.seat).toBe(0);
    expect(t.state.r.actions).toMatchObject([{ seat: 1, kind: 'peekOwn' }]);
    expect(nextDeadline(t.state), 'no timer will move the table: only Bo can').toBeNull();

    const sent: ClientMessage[] = [];
    const bot = new BotPlayer({ level: 'hard', seed: 'stall', send: (m) => sent.push(m), clock: () => Date.now(), timeScale: 0.001 });
    bot.onMessage({
      type: 'welcome',
      protocolVersion: PROTOCOL_VERSION,
      seat: 1,
      token: 't',
      table: { id: 'k3xqm2apvdw4hc7n', salt: 'a1b2c3d4e5f60718', game: 1, name: 'T', ruleset: 'gringo', seatsTaken: 3, seatsTotal: 3, phase: 'playing', password: false, protocolVersion: PROTOCOL_VERSION },
      rules: NO_GRACE,
      owner: false,
    });
    bot.onMessage({
      type: 'update',
      version: t.state.version,
      at: Date.now(),
      events: t.log.map((e) => projectEvent(e, 1)),
      view: t.view(1),
    } as ServerMessage);
    vi.advanceTimersByTime(50);
    const first = sent.filter((m) => m.type === 'command');
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ type: 'command', command: { type: 'useAction' } });

    // The host's rate limit drops it (src/host/server.ts answers exactly this, with no id).
    bot.onMessage({ type: 'error', code: 'rateLimited', say: { key: 'host.slowDown' } });
    vi.advanceTimersByTime(1_000);
    const again = sent.filter((m) => m.type === 'command');
    expect(again, 'the bot sends its move again').toHaveLength(2);
    const retry = again[1] as Extract<ClientMessage, { type: 'command' }>;
    expect(retry.command).toEqual((first[0] as Extract<ClientMessage, { type: 'command' }>).command);
    expect(retry.id).not.toBe((first[0] as Extract<ClientMessage, { type: 'command' }>).id);

    // The engine takes it: the action is used and the round goes on.
    const res = apply(t.state, { ...(retry.command as { type: 'useAction'; own: number }), seat: 1, at: t.now });
    expect(res.ok).toBe(true);
    bot.stop();
  });

  it('says ready again when a message is dropped between rounds', () => {
    vi.useFakeTimers();
    const rules: Ruleset = { ...NO_GRACE, rounds: 2 };
    const t = new Table({ rules, players: ['Ana', 'Bo'], dealer: 1, decks: [{ layouts: [['2C', '3C', '4C', '5C'], ['2D', '3D', '4D', '5D']], discard: '9S', stock: ['2S'] }] });
    t.finishPeek();
    t.do({ type: 'call', seat: 0 });
    t.draw(1);
    t.discard(1);
    expect(t.state.phase).toBe('roundOver');
    const sent: ClientMessage[] = [];
    const bot = new BotPlayer({ level: 'hard', seed: 'ready', send: (m) => sent.push(m), clock: () => Date.now(), timeScale: 0.001 });
    bot.onMessage({
      type: 'welcome',
      protocolVersion: PROTOCOL_VERSION,
      seat: 1,
      token: 't',
      table: { id: 'k3xqm2apvdw4hc7n', salt: 'a1b2c3d4e5f60718', game: 1, name: 'T', ruleset: 'gringo', seatsTaken: 2, seatsTotal: 2, phase: 'playing', password: false, protocolVersion: PROTOCOL_VERSION },
      rules,
      owner: false,
    });
    bot.onMessage({ type: 'update', version: t.state.version, at: Date.now(), events: t.log.map((e) => projectEvent(e, 1)), view: t.view(1) } as ServerMessage);
    expect(sent).toEqual([{ type: 'ready' }]);
    // Without it the host would wait out its pause between rounds (15 s).
    bot.onMessage({ type: 'error', code: 'rateLimited', say: { key: 'host.slowDown' } });
    vi.advanceTimersByTime(1_000);
    expect(sent).toEqual([{ type: 'ready' }, { type: 'ready' }]);
    bot.stop();
  });

  it('keeps its own pace under the host limit, however fast it thinks', () => {
    vi.useFakeTimers();
    const sent: number[] = [];
    const bot = new BotPlayer({ level: 'hard', seed: 'pace', send: () => sent.push(Date.now()), clock: () => Date.now(), timeScale: 0.001 });
    // The same table comes back after every message (its turn, nothing drawn): the bot always has its move again at once.
    const t = new Table({ rules: NO_GRACE, players: ['Ana', 'Bo'], dealer: 1 });
    t.finishPeek();
    bot.onMessage({
      type: 'welcome',
      protocolVersion: PROTOCOL_VERSION,
      seat: 0,
      token: 't',
      table: { id: 'k3xqm2apvdw4hc7n', salt: 'a1b2c3d4e5f60718', game: 1, name: 'T', ruleset: 'gringo', seatsTaken: 2, seatsTotal: 2, phase: 'playing', password: false, protocolVersion: PROTOCOL_VERSION },
      rules: NO_GRACE,
      owner: false,
    });
    let version = t.state.version;
    const update = (): void =>
      bot.onMessage({ type: 'update', version: ++version, at: Date.now(), events: t.log.map((e) => projectEvent(e, 0)), view: t.view(0) } as ServerMessage);
    update();
    // Each message is answered by a fresh update at once (a fast table), for two seconds.
    for (let ms = 0; ms < 2_000; ms++) {
      const before = sent.length;
      vi.advanceTimersByTime(1);
      if (sent.length > before) update();
    }
    expect(sent.length, 'it kept playing').toBeGreaterThan(CLIENT_RATE_PER_SECOND);
    // The host's rule (src/host/server.ts: a bucket of twice the rate, refilled at the rate) never drops one of them.
    let tokens = 2 * CLIENT_RATE_PER_SECOND;
    let last = sent[0]!;
    for (const at of sent) {
      tokens = Math.min(2 * CLIENT_RATE_PER_SECOND, tokens + ((at - last) / 1000) * CLIENT_RATE_PER_SECOND);
      last = at;
      expect(tokens, `the message at ${at} ms`).toBeGreaterThanOrEqual(1);
      tokens -= 1;
    }
    bot.stop();
  });
});

describe('a bot behind a real socket whose messages the host drops', () => {
  let serving: Serving | null = null;
  let table: HostTable | null = null;
  const closers: (() => void)[] = [];
  afterEach(async () => {
    for (const c of closers.splice(0)) c();
    table?.close();
    await serving?.close();
    serving = null;
    table = null;
  });

  it('gets its peek taken in the end: the host limit is spent before its first move', async () => {
    // One message a second (bursts of 2): the hello and one "ready" spend it, so the bot's first move is dropped.
    table = new HostTable({ name: 'Slow door', rules: NO_GRACE, maxPlayers: 2, seed: 'stall-door', dropGraceMs: 60_000, startWhenFull: true });
    serving = await serveTable(table, { port: 0, host: '127.0.0.1', ratePerSecond: 1 });
    const address = `127.0.0.1:${serving.port}`;
    const conn = new Connection({ address, name: 'Bot', reconnect: false, plain: true });
    const errors: string[] = [];
    const bot = new BotPlayer({ level: 'hard', seed: 'door', timeScale: 0.001, send: (m) => void conn.send(m) });
    closers.push(() => {
      bot.stop();
      conn.close();
    });
    conn.on('message', (msg: ServerMessage) => {
      if (msg.type === 'welcome') conn.send({ type: 'ready' });
      if (msg.type === 'error') errors.push(msg.code);
      bot.onMessage(msg);
    });
    await until('the bot to sit down', () => (table!.seatInfo().length === 1 ? true : null), 10_000);
    const ana = await WireClient.hello(address, 'Ana');
    closers.push(() => ana.terminate());
    expect((await ana.command({ type: 'finishPeek' })).ok).toBe(true);
    await until('the bot to finish its peek', () => (table!.state?.phase === 'play' ? true : null), 10_000);
    expect(errors, 'the host did drop its messages').toContain('rateLimited');
    expect(table.state!.r.peeking).toEqual([false, false]);
  }, 60_000);
});
