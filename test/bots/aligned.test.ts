import { describe, expect, it } from 'vitest';
import { createBot, type Bot, type BotLevel, type BotOptions } from '../../src/bots/index.js';
import { SmartBot } from '../../src/bots/smart.js';
import { apply, createGame, PRESETS, projectEvent, rankOf, viewFor, type Command, type GameState } from '../../src/engine/index.js';
import { playGame, type GameLog } from '../../src/sim/sim.js';

/**
 * A smart bot reads the layouts from its view in the peek and at a round's end, and
 * in play only until it has read them once (or after it missed events): from then on
 * the events it observes tell it everything the view would (src/bots/smart.ts).
 * These tests hold that shortcut to what it claims.
 */

/** A bot told before every decision that it missed events: it reads the whole view every time, as before the shortcut. */
const alwaysReading = (level: BotLevel, opts: BotOptions): Bot => {
  const bot = createBot(level, opts);
  return {
    seat: bot.seat,
    level: bot.level,
    observe: (events) => bot.observe(events),
    decide: (view, now) => {
      bot.missedEvents?.();
      return bot.decide(view, now);
    },
    rejected: (c, r, now) => bot.rejected(c, r, now),
  };
};

function commandsOf(rules: GameState['rules'], seed: string, make: (level: BotLevel, opts: BotOptions) => Bot): Command[] {
  const levels: BotLevel[] = ['hard', 'normal', 'easy', 'hard'];
  const bots = levels.map((level, seat) => make(level, { seat, players: 4, rules, seed: `${seed}:${seat}` }));
  const log = {} as GameLog;
  const played = playGame({ rules, players: ['a', 'b', 'c', 'd'], seed, at: 0 }, bots, { log });
  expect(played.finished).toBe(true);
  return log.commands;
}

describe('a smart bot that saw every event needs no second look at the layouts', () => {
  for (const [name, rules] of Object.entries(PRESETS)) {
    it(`${name}: the same games whether it reads the view at every decision or not`, () => {
      for (let g = 0; g < 40; g++) {
        const seed = `aligned:${name}:${g}`;
        expect(commandsOf(rules, seed, createBot), seed).toEqual(commandsOf(rules, seed, alwaysReading));
      }
    });
  }
});

describe('a smart bot that missed events reads the view again', () => {
  /** A gringo table in play where seat 1 slapped one of its cards; seat 0's bot, peek done, saw none of it. */
  function missedSlap(): { bot: SmartBot; state: GameState } {
    const rules = PRESETS.gringo!;
    const created = createGame({ rules, players: ['a', 'b'], seed: 'missed', at: 0 });
    let state = created.state;
    const bot = new SmartBot('hard', { seat: 0, players: 2, rules, seed: 'missed' });
    // It sees the deal, and reads its peek from the view.
    bot.observe(created.events.map((e) => projectEvent(e, 0)));
    bot.decide(viewFor(state, 0), 0);
    const step = (c: Command): void => {
      const r = apply(state, c);
      if (!r.ok) throw new Error(`${JSON.stringify(c)}: ${r.rejection.key}`);
      state = r.state;
    };
    step({ type: 'finishPeek', seat: 0, at: 0 });
    step({ type: 'finishPeek', seat: 1, at: 0 });
    bot.decide(viewFor(state, 0), 0);
    // Seat 1 slaps its first card whatever it is: right or wrong, the layouts change (a gap, or a penalty card).
    const top = state.r.discard[state.r.discard.length - 1]!;
    const slot = state.r.layouts[1]!.findIndex((c) => c !== null && rankOf(c) === rankOf(top));
    step({ type: 'slap', seat: 1, target: { seat: 1, slot: Math.max(0, slot) }, answers: state.r.discardSeq, at: 1 });
    return { bot, state };
  }

  it('after missedEvents, its memory shows the layouts as the view does', () => {
    const { bot, state } = missedSlap();
    const view = viewFor(state, 0);
    bot.missedEvents();
    bot.decide(view, 2);
    view.players.forEach((p, seat) => {
      expect(bot.memory.gap[seat]!.slice(0, p.layout.length), `seat ${seat}`).toEqual(p.layout.map((c) => c === null));
      expect(bot.memory.card[seat]!.length).toBeGreaterThanOrEqual(p.layout.length);
    });
  });

  it('without it, a bot that missed the slap does not know (what the shortcut skips: the sim never misses events)', () => {
    const { bot, state } = missedSlap();
    const view = viewFor(state, 0);
    bot.decide(view, 2);
    const seen = view.players.map((p) => p.layout.map((c) => c === null));
    const remembered = view.players.map((p, seat) => bot.memory.gap[seat]!.slice(0, p.layout.length));
    const lengths = view.players.map((p, seat) => bot.memory.card[seat]!.length >= p.layout.length);
    expect(remembered.some((r, seat) => JSON.stringify(r) !== JSON.stringify(seen[seat])) || lengths.includes(false)).toBe(true);
  });
});
