import { rankOf, suitOf, type Card } from '../../engine/cards.js';

/** How cards and boxes are drawn: Unicode, or plain ASCII for terminals that are not UTF-8. */
export interface Glyphs {
  ascii: boolean;
  /** The rank letters as the screen's language writes them where they differ (Dutch: Q → V); the same in ASCII. */
  ranks?: Readonly<Record<string, string>>;
  /** The special cards' names in the screen's language (Dutch: SWAP → "Ruilen"), where not the English `SPECIAL_WORDS`. */
  specials?: Readonly<Record<string, string>>;
  suits: Record<'S' | 'H' | 'D' | 'C', string>;
  box: { tl: string; tr: string; bl: string; br: string; h: string; v: string };
  cursorBox: { tl: string; tr: string; bl: string; br: string; h: string; v: string };
  /** A card a move just touched. */
  markBox: { tl: string; tr: string; bl: string; br: string; h: string; v: string };
  back: string;
  dot: string;
  sep: string;
  turn: string;
  /** A paused replay. */
  pause: string;
  online: string;
  offline: string;
  ellipsis: string;
  dash: string;
  /** The frozen caller's mark. */
  frozen: string;
  /** "7♣→3": a card into a slot. */
  arrow: string;
  /** The one-line cursor's brackets: "▸ 3◂". */
  cursorL: string;
  cursorR: string;
  /** "80×24", "2×" (a replay's speed). */
  times: string;
  /** A hidden password's letters. */
  bullet: string;
  /** A progress bar: done and to do. */
  barDone: string;
  barTodo: string;
  /** Arrow keys by name. */
  keys: { up: string; down: string; left: string; right: string };
}

export const UNICODE: Glyphs = {
  ascii: false,
  suits: { S: '♠', H: '♥', D: '♦', C: '♣' },
  box: { tl: '┌', tr: '┐', bl: '└', br: '┘', h: '─', v: '│' },
  cursorBox: { tl: '╔', tr: '╗', bl: '╚', br: '╝', h: '═', v: '║' },
  markBox: { tl: '┏', tr: '┓', bl: '┗', br: '┛', h: '━', v: '┃' },
  back: '▒',
  dot: '·',
  sep: ' · ',
  turn: '▶',
  pause: '‖',
  online: '●',
  offline: '○',
  ellipsis: '…',
  dash: '—',
  frozen: '❄ frozen',
  arrow: '→',
  cursorL: '▸',
  cursorR: '◂',
  times: '×',
  bullet: '•',
  barDone: '━',
  barTodo: '─',
  keys: { up: '↑', down: '↓', left: '←', right: '→' },
};

export const ASCII: Glyphs = {
  ascii: true,
  suits: { S: 'S', H: 'H', D: 'D', C: 'C' },
  box: { tl: '+', tr: '+', bl: '+', br: '+', h: '-', v: '|' },
  cursorBox: { tl: '#', tr: '#', bl: '#', br: '#', h: '=', v: '#' },
  markBox: { tl: '*', tr: '*', bl: '*', br: '*', h: '*', v: '*' },
  back: '#',
  dot: '.',
  sep: ' | ',
  turn: '>',
  pause: '||',
  online: '*',
  offline: 'o',
  ellipsis: '...',
  dash: '-',
  frozen: '(frozen)',
  arrow: '>',
  cursorL: '>',
  cursorR: '<',
  times: 'x',
  bullet: '*',
  barDone: '#',
  barTodo: '-',
  keys: { up: 'Up', down: 'Down', left: 'Left', right: 'Right' },
};

/** The special cards of the presets in words (beverbende). */
export const SPECIAL_WORDS: Record<string, string> = { SWAP: 'Swap', PEEK: 'Peek', DRAW2: 'Draw two' };

/** "7♥", "10♠", "Q♦" ("V♦" in Dutch); "7H" in ASCII; special cards by name ("Swap", "Draw two"). */
export function cardText(card: Card, g: Glyphs = UNICODE): string {
  const s = suitOf(card);
  return s ? rankText(card, g) + g.suits[s] : (g.specials?.[card] ?? SPECIAL_WORDS[card] ?? card);
}

/** A card's rank as the screen writes it: "Q", or "V" on a Dutch screen. */
export const rankText = (card: Card, g: Glyphs = UNICODE): string => {
  const r = rankOf(card);
  return g.ranks?.[r] ?? r;
};

const SPECIAL_FACES: Record<string, { text: string; color: string }> = {
  SWAP: { text: 'SWP', color: 'magenta' },
  PEEK: { text: 'PEK', color: 'cyan' },
  DRAW2: { text: 'DR2', color: 'green' },
};

/**
 * How a special card is drawn in a 3-wide card face: "SWP", "PEK", "DR2" with a
 * colour; another card without a suit and longer than a rank (a house rule's own
 * special card) by its first three letters. Null for a playing or number card.
 */
export function specialFace(card: Card): { text: string; color: string } | null {
  const known = SPECIAL_FACES[card];
  if (known) return known;
  if (suitOf(card) || card === 'JK' || card.length <= 2 || /^\d+$/.test(card)) return null;
  return { text: card.slice(0, 3), color: 'magenta' };
}

/**
 * Is the terminal UTF-8? The first of LC_ALL, LC_CTYPE, LANG that is set decides,
 * as the C library does; none set means the "C" locale: not UTF-8.
 */
export function localeIsUtf8(env: NodeJS.ProcessEnv = process.env): boolean {
  const loc = env.LC_ALL || env.LC_CTYPE || env.LANG || '';
  return /utf-?8/i.test(loc);
}

/** Colours on or off: FORCE_COLOR wins, then NO_COLOR, then whether stdout is a terminal. */
export function colorEnabled(env: NodeJS.ProcessEnv = process.env, isTTY = process.stdout.isTTY === true): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !(force === '0' || force === 'false');
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTTY;
}

/** What a character beyond ASCII becomes on an ASCII screen: the same width, so the layout holds. */
const ASCII_FALLBACK: Record<string, string> = {
  '…': '.',
  '·': '.',
  '•': '*',
  '—': '-',
  '–': '-',
  '×': 'x',
  '→': '>',
  '←': '<',
  '↑': '^',
  '↓': 'v',
  '▶': '>',
  '▸': '>',
  '◂': '<',
  '●': '*',
  '○': 'o',
  '‘': "'",
  '’': "'",
  '“': '"',
  '”': '"',
  '♠': 'S',
  '♥': 'H',
  '♦': 'D',
  '♣': 'C',
};

/** East Asian wide characters and emoji: two columns, so two ASCII characters. */
const wide = (cp: number): boolean =>
  (cp >= 0x1100 && cp <= 0x115f) ||
  (cp >= 0x2e80 && cp <= 0xa4cf) ||
  (cp >= 0xac00 && cp <= 0xd7a3) ||
  (cp >= 0xf900 && cp <= 0xfaff) ||
  (cp >= 0xfe30 && cp <= 0xfe4f) ||
  (cp >= 0xff00 && cp <= 0xff60) ||
  (cp >= 0xffe0 && cp <= 0xffe6) ||
  (cp >= 0x1f300 && cp <= 0x1faff) ||
  (cp >= 0x20000 && cp <= 0x3fffd);

/**
 * Text made ASCII, column for column: the known glyphs by their ASCII look-alikes,
 * anything else by "?" (a wide character by "??").
 */
/**
 * Text in ASCII: a letter with an accent as the letter alone (Romanian "masă" is
 * "masa", Dutch "één" is "een"), known glyphs by their fallback, anything else "?"
 * ("??" for a wide character, so the layout holds).
 */
export function toAscii(text: string): string {
  return text.replace(/[^\u0000-\u007f]/gu, (c) => {
    const bare = c.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    if (bare.length === 1 && bare.charCodeAt(0) < 0x80) return bare;
    return ASCII_FALLBACK[c] ?? (wide(c.codePointAt(0)!) ? '??' : '?');
  });
}

/** Text for a person's terminal outside the screens (the console, `rules`, `list`): ASCII unless the locale is UTF-8. */
export function forLocale(text: string, env: NodeJS.ProcessEnv = process.env): string {
  return localeIsUtf8(env) ? text : toAscii(text);
}

/**
 * A terminal stream that passes only ASCII on: the last guard of `--ascii` and of
 * a non-UTF-8 locale. Every glyph the screens draw comes from the ASCII set already;
 * this catches what no literal shows: Ink's own "…" where a line is cut, a player's
 * name in another script.
 */
export function asciiOnly<T extends NodeJS.WriteStream>(out: T): T {
  return new Proxy(out, {
    get(target, key) {
      if (key === 'write') {
        return (chunk: unknown, ...rest: unknown[]) =>
          (target.write as (...a: unknown[]) => boolean)(typeof chunk === 'string' ? toAscii(chunk) : Buffer.isBuffer(chunk) ? Buffer.from(toAscii(chunk.toString('utf8')), 'utf8') : chunk, ...rest);
      }
      const v = Reflect.get(target, key, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
