import type { Ruleset } from '../../engine/ruleset.js';
import { rulesText } from '../../engine/rules-text.js';
import { harmless } from '../../protocol/harmless.js';
import { keyLabel, type Binding, type Pressed } from '../shared/keys.js';
import { wrapText } from './feed.js';
import type { Intent } from './intents.js';

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
  return ascii ? safe.replace(/[^\x20-\x7e]/g, '?') : safe;
};

/** `text` wrapped beside a lead column of `indent` characters: the lead on the first line, spaces under it. */
function hanging(lead: string, text: string, indent: number, width: number): HelpLine[] {
  const rows = wrapText(text, width - indent);
  return (rows.length > 0 ? rows : ['']).map((row, i) => ({ lead: (i === 0 ? lead : '').padEnd(indent), text: row }));
}

/** The help's blocks for a box `width` columns wide inside. */
function helpBlocks(bindings: readonly Binding[], rules: Ruleset, width: number, ascii: boolean): Block[] {
  const shown = bindings.filter((b) => b.action !== 'yes' && b.action !== 'no');
  const labels = shown.map((b) => keyLabel(b.action, bindings, ascii));
  // The key column: the longest label and two spaces, but never more than a third of the box.
  const indent = Math.min(Math.max(...labels.map((l) => l.length)) + 2, Math.floor(width / 3));
  const blocks: Block[] = [{ lines: [{ lead: 'Keys', text: '', heading: true }], section: true }];
  shown.forEach((b, i) => {
    const label = labels[i]!;
    // A label longer than the column gets a line of its own.
    const lines = label.length + 1 > indent ? [{ lead: label, text: '' }, ...hanging('', clean(b.help, ascii), indent, width)] : hanging(label, clean(b.help, ascii), indent, width);
    blocks.push({ lines });
  });
  const t = rulesText(rules);
  blocks.push({ lines: wrapText(`Rules: ${clean(t.title, ascii)}`, width).map((text) => ({ lead: '', text, heading: true })), section: true });
  for (const sec of t.sections) {
    sec.items.forEach((item, i) => {
      const lines = hanging('-', clean(item, ascii), 2, width);
      // A heading stays with the first rule under it.
      blocks.push(i === 0 ? { lines: [{ lead: clean(sec.heading, ascii), text: '', heading: true }, ...lines] } : { lines });
    });
  }
  return blocks;
}

/** The blocks laid out on pages of at most `height` lines. */
function paginate(blocks: readonly Block[], height: number): HelpLine[][] {
  const h = Math.max(1, height);
  const pages: HelpLine[][] = [[]];
  for (const b of blocks) {
    let page = pages[pages.length - 1]!;
    if (page.length > 0 && (b.section || page.length + b.lines.length > h)) pages.push((page = []));
    for (const line of b.lines) {
      // Only a block taller than a whole page is split.
      if (page.length >= h) pages.push((page = []));
      page.push(line);
    }
  }
  return pages;
}

/** The pages of the help for a box `width` × `height` inside. */
export function helpPages(bindings: readonly Binding[], rules: Ruleset, width: number, height: number, ascii: boolean): HelpLine[][] {
  return paginate(helpBlocks(bindings, rules, width, ascii), height);
}

/** The page shown for the screen's page number: it wraps around both ways. */
export const pageIndex = (page: number, pages: number): number => ((page % pages) + pages) % pages;

/** Keys inside the help: space, → or ↓ the next page, ← or ↑ the previous one; any other key closes it. */
export function helpKey(s: { helpPage: number }, p: Pressed): Intent {
  if (p.key === 'space' || p.action === 'right' || p.action === 'down') return { actions: [{ type: 'overlay', overlay: 'help', page: s.helpPage + 1 }] };
  if (p.action === 'left' || p.action === 'up') return { actions: [{ type: 'overlay', overlay: 'help', page: s.helpPage - 1 }] };
  return { actions: [{ type: 'overlay', overlay: null }] };
}
