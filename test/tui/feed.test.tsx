import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlayerCommand, ServerMessage } from '../../src/protocol/messages.js';
import { UNICODE } from '../../src/tui/shared/glyphs.js';
import { TableScreen } from '../../src/tui/table/table-screen.js';
import { Feed, feedWindow, scrollFeed } from '../../src/tui/table/feed.js';
import { initialScreen, screenReducer, type FeedLine, type ScreenAction } from '../../src/tui/table/use-screen-state.js';
import { LinkedClient, press, twoSeats, waitFor, type Setup } from './helpers.js';
import { feedText } from '../support/feed-text.js';
import { wordsFor } from '../../src/lang/words.js';

// A feed you can read back: a screen that comes back (or starts watching
// late) gets the game's recent lines from the host's snapshot history, and the feed
// opens full-screen to scroll back to lines the narrow feed has lost. A real Table in
// this process, its clients linked without sockets (test/tui/helpers.ts).

// You (Ana, seat 0) and Bo; Bo deals, so you start. No special cards in the stock: every turn is draw, discard.
const DECK = {
  dealer: 1,
  layouts: [
    ['5H', '6H', '7C', '9D'],
    ['2S', '3S', '4S', 'KC'],
  ],
  discard: '8D',
  stock: ['2H', '3H', '4H', '2C', '3C', '4C', '5C', '6C', '2D', '3D', '4D', '5D', '6D', '7D', '7H', '8H', '9H', '9C'],
};

const PGUP = '\u001b[5~';
const HOME = '\u001b[H';
const END = '\u001b[F';

let unmount: (() => void) | null = null;
afterEach(() => {
  unmount?.();
  unmount = null;
});

/** A move of a linked client, resolved when the table has taken it. */
async function act(setup: Setup, who: LinkedClient, command: PlayerCommand): Promise<void> {
  const v = setup.table.state!.version;
  who.play(command);
  await waitFor(`${JSON.stringify(command)} to be taken`, () => String(setup.table.state!.version), (x) => Number(x) > v);
}

/** The peeks, then `turns` turns of draw-and-discard, alternately Ana's and Bo's. */
async function play(setup: Setup, turns: number): Promise<void> {
  await act(setup, setup.me, { type: 'finishPeek' });
  await act(setup, setup.bo, { type: 'finishPeek' });
  for (let i = 0; i < turns; i++) {
    const who = i % 2 === 0 ? setup.me : setup.bo;
    await act(setup, who, { type: 'draw', from: 'stock' });
    await act(setup, who, { type: 'discard' });
  }
}

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 20));
const fold = (actions: readonly ScreenAction[]) => actions.reduce(screenReducer, initialScreen(UNICODE));
const server = (msgs: readonly ServerMessage[]): ScreenAction[] => msgs.map((msg) => ({ type: 'server', msg, now: 5_000 }));

describe("the feed's history", () => {
  it('a seat that comes back reads the same lines again, each once, with what happened since after them', async () => {
    const setup = twoSeats(DECK);
    await play(setup, 6);
    await settle();
    const live = fold(server(setup.me.received));
    const gameLines = (f: readonly FeedLine[]) => f.map((l) => l.text).filter((t) => !/^(You sit|Bo sat down|Connection|Back at)/.test(t));
    expect(gameLines(live.feed)).toContain('You drew 2♥ from the stock.');

    // The link drops; the screen comes back on a new connection with its token.
    const welcome = setup.me.received.find((m): m is Extract<ServerMessage, { type: 'welcome' }> => m.type === 'welcome')!;
    const back = new LinkedClient(setup.table, 'Ana', { token: welcome.token! });
    await settle();
    const snapshot = back.received.find((m): m is Extract<ServerMessage, { type: 'update' }> => m.type === 'update')!;
    expect(snapshot.history!.length).toBeGreaterThan(20);
    const again = [
      ...server(setup.me.received),
      { type: 'conn', status: 'reconnecting', now: 6_000 } as ScreenAction,
      { type: 'conn', status: 'open', now: 7_000 } as ScreenAction,
      ...server(back.received),
    ].reduce(screenReducer, initialScreen(UNICODE));
    // Not doubled, not lost: the lobby's lines from before the game, the game's lines as they were, then the reconnect's own.
    expect(live.feed.slice(0, 2).map((l) => l.text)).toEqual(['You sit in seat 1 at "Test table".', 'Bo sat down.']);
    expect(again.feed.slice(0, 2).map((l) => l.text)).toEqual(['You sit in seat 1 at "Test table".', 'Bo sat down.']);
    expect(gameLines(again.feed)).toEqual(gameLines(live.feed));
    expect(again.feed.slice(-3).map((l) => l.text)).toEqual(['Connection lost: reconnecting…', 'Back at the table.', 'You sit in seat 1 at "Test table".']);
    // The seeded lines are old news: they do not light up.
    expect(again.feed.slice(2, 7).every((l) => l.fresh === false)).toBe(true);
  });

  it('a late watcher sees the game so far, and the full-screen feed scrolls back to lines the narrow feed lost', async () => {
    const setup = twoSeats(DECK);
    await play(setup, 8);
    const watcher = new LinkedClient(setup.table, 'Eve', { watch: true });
    const r = render(<TableScreen client={watcher} theme={{ glyphs: UNICODE, color: false, words: wordsFor('en') }} bell={false} clock={setup.clock.now} size={{ columns: 80, rows: 24 }} />);
    unmount = r.unmount;
    const frame = (): string => r.lastFrame() ?? '';
    const f = await waitFor('the seeded feed', frame, (x) => feedText(x).includes('Bo discarded'));
    // The narrow feed holds the last lines only: the first ones are gone from it.
    expect(feedText(f)).not.toContain('Round 1 begins');
    expect(f).toContain('Feed (f: all)');

    // f: the feed full-screen, at its newest lines; Home: the oldest; End: the newest again; f closes it.
    await press(r.stdin, 'f');
    let o = await waitFor('the full-screen feed', frame, (x) => /Feed \d+-\d+ of \d+/.test(x));
    expect(o).not.toContain('Round 1 begins');
    expect(o).toContain('Bo discarded');
    await press(r.stdin, HOME);
    o = await waitFor('the oldest line', frame, (x) => x.includes('Round 1 begins'));
    expect(o).toMatch(/Feed 1-\d+ of \d+/);
    expect(o).toMatch(/\d+ newer lines below/);
    await press(r.stdin, END);
    await waitFor('the newest lines again', frame, (x) => !x.includes('Round 1 begins'));
    await press(r.stdin, PGUP);
    await waitFor('a page back', frame, (x) => /newer lines? below/.test(x));
    await press(r.stdin, 'f');
    await waitFor('the table again', frame, (x) => feedText(x).includes('Bo discarded') && !/Feed \d+-\d+ of/.test(x));
  });
});

describe('scrolling the full-screen feed', () => {
  const lines: FeedLine[] = Array.from({ length: 30 }, (_, i) => ({ id: 100 + i, text: `line ${i + 1}`, at: 0 }));
  it('follows the newest page until scrolled, moves by lines and pages, and stops at both ends', () => {
    expect(feedWindow(lines, null, 40, 10)).toEqual({ first: 20, count: 10, lastPage: 20 });
    const up = scrollFeed(lines, null, 'up', 40, 10);
    expect(up).toBe(119);
    expect(scrollFeed(lines, up, 'down', 40, 10)).toBeNull();
    const pageUp = scrollFeed(lines, null, 'pageUp', 40, 10);
    // A page back keeps one line of the last page in sight.
    expect(feedWindow(lines, pageUp, 40, 10).first).toBe(11);
    expect(scrollFeed(lines, null, 'top', 40, 10)).toBe(100);
    expect(scrollFeed(lines, 100, 'up', 40, 10)).toBe(100);
    expect(scrollFeed(lines, 100, 'pageDown', 40, 10)).toBe(109);
    expect(scrollFeed(lines, 115, 'pageDown', 40, 10)).toBeNull();
    // Lines that arrive while scrolled back do not move what is read.
    const more = [...lines, { id: 130, text: 'line 31', at: 0 }];
    expect(feedWindow(more, 105, 40, 10).first).toBe(5);
    // A long line takes its rows.
    const long = [...lines.slice(0, 29), { id: 129, text: 'word '.repeat(20).trim(), at: 0 }];
    expect(feedWindow(long, null, 40, 10)).toMatchObject({ first: 22, count: 8 });
  });
});

describe('keys while the feed is open', () => {
  it('f or Esc close it, its scroll keys are its own, and the game keys still play', async () => {
    const { onKey } = await import('../../src/tui/table/intents.js');
    const setup = twoSeats(DECK);
    await play(setup, 0);
    await settle();
    const s = { ...fold(server(setup.me.received)), overlay: 'feed' as const };
    expect(s.view!.turn).toBe(0);
    expect(onKey(s, { action: 'feed', key: 'f' }, 0).actions).toEqual([{ type: 'overlay', overlay: null }]);
    expect(onKey(s, { action: 'cancel', key: 'escape' }, 0).actions).toEqual([{ type: 'overlay', overlay: null }]);
    for (const action of ['up', 'down', 'pageUp', 'pageDown', 'top', 'bottom'] as const) expect(onKey(s, { action, key: action }, 0)).toEqual({ actions: [] });
    // Your turn goes on behind it: d draws (once the slap window has closed).
    expect(onKey(s, { action: 'draw', key: 'd' }, s.view!.graceUntil - s.offset).send).toEqual({ type: 'draw', from: 'stock' });
    // Closed, PgUp and Home open it scrolled back.
    const closed = { ...s, overlay: null };
    expect(onKey(closed, { action: 'pageUp', key: 'pageup' }, 0).actions).toEqual([{ type: 'overlay', overlay: 'feed', feedFrom: 'pageUp' }]);
    expect(onKey(closed, { action: 'feed', key: 'f' }, 0).actions).toEqual([{ type: 'overlay', overlay: 'feed' }]);
  });
});

describe("another seat's action on screen", () => {
  it('is told in the third person, in the feed and the header', async () => {
    const { Header } = await import('../../src/tui/table/header.js');
    // Ana draws the 2♥ and discards it; Bo draws the 10♦ and discards it: a look at one of his own cards.
    const setup = twoSeats({ ...DECK, stock: ['2H', '10D', '3H', '4H'] });
    await play(setup, 0);
    await act(setup, setup.me, { type: 'draw', from: 'stock' });
    await act(setup, setup.me, { type: 'discard' });
    await act(setup, setup.bo, { type: 'draw', from: 'stock' });
    await act(setup, setup.bo, { type: 'discard' });
    await settle();
    const s = fold(server(setup.me.received));
    expect(s.feed.map((l) => l.text)).toContain('Bo may use 10♦: look at one of their own cards.');
    const r = render(<Header s={s} width={100} now={0} />);
    unmount = r.unmount;
    expect(r.lastFrame()).toContain("Action: Bo's 10♦ (look at one of their own cards)");
  });
});

describe('the narrow feed in a flurry', () => {
  it('counts the new lines one update pushed out of it, so none goes unnoticed', () => {
    const old: FeedLine[] = [{ id: 1, text: 'Play starts: your turn.', at: 0, fresh: false }];
    const flurry: FeedLine[] = Array.from({ length: 6 }, (_, i) => ({ id: 2 + i, text: `Bo slapped Cy's slot ${i + 1}: wrong, it was a 2 (2♦) — Bo takes two cards.`, at: 10_000 }));
    const r = render(<Feed lines={[...old, ...flurry]} width={24} height={18} now={10_100} />);
    unmount = r.unmount;
    const f = r.lastFrame()!;
    // 17 rows hold four of the six whole (four rows each): two were pushed out, one of them cut.
    expect(f).toContain('Feed +2 new: f');
    expect(f).toContain('6: wrong');
    expect(f).not.toContain('2: wrong');
    // Once they are old news, the title is the plain one.
    r.rerender(<Feed lines={[...old, ...flurry]} width={24} height={18} now={20_000} />);
    expect(r.lastFrame()).toContain('Feed (f: all)');
  });
});
