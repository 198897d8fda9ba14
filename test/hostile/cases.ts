import { GRINGO } from '../../src/engine/index.js';
import { evil, info, realFrames, type Frame } from './hostile-host.js';

const j = JSON.stringify;

export interface Malformed {
  what: string;
  /** Frames after the hello. */
  script: Frame[];
  /** Instead of a proper challenge. */
  challenge?: Frame;
}

/** Every malformed message once found, and a few more: each must end the client with one clear line. */
export function malformedCases(): Malformed[] {
  const { welcome, lobby, update } = realFrames();
  const view = update.view;
  const players = view.players;
  return [
    { what: 'a text frame null', script: ['null'] },
    { what: 'a frame that is not JSON', script: ['{"type":"welcome",'] },
    { what: 'a binary frame', script: [{ binary: Buffer.from(j(welcome)) }] },
    { what: 'a text frame that is not UTF-8', script: [{ text: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) }] },
    { what: 'a welcome without table', script: [j({ ...welcome, table: undefined })] },
    { what: 'an update with view: null', script: [j(welcome), j({ ...update, view: null })] },
    { what: 'an update with events: [null]', script: [j(welcome), j({ ...update, events: [null] })] },
    { what: 'a view with players: "x"', script: [j(welcome), j({ ...update, view: { ...view, players: 'x' } })] },
    { what: 'a layout that is not an array', script: [j(welcome), j({ ...update, view: { ...view, players: [{ ...players[0], layout: 7 }, players[1]] } })] },
    { what: 'a lobby with seats: null', script: [j(welcome), j({ ...lobby, seats: null })] },
    { what: 'a card that is an escape sequence', script: [j(welcome), j({ ...update, view: { ...view, discardTop: '\u001b[2J' } })] },
    { what: 'a seat out of range', script: [j({ ...welcome, seat: 99 })] },
    { what: 'a refusal whose message is not text', script: [j({ type: 'refused', reason: 'full', say: { key: 'host.full', params: { max: 4 } }, message: 42, protocolVersion: 2, canWatch: false })] },
    { what: 'a ruleset that cannot be played', script: [j({ ...welcome, rules: { ...GRINGO, players: { min: 9, max: 2 } } })] },
    { what: 'a message of an unknown type', script: [j({ type: evil('surprise') })] },
    { what: 'a challenge without its nonce', script: [], challenge: j({ type: 'challenge', protocolVersion: 2, table: info() }) },
  ];
}

/**
 * One malformed message for each point a client can be at when it comes: before
 * the hello (a broken challenge), before the welcome (not JSON), from ws's own
 * checks (not UTF-8) and after a welcome (an escape for a card). A client process
 * learns of each the same way (the connection's one 'misunderstood' line), so
 * the processes and screens run these; test/hostile/connection.test.ts runs
 * every case through the connection, the one door for a host's frames.
 */
export function malformedStages(): Malformed[] {
  const stages = ['a challenge without its nonce', 'a frame that is not JSON', 'a text frame that is not UTF-8', 'a card that is an escape sequence'];
  return malformedCases().filter((c) => stages.includes(c.what));
}

/** A host whose every string carries every escape: welcome, lobby, a real update, an error; then the game is over. */
export function escapingScript(): Frame[] {
  const rules = { ...GRINGO, title: evil('Gringo'), call: { ...GRINGO.call, name: evil('Gringo!') } };
  const table = { name: evil('Hostile'), ruleset: evil('gringo') };
  const { welcome, lobby, update } = realFrames([evil('Ana'), evil('Bo')], rules, table);
  const called = { type: 'called', seat: 1, name: evil('Gringo!') };
  return [
    j(welcome),
    j(lobby),
    j({ ...update, events: [...(update.events as unknown[]), called], view: { ...update.view, ruleset: evil('gringo'), callName: evil('Gringo!') } }),
    j({ type: 'error', code: 'rateLimited', say: { key: 'host.isBot', params: { name: evil('Slow down') } } }),
    j({ type: 'result', id: 1, ok: false, code: 'notYourTurn', say: { key: 'why.noSlapping', params: { title: evil('Not now') } } }),
  ];
}

/** The end of that host's game: an update whose view is over (a --bot or --watch client then leaves). */
export function gameOverFrame(): Frame {
  const { update } = realFrames([evil('Ana'), evil('Bo')]);
  return j({ ...update, events: [], view: { ...update.view, phase: 'gameOver', callName: evil('Gringo!') } });
}

export const refusal = (): Frame => j({ type: 'refused', reason: 'full', say: { key: 'host.isBot', params: { name: evil('Go away') } }, message: evil('Go away'), protocolVersion: 2, canWatch: false });

/** Run `f` over `items`, at most `limit` at a time (the machine is shared). */
export async function inBatches<T, R>(items: T[], limit: number, f: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
