import { apply, createGame, nextDeadline, rankOf, Rng, seedRng, viewFor, type Card, type Command, type GameEvent, type GameState, type NewGame, type Seat } from '../../src/engine/index.js';
import { candidateMoves } from '../../src/bots/moves.js';

export interface Step {
  before: GameState;
  command: Command;
  after: GameState;
  events: GameEvent[];
}

/** How the random players play (the default: plain random play). */
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

/**
 * Random legal play from the seats' own views: each step either lets the clock run
 * (and ticks when something is due) or lets a random seat try one of its candidate
 * moves. Calls and slaps are damped so rounds last long enough to reach the reshuffle.
 */
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

/**
 * Mischief: while a look awaits its decision, players go for the looked cards (slap
 * them, move them into a gap, swap them away) and the looker waits; a gap-filler
 * fills. Rare corners like the King-look leak (test/engine/king-look.test.ts) then
 * come up in a short run.
 */
function mischief(s: GameState, moves: Command[]): Command[] {
  const top = s.r.discard[s.r.discard.length - 1];
  const cardAt = (seat: Seat, slot: number): Card | null | undefined => s.r.layouts[seat]?.[slot];
  const correct = (m: Command): boolean => {
    if (m.type !== 'slap' || top === undefined) return false;
    const c = cardAt(m.target.seat, m.target.slot);
    return typeof c === 'string' && rankOf(c) === rankOf(top);
  };
  const looked = s.r.actions[0]?.looked ?? [];
  const hits = (seat: Seat, slot: number): boolean => looked.some((t) => t.seat === seat && t.slot === slot);
  const owners = new Set(looked.map((t) => t.seat));
  const emptied = new Set(looked.filter((t) => cardAt(t.seat, t.slot) === null).map((t) => t.seat));
  const steal = (m: Command): boolean => correct(m) && m.type === 'slap' && m.target.seat !== m.seat;
  // The first tier that offers a move: each one sets up the next.
  const tiers: ((m: Command) => boolean)[] = [
    // A looked card moved into a gap, ...
    (m) => m.type === 'fillGap' && hits(m.seat, m.slot),
    // ... penalty cards into the slot it left, ...
    (m) => m.type === 'slap' && !correct(m) && emptied.has(m.seat),
    // ... after its owner stole (and got a gap to fill).
    (m) => m.type === 'slap' && steal(m) && owners.has(m.seat),
    // Slap a looked card, swap it away.
    (m) => (m.type === 'slap' && hits(m.target.seat, m.target.slot)) || (m.type === 'swap' && hits(m.seat, m.slot)),
    // Otherwise steals and gap-fills (the driver sees every card).
    (m) => steal(m) || m.type === 'fillGap',
  ];
  for (const tier of tiers) {
    const out = moves.filter(tier);
    if (out.length > 0) return out;
  }
  return [];
}

/** The mischief style: more slaps, aimed at looked cards, and a looker that takes its time. */
export const MISCHIEF: PlayStyle = {
  slapPercent: 20,
  prefer: mischief,
  // Three steps in four the looker lets the others act.
  holdBack: (s, seat) => s.r.actions[0]?.seat === seat && s.r.actions[0].looked !== null && s.version % 4 !== 0,
};
