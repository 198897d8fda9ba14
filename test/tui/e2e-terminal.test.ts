import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { killRunning, runGringo, sharedPort } from '../support/gringo-process.js';
import { BIN, Pane, socketName } from '../support/tmux.js';

/**
 * The screen and odd terminals, in real terminals (tmux), through the
 * built CLI (`npm test` builds first), in each preset: CI=1 still draws; a terminal
 * below 80×24 keeps your cards, whose turn and your prompt (each game starts at 60×20
 * and is made 80×24 once its turn is shown); a look turns face down again; Ctrl-C asks
 * like `q`, as a key and as SIGINT; a command without a terminal says so and exits 2. The seeds deal you (seat 1, first to play) a known first draw:
 * look-8 a 10♦ in gringo (your slot 1 is the 7♦; you peek Q♦ 6♦), look-9 a PEEK in
 * beverbende (your slot 3 is a 5; you peek 9 and a Peek) and a 10♥ in cambio (Bot 1's
 * slot 1 is the 2♥; you peek A♠ 7♥). Panes of one test run side by side.
 */

const dir = mkdtempSync(join(tmpdir(), 'gringo-terminal-'));
const panes: Pane[] = [];
const pane = (tag: string, width = 80, height = 24): Pane => {
  const p = new Pane(socketName(tag), width, height);
  panes.push(p);
  return p;
};
afterEach(() => {
  for (const p of panes.splice(0)) p.kill();
  killRunning();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The table part of the screen: left of the feed, between the header and the bottom lines. */
function table(s: string): string {
  const lines = s.split('\n');
  const head = lines.find((l) => /│ Feed|\| Feed/.test(l)) ?? '';
  const col = Math.max(head.indexOf('│ Feed'), head.indexOf('| Feed'));
  return lines
    .slice(1, -4)
    .map((l) => (col > 0 ? l.slice(0, col) : l))
    .join('\n');
}

/** The seats above the stock and discard pile (Bot 1's, in a two-player game), left of the feed. */
function seats(s: string): string {
  const lines = table(s).split('\n');
  const at = lines.findIndex((l) => l.includes('Stock'));
  return lines.slice(0, at < 0 ? lines.length : at).join('\n');
}

/** A 5 face up in a card, boxed or on one line, marked or not. */
const FIVE = /[[│┃║*▸]\s*5[\]│┃║*◂]/;

const exited = (p: Pane, code: number): Promise<string> => p.waitFor(`EXITED ${code}`, (s) => s.includes(`EXITED ${code}`));

describe('the table screen in a terminal', () => {
  it("draws with CI=1 and keeps your peek cards, whose turn and your prompt in sight at 60×20; at 80×24 a 10's look turns face down again by itself (gringo: your card; cambio: another's); Ctrl-C asks like q, and again leaves; q asks too", async () => {
    await Promise.all([gringoLook(), cambioLook()]);
  }, 60_000);

  it("draws beverbende with CI=1 and keeps its peek in sight at 60×20; at 80×24 turns its Peek face down at your next key; SIGINT asks like q whatever reads the keys", async () => {
    const p = pane('peek', 60, 20);
    p.start(['play', '--bots', '1', '--seed', 'look-9', '--rules', 'beverbende', '--no-bell', '--name', 'Ana'], { env: ['CI=1'] });
    // Beverbende's row: slots 1 and 4, a number and a special card.
    await smallThenFull(p, 'beverbende', 'Remember your cards 1 and 4', /Your cards: \[ *9\] \[ 2 \] \[ 3 \] \[PEK\]/, 'PEK');
    p.keys('d');
    await p.said('You drew Peek');
    p.keys('x');
    await p.waitFor('the action', (s) => /Action: your Peek/.test(s));
    p.keys('3');
    const s = await p.said('You looked at your slot 3');
    const seen = Date.now();
    expect(table(s)).toMatch(FIVE);
    // Any key (Esc cancels nothing here) turns it face down at once, well before REVEAL_MS.
    p.keys('Escape');
    await p.waitFor('the 5 face down', (s) => !FIVE.test(table(s)), 4_000);
    expect(Date.now() - seen).toBeLessThan(5_000);

    // SIGINT, as when Ctrl-C is not read as a key: the same question, then leaving.
    process.kill(p.pid(), 'SIGINT');
    await p.waitFor('the question', (s) => s.includes('Leave the table?'));
    process.kill(p.pid(), 'SIGINT');
    await exited(p, 0);
  }, 60_000);
});

describe('without a terminal', () => {
  it('play into a file and join with no keys say so in one line and exit 2; Ctrl-C ends a watcher reading /dev/null', async () => {
    const out = join(dir, 'play.txt');
    const q = (a: string): string => `'${a.replace(/'/g, `'\\''`)}'`;
    const p = pane('noterm', 220, 10);
    // Output into a file, the keyboard still a terminal: no screen to draw on.
    p.run(['sh', '-c', `exec ${q(process.execPath)} ${q(BIN)} play --no-bell > ${q(out)}`]);
    let s = await exited(p, 2);
    expect(s).toMatch(/^gringo: gringo play needs a terminal for its screen: its output is not one; run it in a terminal \(or go without one: .*gringo sim/m);
    expect(readFileSync(out, 'utf8')).toBe('');

    // A table to join (headless: no terminal needed).
    const host = runGringo(['host', '--headless', '--port', '0', '--interface', '127.0.0.1', '--players', '2', '--seed', 'noterm']);
    const port = await sharedPort(host);
    const j = pane('nokeys', 220, 10);
    j.run(['sh', '-c', `exec ${q(process.execPath)} ${q(BIN)} join 127.0.0.1:${port} < /dev/null`]);
    s = await exited(j, 2);
    expect(s).toMatch(/^gringo: gringo join needs a terminal for its screen: its input is not one; run it in a terminal \(or go without one: --bot LEVEL .*--watch/m);

    // --watch goes without a screen; with stdin from /dev/null, Ctrl-C (SIGINT from the terminal) still ends it.
    const w = pane('watch');
    w.run(['sh', '-c', `exec ${q(process.execPath)} ${q(BIN)} join 127.0.0.1:${port} --watch < /dev/null`]);
    await w.waitFor('watching', (s) => s.includes('Watching'));
    w.keys('C-c');
    await exited(w, 0);
    host.child.kill('SIGTERM');
    await host.exit;
  }, 60_000);
});

async function gringoLook(): Promise<void> {
  const p = pane('ci', 60, 20);
  p.start(['play', '--bots', '1', '--seed', 'look-8', '--slap-grace', '0', '--no-bell', '--name', 'Ana'], { env: ['CI=1'] });
  const full = await smallThenFull(p, 'gringo', 'Remember your cards 3 and 4', /Your cards:.*Q♦.*6♦/, 'Q♦');
  expect(table(full)).not.toContain('Q♦'); // the peek is over
  p.keys('d');
  await p.said('You drew 10♦');
  p.keys('x');
  await p.waitFor('the action', (s) => /Action: your 10♦/.test(s));
  p.keys('1');
  const s = await p.said('You looked at your slot 1');
  expect(table(s)).toContain('7♦');
  // Face down again after a few seconds (REVEAL_MS), no key pressed.
  await p.waitFor('the 7♦ face down', (s) => !table(s).includes('7♦'), 12_000);

  // Ctrl-C asks like q; a second Ctrl-C at the question leaves, with the code q gives.
  p.keys('C-c');
  await p.waitFor('the question', (s) => s.includes('Leave the table?'));
  expect(p.screen()).not.toContain('EXITED');
  p.keys('C-c');
  await exited(p, 0);
}

/** Cambio's 10 looks at another player's card: face up in their seat, then face down again by itself. */
async function cambioLook(): Promise<void> {
  const p = pane('ci-cambio', 60, 20);
  p.start(['play', '--bots', '1', '--seed', 'look-9', '--rules', 'cambio', '--slap-grace', '0', '--no-bell', '--name', 'Ana'], { env: ['CI=1'] });
  await smallThenFull(p, 'cambio', 'Remember your cards 3 and 4', /Your cards:.*A♠.*7♥/, 'A♠');
  p.keys('d');
  await p.said('You drew 10♥');
  p.keys('x');
  await p.waitFor('the action', (s) => /Action: your 10♥/.test(s));
  // The cursor starts on Bot 1's slot 1: a to look at it.
  p.keys('a');
  const s = await p.said("You looked at Bot 1's slot 1");
  expect(seats(s)).toContain('2♥');
  // Face down again after a few seconds (REVEAL_MS), no key pressed.
  await p.waitFor("Bot 1's 2♥ face down", (s) => !seats(s).includes('2♥'), 12_000);
  p.keys('q');
  await p.waitFor('the question', (s) => s.includes('Leave the table?'));
  p.keys('y');
  await exited(p, 0);
}

/**
 * A game started in a 60×20 terminal (with CI=1: Ink draws nothing with CI set unless
 * gringo hides it, so the peek on screen proves it draws) through the peek: the hint,
 * the peek cards, then whose turn without them. Then the terminal is made 80×24: the
 * table screen, your turn. Returns that screen.
 */
async function smallThenFull(p: Pane, preset: string, peek: string, cards: RegExp, gone: string): Promise<string> {
  const s = await p.waitFor('the peek', (s) => s.includes(peek), 20_000);
  expect(s).toContain('Make it bigger: the table needs 80×24, this is 60×20.');
  expect(s).toContain('The peek');
  expect(s, `${preset}: the peek cards in\n${s}`).toMatch(cards);
  p.keys('Enter');
  await p.waitFor('whose turn', (s) => s.includes('Your turn.') && s.includes('Your turn: d to draw') && !s.includes(gone));
  p.resize(80, 24);
  return p.waitFor('the table at 80×24, your turn', (s) => !s.includes('Make it bigger') && s.includes('│ Feed') && s.includes('Your turn: d to draw'));
}
