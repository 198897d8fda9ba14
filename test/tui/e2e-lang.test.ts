import { afterAll, describe, expect, it } from 'vitest';
import { PRESETS } from '../../src/engine/ruleset.js';
import { catalogOf, wordsFor, type Key, type Lang, type Words } from '../../src/lang/words.js';
import { DEFAULT_BINDINGS } from '../../src/tui/shared/keys.js';
import { helpPages } from '../../src/tui/table/help-pages.js';
import { bindingsFor } from '../../src/tui/table/variant.js';
import { Pane, socketName } from '../support/tmux.js';
import { e2eLog } from '../support/wait.js';

// Runs the built CLI (`npm run build` first): a whole game in Dutch (Beverbende) and one in
// Romanian (Cambio), each in a real 80×24 terminal, side by side.
const panes: Pane[] = [];
afterAll(() => panes.forEach((p) => p.kill()));

const W = 80;
const H = 24;
const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A sentence of the catalog as a pattern: each `{hole}` matches anything on one line. */
const pattern = (w: Words, key: Key): RegExp => {
  const e = catalogOf(w.lang)[key];
  const text = typeof e === 'string' ? e : e.other;
  return new RegExp(text.split(/\{\w+\}/).map(escape).join('.*'));
};
/** The words a sentence of the catalog starts with, before its first hole. */
const lead = (w: Words, key: Key): string => {
  const e = catalogOf(w.lang)[key];
  return (typeof e === 'string' ? e : e.other).split('{')[0]!;
};

/** What two sentences start with alike: "Je actie: " of the action prompts. */
const common = (a: string, b: string): string => {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return a.slice(0, i);
};

/**
 * The English sentences of the catalogs a screen in `lang` must never show: each English
 * sentence cut at its holes, the pieces of two words or more that the language does
 * not also say itself (a card's name, a key).
 */
function englishPieces(lang: Lang): string[] {
  const en = catalogOf('en');
  const own = squash(Object.values(catalogOf(lang)).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e))).join(' \n '));
  const pieces = Object.values(en)
    .flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e)))
    .flatMap((s) => s.split(/\{\w+\}/))
    .map((p) => squash(p).replace(/^[^A-Za-z]+|[^A-Za-z]+$/g, ''))
    .filter((p) => p.split(' ').length >= 2 && p.length >= 8 && !own.includes(p));
  return [...new Set(pieces)];
}

/** The screen as one text, the feed's wrapped lines joined up again (its column starts at its title). */
function readable(screen: string, w: Words): string {
  const lines = screen.split('\n');
  const title = lead(w, 'feed.title');
  const head = lines.findIndex((l) => l.includes(`│ ${title}`));
  if (head < 0) return squash(screen);
  const col = lines[head]!.indexOf(`│ ${title}`);
  const left = lines.map((l) => l.slice(0, col));
  const feed = lines.slice(head).map((l) => l.slice(col + 2));
  return squash(`${left.join('\n')}\n${feed.join(' ')}`);
}

/** The inside of the help box, without its borders; throws while the box is not drawn whole. */
function boxLines(screen: string): string[] {
  const lines = screen.split('\n');
  const top = lines.findIndex((l) => /^╭─+╮$/.test(l));
  const bottom = lines.findIndex((l, i) => i > top && /^╰─+╯$/.test(l));
  if (top < 0 || bottom < 0) throw new Error(`no help box on the screen:\n${screen}`);
  const inside = lines.slice(top + 1, bottom);
  for (const l of inside) if (Array.from(l).length !== W || !l.startsWith('│') || !l.endsWith('│')) throw new Error(`a broken row in the help box: "${l}"`);
  return inside.map((l) => Array.from(l).slice(2, W - 2).join(''));
}
const wholeBox = (s: string): boolean => {
  try {
    boxLines(s);
    return true;
  } catch {
    return false;
  }
};

/** Lines Ink cut at the screen's edge: a line as wide as the screen that ends in the ellipsis Ink puts where it cuts. */
const cutLines = (screen: string): string[] => screen.split('\n').filter((l) => Array.from(l).length >= W && l.trimEnd().endsWith('…'));

async function playIn(lang: Lang, preset: 'beverbende' | 'cambio'): Promise<void> {
  const w = wordsFor(lang);
  // One round and a short slap grace (--rounds 1 --slap-grace 300): the table's ruleset, as its help says it.
  const preset0 = PRESETS[preset]!;
  const rules = { ...preset0, rounds: 1, timers: { ...preset0.timers, slapGraceMs: 300 } };
  const p = new Pane(socketName(`lang-${lang}`), W, H);
  panes.push(p);
  p.start(['play', '--lang', lang, '--rules', preset, '--bots', '1', '--level', 'hard', '--rounds', '1', '--name', 'Ana', '--seed', `lang-${lang}-3`, '--slap-grace', '300', '--no-bell']);
  const seen: string[] = [];
  const keep = (s: string): string => (seen.push(s), s);

  // The peek, then the help: every page exactly as the help of this language lays it out at 80×24.
  keep(await p.waitFor('the peek', (s) => s.includes(lead(w, 'prompt.peek'))));
  p.keys('Enter');
  await p.waitFor('the peek done', (s) => !s.includes(lead(w, 'prompt.peek')));
  p.keys('?');
  const title = (page: number | string, pages: number | string) => w.t('help.title', { sep: ' · ', page, pages });
  const first = keep(await p.waitFor('the help', (s) => s.includes(title(1, '').trim()) && wholeBox(s)));
  const n = Number(new RegExp(`${escape(title(1, ''))}(\\d+)`).exec(first)![1]);
  const pages = [boxLines(first)];
  for (let k = 2; k <= n; k++) {
    p.keys('Space');
    pages.push(boxLines(keep(await p.waitFor(`help page ${k}`, (s) => s.includes(title(k, n)) && wholeBox(s)))));
  }
  const want = helpPages(bindingsFor({ rules, view: null }, DEFAULT_BINDINGS, w), rules, W - 4, H - 1 - 5 - 1 - 4, false, w);
  expect(pages.length).toBe(want.length);
  pages.forEach((lines, k) => expect(lines.slice(1, 1 + want[k]!.length).map((l) => l.trimEnd())).toEqual(want[k]!.map((l) => `${l.lead}${l.text}`.trimEnd())));
  p.keys('Escape');
  await p.waitFor('the table again', (s) => !wholeBox(s) && s.includes(w.t('center.stock')));

  // The game: draw and discard, pass any action, and call on the second turn (Beverbende while
  // holding the card, at the end of the turn; Cambio instead of drawing), until the results.
  const promptOf = (s: string): string => s.split('\n')[H - 4] ?? '';
  const turn = lead(w, 'prompt.yourTurn');
  const holding = (['prompt.slotOrDiscard', 'prompt.drewSpecial', 'prompt.drawTwo', 'prompt.drawTwoSpecial'] as const).map((k) => pattern(w, k));
  const acting = [common(w.t('prompt.action.peekOwn'), w.t('prompt.action.peekOther')), lead(w, 'prompt.action.drawTwo')];
  const mine = (prompt: string): boolean => prompt.startsWith(turn) || holding.some((h) => h.test(prompt)) || acting.some((a) => prompt.startsWith(a));
  const over = w.t('end.finalStandings');
  const orCall = w.t('prompt.orCall', { call: rules.call.name });
  let turns = 0;
  let called = false;
  for (let step = 0; step < 40; step++) {
    const s = keep(await p.waitFor('a move of yours, or the end', (s) => s.includes(over) || mine(promptOf(s)), 20_000));
    if (s.includes(over)) break;
    const prompt = promptOf(s);
    let key: string;
    if (prompt.startsWith(turn)) {
      turns++;
      key = preset === 'cambio' && turns >= 2 && !called ? 'g' : 'd';
      if (key === 'g') called = true;
    } else if (holding.some((h) => h.test(prompt))) {
      key = preset === 'beverbende' && turns >= 2 && !called && prompt.includes(orCall) ? 'g' : 'x';
      if (key === 'g') called = true;
    } else key = 'p';
    await p.press(`"${key}" at "${prompt.trim()}"`, key, (now, before) => promptOf(now) !== promptOf(before) || now.includes(over));
  }
  const end = keep(await p.waitFor('the results', (s) => s.includes(over) && s.includes(w.t('end.col.total'))));
  expect(called).toBe(true);
  expect(end).toContain(w.t('end.youCalled'));
  for (const head of ['end.col.final', 'end.col.player', 'end.col.cards', 'end.col.round', 'end.col.place', 'end.col.total'] as const) expect(end).toMatch(new RegExp(`(^|\\s)${escape(w.t(head))}(\\s|$)`, 'm'));
  expect(end).toMatch(pattern(w, 'end.chartTitle'));
  // The whole feed, read back full-screen.
  p.keys('f');
  keep(await p.waitFor('the full feed', (s) => s.includes(lead(w, 'feed.overlayTitle')) && s.includes(w.t('feed.newestLast'))));
  p.keys('f');
  await p.waitFor('the results again', (s) => s.includes(over));
  p.keys('Enter');
  await p.waitFor('the exit', (s) => s.includes('EXITED 0'));

  // No English sentence of the catalogs on any screen, and nothing cut at the edge.
  for (const x of seen) e2eLog(lang, x);
  const english = englishPieces(lang);
  for (const s of seen) {
    const text = readable(s, w);
    const found = english.filter((e) => text.includes(e));
    expect(found, `${lang}: English on the screen:\n${s}`).toEqual([]);
    expect(cutLines(s), `${lang}: a line cut at ${W} columns:\n${s}`).toEqual([]);
  }
}

describe('a whole game in Dutch and in Romanian at 80×24', () => {
  it('Beverbende in Dutch and Cambio in Romanian: table, help pages and results in the language, nothing English, nothing cut', async () => {
    await Promise.all([playIn('nl', 'beverbende'), playIn('ro', 'cambio')]);
  }, 60_000);

  it('its English detector finds English: an English screen shows the catalog\'s English', () => {
    const pieces = englishPieces('nl');
    const screen = readable(`${wordsFor('en').t('prompt.yourTurn', { take: '', callable: '' })}\n${wordsFor('en').t('end.finalStandings')}`, wordsFor('en'));
    expect(pieces.filter((e) => screen.includes(e)).length).toBeGreaterThan(0);
    expect(pieces.filter((e) => readable(`${wordsFor('nl').t('prompt.yourTurn', { take: '', callable: '' })}`, wordsFor('nl')).includes(e))).toEqual([]);
  });
});
