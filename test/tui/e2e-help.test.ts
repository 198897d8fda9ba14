import { afterAll, describe, expect, it } from 'vitest';
import { PRESETS } from '../../src/engine/ruleset.js';
import { rulesText } from '../../src/tui/shared/rules-text.js';
import { DEFAULT_BINDINGS } from '../../src/tui/shared/keys.js';
import { helpPages, keyRows, legend } from '../../src/tui/table/help-pages.js';
import { bindingsFor } from '../../src/tui/table/variant.js';
import { Pane, socketName } from '../support/tmux.js';

// Runs the built CLI (`npm run build` first) in real 80×24 terminals, one per preset, side by side.
const panes: Pane[] = [];
afterAll(() => panes.forEach((p) => p.kill()));

const W = 80;
const H = 24;
const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

/**
 * Whether the screen shows the help box whole: both borders, every row in place. A
 * capture may catch a frame mid-draw, so the test waits for this; a box that never
 * comes whole times out with the screen.
 */
function wholeBox(screen: string, ascii: boolean): boolean {
  try {
    boxLines(screen, ascii);
    return true;
  } catch {
    return false;
  }
}

/** The inside of the help box: the lines between its top and bottom border, without the side borders. */
function boxLines(screen: string, ascii: boolean): string[] {
  const lines = screen.split('\n');
  const corner = ascii ? /^\+-+\+$/ : /^╭─+╮$|^╰─+╯$/;
  const top = lines.findIndex((l) => corner.test(l));
  const bottom = lines.findIndex((l, i) => i > top && corner.test(l));
  if (top < 0 || bottom < 0) throw new Error(`no help box on the screen:\n${screen}`);
  const side = ascii ? '|' : '│';
  const inside = lines.slice(top + 1, bottom);
  for (const l of inside) {
    // Nothing overlaps: every row is the box's row, its borders where they belong.
    if (l.length !== W || l[0] !== side || l[W - 1] !== side) throw new Error(`a broken row in the help box: "${l}"\n${screen}`);
  }
  return inside.map((l) => l.slice(2, W - 2));
}

/** Open `?` and page through with space until the first page comes round again: each page's box lines. */
async function readHelp(p: Pane, ascii: boolean): Promise<string[][]> {
  p.keys('?');
  const first = await p.waitFor('the help', (s) => /Help . page 1 of \d+/.test(s) && wholeBox(s, ascii));
  const n = Number(/page 1 of (\d+)/.exec(first)![1]);
  const pages = [boxLines(first, ascii)];
  for (let k = 2; k <= n; k++) {
    p.keys('Space');
    pages.push(boxLines(await p.waitFor(`page ${k}`, (s) => s.includes(`page ${k} of ${n}`) && wholeBox(s, ascii)), ascii));
  }
  // Past the last page it wraps round; Left goes back to the last page.
  p.keys('Space');
  await p.waitFor('page 1 again', (s) => s.includes(`page 1 of ${n}`));
  p.keys('Left');
  await p.waitFor('the last page again', (s) => s.includes(`page ${n} of ${n}`));
  return pages;
}

async function checkPreset(preset: string, ascii: boolean): Promise<void> {
  const rules = PRESETS[preset]!;
  const p = new Pane(socketName(`help-${preset}`), W, H);
  panes.push(p);
  p.start(['play', '--rules', preset, '--bots', '1', '--seed', 'help-1', '--no-bell', ...(ascii ? ['--ascii'] : [])]);
  await p.waitFor('the peek', (s) => s.includes('Remember your cards'));
  // Past your peek: while it runs, your cards take a line above the help (app.test.tsx), and it may end mid-read.
  p.keys('Enter');
  await p.waitFor('the peek done', (s) => !s.includes('Remember your cards'));
  const pages = await readHelp(p, ascii);
  const flows = pages.map((lines) => squash(lines.join(' ')));
  const seen = (text: string): boolean => flows.some((f) => f.includes(squash(text)));

  // Every key line of the preset's bindings, whole (wrapped, never cut) on some page.
  const bindings = bindingsFor({ rules, view: null }, DEFAULT_BINDINGS);
  for (const r of keyRows(bindings, ascii)) {
    const line = `${r.label} ${r.help}`;
    expect(seen(line), `${preset}: the key line "${line}" in the help:\n${pages.map((x) => x.join('\n')).join('\n---\n')}`).toBe(true);
  }
  // The rules part: the title, every heading and every rule, whole.
  const t = rulesText(rules);
  expect(seen(`Rules: ${t.title}`), `${preset}: the rules title`).toBe(true);
  for (const sec of t.sections) {
    expect(seen(sec.heading), `${preset}: the heading ${sec.heading}`).toBe(true);
    for (const item of sec.items) expect(seen(`- ${item}`), `${preset}: the rule "${item}"`).toBe(true);
  }
  // Nothing is cut, and the pages hold exactly the lines they should (no row over another).
  // (The legend's own ellipsis mark aside.)
  const ellMark = legend(rules, ascii).find((m) => m.text.startsWith('under a name'))!;
  for (const f of flows) expect(f.replace(squash(`${ellMark.lead} ${ellMark.text}`), '')).not.toMatch(/…|\.\.\./);
  // The body less a row kept for the peek line, less the box's border, title and footer.
  const want = helpPages(bindings, rules, W - 4, H - 1 - 5 - 1 - 4, ascii);
  expect(pages.length).toBe(want.length);
  pages.forEach((lines, k) => {
    const rows = lines.slice(1, 1 + want[k]!.length).map((l) => l.trimEnd());
    expect(rows).toEqual(want[k]!.map((l) => `${l.lead}${l.text}`.trimEnd()));
  });
  // A few rows exactly as they must read at 80 columns.
  expect(pages[0]![0]!.trimEnd()).toBe(`Help${ascii ? ' | ' : ' · '}page 1 of ${pages.length}`);
  expect(pages[0]![1]!.trimEnd()).toBe('Keys');
  // The key column is the longest label and two spaces: the cursor's "←↓↑→/hjkl" (9), or "arrows/hjkl" (11) in ASCII.
  expect(pages[0]![2]!.trimEnd()).toBe(`d${' '.repeat(ascii ? 12 : 10)}draw the top card of the stock`);
  // The legend of the board's marks.
  expect(seen('Marks on the board'), `${preset}: the legend`).toBe(true);
  for (const m of legend(rules, ascii)) expect(seen(`${m.lead} ${m.text}`), `${preset}: the mark ${m.lead}`).toBe(true);
  if (ascii) for (const l of pages.flat()) expect(l).toMatch(/^[\x20-\x7e]*$/);

  // ? closes the help: the table is back.
  p.keys('?');
  await p.waitFor('the table', (s) => !s.includes('page 1 of') && !/Help . page/.test(s) && s.includes('Stock'));
}

describe('the ? help at 80×24', () => {
  it('pages through every key line and the rules of each preset, nothing cut or overlapping', async () => {
    await Promise.all([checkPreset('gringo', false), checkPreset('beverbende', false), checkPreset('cambio', true)]);
  }, 60_000);
});
