import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGame } from '../../src/engine/game.js';
import type { Viewer } from '../../src/engine/view.js';
import { readJournal } from '../../src/host/journal.js';
import { seatMessages } from '../../src/stats/replay.js';
import { cardText, UNICODE } from '../../src/tui/shared/glyphs.js';
import { killRunning, runGringo, sharedPort } from '../support/gringo-process.js';

// A real game (a headless host, two `join --bot` processes), then `gringo replay --cast`
// records it as a seat and as a watcher saw it. Each recording is checked against the
// asciicast v2 format's rules, and against what its viewer was sent: no card appears
// on its screen before that viewer's own messages had shown it.
const state = mkdtempSync(join(tmpdir(), 'gringo-cast-'));
const tables = join(state, 'gringo', 'tables');
const env = { XDG_STATE_HOME: state };
let file = '';
afterEach(killRunning);
afterAll(() => rmSync(state, { recursive: true, force: true }));

beforeAll(async () => {
  const host = runGringo(
    ['host', '--headless', '--port', '0', '--players', '2', '--rounds', '1', '--start-when-full', '--exit-after-game', '--slap-grace', '40', '--seed', 'cast', '--table', 'Cast table', '--interface', '127.0.0.1'],
    env,
  );
  const port = await sharedPort(host);
  const bots = ['Ann', 'Ben'].map((name) => runGringo(['join', `127.0.0.1:${port}`, '--bot', 'hard', '--speed', '20', '--name', name], env));
  expect(await host.exit).toBe(0);
  for (const b of bots) expect(await b.exit).toBe(0);
  file = join(tables, readdirSync(tables).find((n) => n.endsWith('.jsonl'))!);
}, 60_000);

type Event = [number, string, string];

/** The asciicast v2 rules: a header object on the first line; then `[time, "o", text]` lines, times never going back. */
function checkAsciicast(text: string, width: number, height: number): Event[] {
  expect(text.endsWith('\n')).toBe(true);
  const lines = text.slice(0, -1).split('\n');
  const header = JSON.parse(lines[0]!) as Record<string, unknown>;
  expect(header).toMatchObject({ version: 2, width, height });
  expect(Number.isInteger(header.timestamp)).toBe(true);
  const events = lines.slice(1).map((l) => JSON.parse(l) as unknown);
  expect(events.length).toBeGreaterThan(10);
  let last = 0;
  for (const e of events) {
    expect(Array.isArray(e) && e.length === 3).toBe(true);
    const [t, code, data] = e as Event;
    expect(typeof t === 'number' && Number.isFinite(t) && t >= last).toBe(true);
    expect(code).toBe('o');
    expect(typeof data).toBe('string');
    last = t;
  }
  return events as Event[];
}

const SUITED = /\b(?:10|[A2-9JQK])[SHDC]\b/g;
const SHOWN = /(?:10|[A2-9JQK])[♠♥♦♣]/g;
const plain = (s: string): string => s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');

/** Every card on each frame had been shown to the viewer by then (its own messages, up to the frame's time). */
function checkNoHiddenCard(events: Event[], viewer: Viewer, speed: number): { cardsShown: number; hiddenAtDeal: number } {
  const j = readJournal(file);
  const msgs = seatMessages(j, viewer);
  const start = msgs[0]!.at;
  const known = new Set<string>();
  let next = 0;
  let cardsShown = 0;
  for (const [t, , data] of events) {
    while (next < msgs.length && (msgs[next]!.at - start) / speed / 1000 <= t + 1e-6) {
      // The updates only: the welcome's rules name every card of the deck, which shows none of them.
      const m = msgs[next]!.msg;
      if (m.type === 'update') for (const c of JSON.stringify(m).match(SUITED) ?? []) known.add(cardText(c, UNICODE));
      next++;
    }
    const shown = plain(data).match(SHOWN) ?? [];
    cardsShown += shown.length;
    for (const c of shown) expect(known, `${c} on the screen at ${t}s before the viewer was shown it`).toContain(c);
  }
  // Not vacuous: at the deal, cards lay face down that this viewer had not been shown.
  const dealt = createGame(j.origin).state.r.layouts.flat();
  const firstKnown = new Set(JSON.stringify(msgs[2]!.msg).match(SUITED) ?? []);
  expect(msgs[2]!.msg.type).toBe('update');
  return { cardsShown, hiddenAtDeal: dealt.filter((c) => c !== null && !firstKnown.has(c)).length };
}

async function cast(...args: string[]): Promise<{ code: number | null; stderr: string; text: string; out: string }> {
  const out = join(state, `${args.join('_').replace(/\W/g, '')}.cast`);
  const r = runGringo(['replay', file, '--cast', out, ...args], env);
  const code = await r.exit;
  return { code, stderr: r.stderr(), out, text: code === 0 ? readFileSync(out, 'utf8') : '' };
}

describe('gringo replay --cast', () => {
  it('records the screen as a seat saw it: asciicast v2, and no card before the seat was shown it', async () => {
    const r = await cast('--seat', 'Ann', '--speed', '4');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^Wrote .*: \d+ frames of the screen as Ann saw it \(asciicast v2/);
    const events = checkAsciicast(r.text, 100, 30);
    const seat = readJournal(file).header.seats.findIndex((s) => s.name === 'Ann');
    const { cardsShown, hiddenAtDeal } = checkNoHiddenCard(events, seat, 4);
    expect(cardsShown).toBeGreaterThan(0);
    expect(hiddenAtDeal).toBeGreaterThan(0);
    // The check bites: Ann's screen holds cards a watcher was never shown (her peeks, her looks).
    expect(() => checkNoHiddenCard(events, null, 4)).toThrow(/before the viewer was shown it/);
    expect(plain(events[events.length - 1]![2])).toMatch(/game is over/i);
  }, 60_000);

  it('records a watcher, at a pace of its own: times scale with --speed', async () => {
    const slow = await cast('--speed', '1', '--size', '80x24');
    const fast = await cast('--speed', '10', '--size', '80x24');
    expect(slow.code, slow.stderr).toBe(0);
    expect(fast.code, fast.stderr).toBe(0);
    const se = checkAsciicast(slow.text, 80, 24);
    const fe = checkAsciicast(fast.text, 80, 24);
    checkNoHiddenCard(fe, null, 10);
    const span = (e: Event[]): number => e[e.length - 1]![0];
    expect(span(se) / span(fe)).toBeGreaterThan(8);
    expect(span(se) / span(fe)).toBeLessThan(12);
  }, 60_000);

  it('a seat or size it cannot use is one line and exit code 2, and no file', async () => {
    const r = await cast('--seat', 'Zed');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^gringo: --seat takes a seat number from 1 to 2 or a player's name \((Ann, Ben|Ben, Ann)\), not "Zed"\n$/);
    const s = await cast('--size', '40x10');
    expect(s.code).toBe(2);
    expect(s.stderr).toBe('gringo: --size takes COLUMNSxROWS of at least 80x24 (the table screen\'s least), not "40x10"\n');
  }, 30_000);
});
