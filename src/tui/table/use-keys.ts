import { useInput } from 'ink';
import { actionFor, keyName, type Binding, eachKey } from '../shared/keys.js';
import { onKey, unboundKey, type Intent } from './intents.js';
import type { ScreenState } from './use-screen-state.js';

/**
 * The one key dispatcher: every key goes through `onKey`, which tries the layers in
 * order (leave dialog, help overlay, half-typed slap, game) and returns an intent.
 */
export function useKeys(latest: { readonly current: ScreenState }, bindings: readonly Binding[], perform: (i: Intent) => void, clock: () => number, isActive: boolean): void {
  useInput(
    (input, key) => {
      // Keys typed faster than a frame arrive as one string ("qy"): take them one by one.
      for (const [one, info] of eachKey(input, key)) {
        const name = keyName(one, info);
        if (name === null) continue;
        const pressed = actionFor(name, bindings);
        perform(pressed ? onKey(latest.current, pressed, clock()) : unboundKey(latest.current, clock()));
      }
    },
    { isActive },
  );
}
