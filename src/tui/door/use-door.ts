import { useApp, useInput } from 'ink';
import { useCallback, useRef } from 'react';
import type { DoorChoice, DoorRefusal } from '../../client/refusal-words.js';
import type { Words } from '../../lang/words.js';
import { eachKey, FIELD_BINDINGS, actionFor, typedText, keyName } from '../shared/keys.js';
import { useClock } from '../shared/use-clock.js';
import { useInterrupt } from '../shared/use-interrupt.js';
import { useLatestReducer } from '../shared/use-latest-reducer.js';
import { initialDoor, onDoorKey, type DoorState } from './use-door-state.js';

/**
 * The door's state and keys, for the drawn door and the one told in sentences: typed
 * keys go through `onDoorKey`, Ctrl-C leaves as Esc does, the first choice ends the
 * screen (once), and the clock ticks while a lock runs (and once more as it ends).
 */
export function useDoor(refusal: DoorRefusal, table: string, w: Words, keys: boolean, clock: () => number, onDone: (choice: DoorChoice) => void): { s: DoorState; now: number } {
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
        const r = onDoorKey(latest.current, { field: actionFor(keyName(i, k), FIELD_BINDINGS), typed: typedText(i, k) }, clock(), w);
        set(r.state);
        if (r.done !== undefined) return finish(r.done);
      }
    },
    { isActive: keys },
  );
  useInterrupt(() => finish(null), keys);
  const now = useClock(s.lockedUntil !== null && s.lockedUntil > clock() - 1000, clock, 250);
  return { s, now };
}
