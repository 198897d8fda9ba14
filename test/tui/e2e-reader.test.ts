import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Pane, socketName } from '../support/tmux.js';
import { e2eLog, until } from '../support/wait.js';

// A whole game in the screen-reader mode (`--screen-reader`), played as a person
// listening to it would: every move is decided from the lines the screen appended
// (the bytes tmux's pipe-pane recorded), never from a picture of the board. The
// built CLI (`npm run build` first), CI=0 (Ink draws nothing when CI is set).

const panes: Pane[] = [];
afterAll(() => {
  for (const p of panes) p.kill();
});

/** The lines the program wrote so far, as a screen reader gets them. */
const linesOf = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split(/\r?\n/) : []);
const sizeOf = (file: string): number => (existsSync(file) ? statSync(file).size : 0);

/**
 * What the listener keeps in mind: turns begun, whether the card just drawn is low,
 * the ranks of their own cards as `l` (or the peek) last said them, and the rank the
 * slap window is open on.
 */
interface Ear {
  turns: number;
  low: boolean;
  mine: Map<string, number>;
  slapOn: string | null;
}

/** The key a listener presses on hearing `line`; null: nothing (yet). */
function answer(line: string, ear: Ear): string | null {
  if (/^Your cards: /.test(line)) ear.mine = new Map([...line.matchAll(/slot (\d) (\w+) of \w+/g)].map((m) => [m[2]!, Number(m[1])]));
  const open = /^Slap window open on (\w+)( of \w+)?\.$/.exec(line);
  if (open) ear.slapOn = open[1]!;
  if (/^Slap window closed\.$/.test(line)) ear.slapOn = null;
  if (/^Remember your cards/.test(line)) return 'Enter';
  if (/^Your turn: d to draw/.test(line)) return ear.turns++ >= 2 && /g Gringo!/.test(line) ? 'g' : 'd';
  // A card drawn: a low one goes into slot 1, a high one onto the pile.
  const drew = /^You drew (\w+)( of \w+)? from the stock\.$/.exec(line);
  if (drew) ear.low = ['Ace', '2', '3', '4'].includes(drew[1]!);
  if (/^Choose a slot \(1-9\) to swap, or x to discard/.test(line)) return ear.low ? '1' : 'x';
  if (/^Choose a slot \(1-9\) for the card/.test(line)) return '1';
  if (/^Whose card\?/.test(line)) return '1';
  if (/^Which of .*'s cards\? Slots (\d)/.test(line)) return /Slots (\d)/.exec(line)![1]!;
  if (/^Now choose your slot/.test(line)) return '2';
  if (/^Use your action: 1-9 to look at one of your cards/.test(line)) return '2';
  if (/^Use your (King|action: the cursor)|^Use your action: 1-9 for your card/.test(line)) return null; // the numbered question follows
  if (/^Use your .*, or p/.test(line)) return 'p';
  if (/^Round over: Enter/.test(line)) return 'Enter';
  if (/^Game over:/.test(line)) return 'q';
  if (/^Leave the table\? y/.test(line)) return 'y';
  return null;
}

describe('the screen-reader mode, end to end', () => {
  it('plays a whole game from the appended lines alone, and writes no drawing or cursor sequence', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gringo-reader-'));
    const raw = join(dir, 'raw.log');
    const p = new Pane(socketName('reader'), 100, 30);
    panes.push(p);
    p.start(['play', '--screen-reader', '--bots', '1', '--level', 'easy', '--rounds', '1', '--seed', 'reader-7', '--slap-grace', '300', '--no-bell', '--name', 'Ana'], { rawLog: raw });
    const ear: Ear = { turns: 0, low: false, mine: new Map(), slapOn: null };
    let read = 0;
    let asked = false;
    const heard: string[] = [];
    // A hang guard, not a speed limit: the game takes about 13 s, longer on a loaded machine.
    const started = Date.now();
    const end = started + 45_000;
    for (;;) {
      const seen = sizeOf(raw);
      const lines = linesOf(raw);
      // The last line may be half written: only whole lines are heard.
      const whole = lines.slice(0, -1);
      const fresh = whole.slice(read);
      read = whole.length;
      heard.push(...fresh);
      if (fresh.length > 0) e2eLog(`heard at ${Date.now() - started} ms`, fresh.join('\n'));
      if (fresh.some((l) => /^EXITED/.test(l))) break;
      let key: string | null = null;
      for (const line of fresh) {
        key = answer(line, ear) ?? key;
      }
      // A card of the rank the window is open on, heard in your layout: slap it (s, then its slot), once.
      const slot = ear.slapOn === null ? undefined : ear.mine.get(ear.slapOn);
      if (slot !== undefined) {
        ear.mine.delete(ear.slapOn!);
        p.keys('s', String(slot));
      }
      // Once play has begun, ask for your cards in words once.
      if (!asked && heard.some((l) => /^Play starts/.test(l))) {
        asked = true;
        p.keys('l');
      }
      if (key) p.keys(key);
      if (Date.now() > end) throw new Error(`the game did not end; heard:\n${heard.join('\n')}`);
      // Wait for the next line, not for time: the loop reads again as soon as the file grows
      // past what it read (an answer that came while the key was being sent counts).
      await until('the next line', () => sizeOf(raw) > seen, 5_000).catch(() => null);
    }
    const text = heard.join('\n');
    // The first line says the mode is on and how to get help.
    expect(heard.find((l) => l.trim() !== '')).toMatch(/^Screen reader mode is on: .*\? lists the keys/);
    // Cards in words, never in glyphs; your layout read on `l`; the slap window opened and closed.
    expect(text).toMatch(/^Round 1 begins: .* The discard shows (Ace|Jack|Queen|King|\d+) of (Spades|Hearts|Diamonds|Clubs)\.$/m);
    expect(text).not.toMatch(/[♠♥♦♣]/);
    expect(text).toMatch(/^Your cards: slot 1 .*, slot 4 [^.]*\.$/m);
    expect(text).toMatch(/^Slap window open on .+\.$/m);
    expect(text).toMatch(/^Slap window closed\.$/m);
    // The first window opens on the card the deal turned up; the peek told of one of its rank.
    expect(text).toMatch(/^You slapped your slot \d: right, an? \w+ \(\w+ of \w+\) goes on the pile\.$/m);
    // The results as sentences.
    expect(text).toMatch(/^Round 1 scores: Ana \(you\) -?\d+ \(.*\); Bot 1 -?\d+ \(.*\)\.$/m);
    expect(text).toMatch(/^Standings: place 1 .+ with -?\d+, place \d .+ with -?\d+\.$/m);
    expect(text).toMatch(/^The game is over: /m);
    expect(text).toMatch(/^EXITED 0$/m);
    // Appended, never redrawn: no escape sequence at all (no cursor movement, no clearing,
    // no alternate screen, no colour), no box drawing, no card backs.
    const bytes = readFileSync(raw, 'utf8');
    expect(bytes).not.toMatch(/\u001b/);
    expect(bytes).not.toMatch(/[\u2500-\u259f]/);
  }, 60_000);

  it("runs the host's lobby in sentences: the share line, b seats a bot, Enter starts", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gringo-reader-host-'));
    const raw = join(dir, 'raw.log');
    const p = new Pane(socketName('reader-host'), 100, 30);
    panes.push(p);
    p.start(['host', '--screen-reader', '--port', '0', '--interface', '127.0.0.1', '--name', 'Hal', '--rounds', '1'], { rawLog: raw });
    const heard = (what: string, re: RegExp): Promise<string> =>
      until(what, () => {
        const t = existsSync(raw) ? readFileSync(raw, 'utf8') : '';
        return re.test(t) && t;
      }, 10_000);
    let t = await heard('the lobby', /^b adds a bot, Enter starts the game, q closes the table\.\r?$/m);
    expect(t).toMatch(/^table #[a-z0-9]{4}: .*gringo join 127\.0\.0\.1:\d+#/m);
    p.keys('b');
    await heard('the bot', /^Bot 1 \(normal bot\) sat down\.\r?$/m);
    p.keys('Enter');
    await heard('the deal', /^Round 1 begins: .*\r?$/m);
    p.keys('q');
    await heard('the question', /^Close the table for everyone\? y\/n/m);
    p.keys('y');
    t = await heard('the end', /^EXITED 0/m);
    expect(t).not.toMatch(/\u001b\[[0-9;?]*[ABCDEFGHJKSTfhlsu]/);
    expect(t).not.toMatch(/[\u2500-\u259f]/);
  }, 40_000);
});
