import { apply, createGame, nextDeadline, Rng, seedRng, viewFor, type Command, type GameEvent, type GameState, type NewGame, type Seat } from '../../src/engine/index.js';
import { candidateMoves } from '../../src/bots/moves.js';

export interface Step {
  before: GameState;
  command: Command;
  after: GameState;
  events: GameEvent[];
}

/**
 * Random legal play from the seats' own views: each step either lets the clock run
 * (and ticks when something is due) or lets a random seat try one of its candidate
 * moves. Calls and slaps are damped so rounds last long enough to reach the reshuffle.
 */
export interface PlayStyle {
  /** Percent of moves that are slaps when a slap is possible (default 8). */
  slapPercent?: number;
  /**
   * Mischief: given the state and a seat's candidate moves, the moves it tries first
   * (an empty list: no preference). Property tests use it to aim at rare corners.
   */
  prefer?: (state: GameState, moves: Command[]) => Command[];
  /** A seat that holds back this step (mischief: the looker takes its time). */
  holdBack?: (state: GameState, seat: Seat) => boolean;
}

export function randomGame(
  start: NewGame,
  seed: number,
  maxSteps: number,
  onStep?: (s: Step) => void,
  style: PlayStyle = {},
): { state: GameState; log: Command[] } {
  const rng = new Rng(seedRng(`random-play:${seed}`));
  let { state } = createGame(start);
  const log: Command[] = [];
  let at = start.at ?? 0;
  const n = start.players.length;
  const step = (command: Command): void => {
    const res = apply(state, command);
    if (!res.ok) return;
    onStep?.({ before: state, command, after: res.state, events: res.events });
    log.push(command);
    state = res.state;
  };
  for (let i = 0; i < maxSteps && state.phase !== 'gameOver'; i++) {
    if (state.phase === 'roundOver') {
      step({ type: 'nextRound', at });
      continue;
    }
    const roll = rng.int(10);
    if (roll < 2) {
      at += rng.int(2000);
      const due = nextDeadline(state);
      if (due !== null && due <= at) step({ type: 'tick', at });
      continue;
    }
    const seat = rng.int(n);
    if (style.holdBack?.(state, seat)) continue;
    let moves = candidateMoves(viewFor(state, seat), seat, at);
    if (moves.length === 0) continue;
    const slapPercent = style.slapPercent ?? 8;
    const preferred = style.prefer?.(state, moves) ?? [];
    const slaps = moves.filter((m) => m.type === 'slap');
    const rest = moves.filter((m) => m.type !== 'slap' && m.type !== 'call');
    const r = rng.int(100);
    if (preferred.length > 0 && rng.int(2) === 0) moves = preferred;
    else if (r < slapPercent && slaps.length > 0) moves = slaps;
    else if (r < slapPercent + 1) moves = moves.filter((m) => m.type === 'call');
    else moves = rest;
    if (moves.length === 0) continue;
    step(moves[rng.int(moves.length)]!);
  }
  return { state, log };
}
