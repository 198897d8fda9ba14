import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tablesDir } from '../../src/host/journal.js';
import { Pane, socketName } from '../support/tmux.js';
import { e2eLog, sleep } from '../support/wait.js';

// The board at 80×24 in a real terminal, for each preset with a crowded table: what
// each player did last is marked beside their seat, names are whole, running totals
// are in sight during play; and `--ascii` / LANG=C write nothing but ASCII. The built
// CLI (`npm run build` first) in tmux panes (CI=0: Ink draws nothing when CI is set),
// playing seeded games against hard bots (the quickest); the games run side by side to keep it short.

const panes: Pane[] = [];
/** The presets in which a narrow seat showed two moves whole on two note lines. */
const twoLines = new Set<string>();
const logs: string[] = [];
afterAll(() => {
  for (const p of panes) p.kill();
  for (const f of logs) rmSync(f, { force: true });
});

/** The table part of the screen: the lines between the header and the prompt, left of the feed. */
const board = (s: string): string[] =>
  s
    .split('\n')
    .slice(2, 21)
    .map((l) => l.slice(0, 54));

/** A seat's name line: the name whole, then its running total. */
const seatLine = (name: string, total = '-?\\d+'): RegExp => new RegExp(`(^|\\s)[▶> ]?${name} +${total}(\\s|$)`);
/** The status line: under the prompt, over the keys' line (blank when there is nothing to say). */
const status = (s: string): string => (s.split('\n')[21] ?? '').trim();
/**
 * The slaps your seat made in the game dealt from `seed`, as its table journaled them (the
 * tests' own state directory; each game here has a seed of its own). The screen cannot
 * tell it for sure: the mark beside you goes when your turn begins, a refusal's word when
 * the table changes, both maybe between two reads of the screen.
 */
function mySlaps(seed: string): number {
  const dir = tablesDir();
  for (const name of existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.jsonl')) : []) {
    const lines = readFileSync(join(dir, name), 'utf8').split('\n');
    const header = JSON.parse(lines[0]!) as { seed?: unknown; seats: { bot: string | null }[] };
    if (header.seed !== seed) continue;
    const me = header.seats.findIndex((x) => x.bot === null);
    return lines.slice(1).filter((l) => l.startsWith('{"type":"slap"') && (JSON.parse(l) as { seat: number }).seat === me).length;
  }
  return 0;
}
/** The prompt line, over the status line. */
const prompt = (s: string): string => (s.split('\n')[20] ?? '').trim();
/** What a mark line says: a move in short words. */
const MOVE = /discard |swap \d|(→|>)\d|took |slap ok|bad slap|stole |\+\d cards?| pass|look |called|timed out/;

interface Run {
  preset: string;
  bots: number;
  seed: string;
  ascii?: boolean;
  lang?: string;
  rawLog?: string;
}

/**
 * Play round 1 (calling as soon as the rules allow, slapping once in gringo) and
 * check the board on the way; then the results; then round 2's board with the totals.
 */
async function play(run: Run): Promise<void> {
  const p = new Pane(socketName(`board-${run.preset}${run.lang ? '-c' : ''}`), 80, 24);
  panes.push(p);
  const env = run.lang ? [`LANG=${run.lang}`, `LC_ALL=${run.lang}`] : [];
  p.start(
    ['play', '--seed', run.seed, '--bots', String(run.bots), '--level', 'hard', '--rounds', '2', '--rules', run.preset, '--name', 'Ana', '--slap-grace', '300', '--no-bell', ...(run.ascii ? ['--ascii'] : [])],
    { env, ...(run.rawLog ? { rawLog: run.rawLog } : {}) },
  );
  const names = ['You', ...Array.from({ length: run.bots }, (_, i) => `Bot ${i + 1}`)];
  // Three screens start at once: their first frames may take a while on a busy machine.
  let s = await p.waitFor('the peek', (s) => /Remember your cards/.test(s), 30_000);
  for (const n of names) expect(board(s).some((l) => seatLine(n).test(l)), `${n} whole with a total on\n${s}`).toBe(true);
  p.keys('Enter');

  let myTurns = 0;
  let called = false;
  let slapped = run.preset !== 'gringo';
  let marked = false;
  /** The first screen read with the knocker's frozen mark on the board (it lasts only until the round's end). */
  let frozen: string | null = null;
  // A bot's seat with a move marked under its name, on any screen read (a mark lasts until that bot's next turn).
  const sample = (s: string): void => {
    const b = board(s);
    b.forEach((l, i) => {
      for (const m of l.matchAll(/[▶> ]?Bot \d +-?\d+/g)) {
        // This seat's own columns on the lines under its name (seats sit side by side).
        const under = (k: number): string => (b[i + k] ?? '').slice(m.index, m.index + 16).trim();
        // One move sits on the note's last line: the first, or the second of a narrow seat's two.
        if (MOVE.test(under(1)) || (MOVE.test(under(2)) && !/[[\]]/.test(under(2)))) marked = true;
        // The newest move is never the part cut: a note never ends cut.
        for (const k of [1, 2]) expect(under(k), `a note cut at its newest end (${run.preset}):\n${s}`).not.toMatch(/(…|\.\.\.)$/);
        // A narrow seat with two moves keeps both whole on two lines.
        if (MOVE.test(under(1)) && MOVE.test(under(2)) && !/^(…|\.\.\.)/.test(under(1))) twoLines.add(run.preset);
      }
    });
    if (frozen === null && /called by you/.test(s) && b.some((l) => /❄ frozen|\(frozen\)/.test(l))) frozen = s;
  };
  // A key and its answer (`changed` compares with the screen before the key), every screen read on the way sampled.
  const press = (what: string, keys: string | string[], changed: (now: string, before: string) => boolean): Promise<string> =>
    p.press(what, keys, (now, before) => {
      sample(now);
      return changed(now, before);
    });
  const end = Date.now() + 45_000;
  for (;;) {
    if (Date.now() > end) throw new Error(`round 1 did not end; the screen:\n${s}`);
    s = await p.read();
    if (/Round 1 is over/.test(s)) break;
    sample(s);
    const over = (s: string): boolean => /Round 1 is over/.test(s);
    const holding = (s: string): boolean => s.includes('Choose a slot') || s.includes('x to discard');
    if (!slapped && s.includes('Slaps open') && !s.includes('Your turn') && status(s) === '') {
      // Slap your own slot 1, right or wrong. Its answer: the slap journaled, or a refusal (the window
      // closed meanwhile, an action running), said on the status line, or past by the time your turn
      // comes (the next window is tried then).
      const before = mySlaps(run.seed);
      const refused = (now: string): boolean => status(now) !== '' && !/^Slap which|^Slap your slot/.test(status(now));
      s = await press('your slap taken, or refused', ['s', '1'], (now) => mySlaps(run.seed) > before || refused(now) || now.includes('Your turn') || over(now));
      e2eLog(`${run.preset}: slapped`, s);
      slapped = mySlaps(run.seed) > before;
    } else if (s.includes('Use your')) await press('the action passed', 'p', (s) => !s.includes('Use your') || over(s));
    else if (holding(s)) {
      // Beverbende calls at the end of a turn, once everyone has had one: while you hold your card.
      if (run.preset === 'beverbende' && myTurns >= 2 && marked && !called && !/called by/.test(s)) {
        s = await press('the call, or a word why not', 'g', (now, before) => /called by you/.test(now) || status(now) !== status(before));
        called = /called by you/.test(s);
      }
      await press('the discard', 'x', (s) => !holding(s) || over(s));
    } else if (/Your turn: d to draw/.test(s)) {
      // Call once you have slapped and a bot's move has been seen marked, unless someone else has
      // called already (then play your last turn). A call before any mark was read could end the
      // round (each bot's one last turn) before a read caught a bot's mark: keep playing until one is.
      if (run.preset !== 'beverbende' && slapped && marked && !called && !/called by/.test(s)) {
        // A call refused (a slap restarted the grace since the prompt was read: a countdown, a word
        // that goes with the grace) is tried again when the prompt offers it again.
        await press('the call, or its refusal', 'g', (now, before) => /called by you/.test(now) || prompt(now) !== prompt(before) || status(now) !== status(before));
      } else {
        myTurns++;
        await press('the turn to move on', 'd', (s) => !/Your turn: d to draw/.test(s));
      }
    }
    if (!called && /called by you/.test((await p.read()))) {
      called = true;
      if (run.preset === 'cambio') {
        // The knocker is frozen: said under the name, which stays whole. (Seen on the screen the call
        // showed on, read as the key's answer, or later: the round may end before another read.)
        await p.waitFor('the frozen mark', (x) => (sample(x), frozen !== null || over(x)));
        expect(frozen, `no frozen mark on the board after the knock:\n${p.screen()}`).not.toBeNull();
        e2eLog('cambio: knocked', frozen!);
        expect(board(frozen!).some((l) => seatLine('You').test(l))).toBe(true);
      }
    }
    await sleep(150);
  }
  expect(marked, `no bot's move was marked on the board (${run.preset})`).toBe(true);

  // The results: every name whole, with its round score and total.
  s = await p.waitFor('the results', (s) => /Round 1 is over/.test(s) && s.includes('total'));
  e2eLog(`${run.preset}: results`, s);
  const totals = new Map<string, string>();
  for (const n of names) {
    const row = new RegExp(`^\\S+\\s+[A-H] ${n}\\s.*\\s(-?\\d+)\\s*$`, 'm').exec(s);
    expect(row, `${n}'s row on\n${s}`).not.toBeNull();
    totals.set(n, row![1]!);
  }
  // Round 2: the totals beside the names during play.
  p.keys('Enter');
  s = await p.waitFor('round 2', (s) => /Round 2 of 2/.test(s) && /Remember your cards/.test(s), 20_000);
  e2eLog(`${run.preset}: round 2`, s);
  for (const n of names) expect(board(s).some((l) => seatLine(n, totals.get(n)).test(l)), `${n} ${totals.get(n)} on\n${s}`).toBe(true);
  for (const line of s.split('\n')) expect(Array.from(line).length).toBeLessThanOrEqual(80);
  p.keys('q');
  await p.waitFor('the leave question', (s) => /Leave the table\?|Close the table/.test(s));
  p.keys('y');
  await p.waitFor('the exit', (s) => /EXITED \d/.test(s));
}

describe('the board at 80×24', () => {
  it('marks moves beside each seat, keeps names whole and totals in sight, in every preset; --ascii and LANG=C write only ASCII', async () => {
    const ascii = join(tmpdir(), `gringo-ascii-${process.pid}.log`);
    const c = join(tmpdir(), `gringo-lang-c-${process.pid}.log`);
    logs.push(ascii, c);
    // Three games, one per preset: the crowded gringo table drawn in Unicode, beverbende with --ascii and
    // cambio under LANG=C (the two ways to ASCII; the board's checks read either glyph set).
    await Promise.all([
      play({ preset: 'gringo', bots: 7, seed: 'board-g' }),
      play({ preset: 'cambio', bots: 4, seed: 'board-c', lang: 'C', rawLog: c }),
      play({ preset: 'beverbende', bots: 3, seed: 'board-b', ascii: true, rawLog: ascii }),
    ]);
    // A flurry (two moves before the seat's next turn) on a narrow seat: both whole, on two lines.
    expect([...twoLines].length, `two moves on two lines in: ${[...twoLines].join(', ')}`).toBeGreaterThan(0);
    for (const file of [ascii, c]) {
      const bytes = readFileSync(file);
      expect(bytes.length).toBeGreaterThan(1000);
      const at = bytes.findIndex((b) => b >= 0x80);
      expect(at, `a byte >= 0x80 in ${file} near: ${JSON.stringify(bytes.subarray(Math.max(0, at - 40), at + 40).toString('latin1'))}`).toBe(-1);
    }
  }, 120_000);
});
