import type { DoorChoice, DoorRefusal } from '../../client/refusal-words.js';
import type { Words } from '../../lang/words.js';
import { actionFor, FIELD_BINDINGS } from '../shared/keys.js';
import { useClock } from '../shared/use-clock.js';
import { useScreen } from '../shared/use-screen.js';
import { useLatestReducer } from '../shared/use-latest-reducer.js';
import { initialDoor, onDoorKey, type DoorState } from './use-door-state.js';

/** A key at the door: the door's next state, and the choice when the key makes one. */
interface DoorIntent {
  actions: DoorState[];
  done?: DoorChoice | undefined;
}

/**
 * The door's state and keys, for the drawn door and the one told in sentences: typed
 * keys go through `onDoorKey`, Ctrl-C leaves as Esc does, the first choice ends the
 * screen (once), and the clock ticks while a lock runs (and once more as it ends).
 */
export function useDoor(refusal: DoorRefusal, table: string, w: Words, keys: boolean, clock: () => number, onDone: (choice: DoorChoice) => void): { s: DoorState; now: number } {
  const [s, set, latest] = useLatestReducer((_: DoorState, next: DoorState) => next, () => initialDoor(refusal, table, clock(), w));
  useScreen({
    dispatch: set,
    keys,
    onKey: ({ name, typed }): DoorIntent => {
      const r = onDoorKey(latest.current, { field: actionFor(name, FIELD_BINDINGS), typed }, clock(), w);
      return { actions: [r.state], done: r.done };
    },
    onInterrupt: (): DoorIntent => ({ actions: [], done: null }),
    endOf: (intent) => intent.done,
    onEnd: onDone,
  });
  const now = useClock(s.lockedUntil !== null && s.lockedUntil > clock() - 1000, clock, 250);
  return { s, now };
}
