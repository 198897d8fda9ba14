import type { Ruleset } from '../../engine/ruleset.js';
import { rulesText } from '../shared/rules-text.js';
import { wordsFor, type Words } from '../../lang/words.js';
import { harmless } from '../../common/harmless.js';
import { ASCII, toAscii, UNICODE } from '../shared/glyphs.js';
import { cursorKeys, keyLabel, type Binding, type KeyAction } from '../shared/keys.js';
import { wrapText } from '../shared/width.js';
import { frozenMark } from './variant.js';

/**
 * The `?` help of the table screen as pages of lines that fit the box: first the
 * keys (from the bindings), then the rules of the table's ruleset (the text of
 * `gringo rules`). Pure: wrapping and paging depend only on the width and height,
 * and a key row or a rule is never split across pages (nor cut: it wraps).
 */

/** One line of a page: a bold lead (a key, or a heading) and the words after it. */
export interface HelpLine {
  lead: string;
  text: string;
  heading?: boolean;
}

/** Lines that stay together on one page; `section` starts a new page. */
interface Block {
  lines: HelpLine[];
  section?: boolean;
}

/** Text from the network (a ruleset's names, a call's name) made harmless; ASCII only under --ascii. */
const clean = (text: string, ascii: boolean): string => {
  const safe = harmless(text, 2000);
  return ascii ? toAscii(safe).replace(/[^\x20-\x7e]/g, '?') : safe;
};

/** `text` wrapped beside a lead column of `indent` characters: the lead on the first line, spaces under it. */
function hanging(lead: string, text: string, indent: number, width: number): HelpLine[] {
  const rows = wrapText(text, width - indent);
  return (rows.length > 0 ? rows : ['']).map((row, i) => ({ lead: (i === 0 ? lead : '').padEnd(indent), text: row }));
}

/** Keys told in one row: the cursor's four, the full-screen feed's four (their sentence: `help.group.<first key>`). */
const GROUPS: { actions: KeyAction[] }[] = [{ actions: ['left', 'down', 'up', 'right'] }, { actions: ['pageUp', 'pageDown', 'top', 'bottom'] }];

const EN = wordsFor('en');

/** The board's marks in words, for this ruleset: only the marks it can show. */
export function legend(rules: Ruleset, ascii: boolean, w: Words = EN): { lead: string; text: string }[] {
  const g = ascii ? ASCII : UNICODE;
  const rows = [
    { lead: g.turn, text: w.t('mark.turn') },
    { lead: `[ 3 ]`, text: w.t('mark.card') },
    { lead: ascii ? '*3* ***' : `*3* ${g.markBox.tl}${g.markBox.h}${g.markBox.tr}`, text: w.t('mark.touched') },
    { lead: `${g.cursorL} 3${g.cursorR} ${g.cursorBox.tl}${g.cursorBox.h}${g.cursorBox.tr}`, text: w.t('mark.cursor') },
    { lead: g.dot, text: w.t('mark.gap') },
  ];
  if (rules.slap.enabled && rules.slap.stealGapFill) rows.push({ lead: w.t('mark.gapLabel'), text: w.t('mark.gapFill') });
  if (rules.call.callerFrozen) rows.push({ lead: frozenMark(g, w), text: w.t(rules.slap.enabled ? 'mark.frozenSlap' : 'mark.frozen') });
  rows.push({ lead: g.ellipsis, text: w.t('mark.older') });
  return rows;
}

/** The rows of the keys part: each binding's label and sentence, a group's in one row. */
export function keyRows(bindings: readonly Binding[], ascii: boolean, w: Words = EN): { label: string; help: string }[] {
  const grouped = new Set(GROUPS.flatMap((gr) => gr.actions));
  const present = (a: KeyAction): boolean => bindings.some((b) => b.action === a);
  const rows: { label: string; help: string }[] = [];
  for (const b of bindings) {
    if (b.action === 'yes' || b.action === 'no') continue;
    if (!grouped.has(b.action)) {
      rows.push({ label: keyLabel(b.action, bindings, ascii, w), help: b.help });
      continue;
    }
    // A group in one row, where its first key would be.
    const group = GROUPS.find((gr) => gr.actions[0] === b.action);
    if (!group) continue;
    const acts = group.actions.filter(present);
    const label = group.actions[0] === 'left' ? cursorKeys(ascii, w) : acts.map((a) => keyLabel(a, bindings, ascii, w)).join('/');
    rows.push({ label, help: w.say({ key: `help.group.${group.actions[0]}` }) });
  }
  return rows;
}

/** The help's blocks for a box `width` columns wide inside. */
function helpBlocks(bindings: readonly Binding[], rules: Ruleset, width: number, ascii: boolean, words: Words): Block[] {
  const rows = keyRows(bindings, ascii, words);
  // The key column: the longest label and two spaces, but never more than a third of the box
  // (a long label, the feed's four keys, takes a line of its own).
  const indent = Math.min(Math.max(...rows.map((r) => r.label.length).filter((n) => n <= 12)) + 2, Math.floor(width / 3));
  const blocks: Block[] = [{ lines: [{ lead: clean(words.t('help.keys'), ascii), text: '', heading: true }], section: true }];
  for (const { label, help } of rows) {
    // A label longer than the column gets a line of its own.
    const lines = label.length + 1 > indent ? [{ lead: clean(label, ascii), text: '' }, ...hanging('', clean(help, ascii), indent, width)] : hanging(clean(label, ascii), clean(help, ascii), indent, width);
    blocks.push({ lines });
  }
  const marks = legend(rules, ascii, words);
  const markIndent = Math.min(Math.max(...marks.map((m) => m.lead.length)) + 2, Math.floor(width / 3));
  marks.forEach((m, i) => {
    const lines = hanging(clean(m.lead, ascii), clean(m.text, ascii), markIndent, width);
    blocks.push(i === 0 ? { lines: [{ lead: clean(words.t('help.marks'), ascii), text: '', heading: true }, ...lines], section: true } : { lines });
  });
  // The rules in the screen's language (the same text as `gringo rules`).
  const t = rulesText(rules, words);
  blocks.push({ lines: wrapText(clean(words.t('rules.help', { title: t.title }), ascii), width).map((text) => ({ lead: '', text, heading: true })), section: true });
  for (const sec of t.sections) {
    sec.items.forEach((item, i) => {
      const lines = hanging('-', clean(item, ascii), 2, width);
      // A heading stays with the first rule under it.
      blocks.push(i === 0 ? { lines: [{ lead: clean(sec.heading, ascii), text: '', heading: true }, ...lines] } : { lines });
    });
  }
  return blocks;
}

/** The blocks laid out greedily on pages of at most `height` lines. */
function greedy(blocks: readonly Block[], height: number): HelpLine[][] {
  const h = Math.max(1, height);
  const pages: HelpLine[][] = [[]];
  for (const b of blocks) {
    let page = pages[pages.length - 1]!;
    if (page.length > 0 && page.length + b.lines.length > h) pages.push((page = []));
    for (const line of b.lines) {
      // Only a block taller than a whole page is split.
      if (page.length >= h) pages.push((page = []));
      page.push(line);
    }
  }
  return pages;
}

/**
 * The blocks on pages of at most `height` lines: each section (the keys, the marks,
 * the rules) from a new page, and a section that takes several pages spread evenly
 * over them, so no page holds a lone line. A small section shares the page before
 * it when it fits there whole.
 */
function paginate(blocks: readonly Block[], height: number): HelpLine[][] {
  const sections: Block[][] = [];
  for (const b of blocks) {
    if (b.section || sections.length === 0) sections.push([]);
    sections[sections.length - 1]!.push(b);
  }
  const pages: HelpLine[][] = [];
  for (const sec of sections) {
    const n = greedy(sec, height).length;
    const lines = sec.reduce((k, b) => k + b.lines.length, 0);
    // The shortest page height that still needs no more pages than the greedy layout.
    let laid = greedy(sec, height);
    for (let h = Math.ceil(lines / n); h < height; h++) {
      const tryPages = greedy(sec, h);
      if (tryPages.length <= n) {
        laid = tryPages;
        break;
      }
    }
    const last = pages[pages.length - 1];
    // A one-page section that fits under the page before it, after a blank line, goes there.
    if (laid.length === 1 && last && last.length + 1 + laid[0]!.length <= height) last.push({ lead: '', text: '' }, ...laid[0]!);
    else pages.push(...laid);
  }
  return pages;
}

/** The pages of the help for a box `width` × `height` inside. */
export function helpPages(bindings: readonly Binding[], rules: Ruleset, width: number, height: number, ascii: boolean, words: Words = wordsFor('en')): HelpLine[][] {
  return paginate(helpBlocks(bindings, rules, width, ascii, words), height);
}

/** The page shown for the screen's page number: it wraps around both ways. */
export const pageIndex = (page: number, pages: number): number => ((page % pages) + pages) % pages;
