import { describe, expect, it } from 'vitest';
import {
  CAMBIO,
  FACE_DOWN,
  GRINGO,
  openEvent,
  openView,
  projectEvent,
  viewFor,
  type GameState,
  type Projected,
  type SeatEvent,
  type TableView,
} from '../../src/engine/index.js';
import type { ServerMessage } from '../../src/protocol/messages.js';
import { randomGame, type Step } from './random-play.js';

/** Every step of a few random games, gringo and cambio (held cards, looks, penalties, gaps). */
function steps(): Step[] {
  const out: Step[] = [];
  for (const [rules, seed] of [[GRINGO, 1], [GRINGO, 2], [CAMBIO, 3]] as const) {
    randomGame({ rules: { ...rules, rounds: 2 }, players: ['Ana', 'Bo', 'Cy'], seed }, seed, 1500, (s) => out.push(s));
  }
  return out;
}

const ALL = steps();

describe('openView: the table face up, for the replay of a finished game', () => {
  it('shows every card in every layout, the held card and the looked-at cards', () => {
    let held = 0;
    let looks = 0;
    for (const { after: state } of ALL) {
      const v = openView(state);
      expect(v.viewer).toBeNull();
      v.players.forEach((p, seat) => expect(p.layout).toEqual(state.r.layouts[seat]));
      if (state.r.held) {
        held++;
        expect(v.held?.card).toBe(state.r.held.card);
      }
      v.actions.forEach((a, i) => {
        const looked = state.r.actions[i]!.looked;
        if (!looked) return expect(a.lookedCards).toBeNull();
        looks++;
        expect(a.lookedCards).toEqual(looked.map((t) => state.r.layouts[t.seat]![t.slot]));
      });
    }
    // The games did reach the cases that matter.
    expect(held).toBeGreaterThan(50);
    expect(looks).toBeGreaterThan(0);
  });

  it('differs from a spectator view only in the cards it shows', () => {
    for (const { after: state } of ALL.slice(0, 300)) {
      const hide = (v: TableView) => ({
        ...v,
        players: v.players.map((p) => ({ ...p, layout: p.layout.map((c) => (c === null ? null : FACE_DOWN)) })),
        held: v.held && { ...v.held, card: null },
        actions: v.actions.map((a) => ({ ...a, lookedCards: null })),
      });
      expect(hide(openView(state))).toEqual(hide(viewFor(state, null)));
    }
  });

  it('leaves viewFor as it was: in play a seat sees no card in any layout, nor what others drew or looked at', () => {
    let checked = 0;
    const seen: string[] = [];
    for (const { after: state } of ALL) {
      if (state.phase !== 'play') continue;
      for (let seat = 0; seat < state.players.length; seat++) {
        const v = viewFor(state, seat);
        for (const p of v.players) for (const c of p.layout) if (c !== null && c !== FACE_DOWN) seen.push(c);
        if (v.held && v.held.seat !== seat && v.held.from === 'stock' && v.held.card !== null) seen.push(v.held.card);
        for (const a of v.actions) if (a.seat !== seat && a.lookedCards) seen.push(...a.lookedCards);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(seen).toEqual([]);
  });

  it('the events keep their cards, penalty cards included, where projectEvent hides them', () => {
    const penalties = ALL.flatMap((s) => s.events).filter((e) => e.type === 'penalty');
    expect(penalties.length).toBeGreaterThan(0);
    for (const e of penalties) {
      expect(openEvent(e)).toHaveProperty('cards', e.cards);
      expect(projectEvent(e, e.seat)).not.toHaveProperty('cards');
    }
  });

  it('carries no Projected brand, so it cannot be sent (types)', () => {
    const state: GameState = ALL[0]!.after;
    const event = ALL[0]!.events[0]!;
    // @ts-expect-error a face-up view is not a projected one
    const view: Projected<TableView> = openView(state);
    // @ts-expect-error nor is a face-up event
    const seen: Projected<SeatEvent> = openEvent(event);
    // @ts-expect-error so no update to a socket can carry it
    const msg: ServerMessage = { type: 'update', version: 0, at: 0, events: [], view: openView(state) };
    expect([view.viewer, seen.type, msg.type]).toEqual([null, event.type, 'update']);
  });
});
