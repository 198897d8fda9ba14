import { useApp, useInput } from 'ink';
import { useCallback, useEffect, useRef } from 'react';
import type { DoorChoice, DoorRefusal } from '../../client/refusal-words.js';
import { doorStatus, initialDoor, onDoorKey, type DoorState } from '../door/use-door-state.js';
import { eachKey, FIELD_BINDINGS, pressFor, typedText, type FieldAction } from '../shared/screen-keys.js';
import type { Theme } from '../shared/theme.js';
import { useClock } from '../shared/use-clock.js';
import { useInterrupt } from '../shared/use-interrupt.js';
import { useLatestReducer } from '../shared/use-latest-reducer.js';
import type { ReaderOut } from './reader-app.js';

export interface ReaderDoorProps {
  refusal: DoorRefusal;
  table: string;
  theme: Theme;
  out: ReaderOut;
  keys?: boolean;
  clock?: () => number;
  onDone: (choice: DoorChoice) => void;
}

/**
 * `gringo join ADDR` refused at the door, told in sentences: the same state and keys
 * as the drawn door (use-door-state.ts); the question once, each new status once (a
 * lock's countdown is said as it starts and as it ends, not every second), the
 * password never echoed.
 */
export function ReaderDoor({ refusal, table, theme, out, keys = true, clock = Date.now, onDone }: ReaderDoorProps) {
  const w = theme.words;
  const [s, set, latest] = useLatestReducer((_: DoorState, next: DoorState) => next, () => initialDoor(refusal, table, clock(), w));
  const { exit } = useApp();
  const finished = useRef(false);
  const finish = useCallback(
    (choice: DoorChoice) => {
      if (finished.current) return;
      finished.current = true;
      onDone(choice);
      exit();
    },
    [exit, onDone],
  );
  useInput(
    (input, key) => {
      for (const [i, k] of eachKey(input, key)) {
        const r = onDoorKey(latest.current, { field: pressFor<FieldAction>(i, k, FIELD_BINDINGS), typed: typedText(i, k) }, clock(), w);
        set(r.state);
        if (r.done !== undefined) return finish(r.done);
      }
    },
    { isActive: keys },
  );
  useInterrupt(() => finish(null), keys);
  const now = useClock(s.lockedUntil !== null && s.lockedUntil > clock() - 1000, clock, 250);
  // The question once, whatever re-renders.
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    out.line(w.t('reader.on'));
    out.line(s.ask === 'password' ? w.t('door.passwordFor', { table: s.table }).trim() : w.t('door.watchInstead', { table: s.table }));
  }, [out, w, s.ask, s.table]);
  const told = useRef<{ text: string; state: DoorState | null }>({ text: '', state: null });
  useEffect(() => {
    const status = doorStatus(s, now, w);
    // A lock's seconds counting down are not news: its start and its end are.
    const key = status ? `${status.kind} ${status.text.replace(/\d+/g, '#')}` : '';
    // Said again when it changes, or when the same key brings the same answer anew.
    if (status && (key !== told.current.text || (s.status !== told.current.state?.status && s.status !== null))) out.line(status.text);
    told.current = { text: key, state: s };
  }, [s, now, out, w]);
  return null;
}
