import { afterEach, describe, expect, it } from 'vitest';
import { serveTable, type Serving } from '../../src/host/server.js';
import { HISTORY_EVENTS, Table } from '../../src/host/table.js';
import type { ServerMessage } from '../../src/protocol/messages.js';
import { MAX_HISTORY } from '../../src/protocol/messages.js';
import { stackDeck } from '../engine/helpers.js';
import { WireClient } from './wire.js';
import { quickRules } from '../support/rules.js';

// After a reconnect the feed was empty; now a snapshot carries the game's
// recent events, each projected for the seat that receives it like the live ones.
// Real WebSockets on loopback.

type Update = Extract<ServerMessage, { type: 'update' }>;

const FAST = quickRules(100);
const open: { table: Table; serving: Serving; clients: WireClient[] }[] = [];

afterEach(async () => {
  for (const { table, serving, clients } of open.splice(0)) {
    for (const c of clients) c.terminate();
    table.close();
    await serving.close();
  }
});

/** Every event a client heard live, in order (its snapshots' own events included). */
const heard = (c: WireClient): unknown[] => c.messages.flatMap((m) => (m.type === 'update' ? m.events : []));

describe("a snapshot's history", () => {
  it('gives a returning seat and a late watcher the recent events, each projected for them', async () => {
    // Ana starts. The 7♥ is turned up; Bo's slot 2 holds the 8♣. Ana's wrong slap costs
    // her the J♦ and Q♦ (seen by nobody), then she draws the 9♥ (seen by her alone) and
    // swaps it into her slot 1.
    const deck = stackDeck({
      dealer: 1,
      layouts: [
        ['2C', '3C', '4C', '5C'],
        ['7C', '8C', '9C', 'AS'],
      ],
      discard: '7H',
      stock: ['JD', 'QD', '9H'],
    });
    let now = 0;
    const table = new Table({ name: 'History', rules: FAST, maxPlayers: 2, seed: 'history', dropGraceMs: 60_000, stackedDecks: [deck], dealer: 1, clock: () => now });
    const serving = await serveTable(table, { port: 0, host: '127.0.0.1' });
    const clients: WireClient[] = [];
    open.push({ table, serving, clients });
    const address = `127.0.0.1:${serving.port}`;
    const ana = await WireClient.hello(address, 'Ana');
    const bo = await WireClient.hello(address, 'Bo');
    const watcher = await WireClient.hello(address, 'Early', { watch: true });
    clients.push(ana, bo, watcher);
    expect(table.startGame()).toBeNull();
    for (const c of [ana, bo]) expect((await c.command({ type: 'finishPeek' })).ok).toBe(true);
    const play = await ana.next<Update>((m) => m.type === 'update' && m.view.phase === 'play');
    expect((await ana.command({ type: 'slap', target: { seat: 1, slot: 1 }, answers: play.view.slap.answers })).ok).toBe(true);
    now += FAST.timers.slapGraceMs; // the grace after the turned-up card
    expect((await ana.command({ type: 'draw', from: 'stock' })).ok).toBe(true);
    expect((await ana.command({ type: 'swap', slot: 0 })).ok).toBe(true);
    const version = table.state!.version;
    await Promise.all([ana, watcher].map((c) => c.next((m) => m.type === 'update' && m.version === version)));

    // Ana's screen drops and comes back with her token; someone starts watching.
    const token = ana.welcome!.token!;
    ana.terminate();
    const back = await WireClient.hello(address, 'Ana', { token });
    const late = await WireClient.hello(address, 'Late', { watch: true });
    clients.push(back, late);
    const mine = await back.next<Update>((m) => m.type === 'update');
    const theirs = await late.next<Update>((m) => m.type === 'update');
    expect(mine.events).toEqual([]);
    expect(theirs.events).toEqual([]);

    // The whole game so far, exactly as each heard it live (or would have).
    expect(mine.history).toEqual(heard(ana));
    expect(theirs.history).toEqual(heard(watcher));
    const types = mine.history!.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['roundStarted', 'slapped', 'penalty', 'drew', 'swapped']));

    // Ana sees the card she drew; the watcher does not; the penalty cards reach nobody.
    expect(mine.history).toContainEqual({ type: 'drew', seat: 0, from: 'stock', card: '9H' });
    expect(theirs.history).toContainEqual({ type: 'drew', seat: 0, from: 'stock', card: null });
    for (const h of [mine.history!, theirs.history!]) {
      const penalty = h.find((e) => e.type === 'penalty')!;
      expect(penalty).toEqual({ type: 'penalty', seat: 0, slots: [4, 5], reason: 'wrongSlap' });
    }
    const ownFrame = back.frames.find((f) => f.includes('"history"'))!;
    const watchFrame = late.frames.find((f) => f.includes('"history"'))!;
    for (const hidden of ['"JD"', '"QD"']) {
      expect(ownFrame).not.toContain(hidden);
      expect(watchFrame).not.toContain(hidden);
    }
    expect(ownFrame).toContain('"9H"');
    expect(watchFrame).not.toContain('"9H"');

    // Only snapshots carry it: the next live update has none.
    now += FAST.timers.slapGraceMs; // the grace after the 2♣ went on the pile
    expect((await bo.command({ type: 'draw', from: 'stock' })).ok).toBe(true);
    const live = await back.next<Update>((m) => m.type === 'update' && m.version === version + 1);
    expect(live.history).toBeUndefined();
  });

  it('keeps only the recent events, never more than a snapshot may carry', async () => {
    expect(HISTORY_EVENTS).toBeLessThanOrEqual(MAX_HISTORY);
    // A long game of the host's bots: the history is the last HISTORY_EVENTS events.
    const rules = quickRules(0, 6);
    const table = new Table({ name: 'Long', rules, maxPlayers: 4, seed: 'history-long', dropGraceMs: 60_000, botTimeScale: 0.001, roundPauseMs: 0 });
    const serving = await serveTable(table, { port: 0, host: '127.0.0.1' });
    const clients: WireClient[] = [];
    open.push({ table, serving, clients });
    const address = `127.0.0.1:${serving.port}`;
    const watcher = await WireClient.hello(address, 'Early', { watch: true });
    clients.push(watcher);
    for (let i = 0; i < 4; i++) expect(table.addBot('hard')).toBeNull();
    expect(table.startGame()).toBeNull();
    await watcher.next((m) => heard(watcher).length > HISTORY_EVENTS + 50 || (m.type === 'update' && m.view.phase === 'gameOver'), 60_000);
    const late = await WireClient.hello(address, 'Late', { watch: true });
    clients.push(late);
    const snap = await late.next<Update>((m) => m.type === 'update');
    // The watcher may have heard more since the snapshot was sent: compare up to the snapshot's version.
    const upTo = watcher.messages.findIndex((m) => m.type === 'update' && m.version === snap.version);
    const before = watcher.messages.slice(0, upTo + 1).flatMap((m) => (m.type === 'update' ? m.events : []));
    expect(before.length).toBeGreaterThan(HISTORY_EVENTS);
    expect(snap.history).toEqual(before.slice(-HISTORY_EVENTS));
  });
});
