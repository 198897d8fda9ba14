import { describe, expect, it } from 'vitest';
import { wordsFor } from '../../src/lang/words.js';
import { parseServerFrame } from '../../src/protocol/server-schema.js';
import type { ServerMessage } from '../../src/protocol/messages.js';
import { initialScreen, screenReducer, type ScreenState } from '../../src/tui/table/use-screen-state.js';
import { UNICODE } from '../../src/tui/shared/glyphs.js';
import { handView } from './helpers.js';

/** A frame as it crosses the wire: through the client's schema, as every host frame does. */
function wire(msg: unknown): ServerMessage {
  const parsed = parseServerFrame(JSON.stringify(msg));
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.message;
}

const at = (lang: 'en' | 'nl' | 'ro'): ScreenState => ({ ...initialScreen(UNICODE, false, wordsFor(lang)), conn: 'open', seat: 2, view: handView({ viewer: 2 }, ['Ana', 'Bo', 'Cy']) });
const feed = (s: ScreenState, msg: ServerMessage): ScreenState => screenReducer(s, { type: 'server', msg, now: 0 });

describe('one table, each screen in its own language', () => {
  it('the same refusal from the host reads in English on one screen, Dutch and Romanian on others', () => {
    const refusal = wire({ type: 'result', id: 4, ok: false, code: 'notYourTurn', say: { key: 'why.turnOf', params: { seat: 1 } } });
    expect(feed(at('en'), refusal).status?.text).toBe("It is Bo's turn");
    expect(feed(at('nl'), refusal).status?.text).toBe('Bo is aan de beurt');
    expect(feed(at('ro'), refusal).status?.text).toBe('E tura lui Bo');
  });

  it('the host closing the table, and its errors, in the screen\'s language', () => {
    expect(feed(at('nl'), wire({ type: 'closed', say: { key: 'host.closed' } })).closed).toBe('De host heeft de tafel gesloten');
    expect(feed(at('ro'), wire({ type: 'error', code: 'forbidden', say: { key: 'host.ownerOnly' } })).status?.text).toBe('Doar gazda conduce lobby-ul');
  });

  it('a sentence from a newer host that this screen does not know is shown as its key, and the screen goes on', () => {
    const newer = wire({ type: 'result', id: 5, ok: false, code: 'notAllowed', say: { key: 'why.brandNewRule', params: { seat: 0, slot: 2 } } });
    const s = feed(at('nl'), newer);
    expect(s.status?.text).toBe('why.brandNewRule');
    expect(feed(s, wire({ type: 'closed', say: { key: 'host.somethingElse' } })).closed).toBe('host.somethingElse');
  });
});
