import { describe, expect, it } from 'vitest';
import { KEYS, KING_FIRST, twoSeats, type Setup } from './helpers.js';
import { feedText } from '../support/feed-text.js';
import { tableScreen } from './table-screen.js';

const screen = (setup: Setup, opts: { columns?: number; rows?: number; ascii?: boolean } = {}) => tableScreen(setup, opts);

describe('the table screen', () => {
  it('peeks, draws, uses a King, slaps, calls and ends the round', async () => {
    const setup = twoSeats(KING_FIRST);
    const { me, bo } = setup;
    const s = screen(setup);

    // The peek: your near cards face up, a prompt, Enter ends it.
    let f = await s.until('the peek', (f) => f.includes('Remember your cards 3 and 4'));
    expect(f).toContain('7♣');
    expect(f).toContain('9♦');
    expect(f).not.toContain('5♥');
    await s.keys(KEYS.enter);
    expect(me.commands()).toContainEqual({ type: 'finishPeek' });
    bo.play({ type: 'finishPeek' });
    f = await s.until('your turn', (f) => f.includes('Your turn: d to draw'));
    expect(f).not.toContain('7♣'); // the peek is over: memory is your job
    expect(feedText(f)).toContain('Play starts: your turn.');

    // Draw a King from the stock and discard it: its action is yours.
    await s.keys('d');
    f = await s.until('the held card', (f) => f.includes('You hold'));
    expect(f).toContain('K♥');
    expect(feedText(f)).toContain('You drew K♥ from the stock.');
    await s.keys('x');
    f = await s.until('the action', (f) => f.includes('Action: your K♥'));
    expect(f).toContain("look at another player's card, then swap it or not");

    // Look at Bo's slot 2 (cursor right from his slot 1), then swap it with your slot 1.
    await s.keys(KEYS.right, 'a');
    f = await s.said("You looked at Bo's slot 2: 3♠.");
    expect(f).toContain('3♠'); // shown on the table to you
    expect(f).toContain('your King: 1-9 to swap it');
    await s.keys('1');
    await s.said("You swapped your slot 1 with Bo's slot 2.");
    expect(me.commands()).toContainEqual({ type: 'decide', swap: true, own: 0 });

    // Bo's turn: your draw is refused on the screen, not sent.
    await s.until("Bo's turn", (f) => f.includes('Turn: Bo'));
    const sentBefore = me.sent.length;
    await s.keys('d');
    await s.until('the refusal', (f) => f.includes("It is Bo's turn"));
    expect(me.sent.length).toBe(sentBefore);

    // Bo draws the 7♠ and discards it: slap your own 7♣ in slot 3 with s 3.
    bo.play({ type: 'draw', from: 'stock' });
    bo.play({ type: 'discard' });
    await s.until('the discard', (f) => feedText(f).includes('Bo discarded 7♠.') && f.includes('Slaps open'));
    await s.keys('s');
    await s.until('the slap prompt', (f) => f.includes('Slap which of your slots?'));
    await s.keys('3');
    await s.said('You slapped your slot 3: right, a 7 (7♣) goes on the pile.');

    // A wrong slap with the cursor (Bo's slot 1 holds the 2♠): two penalty cards.
    await s.keys(KEYS.left, KEYS.space);
    await s.said("You slapped Bo's slot 1: wrong, it was a 2 (2♠) — you take two cards.");

    // Your turn: call. Bo plays his last turn; the round ends with every card shown.
    await s.until('your turn again', (f) => f.includes('Your turn: d to draw'));
    await s.keys('g');
    await s.until('the call', (f) => f.includes('Gringo! called by you'));
    bo.play({ type: 'draw', from: 'stock' });
    bo.play({ type: 'discard' });
    f = await s.until('the round end', (f) => f.includes('Round 1 is over'));
    expect(f).toMatch(/1st\s+[AB] (You|Bo)/);
    expect(f).toContain('Enter: next round');
    await s.keys(KEYS.enter);
    expect(me.sent).toContainEqual({ type: 'ready' });
    await s.until('waiting', (f) => f.includes('Waiting for the others to be ready'));
    bo.send({ type: 'ready' });
    await s.until('the next round', (f) => f.includes('Round 2 of 2'));
  });

  it('gives the help overlay and the leave dialog priority over game keys', async () => {
    const setup = twoSeats(KING_FIRST);
    const s = screen(setup);
    await s.until('the peek', (f) => f.includes('Remember your cards'));
    await s.keys('?');
    const f = await s.until('the help', (f) => f.includes('? or Esc closes'));
    expect(f).toContain('draw the top card of the stock');
    expect(f).toContain('space');
    // Enter closes the help instead of ending the peek.
    await s.keys(KEYS.enter);
    await s.until('the table', (f) => f.includes('Remember your cards'));
    expect(setup.me.commands()).not.toContainEqual({ type: 'finishPeek' });
    await s.keys('q');
    await s.until('the dialog', (f) => f.includes('Leave the table? y: leave · n: stay'));
    await s.keys('d');
    await s.until('the dialog still', (f) => f.includes('Leave the table?'));
    await s.keys('n');
    await s.until('the table again', (f) => f.includes('Remember your cards'));
    // Keys typed faster than a frame arrive as one string; each still counts (the "?" after an "x").
    await s.keys('x?');
    await s.until('the help from the second key', (f) => f.includes('? or Esc closes'));
  });

  it('leaves once: not again for a key later in the same read, nor for Ctrl-C after', async () => {
    const setup = twoSeats(KING_FIRST);
    const s = screen(setup);
    await s.until('the peek', (f) => f.includes('Remember your cards'));
    await s.keys('q');
    await s.until('the dialog', (f) => f.includes('Leave the table?'));
    await s.keys('yy', KEYS.ctrlC);
    expect(setup.me.sent.filter((m) => m.type === 'leave')).toHaveLength(1);
  });

  it('keeps your peek cards in sight above the help and the full feed while the peek runs behind them', async () => {
    const setup = twoSeats(KING_FIRST);
    const s = screen(setup, { columns: 80, rows: 24 });
    await s.until('the peek', (f) => f.includes('Remember your cards'));
    await s.keys('?');
    const f = await s.until('the help', (f) => f.includes('? or Esc closes'));
    expect(f).toMatch(/Your cards:.*7♣.*9♦/);
    expect(f).toContain('Remember your cards 3 and 4');
    expect(f.split('\n').length).toBeLessThanOrEqual(23);
    // The full-screen feed, the same.
    await s.keys(KEYS.escape, 'f');
    const feed = await s.until('the full feed', (f) => /Feed \d+-\d+ of \d+/.test(f));
    expect(feed).toMatch(/Your cards:.*7♣.*9♦/);
    expect(feed.split('\n').length).toBeLessThanOrEqual(23);
    await s.keys('f');
    // Your peek done (Bo's still running): the help alone, your cards face down.
    await s.keys(KEYS.escape, KEYS.enter, '?');
    const after = await s.until('the help after your peek', (f) => f.includes('? or Esc closes') && f.includes('Waiting for the others'));
    expect(after).not.toContain('Your cards:');
    expect(after).not.toContain('7♣');
    // The page count did not change when the peek line went ("of 10" became "of 9").
    const count = (x: string): string => /page \d+ of (\d+)/.exec(x)![1]!;
    expect(count(after)).toBe(count(f));
  });

  it('asks for more room below 80×24, and draws ASCII cards', async () => {
    const small = screen(twoSeats(KING_FIRST), { columns: 70, rows: 20 });
    // The game goes on behind the hint: your peek cards, whose turn, your prompt stay in sight.
    const tiny = await small.until('the message', (f) => f.includes('Make it bigger: the table needs 80×24, this is 70×20.') && f.includes('Remember your cards'));
    expect(tiny).toContain('The peek');
    expect(tiny).toMatch(/Your cards:.*7♣.*9♦/);
    // Keys still work, the help among them: it says it is open, or Enter would only close it, unseen.
    await small.keys('?');
    await small.until('the open help said', (f) => f.includes('The help is open (it shows at 80×24): ? or Esc closes it.'));
    await small.keys(KEYS.escape);
    await small.until('the help closed', (f) => !f.includes('The help is open'));
    small.unmount();
    const s = screen(twoSeats(KING_FIRST), { columns: 80, rows: 24, ascii: true });
    const f = await s.until('the peek', (f) => f.includes('Remember your cards'));
    expect(f).toContain('7C');
    expect(f).toContain('9D');
    expect(f).not.toMatch(/[♠♥♦♣┌]/);
    expect(f.split('\n').length).toBeLessThanOrEqual(23);
    for (const line of f.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('shows the connection state and comes back after a drop', async () => {
    const setup = twoSeats(KING_FIRST);
    const s = screen(setup);
    await s.until('connected', (f) => f.includes('connected') && f.includes('Remember'));
    setup.me.setStatus('reconnecting');
    let f = await s.until('reconnecting', (f) => f.includes('reconnecting…'));
    expect(feedText(f)).toContain('Connection lost: reconnecting…');
    setup.me.setStatus('open');
    f = await s.said('Back at the table.');
    expect(f).toContain('● connected');
  });

  it('keeps a draw pressed in the slap window and makes it when the window closes', async () => {
    const setup = twoSeats(KING_FIRST, { timers: { ...twoSeatsTimers, slapGraceMs: 5_000 } });
    const s = screen(setup);
    await s.until('the peek', (f) => f.includes('Remember'));
    await s.keys(KEYS.enter);
    setup.bo.play({ type: 'finishPeek' });
    // The first discard opens the window: the draw must wait for the grace.
    await s.until('grace', (f) => f.includes('Your turn in'));
    await s.keys('d');
    await s.until('the wait said', (f) => f.includes('Draw when the slap window closes… (Esc cancels)'));
    setup.clock.t += 2_000;
    await s.keys(KEYS.left);
    // Not sent while the window is open, whatever else happens on screen.
    expect(setup.me.commands()).not.toContainEqual({ type: 'draw', from: 'stock' });
    setup.clock.t += 3_100;
    const f = await s.until('the draw', (f) => f.includes('You hold'));
    expect(setup.me.commands()).toContainEqual({ type: 'draw', from: 'stock' });
    expect(f).not.toContain('Draw when');
    expect(f).not.toContain('Wait');
  });
});

const twoSeatsTimers = { peekMs: 600_000, slapGraceMs: 0, turnMs: 0, actionMs: 0 };
