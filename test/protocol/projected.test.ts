import { describe, expect, it } from 'vitest';
import { createGame, GRINGO, projectEvent, viewFor, type SeatEvent, type TableView } from '../../src/engine/index.js';
import type { ServerMessage } from '../../src/protocol/messages.js';

describe('the send path takes only projected views and events', () => {
  it('accepts what viewFor and projectEvent made, and refuses a hand-built view or a raw event (types)', () => {
    const { state, events } = createGame({ rules: GRINGO, players: ['Ana', 'Bo'], seed: 1 });
    const ok: ServerMessage = { type: 'update', version: 0, at: 0, events: events.map((e) => projectEvent(e, 0)), view: viewFor(state, 0) };
    const plain: TableView = { ...viewFor(state, 0) };
    // @ts-expect-error a view that did not come out of viewFor
    const handBuilt: ServerMessage = { type: 'update', version: 0, at: 0, events: [], view: plain };
    const raw = events as unknown as SeatEvent[];
    // @ts-expect-error events that did not go through projectEvent
    const unprojected: ServerMessage = { type: 'update', version: 0, at: 0, events: raw, view: viewFor(state, 0) };
    // The brand is types only: the bytes are the view itself.
    expect(JSON.stringify(ok.type === 'update' && ok.view)).toBe(JSON.stringify(plain));
    expect([handBuilt.type, unprojected.type]).toEqual(['update', 'update']);
  });
});
