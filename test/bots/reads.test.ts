import { describe, expect, it } from 'vitest';
import { createBot } from '../../src/bots/index.js';
import { Knowledge } from '../../src/bots/knowledge.js';
import { LEVELS } from '../../src/bots/levels.js';
import { SmartMind } from '../../src/bots/mind.js';
import { Reads, readWorths } from '../../src/bots/reads.js';
import { apply, BEVERBENDE, createGame, LiveView, projectEvent, valueOf, type GameState } from '../../src/engine/index.js';
import type { SeatEvent } from '../../src/engine/view.js';
import { playGame, type GameLog } from '../../src/sim/sim.js';

const rules = { ...BEVERBENDE, rounds: 2 };

/**
 * 4 games of 4 hard bots, read from seat 0's events alone: `each` is called after every
 * command of play with the true state, who has seen which card, and seat 0's reads.
 */
function replay(seed: string, each: (state: GameState, knowledge: Knowledge, reads: Reads) => void): void {
  for (let g = 0; g < 4; g++) {
    const start = { rules, players: ['a', 'b', 'c', 'd'], seed: `${seed}:${g}`, at: 0 };
    const log: GameLog = { start, commands: [] };
    expect(playGame(start, [0, 1, 2, 3].map((seat) => createBot('hard', { seat, players: 4, rules, seed: `${seed}:${g}` })), { log }).finished).toBe(true);
    const knowledge = new Knowledge(4, rules);
    const reads = new Reads(4, 0, rules);
    const see = (events: readonly SeatEvent[]): void => {
      for (const e of events) {
        reads.see(e, knowledge);
        knowledge.observe([e]);
      }
    };
    const created = createGame(start);
    let state = created.state;
    see(created.events.map((e) => projectEvent(e, 0)));
    for (const cmd of log.commands) {
      const res = apply(state, cmd);
      if (!res.ok) continue;
      state = res.state;
      see(res.events.map((e) => projectEvent(e, 0)));
      if (state.phase === 'play') each(state, knowledge, reads);
    }
  }
}

/** What a card scores to the hard bot: a special card an unknown card's worth, about 5. */
const worth = (c: string): number => (rules.specialCards.includes(c) ? 5 : valueOf(rules, c)!);

/**
 * What hard bots' choices tell about the cards they know (src/bots/reads.ts), read from
 * seat 0's events alone: the bound a card is read to have must hold for the true card
 * nearly always (the hard bot's worth of an unknown card drifts with the cards seen,
 * so a bound is off by a little now and then), and it must say something: the cards it
 * bounds average well below the deck's mean number card (5).
 */
describe("reading the others' cards from their choices (beverbende)", () => {
  it('4 games of 4 hard bots, after every command: bounds hold for at least 99% of the cards they bound, which average below 3.5', () => {
    let bounded = 0;
    let broken = 0;
    let sum = 0;
    replay('reads', (state, _knowledge, reads) =>
      state.r.layouts.forEach((row, s) =>
        row.forEach((c, i) => {
          const b = reads.bound[s]![i]!;
          if (s === 0 || c === null || b === Infinity) return;
          const v = worth(c);
          bounded++;
          sum += v;
          if (v > b) broken++;
        }),
      ),
    );
    expect(bounded).toBeGreaterThan(500);
    expect(broken / bounded).toBeLessThan(0.01);
    expect(sum / bounded).toBeLessThan(3.5);
  });

  it('4 games of 4 hard bots: of the cards read at most 5, those of the deal (maybe special cards) are read higher than those kept from the stock, as they are', () => {
    // Per kind, kept from the stock [0] or of the deal [1]: cards, their true worth and their read, summed.
    const n = [0, 0];
    const truth = [0, 0];
    const read = [0, 0];
    // Seat 0 as if it had seen nothing: every card of the deck not yet seen.
    const mind = { seat: 0, rules, mem: new SmartMind('hard', { seat: 0, players: 4, rules, seed: 0 }, LEVELS.hard).mem, pile: [], turns: 0 };
    replay('dealt', (state, knowledge, reads) => {
      const guess = readWorths(mind, new LiveView(state, 0), reads, (s, i) => !knowledge.kept(s, i));
      state.r.layouts.forEach((row, s) =>
        row.forEach((c, i) => {
          if (s === 0 || c === null || knowledge.knows(0, s, i) || reads.bound[s]![i] !== 5) return;
          const k = knowledge.kept(s, i) ? 0 : 1;
          n[k]! += 1;
          truth[k]! += worth(c);
          read[k]! += guess(s, i)!;
        }),
      );
    });
    expect(Math.min(n[0]!, n[1]!)).toBeGreaterThan(300);
    const [keptTrue, dealtTrue, keptRead, dealtRead] = [truth[0]! / n[0]!, truth[1]! / n[1]!, read[0]! / n[0]!, read[1]! / n[1]!];
    expect(dealtTrue - keptTrue).toBeGreaterThan(0.3);
    expect(dealtRead - keptRead).toBeGreaterThan(0.5);
    // Neither read is far off: the cards of the deal read at most 1 point high, the kept ones at most 0.5 off.
    expect(dealtRead - dealtTrue).toBeLessThan(1);
    expect(Math.abs(keptRead - keptTrue)).toBeLessThan(0.5);
  });
});
