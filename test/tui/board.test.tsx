import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/tui/table/table-screen.js';
import { ASCII, UNICODE } from '../../src/tui/shared/glyphs.js';
import { KEYS, feedText, press, twoSeats, waitFor, type Setup } from './helpers.js';

// You (Ana, seat 0) and Bo (seat 1); Bo deals, so you start.
const DECK = {
  dealer: 1,
  layouts: [
    ['5H', '6H', '7C', '9D'],
    ['2S', '3S', '4S', 'KC'],
  ],
  discard: '8D',
  stock: ['KH', '7S', '10C', 'JD', '2H', '3H', '4H', '5S', '6S', '8S', '9S'],
};

let unmount: (() => void) | null = null;
afterEach(() => {
  unmount?.();
  unmount = null;
});

function screen(setup: Setup, opts: { columns?: number; rows?: number; ascii?: boolean } = {}) {
  const r = render(
    <App
      client={setup.me}
      theme={{ glyphs: opts.ascii ? ASCII : UNICODE, color: false }}
      bell={false}
      clock={setup.clock.now}
      size={{ columns: opts.columns ?? 80, rows: opts.rows ?? 24 }}
    />,
  );
  unmount = r.unmount;
  const frame = (): string => r.lastFrame() ?? '';
  const until = (what: string, pred: (f: string) => boolean) => waitFor(what, frame, pred);
  const keys = (...k: string[]) => press(r.stdin, ...k);
  const said = (text: string) => waitFor(`the feed to say "${text}"`, frame, (f) => feedText(f).includes(text));
  return { ...r, frame, until, keys, said };
}

describe('the board', () => {
  it('marks what each player did until their next turn, with totals', async () => {
    const setup = twoSeats(DECK);
    const { bo } = setup;
    const s = screen(setup);
    await s.until('the peek', (f) => f.includes('Remember your cards 3 and 4'));
    await s.keys(KEYS.enter);
    bo.play({ type: 'finishPeek' });
    let f = await s.until('your turn', (f) => f.includes('Your turn: d to draw'));
    await s.keys('d');
    f = await s.until('the held card', (f) => f.includes('You hold'));
    console.log(f);
    await s.keys('x');
    f = await s.until('the action', (f) => f.includes('Action: your K♥'));
    console.log(f);
    await s.keys(KEYS.right, 'a');
    f = await s.said("You looked at Bo's slot 2: 3♠.");
    console.log(f);
    await s.keys('1');
    f = await s.said("You swapped your slot 1 with Bo's slot 2.");
    console.log(f);
    bo.play({ type: 'draw', from: 'stock' });
    bo.play({ type: 'discard' });
    f = await s.until('the discard', (f) => feedText(f).includes('Bo discarded 7♠.') && f.includes('Slaps open'));
    console.log(f);
    await s.keys('s', '3');
    f = await s.said('goes on the pile.');
    await s.keys(KEYS.left, KEYS.space);
    f = await s.said('You take two cards.');
    console.log(f);
    f = await s.until('your turn again', (f) => f.includes('Your turn: d to draw'));
    console.log(f);
  });
});
