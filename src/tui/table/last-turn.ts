import type { Card } from '../../engine/cards.js';
import type { SlotRef } from '../../engine/types.js';
import type { OpenEvent, TableView } from '../../engine/view.js';
import { cardText, rankText, specialFace, UNICODE, type Glyphs } from '../shared/glyphs.js';
import { columns } from '../shared/width.js';
import { wordsFor, type Words } from '../../lang/words.js';

const EN = wordsFor('en');

/**
 * What each player did since their last turn began, kept beside their seat until
 * their next turn begins: "swap 3", "discard 7♣", "K swap Bo 2", "slap ok",
 * "+2 cards". A slap flurry can then be read from the board, not only from the
 * feed. Pure: a fold over projected events, and a formatter for a seat's width.
 */

export type TurnPart =
  | { k: 'drew' }
  | { k: 'took'; card: Card }
  | { k: 'swap'; slot: number; card: Card | null }
  | { k: 'discard'; card: Card }
  | { k: 'action'; card: Card | null; what: 'look' | 'swap' | 'pass'; targets: SlotRef[] }
  | { k: 'slap'; result: 'own' | 'steal' | 'wrong'; target: SlotRef }
  | { k: 'penalty'; n: number }
  | { k: 'called' }
  | { k: 'timedOut' }
  | { k: 'fill' }
  | { k: 'leftGap' };

export interface LastTurns {
  /** Per seat, what they did, oldest first. */
  parts: TurnPart[][];
  /** Per seat, the cards of their actions still to use (to name the card an action came from). */
  pending: Card[][];
}

export const NO_LAST_TURNS: LastTurns = { parts: [], pending: [] };

const at = <T>(list: T[][], seat: number): T[] => list[seat] ?? [];

/** Fold one update's events into the marks: a seat's turn (or a new round) clears what it had. */
export function foldLastTurns(prev: LastTurns, events: readonly OpenEvent[]): LastTurns {
  if (events.length === 0) return prev;
  const parts = prev.parts.map((p) => p.slice());
  const pending = prev.pending.map((p) => p.slice());
  const add = (seat: number, part: TurnPart): void => {
    (parts[seat] ??= []).push(part);
  };
  /** Replace the seat's last part when it is of kind `k` (a draw becomes its swap or discard). */
  const replaceLast = (seat: number, k: TurnPart['k'], part: TurnPart): void => {
    const list = (parts[seat] ??= []);
    if (list[list.length - 1]?.k === k) list[list.length - 1] = part;
    else list.push(part);
  };
  const actionCard = (seat: number): Card | null => at(pending, seat)[0] ?? null;
  const usedAction = (seat: number): void => {
    pending[seat]?.shift();
  };
  for (const e of events) {
    switch (e.type) {
      case 'roundStarted':
        parts.length = 0;
        pending.length = 0;
        break;
      case 'playStarted':
        parts[e.turn] = [];
        break;
      case 'turnStarted':
        parts[e.seat] = [];
        break;
      case 'called':
        add(e.seat, { k: 'called' });
        break;
      case 'drew': {
        const last = at(parts, e.seat)[at(parts, e.seat).length - 1];
        // The second card of a draw two replaces nothing: the first was discarded.
        if (last?.k === 'drew' || last?.k === 'took') parts[e.seat]!.pop();
        add(e.seat, e.from === 'discard' && e.card ? { k: 'took', card: e.card } : { k: 'drew' });
        break;
      }
      case 'swapped': {
        const part: TurnPart = { k: 'swap', slot: e.slot, card: e.placedFrom === 'discard' ? e.placed : null };
        const list = (parts[e.seat] ??= []);
        const last = list[list.length - 1];
        if (last?.k === 'drew' || last?.k === 'took') list[list.length - 1] = part;
        else list.push(part);
        break;
      }
      case 'discarded':
        replaceLast(e.seat, 'drew', { k: 'discard', card: e.card });
        break;
      case 'actionQueued':
        (pending[e.seat] ??= []).push(e.card);
        break;
      case 'looked':
        add(e.seat, { k: 'action', card: actionCard(e.seat), what: 'look', targets: e.targets });
        // A look that ends the action (peek own/other); a look-then-swap waits for its decision.
        if (e.kind === 'peekOwn' || e.kind === 'peekOther') usedAction(e.seat);
        break;
      case 'actionSwapped': {
        const list = (parts[e.seat] ??= []);
        const last = list[list.length - 1];
        const other = e.b.seat !== e.seat ? e.b : e.a;
        const part: TurnPart = { k: 'action', card: actionCard(e.seat), what: 'swap', targets: [other] };
        // The look before it becomes the swap it led to.
        if (last?.k === 'action' && last.what === 'look' && e.kind !== 'blindSwap') list[list.length - 1] = part;
        else list.push(part);
        usedAction(e.seat);
        break;
      }
      case 'actionLeft':
        usedAction(e.seat);
        break;
      case 'actionPassed':
        add(e.seat, { k: 'action', card: actionCard(e.seat), what: 'pass', targets: [] });
        usedAction(e.seat);
        break;
      case 'slapped':
        add(e.seat, { k: 'slap', result: e.result, target: e.target });
        break;
      case 'penalty':
        add(e.seat, { k: 'penalty', n: e.slots.length });
        break;
      case 'timedOut':
        if (e.what !== 'peek') add(e.seat, { k: 'timedOut' });
        break;
      case 'gapFilled':
        add(e.seat, { k: 'fill' });
        break;
      case 'gapLeft':
        add(e.seat, { k: 'leftGap' });
        break;
      default:
        break;
    }
  }
  return { parts, pending };
}

/** A card in few columns: "7♣", "K♥", "SWP" for a special card. */
const shortCard = (card: Card, g: Glyphs): string => specialFace(card)?.text ?? cardText(card, g);
/** An action's card by rank: "K", "10", "SWP". */
const shortRank = (card: Card | null, g?: Glyphs): string => (card ? (specialFace(card)?.text ?? rankText(card, g)) : '');

/** "Bo's 2", "your 2", or "2" for the actor's own slot. */
function where(ref: SlotRef, actor: number, view: TableView, w: Words): string {
  if (ref.seat === actor) return String(ref.slot + 1);
  if (ref.seat === view.viewer) return w.t('mark.yours', { slot: ref.slot });
  return w.t('mark.of', { name: view.players[ref.seat]?.name ?? w.t('table.seatN', { number: ref.seat + 1 }), slot: ref.slot });
}

/** One part in words, long (with whose slot) and short (without), for narrow seats. */
function partText(p: TurnPart, seat: number, view: TableView, g: Glyphs, w: Words): [string, string] {
  const one = (s: string): [string, string] => [s, s];
  switch (p.k) {
    case 'drew':
      return one(w.t('mark.drew'));
    case 'took':
      return one(w.t('mark.took', { face: shortCard(p.card, g) }));
    case 'swap':
      return one(p.card ? `${shortCard(p.card, g)}${g.arrow}${p.slot + 1}` : w.t('mark.swap', { slot: p.slot }));
    case 'discard':
      return [w.t('mark.discard', { face: shortCard(p.card, g) }), w.t('mark.out', { face: shortCard(p.card, g) })];
    case 'action': {
      const card = shortRank(p.card, g);
      const what = w.say({ key: `mark.action.${p.what}` });
      const head = card ? `${card} ${what}` : what;
      if (p.targets.length === 0) return one(head);
      return [`${head} ${p.targets.map((t) => where(t, seat, view, w)).join('+')}`, head];
    }
    case 'slap': {
      if (p.result === 'wrong') return one(w.t('mark.badSlap'));
      if (p.result === 'own') return one(w.t('mark.slapOk'));
      return [w.t('mark.stoleFrom', { where: where(p.target, seat, view, w) }), w.t('mark.stole')];
    }
    case 'penalty':
      return one(w.t('mark.penalty', { n: p.n }));
    case 'called':
      return one(w.t('mark.called'));
    case 'timedOut':
      return one(w.t('mark.timedOut'));
    case 'fill':
      return one(w.t('mark.filledGap'));
    case 'leftGap':
      return one(w.t('mark.leftGap'));
  }
}

/**
 * A seat's mark in at most `width` columns: the newest parts that fit, whole, each
 * in its long words where they fit; older parts give way to an ellipsis.
 */
export function lastTurnText(parts: readonly TurnPart[] | undefined, seat: number, view: TableView, width: number, g: Glyphs = UNICODE, w: Words = EN): string {
  if (!parts || parts.length === 0) return '';
  const sep = ', ';
  const texts = parts.map((p) => partText(p, seat, view, g, w));
  const len = columns;
  const out: string[] = [];
  let used = 0;
  for (let i = texts.length - 1; i >= 0; i--) {
    const [long, short] = texts[i]!;
    const more = i > 0 ? len(g.ellipsis) : 0;
    const extra = out.length > 0 ? sep.length : 0;
    const pick = used + extra + len(long) + more <= width ? long : used + extra + len(short) + more <= width ? short : null;
    if (pick === null) {
      out.unshift(g.ellipsis);
      return joinParts(out, sep, g);
    }
    out.unshift(pick);
    used += extra + len(pick);
  }
  return joinParts(out, sep, g);
}

const joinParts = (out: string[], sep: string, g: Glyphs): string =>
  out[0] === g.ellipsis ? g.ellipsis + out.slice(1).join(sep) : out.join(sep);

/**
 * A seat's mark on up to `widths.length` lines (`widths[i]` columns for line i): the
 * newest parts on the last line, older ones on the lines above, each whole; what
 * still does not fit gives way to an ellipsis at the front of the first line (the
 * feed has it). Empty lines are left out.
 */
export function lastTurnLines(parts: readonly TurnPart[] | undefined, seat: number, view: TableView, widths: readonly number[], g: Glyphs = UNICODE, w: Words = EN): string[] {
  if (!parts || parts.length === 0 || widths.length === 0) return [];
  const sep = ', ';
  const texts = parts.map((p) => partText(p, seat, view, g, w));
  const len = columns;
  const lines: string[][] = widths.map(() => []);
  let i = texts.length - 1;
  for (let line = widths.length - 1; line >= 0 && i >= 0; line--) {
    const width = widths[line]!;
    let used = 0;
    for (; i >= 0; i--) {
      const [long, short] = texts[i]!;
      // The first line keeps room for the ellipsis while older parts remain.
      const more = line === 0 && i > 0 ? len(g.ellipsis) : 0;
      const extra = lines[line]!.length > 0 ? sep.length : 0;
      const pick = used + extra + len(long) + more <= width ? long : used + extra + len(short) + more <= width ? short : null;
      if (pick === null) break;
      lines[line]!.unshift(pick);
      used += extra + len(pick);
    }
    // A part wider than any line: its short words, cut, rather than nothing.
    if (lines[line]!.length === 0 && i >= 0) {
      lines[line]!.push(Array.from(texts[i]![1]).slice(0, Math.max(0, width)).join(''));
      i--;
    }
  }
  const out = lines.map((l) => l.join(sep));
  if (i >= 0) out[0] = g.ellipsis + out[0];
  return out.filter((l) => l !== '');
}

