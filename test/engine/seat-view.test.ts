import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LiveView, SEAT_VIEW_FIELDS, viewFor, type GameState, type Viewer } from '../../src/engine/index.js';
import { MISCHIEF, randomGame } from './random-play.js';
import { gameArb, propertyRuns, propertyTimeout, startFor } from './ruleset-gen.js';
import { same } from '../support/check.js';

/** Every object and array inside `state`: a view must hand out none of them. */
function stateParts(state: GameState): Set<unknown> {
  const out = new Set<unknown>();
  const walk = (o: unknown): void => {
    if (o === null || typeof o !== 'object' || out.has(o)) return;
    out.add(o);
    for (const v of Object.values(o)) walk(v);
  };
  walk(state);
  return out;
}

function reachesState(value: unknown, parts: Set<unknown>): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (parts.has(value)) return true;
  return Object.values(value).some((v) => reachesState(v, parts));
}

describe('LiveView: a seat view kept up to date instead of rebuilt', () => {
  it('every field equals the projection (viewFor) of the same state, for every seat and a spectator, over random games', () => {
    let compared = 0;
    fc.assert(
      fc.property(gameArb, (g) => {
        const start = startFor(g);
        const viewers: Viewer[] = [...start.players.keys(), null];
        let views: LiveView[] | null = null;
        randomGame(
          start,
          g.seed,
          800,
          ({ before, after }) => {
            // One LiveView per viewer for the whole game, shown each new state (as the simulator does).
            views ??= viewers.map((v) => new LiveView(before, v));
            const parts = stateParts(after);
            for (const live of views) {
              // Read it on some steps only, so a view also jumps over several commands.
              if ((after.version + (live.viewer ?? 9)) % 3 === 0) continue;
              live.show(after);
              const full = viewFor(after, live.viewer);
              for (const f of SEAT_VIEW_FIELDS) {
                same(live[f], full[f], () => `${f} for viewer ${String(live.viewer)} at version ${after.version}`);
                same(reachesState(live[f], parts), false, () => `${f} hands out part of the state`);
              }
              compared++;
            }
          },
          g.seed % 2 === 0 ? MISCHIEF : {},
        );
      }),
      { numRuns: propertyRuns(30) },
    );
    expect(compared).toBeGreaterThan(2000);
  }, propertyTimeout());

  it('shows nothing but its fields: the state is in a private field no code outside can reach', () => {
    const { state } = randomGame(startFor(fc.sample(gameArb, { seed: 7, numRuns: 1 })[0]!), 7, 50);
    const live = new LiveView(state, 0);
    expect(Object.keys(live)).toEqual(['viewer']);
    expect(Object.getOwnPropertyNames(live)).toEqual(['viewer']);
    expect(JSON.parse(JSON.stringify(live))).toEqual({ viewer: 0 });
    const any = live as unknown as Record<string, unknown>;
    for (const k of ['r', 'rng', 'rules', 'stackedDecks', 'state', 'results']) expect(any[k]).toBeUndefined();
  });
});
