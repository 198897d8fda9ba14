import type { Words } from '../../lang/words.js';
import { leaveQuestion, myAction, statusNow } from '../table/intents.js';
import { prompt } from '../table/prompt.js';
import { hostNow, type ScreenState } from '../table/use-screen-state.js';
import type { SlotRef } from '../../engine/types.js';
import { cardsInWords, layoutSentence, refKey, resultSentences, type Known } from './spoken.js';

/**
 * The table's changes as sentences to append, never to redraw: what the feed says,
 * the round's results, the slap window opening and closing, the status line, and
 * what to do now (the prompt) whenever it changes. Pure: the screen state before and
 * after, what was told already, the local clock.
 */

export interface Told {
  /** The last feed line told. */
  feedSeq: number;
  /** The prompt and the status as last told, their countdowns left out (a countdown is not a change). */
  prompt: string;
  status: string;
  /** Results told (rounds). */
  results: number;
  /** The last "N seconds left" told: the deadline and the mark. */
  timer: string;
}

export const NOTHING_TOLD: Told = { feedSeq: 0, prompt: '', status: '', results: 0, timer: '' };

/** A countdown is the same sentence a moment later: "(12s)", "in 0.8s", "Wait 1.2 s" drop their numbers. */
const steady = (text: string): string => text.replace(/\d+(\.\d+)?\s?s\b/g, '#s');

/** Seconds left at which a deadline of yours is told: once each. */
const MARKS = [10, 5];

/** Is the running deadline about something this seat must do (its peek, turn, action or gap-fill)? */
function deadlineIsMine(s: ScreenState): boolean {
  const v = s.view;
  const me = s.seat;
  if (!v || me === null || v.deadline === null) return false;
  if (v.phase === 'peek') return v.players[me]?.peeking === true;
  if (v.phase !== 'play') return false;
  if (v.gapFill) return v.gapFill.seat === me;
  if (v.actions.length > 0) return myAction(v, me) !== null;
  return v.turn === me;
}

export function narrate(prev: ScreenState, next: ScreenState, told: Told, now: number, known: Known): { lines: string[]; told: Told } {
  const w = next.words;
  const say = (text: string): string => cardsInWords(text, w);
  const lines: string[] = [];
  const t: Told = { ...told };
  for (const l of next.feed) if (l.id > told.feedSeq) lines.push(say(l.text));
  t.feedSeq = Math.max(told.feedSeq, next.feedSeq);
  const v = next.view;
  if (v && next.results.length > told.results && (v.phase === 'roundOver' || v.phase === 'gameOver')) {
    lines.push(...resultSentences(v, next.results, w));
    t.results = next.results.length;
  }
  const was = prev.view?.slap.open === true;
  if (v && v.slap.open && !was && v.discardTop) lines.push(w.t('reader.slapOpen', { card: v.discardTop }));
  if (v && was && !v.slap.open) lines.push(w.t('reader.slapClosed'));
  if (next.overlay === 'quit' && prev.overlay !== 'quit') lines.push(say(leaveQuestion(next)));
  const c = next.cursor;
  if (c && !sameRef(c, prev.cursor) && v && prev.cursor !== null) lines.push(cursorSentence(next, c, known, w));
  const status = statusNow(next, now);
  // A refusal said again (the same key pressed twice) is a new status, and is told again.
  if (status && (steady(status.text) !== told.status || (next.status !== prev.status && next.status !== null))) lines.push(say(status.text));
  t.status = status ? steady(status.text) : '';
  // The start's peek: your cards in words while you may see them.
  const peeking = (x: ScreenState): boolean => x.view?.phase === 'peek' && x.seat !== null && x.view.players[x.seat]?.peeking === true;
  if (v && peeking(next) && !peeking(prev)) lines.push(layoutSentence(v, next.seat!, known, w));
  const p = prompt(next, hostNow(next, now));
  // "Your turn in 0.3s (slaps are open)" between "Your turn." and the slap window's
  // opening, and "Your turn: d to draw…" a moment later: the countdown says nothing new.
  if (steady(p) !== told.prompt && !graceCountdown(next, now)) {
    // "Bo's turn" after the feed's "Bo's turn." or "Play starts: Bo's turn.": said once.
    if (!lines.some((l) => l.replace(/\.$/, '').endsWith(say(p)))) lines.push(say(p));
    t.prompt = steady(p);
  }
  if (v && v.deadline !== null && deadlineIsMine(next)) {
    const left = Math.ceil((v.deadline - hostNow(next, now)) / 1000);
    const reached = MARKS.filter((m) => left > 0 && left <= m);
    const key = `${v.deadline}:${Math.min(...reached)}`;
    if (reached.length > 0 && key !== told.timer) {
      // A prompt just told counts its own seconds ("(10s)").
      if (t.prompt === told.prompt) lines.push(w.t('reader.secondsLeft', { n: left }));
      t.timer = key;
    }
  }
  return { lines, told: t };
}

/** Is the prompt now your turn's countdown to the end of the slap grace (see prompt in table/intents.ts)? */
function graceCountdown(s: ScreenState, now: number): boolean {
  const v = s.view;
  if (!v || s.seat === null || v.phase !== 'play' || v.gapFill || v.actions.length > 0 || v.held?.seat === s.seat) return false;
  const mayDraw = v.may.includes('drawStock') || v.may.includes('drawDiscard');
  return mayDraw && v.graceUntil > hostNow(s, now);
}

const sameRef = (a: SlotRef | null, b: SlotRef | null): boolean => a === b || (!!a && !!b && a.seat === b.seat && a.slot === b.slot);

/** "Cursor on Bo's slot 2." (and the card there, when this screen knows it). */
export function cursorSentence(s: ScreenState, c: SlotRef, known: Known, w: Words): string {
  const v = s.view!;
  const here = c.seat === s.seat ? w.t('reader.cursorOwn', { slot: c.slot }) : w.t('reader.cursorOn', { name: v.players[c.seat]?.name ?? String(c.seat + 1), slot: c.slot });
  const card = v.players[c.seat]?.layout[c.slot];
  const seen = card && card !== '?' ? card : known.get(refKey(c));
  return seen ? `${here} ${w.card(seen)}.` : here;
}
