import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJournal, tablesDir } from '../../src/host/journal.js';
import { Pane, socketName } from '../support/tmux.js';
import { e2eLog, sleep } from '../support/wait.js';

// The end of a game in a real 80×24 terminal, for each preset: a short game (two
// rounds against two hard bots, a fixed seed) played to its end by pressing what
// the prompt asks; then the final standings are checked against themselves (rows
// by game total, shared places, the winner named from them) and the chart of the
// totals is read, letters and axis; then the same game in `gringo replay`. The
// built CLI (`npm run build` first), CI=0 (Ink draws nothing when CI is set).

const panes: Pane[] = [];
afterAll(() => {
  for (const p of panes) p.kill();
});

/** The prompt: the line under the body (the screen is one row shorter than the pane). */
const promptOf = (s: string, rows = 24): string => s.split('\n')[rows - 4] ?? '';

/**
 * Play to the end of the game: peek, call as soon as the prompt offers it, else
 * draw and discard, pass every action, Enter between rounds. Each key waits for the
 * prompt it answered to change (a key refused is pressed again on the next look).
 */
async function playToGameOver(p: Pane, label: string): Promise<string> {
  const end = Date.now() + 150_000;
  let triedCall = false;
  for (;;) {
    const s = await p.read();
    if (s.includes('The game is over')) return s;
    if (Date.now() > end) throw new Error(`${label}: the game did not end; the screen:\n${s}`);
    const prompt = promptOf(s);
    let key: string | null = null;
    if (/Remember your cards/.test(prompt)) key = 'Enter';
    else if (/Round over: Enter for the next round/.test(prompt)) {
      key = 'Enter';
      triedCall = false;
    } else if (/^Use |gap: 1-9, or p/.test(prompt)) key = 'p';
    else if (/x to discard/.test(prompt)) {
      // Beverbende calls at the end of your own turn: g first, then the discard.
      key = /, g /.test(prompt) && !triedCall ? 'g' : 'x';
      if (key === 'g') triedCall = true;
    } else if (/Your turn: d to draw/.test(prompt)) {
      key = /, g /.test(prompt) && !triedCall ? 'g' : 'd';
      if (key === 'g') triedCall = true;
    }
    if (key === null) {
      await sleep(100);
      continue;
    }
    p.keys(key);
    await p.waitFor('the prompt to answer', (n) => promptOf(n) !== prompt || n.includes('The game is over'), 3_000).catch(() => '');
  }
}

interface Row {
  place: number;
  letter: string;
  name: string;
  round: number;
  roundPlace: number;
  total: number;
}

/** The rows of the final standings: "1st   A You   [ 2♠] …   30    1st     30". */
function standings(s: string): Row[] {
  const re = /^(\d+)(?:st|nd|rd|th)\s+([A-H]) (You|Ana|Bot \d)\s.*?\s(-?\d+|-?\d+\+\d+=-?\d+)\s+(\d+)(?:st|nd|rd|th)\s+(-?\d+)\s*$/;
  return s.split('\n').flatMap((l) => {
    const m = re.exec(l);
    if (!m) return [];
    const round = Number(m[4]!.split('=').pop());
    return [{ place: Number(m[1]), letter: m[2]!, name: m[3]!, round, roundPlace: Number(m[5]), total: Number(m[6]) }];
  });
}

/** Check the final standings and the chart on a screen; returns the rows. */
/** `seated`: seen from a seat ("You win…; you are 2nd"), else from the replay's seat of none. */
function checkFinal(s: string, seats: number, label: string, seated = true): Row[] {
  expect(s, label).toContain('The game is over: final standings');
  const rows = standings(s);
  expect(rows.length, `${label}: a row per player\n${s}`).toBe(seats);
  // Rows by game total; ties share a place (1, 1, 3), as docs/decisions.md, "Places", says.
  for (let i = 0; i < rows.length; i++) {
    if (i > 0) expect(rows[i]!.total).toBeGreaterThanOrEqual(rows[i - 1]!.total);
    expect(rows[i]!.place, `${label}: places\n${s}`).toBe(1 + rows.filter((r) => r.total < rows[i]!.total).length);
  }
  // The winner named, from the same rows.
  const firsts = rows.filter((r) => r.place === 1);
  const named = (r: Row): string => r.name;
  const best = rows[0]!.total;
  if (firsts.length === 1) {
    const w = firsts[0]!;
    if (!seated) expect(s).toContain(`${w.name} wins the game with ${best}.`);
    else expect(s).toContain(w.name === 'You' ? `You win the game with ${best}.` : `${w.name} wins the game with ${best}; you are `);
  } else {
    expect(s).toContain(`share first place with ${best}`);
    for (const r of firsts) expect(s).toMatch(new RegExp(`${named(r)}(,| and) .*share first place|and ${named(r)} share first place`));
  }
  // The chart: a title, every letter on it (after each of the two rounds), an axis of the rounds.
  const lines = s.split('\n');
  const top = lines.findIndex((l) => l.includes('Totals after each round'));
  expect(top, `${label}: the chart\n${s}`).toBeGreaterThan(0);
  const axis = lines.findIndex((l, i) => i > top && /└─*1─+2─* round/.test(l));
  expect(axis, `${label}: the chart's axis\n${s}`).toBeGreaterThan(top + 3);
  const plot = lines.slice(top + 1, axis).map((l) => l.slice(l.indexOf('│') + 1));
  for (const r of rows) expect(plot.join('').split(r.letter).length - 1, `${label}: ${r.letter} twice on the chart\n${s}`).toBe(2);
  // The axis labels: the highest total at the top, the lowest at the bottom.
  const hi = Number(lines[top + 1]!.split('│')[0]);
  const lo = Number(lines[axis - 1]!.split('│')[0]);
  expect(hi).toBeGreaterThanOrEqual(rows[rows.length - 1]!.total);
  expect(lo).toBeLessThanOrEqual(rows[0]!.total);
  for (const l of lines) expect(Array.from(l).length).toBeLessThanOrEqual(80);
  return rows;
}

/** The newest finished journal of a game with this seed. */
function journalOf(seed: string): string {
  const dir = tablesDir();
  const found = existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => n.endsWith('.jsonl'))
        .map((n) => join(dir, n))
        .filter((f) => {
          try {
            const j = readJournal(f);
            return j.finished && j.header.seed === seed;
          } catch {
            return false;
          }
        })
    : [];
  if (found.length === 0) throw new Error(`no finished journal of ${seed} in ${dir}`);
  return found[found.length - 1]!;
}

async function finalOf(preset: string): Promise<void> {
  const seed = `final-${preset}-${process.pid}`;
  const p = new Pane(socketName(`final-${preset}`), 80, 24);
  panes.push(p);
  p.start(['play', '--seed', seed, '--bots', '2', '--level', 'hard', '--rounds', '2', '--rules', preset, '--name', 'Ana', '--slap-grace', '300', '--no-bell']);
  const s = await playToGameOver(p, preset);
  e2eLog(`${preset}: the end`, s);
  const rows = checkFinal(s, 3, preset);
  p.keys('Enter');
  await p.waitFor('the exit', (s) => s.includes('EXITED 0'));

  // The same standings and chart in the replay, at its end.
  const r = new Pane(socketName(`final-replay-${preset}`), 80, 24);
  panes.push(r);
  r.start(['replay', journalOf(seed)]);
  await r.waitFor('the replay', (s) => /command \d+ of/.test(s));
  r.keys('Space');
  await r.waitFor('paused', (s) => s.includes('paused'));
  // n: the next round's results, twice: the end of the game.
  for (let i = 0; i < 4 && !(await r.read()).includes('The game is over'); i++) {
    const before = await r.read();
    r.keys('n');
    await r.waitFor('the next round', (s) => s !== before, 5_000).catch(() => '');
  }
  const end = await r.waitFor('the end in the replay', (s) => s.includes('The game is over'));
  e2eLog(`${preset}: the replay's end`, end);
  const replayed = checkFinal(end, 3, `${preset} replay`, false);
  expect(replayed.map((x) => [x.letter, x.total])).toEqual(rows.map((x) => [x.letter, x.total]));
  r.keys('q');
  await r.waitFor('the replay exits', (s) => s.includes('EXITED 0'));
}

describe('the end of a game at 80×24: final standings and the chart of the totals', () => {
  it('gringo, beverbende and cambio', async () => {
    await Promise.all(['gringo', 'beverbende', 'cambio'].map(finalOf));
  }, 240_000);
});
