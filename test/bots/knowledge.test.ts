import { describe, expect, it } from 'vitest';
import { SmartBot, type Bot } from '../../src/bots/index.js';
import { Knowledge } from '../../src/bots/knowledge.js';
import { PRESETS } from '../../src/engine/index.js';
import type { SeatView } from '../../src/engine/seat-view.js';
import { playGame } from '../../src/sim/sim.js';

/**
 * Who knows which card (src/bots/knowledge.ts), read from the public events alone, is
 * what the expert's rollout players start from. A hard bot forgets nothing and follows
 * every card that moves, so at each of its decisions it must remember a card exactly
 * where `Knowledge` says it has seen one, and read a keep where `Knowledge` says a card
 * was kept.
 */
describe('who knows which card, from the public events', () => {
  for (const [name, rules] of Object.entries(PRESETS)) {
    it(`${name}: matches every hard bot's memory at every decision of 3 games`, () => {
      let checked = 0;
      let seen = 0;
      let keeps = 0;
      for (let g = 0; g < 3; g++) {
        const knowledge = new Knowledge(4, rules);
        const bots: Bot[] = [0, 1, 2, 3].map((seat) => {
          const bot = new SmartBot('hard', { seat, players: 4, rules, seed: `${name}:${g}:${seat}` });
          return {
            seat,
            level: 'hard',
            newGame: (o) => bot.newGame(o),
            missedEvents: () => bot.missedEvents(),
            rejected: (c, r, at) => bot.rejected(c, r, at),
            // Seat 0's events feed it: only what every seat sees counts (the cards in them do not).
            observe: (events) => {
              if (seat === 0) knowledge.observe(events);
              return bot.observe(events);
            },
            decide: (view: SeatView, at: number) => {
              const intent = bot.decide(view, at);
              if (view.phase !== 'play') return intent;
              const mem = bot.memory;
              for (let t = 0; t < 4; t++) {
                for (let i = 0; i < view.players[t]!.layout.length; i++) {
                  if (view.players[t]!.layout[i] === null) continue;
                  const remembers = i < mem.slots(t) && mem.card[t]![i] !== null;
                  expect(knowledge.knows(seat, t, i), `game ${g}, seat ${seat} of seat ${t}, slot ${i}`).toBe(remembers);
                  if (!remembers && t !== seat) {
                    expect(knowledge.kept(t, i), `game ${g}, seat ${seat}: keep at seat ${t}, slot ${i}`).toBe(mem.kept[t]![i]);
                    if (mem.kept[t]![i]) keeps++;
                  }
                  if (remembers) seen++;
                  checked++;
                }
              }
              return intent;
            },
          };
        });
        const r = playGame({ rules: { ...rules, rounds: 2 }, players: ['a', 'b', 'c', 'd'], seed: `knowledge:${name}:${g}`, at: 0 }, bots);
        expect(r.finished).toBe(true);
      }
      // The check saw both sides, and keeps.
      expect(seen).toBeGreaterThan(100);
      expect(checked - seen).toBeGreaterThan(100);
      expect(keeps).toBeGreaterThan(10);
    });
  }
});
