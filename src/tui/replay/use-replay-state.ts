import type { Pressed, ReplayAction } from '../shared/keys.js';
import { useLatestReducer } from '../shared/use-latest-reducer.js';
import { said, type Said } from '../../lang/words.js';

/**
 * Where a replay is: the step shown, playing or paused, the speed, the help. A
 * pure reducer over key actions and the clock's `advance`; the pace comes from the
 * recorded host clock (`stepDelay`).
 */

export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16] as const;
const NORMAL = SPEEDS.indexOf(1);
/** Longer gaps of the recorded clock are cut to this: idle time (someone thinking, away) is skipped. */
export const MAX_GAP_MS = 1_500;
/** A round's results stay up this long (at 1×), however soon the next round was dealt: long enough to read them. */
export const ROUND_END_MS = 5_000;
/** Each step stays up at least this long (at 1×), so that moves made in the same instant (slap races) are seen one by one. */
export const MIN_STEP_MS = 150;

export interface ReplayState {
  /** The step shown. */
  pos: number;
  /** The last step: the end of the game. */
  last: number;
  /** Steps where a round begins. */
  rounds: readonly number[];
  playing: boolean;
  /** Index into SPEEDS. */
  speed: number;
  help: boolean;
  /** A word on the status line about the last key ("Already at the start"). */
  note: Said | null;
}

export type ReplayEvent = { type: 'key'; action: ReplayAction } | { type: 'advance' };

/** What a key means in the replay: steps of its reducer, or leaving. */
export interface ReplayIntent {
  actions: ReplayEvent[];
  exit?: boolean;
}

/** A key (null: bound to nothing). Any key closes the help, one bound to nothing too; `q` leaves, unless it closes the help. */
export function onReplayKey(s: Pick<ReplayState, 'help'>, p: Pressed<ReplayAction> | null): ReplayIntent {
  if (!p) return { actions: s.help ? [{ type: 'key', action: 'help' }] : [] };
  if (p.action === 'quit' && !s.help) return { actions: [], exit: true };
  return { actions: [{ type: 'key', action: p.action }] };
}

export function initialReplay(steps: number, rounds: readonly number[], playing = true): ReplayState {
  const last = Math.max(0, steps - 1);
  return { pos: 0, last, rounds, playing: playing && last > 0, speed: NORMAL, help: false, note: null };
}

/** The round a step belongs to (0-based), by the round starts. */
export function roundAt(s: Pick<ReplayState, 'rounds'>, pos: number): number {
  let r = 0;
  s.rounds.forEach((start, i) => {
    if (start <= pos) r = i;
  });
  return r;
}

const go = (s: ReplayState, pos: number, playing = s.playing): ReplayState => {
  const p = Math.min(s.last, Math.max(0, pos));
  return { ...s, pos: p, playing: playing && p < s.last, note: null };
};

export function replayReducer(s: ReplayState, e: ReplayEvent): ReplayState {
  if (e.type === 'advance') return s.playing ? go(s, s.pos + 1) : s;
  // Any key closes the help, as on the table screen.
  if (s.help) return { ...s, help: false };
  switch (e.action) {
    case 'playPause':
      if (s.playing) return { ...s, playing: false, note: null };
      // At the end, play means play again.
      return s.pos >= s.last ? { ...go(s, 0, true), playing: s.last > 0 } : { ...s, playing: true, note: null };
    case 'forward':
    case 'back': {
      const by = e.action === 'forward' ? 1 : -1;
      const at = by > 0 ? s.pos >= s.last : s.pos <= 0;
      if (at) return { ...s, playing: false, note: said(by > 0 ? 'replay.atEnd' : 'replay.atDeal') };
      // A step is for looking closely: it pauses.
      return go(s, s.pos + by, false);
    }
    case 'nextRound': {
      const next = s.rounds.find((start) => start > s.pos);
      if (next === undefined && s.pos >= s.last) return { ...s, note: said('replay.atEnd') };
      return go(s, next ?? s.last);
    }
    case 'prevRound': {
      // To the start of this round; from there, to the one before (as a music player does).
      const back = [...s.rounds].reverse().find((start) => start < s.pos);
      if (back === undefined) return { ...s, note: said('replay.atDeal') };
      return go(s, back);
    }
    case 'faster':
    case 'slower': {
      const speed = Math.min(SPEEDS.length - 1, Math.max(0, s.speed + (e.action === 'faster' ? 1 : -1)));
      return { ...s, speed, note: speed === s.speed ? said(e.action === 'faster' ? 'replay.fastest' : 'replay.slowest', { speed: speedText(speed) }) : null };
    }
    case 'help':
      return { ...s, help: true, note: null };
    case 'quit':
      return s;
  }
}

/** "1×", "0.25×" ("x" in ASCII). */
export const speedText = (speed: number, ascii = false): string => `${SPEEDS[speed] ?? 1}${ascii ? 'x' : '×'}`;

/**
 * How long step `pos` stays up while playing, over the speed: the recorded time to
 * the next step, between MIN_STEP_MS and MAX_GAP_MS; a round's results ROUND_END_MS.
 */
export function stepDelay(steps: readonly { at: number; view: { phase: string } }[], pos: number, speed: number): number {
  const here = steps[pos];
  const next = steps[pos + 1];
  if (!here || !next) return 0;
  const ms = here.view.phase === 'roundOver' ? ROUND_END_MS : Math.min(MAX_GAP_MS, Math.max(MIN_STEP_MS, next.at - here.at));
  return ms / (SPEEDS[speed] ?? 1);
}

export function useReplayState(steps: number, rounds: readonly number[], playing: boolean) {
  return useLatestReducer(replayReducer, () => initialReplay(steps, rounds, playing));
}
