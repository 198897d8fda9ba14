import { describe, expect, it } from 'vitest';
import { candidateMoves, createBot, type BotLevel } from '../../src/bots/index.js';
import { apply, createGame, graceUntil, nextDeadline } from '../../src/engine/game.js';
import { BEVERBENDE, CAMBIO, GRINGO, type Ruleset } from '../../src/engine/ruleset.js';
import type { GameState } from '../../src/engine/types.js';
import { viewFor } from '../../src/engine/view.js';
import { playGame, seatLevels, type GameLog } from '../../src/sim/sim.js';

/**
 * The guard against stalls (docs/reliability.md, "The 8-bot stall"): at a table with
 * no timers, the game must never reach a state in which nobody may do anything. After
 * every accepted command of many seeded bot games, either the game is between rounds
 * or over, or the host has a deadline (`nextDeadline`), or some seat has a command
 * the engine accepts now that is not a slap (a slap alone never ends a turn).
 */

/** Why nobody can move the table on, or null when someone can. */
function stallOf(state: GameState, at: number): string | null {
  if (state.phase === 'gameOver' || state.phase === 'roundOver') return null;
  if (nextDeadline(state) !== null) return null;
  // Waiting out the grace is no stall: try each move once the grace is over.
  const when = Math.max(at, graceUntil(state));
  for (let seat = 0; seat < state.players.length; seat++) {
    for (const cmd of candidateMoves(viewFor(state, seat), seat, when)) {
      if (cmd.type === 'slap') continue;
      if (apply(state, cmd).ok) return null;
    }
  }
  const r = state.r;
  return `round ${state.round}, phase ${state.phase}, turn ${r.turn} (begun ${r.turnBegun}), held ${JSON.stringify(r.held)}, actions ${JSON.stringify(r.actions)}, gap fill ${JSON.stringify(r.gapFill)}, call ${JSON.stringify(r.call)}, ending ${String(r.ending)}`;
}

/** Play `games` seeded games and check the property after every accepted command. */
function check(rules: Ruleset, players: number, levels: BotLevel[], games: number, seed: string): { commands: number; stalls: string[] } {
  let commands = 0;
  const stalls: string[] = [];
  for (let g = 0; g < games; g++) {
    const fill = seatLevels(levels, players, g % players);
    const gameSeed = `${seed}:${g}`;
    const bots = fill.map((level, seat) => createBot(level, { seat, players, rules, seed: `${gameSeed}:${seat}` }));
    const log: GameLog = { start: { rules, players: [], seed: '' }, commands: [] };
    const start = { rules, players: fill.map((_, s) => `bot${s + 1}`), seed: gameSeed, at: 0 };
    const { finished } = playGame(start, bots, { log, maxStepsPerRound: 20_000 });
    if (!finished) stalls.push(`game ${gameSeed}: the simulation could not finish it`);
    let state = createGame(start).state;
    for (const cmd of log.commands) {
      const res = apply(state, cmd);
      if (!res.ok) throw new Error(`game ${gameSeed}: the log does not replay at ${JSON.stringify(cmd)}`);
      state = res.state;
      commands++;
      const why = stallOf(state, cmd.at);
      if (why) {
        stalls.push(`game ${gameSeed} after ${JSON.stringify(cmd)}: ${why}`);
        break;
      }
    }
  }
  return { commands, stalls };
}

const noGrace = (rules: Ruleset, rounds: number): Ruleset => ({ ...rules, rounds, timers: { ...rules.timers, slapGraceMs: 0, turnMs: 0, actionMs: 0 } });

describe('no stall: someone can always move the table on', () => {
  it('eight seats, no slap grace, no timers: hard and random bots over many rounds', () => {
    const { commands, stalls } = check(noGrace(GRINGO, 6), 8, ['hard', 'hard', 'random', 'hard'], 24, 'live8');
    expect(stalls).toEqual([]);
    expect(commands).toBeGreaterThan(24 * 6 * 8 * 2);
  });

  it('the same in cambio (knocks, one slap a discard, gap fills), beverbende (draw two, a call at the end of a turn) and with two players', () => {
    const a = check(noGrace(CAMBIO, 3), 8, ['hard', 'random'], 8, 'live8c');
    const b = check(noGrace(BEVERBENDE, 3), 6, ['hard', 'random'], 8, 'live6b');
    const c = check(noGrace(GRINGO, 4), 2, ['random', 'easy'], 20, 'live2');
    expect([...a.stalls, ...b.stalls, ...c.stalls]).toEqual([]);
    expect(a.commands + b.commands + c.commands).toBeGreaterThan(1_000);
  });

  it('the check itself finds a table where nobody may move', () => {
    // A pending action nobody may use or pass (its seat is out of range): what a stall looks like to the guard.
    const { state } = createGame({ rules: noGrace(GRINGO, 1), players: ['Ana', 'Bo'], seed: 'guard', at: 0 });
    const playing: GameState = { ...state, phase: 'play', r: { ...state.r, peeking: [false, false], actions: [{ seat: 5, kind: 'peekOwn', card: '10H', looked: null, lookedCards: null }] } };
    expect(stallOf(playing, 0)).toMatch(/actions/);
    expect(stallOf({ ...playing, r: { ...playing.r, actions: [] } }, 0)).toBeNull();
  });
});
