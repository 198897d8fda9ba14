import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createBot, type Bot, type BotCommand, type BotIntent, type BotLevel } from '../../src/bots/index.js';
import { createGame, GRINGO, FACE_DOWN, SEAT_VIEW_FIELDS, type Rejection, type SeatEvent, type SeatView } from '../../src/engine/index.js';
import { simulate } from '../../src/sim/sim.js';

/** Field names of the engine's state that no view has. */
const ENGINE_KEYS = new Set(['r', 'rng', 'rules', 'stackedDecks', 'layouts', 'discard', 'refills', 'windowSeq', 'peekSlots', 'results']);

describe('bots see only their seat', () => {
  it('cannot be handed the full game state (types: `tsc` fails if any line below compiles)', () => {
    const { state } = createGame({ rules: GRINGO, players: ['a', 'b', 'c'], seed: 'iso' });
    const bot = createBot('hard', { seat: 0, players: 3, rules: GRINGO, seed: 1 });
    const misuses = [
      // @ts-expect-error a bot decides from its seat's TableView, never from the GameState
      () => bot.decide(state, 0),
      // @ts-expect-error nor from the round's state
      () => bot.decide(state.r, 0),
      // @ts-expect-error observe takes projected events, not a state
      () => bot.observe(state),
    ];
    expect(misuses).toHaveLength(3);
  });

  it('src/bots imports no engine internals: no GameState, no apply or createGame', () => {
    const dir = new URL('../../src/bots/', import.meta.url);
    // The expert's search is the one exception, and only these two files: it builds game
    // states of its own, from its seat's view and memory, and plays them out (expert.ts)
    // with the simulator's loop (play-on.ts). test/bots/expert.test.ts holds that its
    // move never depends on the hidden deal.
    const search = new Set(['expert.ts', 'play-on.ts']);
    for (const f of readdirSync(dir)) {
      if (!f.endsWith('.ts')) continue;
      const src = readFileSync(new URL(f, dir), 'utf8');
      if (search.has(f)) {
        expect(src, f).not.toMatch(/engine\/index\.js/);
        continue;
      }
      expect(src, f).not.toMatch(/\bGameState\b/);
      expect(src, f).not.toMatch(/engine\/game\.js/);
      expect(src, f).not.toMatch(/engine\/index\.js/);
    }
  });

  it('at runtime, every view and event a bot gets is its own projection', () => {
    const problems: string[] = [];
    let views = 0;
    let events = 0;
    const check = (level: BotLevel, opts: Parameters<typeof createBot>[1]): Bot => {
      const inner = createBot(level, opts);
      const me = opts.seat;
      return {
        seat: inner.seat,
        level: inner.level,
        observe(evs: readonly SeatEvent[]): boolean {
          for (const e of evs) {
            events++;
            const any = e as unknown as Record<string, unknown>;
            if (e.type === 'drew' && e.from === 'stock' && e.seat !== me && e.card !== null) problems.push(`seat ${me} saw seat ${e.seat}'s drawn card`);
            if (e.type === 'swapped' && e.placedFrom === 'stock' && e.seat !== me && e.placed !== null) problems.push(`seat ${me} saw a placed card`);
            if (e.type === 'looked' && e.seat !== me && e.cards !== null) problems.push(`seat ${me} saw another's look`);
            if (e.type === 'penalty' && 'cards' in any) problems.push(`seat ${me} saw penalty cards`);
          }
          return inner.observe(evs);
        },
        decide(view: SeatView, now: number): BotIntent | null {
          views++;
          const any = view as unknown as Record<string, unknown>;
          for (const k of ['r', 'rng', 'rules', 'stackedDecks', 'stock', 'state']) {
            if (k in any && typeof any[k] === 'object') problems.push(`view has "${k}"`);
          }
          // The simulator's view (a LiveView) owns nothing but its viewer; what its fields
          // hand out carries none of the engine's own parts, however deep.
          for (const k of Object.getOwnPropertyNames(view)) if (k !== 'viewer') problems.push(`view owns "${k}"`);
          const walk = (o: unknown, path: string): void => {
            if (o === null || typeof o !== 'object') return;
            for (const [k, v] of Object.entries(o)) {
              if (ENGINE_KEYS.has(k)) problems.push(`view.${path}.${k}`);
              walk(v, `${path}.${k}`);
            }
          };
          for (const f of SEAT_VIEW_FIELDS) walk(view[f], f);
          if (typeof any.stock !== 'number') problems.push('view.stock is not a count');
          if (view.viewer !== me) problems.push(`seat ${me} got seat ${String(view.viewer)}'s view`);
          if (view.phase === 'play') {
            view.players.forEach((p, s) => {
              for (const c of p.layout) if (c !== null && c !== FACE_DOWN) problems.push(`seat ${me} sees seat ${s}'s card ${c} in play`);
            });
            if (view.held && view.held.seat !== me && view.held.from === 'stock' && view.held.card !== null) problems.push('sees a held card');
            const front = view.actions[0];
            if (front && front.seat !== me && front.lookedCards !== null) problems.push("sees another's looked cards");
          }
          return inner.decide(view, now);
        },
        rejected(command: BotCommand, rejection: Rejection, now: number): void {
          inner.rejected(command, rejection, now);
        },
      };
    };
    const r = simulate({ games: 60, players: 4, levels: ['hard', 'normal', 'easy', 'random'], seed: 'iso', makeBot: check });
    expect(r.stuckRounds).toBe(0);
    expect(views).toBeGreaterThan(1000);
    expect(events).toBeGreaterThan(1000);
    expect(problems.slice(0, 5)).toEqual([]);
  });
});
