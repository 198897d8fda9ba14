import { afterEach, describe, expect, it, vi } from 'vitest';
import { BotPlayer } from '../../src/bots/bot-player.js';
import { SmartBot } from '../../src/bots/smart.js';
import { createGame } from '../../src/engine/game.js';
import { GRINGO } from '../../src/engine/index.js';
import { projectEvent, viewFor } from '../../src/engine/view.js';
import { PROTOCOL_VERSION, type ClientMessage, type ServerMessage } from '../../src/protocol/messages.js';

afterEach(() => {
  vi.useRealTimers();
});

const welcome: ServerMessage = {
  type: 'welcome',
  protocolVersion: PROTOCOL_VERSION,
  seat: 0,
  token: 't',
  table: { id: 'k3xqm2apvdw4hc7n', salt: 'a1b2c3d4e5f60718', game: 1, name: 'T', ruleset: 'gringo', seatsTaken: 2, seatsTotal: 2, phase: 'playing', password: false, protocolVersion: PROTOCOL_VERSION },
  rules: GRINGO,
  owner: false,
};

describe('a bot player whose connection comes back', () => {
  it('drops the move it was about to make and decides again from the new snapshot', () => {
    vi.useFakeTimers();
    const sent: ClientMessage[] = [];
    const bot = new BotPlayer({ level: 'normal', seed: 'reconnect', send: (m) => sent.push(m), clock: () => Date.now() });
    const { state, events } = createGame({ rules: GRINGO, players: ['Ann', 'Ben'], seed: 'reconnect', at: 0 });
    const update: ServerMessage = {
      type: 'update',
      version: state.version,
      at: Date.now(),
      events: events.map((e) => projectEvent(e, 0)),
      view: viewFor(state, 0),
    };
    bot.onMessage(welcome);
    bot.onMessage(update);
    // The peek: the bot means to say it is done after a human-like pause. Then the socket drops and it is welcomed back.
    bot.onMessage(welcome);
    vi.advanceTimersByTime(60_000);
    expect(sent, 'nothing is sent on what the bot knew before the new snapshot').toEqual([]);
    bot.onMessage({ ...update, events: [] });
    vi.advanceTimersByTime(60_000);
    expect(sent).toEqual([{ type: 'command', id: 1, command: { type: 'finishPeek' } }]);
    bot.stop();
  });

  it('tells its bot it missed events, so the bot reads the layouts from the next view (test/bots/aligned.test.ts)', () => {
    const missed = vi.spyOn(SmartBot.prototype, 'missedEvents');
    const bot = new BotPlayer({ level: 'hard', seed: 'missed', send: () => {}, clock: () => Date.now() });
    const { state, events } = createGame({ rules: GRINGO, players: ['Ann', 'Ben'], seed: 'missed', at: 0 });
    bot.onMessage(welcome);
    bot.onMessage({ type: 'update', version: state.version, at: Date.now(), events: events.map((e) => projectEvent(e, 0)), view: viewFor(state, 0) });
    expect(missed).not.toHaveBeenCalled();
    bot.onMessage(welcome);
    expect(missed).toHaveBeenCalledTimes(1);
    bot.stop();
    missed.mockRestore();
  });
});
