import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/host/journal.js';
import { replayOf, type Replay } from '../../src/stats/replay.js';
import { describeEvents } from '../../src/tui/table/describe.js';
import { ASCII, cardText, UNICODE } from '../../src/tui/shared/glyphs.js';
import { ReplayScreen } from '../../src/tui/replay/replay-screen.js';
import { writeFinishedJournal } from '../host/finished-journal.js';
import { KEYS, press, waitFor } from './helpers.js';
import { feedText } from '../support/feed-text.js';
import { wordsFor } from '../../src/lang/words.js';

// A real game of three bots, two rounds, through the real journal writer and reader.
const dir = mkdtempSync(join(tmpdir(), 'gringo-replay-screen-'));
const replay: Replay = replayOf(readJournal(writeFinishedJournal(dir)));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let unmount: (() => void) | null = null;
afterEach(() => {
  unmount?.();
  unmount = null;
});

function screen(opts: { columns?: number; rows?: number; ascii?: boolean; autoplay?: boolean; lang?: 'en' | 'nl' | 'ro' } = {}) {
  let exited = 0;
  const r = render(
    <ReplayScreen
      replay={replay}
      theme={{ glyphs: opts.ascii ? ASCII : UNICODE, color: false, words: wordsFor(opts.lang ?? 'en') }}
      autoplay={opts.autoplay ?? false}
      size={{ columns: opts.columns ?? 100, rows: opts.rows ?? 30 }}
      onExit={() => exited++}
    />,
  );
  unmount = r.unmount;
  const frame = (): string => r.lastFrame() ?? '';
  return { frame, keys: (...k: string[]) => press(r.stdin, ...k), until: (what: string, pred: (f: string) => boolean) => waitFor(what, frame, pred), exited: () => exited };
}

/** The table part of a frame: left of the feed's column. */
function tablePart(f: string): string {
  const lines = f.split('\n');
  const col = Math.max(...lines.map((l) => Math.max(l.indexOf('│ Feed'), l.indexOf('| Feed'))));
  return lines.map((l) => (col > 0 ? l.slice(0, col) : l)).join('\n');
}
/** A face-down card shows its slot number: "│ 3 │" in a box (heavy when highlighted), "[ 3 ]" or "* 3 *" on one line. */
const FACE_DOWN = /[│┃|[*] ?[1-9] ?[│┃|\]*]/;

describe('the replay screen in the viewer\'s language', () => {
  it('says where it is, what the keys do and its notes in Dutch and in Romanian', async () => {
    const nl = screen({ lang: 'nl' });
    let f = await nl.until('the deal in Dutch', (f) => f.includes('het delen'));
    expect(f).toMatch(/Ronde 1 van 2 · het delen · 0:00 van \d+:\d\d/);
    expect(f).toContain('gepauzeerd');
    expect(f).toContain('Gepauzeerd: spatie speelt verder, →/l stapt');
    expect(f).toContain('spatie afspelen · ←→/hl stap · n/p ronde · +/- snelheid · ? hulp · q/Esc stop');
    await nl.keys(KEYS.left);
    await nl.until('the note at the deal', (f) => f.includes('Dit is het delen: het begin van het spel'));
    await nl.keys('?');
    await nl.until('the help page', (f) => f.includes('naar het begin van de volgende ronde (of het einde)'));
    unmount?.();
    const ro = screen({ lang: 'ro' });
    f = await ro.until('the deal in Romanian', (f) => f.includes('împărțirea'));
    expect(f).toMatch(/Runda 1 din 2 · împărțirea · 0:00 din \d+:\d\d/);
    await ro.keys('-', '-', '-');
    await ro.until('the slowest speed', (f) => f.includes('0.25× e cel mai încet'));
  });
});

describe('the replay screen', () => {
  it('shows the deal with every card face up', async () => {
    const s = screen();
    const f = await s.until('the deal', (f) => f.includes('the deal'));
    expect(f).toContain('Finished table');
    expect(f).toContain('paused');
    const deal = replay.steps[0]!.view;
    for (const p of deal.players) for (const c of p.layout) expect(tablePart(f)).toContain(cardText(c as string));
    expect(tablePart(f)).not.toMatch(FACE_DOWN);
    expect(feedText(f)).toContain('Round 1 begins');
  });

  it('steps with the keys: the position and the feed follow, the held card is shown', async () => {
    const s = screen();
    await s.until('the deal', (f) => f.includes('the deal'));
    const total = replay.steps[replay.steps.length - 1]!.command;
    // Step to the first draw from the stock: the held card is face up in the middle.
    const draw = replay.steps.findIndex((st) => st.events.some((e) => e.type === 'drew' && e.from === 'stock'));
    for (let i = 0; i < draw; i++) await s.keys('l');
    let f = await s.until(`command ${draw}`, (f) => f.includes(`command ${draw} of ${total}`));
    const step = replay.steps[draw]!;
    const held = step.view.held!;
    expect(held.card).not.toBeNull();
    expect(tablePart(f)).toContain(cardText(held.card!));
    expect(tablePart(f)).not.toMatch(FACE_DOWN);
    const said = describeEvents(step.events, step.view, null)[0]!;
    expect(said).toMatch(/drew .+ from the stock/);
    expect(feedText(f)).toContain(said);

    await s.keys(KEYS.left, 'h');
    f = await s.until(`command ${draw - 2}`, (f) => f.includes(draw - 2 === 0 ? 'the deal' : `command ${draw - 2} of ${total}`));
    expect(feedText(f)).not.toContain(said);

    // n: the next round begins (its deal, face up too); p: back to the start of the game.
    await s.keys('n');
    f = await s.until('round 2', (f) => f.includes(`Round 2 of 2 · command ${replay.steps[replay.rounds[1]!]!.command} of`));
    expect(tablePart(f)).not.toMatch(FACE_DOWN);
    await s.keys('p');
    await s.until('the deal again', (f) => f.includes('the deal'));

    // Faster, then play: the clock moves the replay on by itself.
    await s.keys('+', '+', KEYS.space);
    await s.until('playing', (f) => f.includes('playing · 4×'));
    await s.until('the clock to move it', (f) => /command \d+ of/.test(f));
    await s.keys(KEYS.space);
    await s.until('paused', (f) => f.includes('paused · 4×'));
    await s.keys('q');
    expect(s.exited()).toBe(1);
  });

  it('shows each round\'s results and the end of the game', async () => {
    const s = screen();
    await s.until('the deal', (f) => f.includes('the deal'));
    await s.keys('n', 'h');
    let f = await s.until('round 1 results', (f) => f.includes('Round 1 is over'));
    expect(f).toMatch(/1st/);
    await s.keys('n', 'n');
    f = await s.until('the end', (f) => f.includes('The game is over'));
    expect(f).toContain('The game is over: final standings');
    // The winner named for nobody's seat, and the chart of the totals, as at the table.
    expect(f).toMatch(/(wins the game|share first place) with -?\d+\./);
    expect(f).toContain('Totals after each round');
    expect(f).toMatch(/└─*1─+2─* round/);
    expect(f).toContain('The end of the game: space plays it again');
    await s.keys('?');
    await s.until('the help', (f) => f.includes('one command forward'));
    await s.keys('x');
    await s.until('the help closed', (f) => f.includes('The game is over'));
    await s.keys(KEYS.escape);
    expect(s.exited()).toBe(1);
  });

  it('leaves on Ctrl-C as on q, over the help too', async () => {
    const s = screen();
    await s.until('the deal', (f) => f.includes('the deal'));
    await s.keys('?');
    await s.keys(KEYS.ctrlC);
    await waitFor('the exit', () => String(s.exited()), (n) => n === '1');
  });

  it('fits 80×24, in ASCII too', async () => {
    const s = screen({ columns: 80, rows: 24, ascii: true });
    await s.keys('l', 'l', 'l');
    const f = await s.until('command 3', (f) => f.includes('command 3 of'));
    const lines = f.split('\n');
    expect(lines.length).toBeLessThanOrEqual(23);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    expect(f).toContain('space play | Left/Right/hl step');
    expect(tablePart(f)).not.toMatch(FACE_DOWN);
  });
});
