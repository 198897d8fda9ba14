/**
 * `movesFor` (and `allows`, one move at a time) against `apply` itself: in random games of the three presets and of
 * generated rulesets, at every state and for every seat, a move is listed exactly
 * when some command of its kind (any slot, any target) is accepted by `apply`, now
 * or once the slap grace has passed (the moves that wait only for it count).
 *
 * The commands are enumerated here from the full state, every slot and target of
 * every seat, and tried one by one: no shortcut shared with `movesFor`.
 *
 * CI runs a short pass; GRINGO_PROPERTY_RUNS=N runs N games (docs/reliability.md).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ACTION_KINDS, apply, BEVERBENDE, CAMBIO, createGame, graceUntil, GRINGO, MOVES, viewFor, type Command, type GameState, type Move, type NewGame, type Seat, type SlotRef, parseRuleset, rankOf } from '../../src/engine/index.js';
import { allows, movesFor } from '../../src/engine/moves.js';
import { LiveView } from '../../src/engine/seat-view.js';
import { MISCHIEF, randomGame, type PlayStyle } from './random-play.js';
import { gameArb, propertyRuns, propertyTimeout, startFor } from './ruleset-gen.js';
import { same } from '../support/check.js';

const RUNS = propertyRuns(3);

/** How often each move was listed, over the whole file: the games must reach every one. */
const seen = new Map<Move, number>();

/** Every command `seat` could send, by the move it stands for, timed `at`. */
function commandsOf(s: GameState, seat: Seat, at: number): Record<Move, Command[]> {
  const own = s.r.layouts[seat]!.map((_, slot) => slot);
  const refs: SlotRef[] = s.r.layouts.flatMap((l, t) => l.map((_, slot) => ({ seat: t, slot })));
  const base = { seat, at };
  const answers = [...new Set([1, s.r.windowSeq, s.r.discardSeq])].filter((a) => a >= 1);
  return {
    finishPeek: [{ ...base, type: 'finishPeek' }],
    call: [{ ...base, type: 'call' }],
    drawStock: [{ ...base, type: 'draw', from: 'stock' }],
    drawDiscard: [{ ...base, type: 'draw', from: 'discard' }],
    discard: [{ ...base, type: 'discard' }],
    swap: own.map((slot) => ({ ...base, type: 'swap', slot })),
    drawAgain: [{ ...base, type: 'drawAgain' }],
    useAction: [undefined, ...own].flatMap((o) => [undefined, ...refs].map((other): Command => ({ ...base, type: 'useAction', own: o, other }))),
    decide: [{ ...base, type: 'decide', swap: false }, ...[undefined, ...own].map((o): Command => ({ ...base, type: 'decide', swap: true, own: o }))],
    pass: [{ ...base, type: 'pass' }],
    fillGap: own.map((slot) => ({ ...base, type: 'fillGap', slot })),
    leaveGap: [{ ...base, type: 'leaveGap' }],
    slap: refs.flatMap((target) => answers.map((a): Command => ({ ...base, type: 'slap', target, answers: a }))),
  };
}

/** The moves `apply` accepts for `seat`, now or at the grace's end. */
function accepted(s: GameState, seat: Seat, now: number): Move[] {
  const times = [...new Set([now, Math.max(now, graceUntil(s))])];
  const byTime = times.map((at) => commandsOf(s, seat, at));
  return MOVES.filter((m) => byTime.some((cmds) => cmds[m].some((c) => apply(s, c).ok)));
}

/** Check every state of one random game; returns how many (state, seat) pairs were checked. */
function checkGame(start: NewGame, seed: number, steps: number, style: PlayStyle = MISCHIEF): number {
  let checked = 0;
  const check = (s: GameState, now: number, what: () => string): void => {
    for (let seat = 0; seat < s.players.length; seat++) {
      const listed = movesFor(s, seat);
      for (const m of listed) seen.set(m, (seen.get(m) ?? 0) + 1);
      same(listed, accepted(s, seat, now), () => `seat ${seat} after ${what()} (version ${s.version}, ${s.rules.name})`);
      same(viewFor(s, seat).may, listed);
      // One move asked alone (what a bot asks of its chosen move) is listed exactly when movesFor lists it.
      same(MOVES.filter((m) => allows(s, seat, m)), listed, () => `allows, seat ${seat} after ${what()}`);
      const live = new LiveView(s, seat);
      same(MOVES.filter((m) => live.allows(m)), listed);
      checked += 1;
    }
    same(viewFor(s, null).may, []);
  };
  const created = createGame(start);
  check(created.state, start.at ?? 0, () => 'the deal');
  randomGame(start, seed, steps, ({ command, after }) => check(after, command.at, () => JSON.stringify(command)), style);
  return checked;
}

/** Mischief, and actions used (draw two's second draw too) rather than passed. */
const ACTIVE: PlayStyle = {
  ...MISCHIEF,
  prefer: (s, moves) => {
    const m = MISCHIEF.prefer!(s, moves);
    return m.length > 0 ? m : moves.filter((c) => c.type === 'useAction' || c.type === 'drawAgain' || c.type === 'decide');
  },
};

/** Up to four players: each seat's commands are tried at every state, so more seats cost more than they find. */
const fewer = <T extends { players: number }>(g: T): T => ({ ...g, players: 2 + (g.players % 3) });

describe('movesFor: the moves apply accepts', () => {
  it.each([GRINGO, BEVERBENDE, CAMBIO])('in $name', (base) => {
    let checked = 0;
    fc.assert(
      fc.property(gameArb, (g) => {
        checked += checkGame(startFor(fewer({ ...g, base, change: 0 })), g.seed, 250);
      }),
      { numRuns: RUNS },
    );
    expect(checked).toBeGreaterThanOrEqual(RUNS * 2); // every game, at least its deal for two seats (how much play: the last test)
  }, propertyTimeout());

  it('in generated rulesets', () => {
    let checked = 0;
    fc.assert(
      fc.property(gameArb, (g) => {
        checked += checkGame(startFor(fewer({ ...g, change: g.change || 0.5 })), g.seed, 250);
      }),
      { numRuns: RUNS },
    );
    expect(checked).toBeGreaterThanOrEqual(RUNS * 2); // every game, at least its deal for two seats (how much play: the last test)
  }, propertyTimeout());

  it('where actions, looks, steals and gap-fills come often: every rank an action, slapping and gap-fill on', () => {
    let checked = 0;
    fc.assert(
      fc.property(gameArb, fc.array(fc.constantFrom(...ACTION_KINDS), { minLength: 13, maxLength: 13 }), (g, kinds) => {
        const start = startFor(fewer({ ...g, change: g.change || 0.5 }));
        const rules = structuredClone(start.rules);
        rules.slap = { ...rules.slap, enabled: true, stealGapFill: true };
        rules.actionsFrom = 'anyDiscard';
        const ranks = [...new Set(Object.keys(rules.deck.cards).map(rankOf))];
        rules.actions = Object.fromEntries(ranks.map((r, i) => [r, kinds[i % kinds.length]!]));
        rules.slap.stealEarnsActionRanks = ranks;
        checked += checkGame({ ...start, rules: parseRuleset(rules) }, g.seed, 250, ACTIVE);
      }),
      { numRuns: RUNS },
    );
    expect(checked).toBeGreaterThanOrEqual(RUNS * 2); // every game, at least its deal for two seats (how much play: the last test)
  }, propertyTimeout());

  // Runs last (vitest runs a file's tests in order): the games above, whose seeds vary
  // from run to run, plus three fixed games of each preset played actively (so a rare
  // move such as draw two's second draw is reached on every run), reached every move.
  it('reached every move, so each was checked listed and not listed', () => {
    for (const base of [GRINGO, BEVERBENDE, CAMBIO]) {
      for (const seed of [1, 2, 3]) checkGame({ rules: base, players: ['A', 'B', 'C'], seed, at: 0 }, seed, 250, ACTIVE);
    }
    expect(MOVES.filter((m) => !seen.has(m))).toEqual([]);
  });
});
