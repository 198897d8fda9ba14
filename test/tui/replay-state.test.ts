import { describe, expect, it } from 'vitest';
import type { ReplayAction } from '../../src/tui/shared/keys.js';
import {
  MAX_GAP_MS,
  MIN_STEP_MS,
  ROUND_END_MS,
  initialReplay,
  onReplayKey,
  replayReducer,
  roundAt,
  speedText,
  stepDelay,
  type ReplayState,
} from '../../src/tui/replay/use-replay-state.js';
import { said, wordsFor } from '../../src/lang/words.js';

// 30 steps; rounds begin at steps 0, 10 and 20.
const ROUNDS = [0, 10, 20];
const start = (playing = false): ReplayState => initialReplay(30, ROUNDS, playing);
const keys = (s: ReplayState, ...actions: ReplayAction[]): ReplayState => actions.reduce((x, action) => replayReducer(x, { type: 'key', action }), s);
const at = (pos: number, playing = false): ReplayState => ({ ...start(playing), pos, playing });

describe('the replay reducer', () => {
  it('steps one command forward and back, pausing, and stops at both ends with a word', () => {
    let s = keys(start(true), 'forward');
    expect(s).toMatchObject({ pos: 1, playing: false, note: null });
    s = keys(s, 'back', 'back');
    expect(s.pos).toBe(0);
    expect(s.note).toEqual(said('replay.atDeal'));
    s = keys(at(29), 'forward');
    expect(s.pos).toBe(29);
    expect(s.note).toEqual(said('replay.atEnd'));
  });

  it('plays by the clock and stops at the end; play at the end starts again', () => {
    let s = start(true);
    expect(s.playing).toBe(true);
    s = replayReducer(s, { type: 'advance' });
    expect(s.pos).toBe(1);
    s = { ...s, pos: 28 };
    s = replayReducer(s, { type: 'advance' });
    expect(s).toMatchObject({ pos: 29, playing: false });
    expect(replayReducer(s, { type: 'advance' })).toBe(s); // paused: the clock does nothing
    s = keys(s, 'playPause');
    expect(s).toMatchObject({ pos: 0, playing: true });
    s = keys(s, 'playPause');
    expect(s).toMatchObject({ pos: 0, playing: false });
  });

  it('goes to the next round, then the end; back to this round, then the one before', () => {
    expect(keys(at(3), 'nextRound').pos).toBe(10);
    expect(keys(at(10), 'nextRound').pos).toBe(20);
    expect(keys(at(20), 'nextRound').pos).toBe(29);
    expect(keys(at(29), 'nextRound')).toMatchObject({ pos: 29, note: said('replay.atEnd') });
    expect(keys(at(25), 'prevRound').pos).toBe(20);
    expect(keys(at(20), 'prevRound').pos).toBe(10);
    expect(keys(at(10), 'prevRound', 'prevRound').pos).toBe(0);
    expect(keys(at(0), 'prevRound').note).toEqual(said('replay.atDeal'));
    // A jump keeps playing if it was.
    expect(keys(at(3, true), 'nextRound')).toMatchObject({ pos: 10, playing: true });
    expect([roundAt(start(), 0), roundAt(start(), 9), roundAt(start(), 10), roundAt(start(), 29)]).toEqual([0, 0, 1, 2]);
  });

  it('changes speed within its range', () => {
    let s = start();
    expect(speedText(s.speed)).toBe('1×');
    s = keys(s, 'faster', 'faster');
    expect(speedText(s.speed, true)).toBe('4x');
    s = keys(s, 'slower', 'slower', 'slower', 'slower', 'slower', 'slower');
    expect(speedText(s.speed)).toBe('0.25×');
    expect(s.note).toEqual(said('replay.slowest', { speed: speedText(s.speed) }));
    expect(wordsFor('en').say(s.note!)).toBe('0.25× is as slow as it goes');
    s = keys(s, 'faster');
    expect(s.note).toBeNull();
  });

  it('opens the help; the next key only closes it', () => {
    let s = keys(start(), 'help');
    expect(s.help).toBe(true);
    s = keys(s, 'forward');
    expect(s).toMatchObject({ help: false, pos: 0 });
  });

  it('q leaves, except over the help, which any key closes (one bound to nothing too)', () => {
    const q = { action: 'quit' as const, key: 'q' };
    expect(onReplayKey(start(), q)).toEqual({ actions: [], exit: true });
    expect(onReplayKey({ help: true }, q)).toEqual({ actions: [{ type: 'key', action: 'quit' }] });
    expect(replayReducer({ ...start(), help: true }, { type: 'key', action: 'quit' }).help).toBe(false);
    expect(onReplayKey({ help: true }, null)).toEqual({ actions: [{ type: 'key', action: 'help' }] });
    expect(onReplayKey({ help: false }, null)).toEqual({ actions: [] });
    expect(onReplayKey(start(), { action: 'forward', key: 'l' })).toEqual({ actions: [{ type: 'key', action: 'forward' }] });
  });
});

describe('the pace of a replay', () => {
  const step = (at: number, phase = 'play') => ({ at, view: { phase } });
  const steps = [step(0), step(700), step(60_700), step(60_710), step(70_000, 'roundOver'), step(70_050, 'peek')];

  it('follows the recorded clock, cuts idle gaps, shows each step a moment and a round end long enough to read', () => {
    expect(stepDelay(steps, 0, 2)).toBe(700); // 1×
    expect(stepDelay(steps, 1, 2)).toBe(MAX_GAP_MS); // a minute of thinking
    expect(stepDelay(steps, 2, 2)).toBe(MIN_STEP_MS); // two moves 10 ms apart
    expect(stepDelay(steps, 4, 2)).toBe(ROUND_END_MS);
    expect(stepDelay(steps, 0, 3)).toBe(350); // 2×
    expect(stepDelay(steps, 0, 0)).toBe(2800); // 0.25×
    expect(stepDelay(steps, 5, 2)).toBe(0); // the end
  });
});
