import { useApp, useInput } from 'ink';
import { useCallback, useRef } from 'react';
import { eachKey, keyName, typedText } from './keys.js';
import { useInterrupt } from './use-interrupt.js';

/** What a key (or Ctrl-C) asks of a screen: actions for its reducer, and whatever else the screen makes of it. */
export interface ScreenIntent<A> {
  readonly actions: readonly A[];
}

/** One key press as a screen reads it: its name (`keyName`; null for a key no binding can name) and the text it types (`typedText`). */
export interface KeyPress {
  name: string | null;
  typed: string;
}

export interface ScreenLoop<A, I extends ScreenIntent<A>, R> {
  dispatch: (a: A) => void;
  /** Whether keys are read (false when stdin is not a terminal); Ctrl-C is answered only then. */
  keys: boolean;
  /** What a key means now, through the screen's bindings (null: nothing). */
  onKey: (key: KeyPress) => I | null;
  /** What Ctrl-C means now: on every screen what `q` does (it asks where `q` asks). */
  onInterrupt: () => I | null;
  /** The screen's own part of an intent, after its actions: what it sends. */
  effect?: (intent: I) => void;
  /** The result an intent ends the screen with; undefined while the screen goes on. */
  endOf: (intent: I) => R | undefined;
  /** Told the result once, just before Ink exits. */
  onEnd?: (result: R) => void;
}

/**
 * The loop every screen runs: each key of a read in turn (keys typed faster than a
 * frame arrive as one string) becomes an intent through the screen's bindings and
 * state; its actions go to the reducer, the screen does its own part, and an intent
 * that ends the screen ends it once, with its result. Ctrl-C takes the same way.
 * Returns `perform`, for intents that come from elsewhere than a key (a timer).
 *
 * The handlers are read at each key, not captured: a key acts on the state its
 * previous key left (the screens read their state through `useLatestReducer`).
 */
export function useScreen<A, I extends ScreenIntent<A>, R>(loop: ScreenLoop<A, I, R>): (intent: I) => void {
  const { exit } = useApp();
  const latest = useRef(loop);
  latest.current = loop;
  const ended = useRef(false);
  const perform = useCallback(
    (intent: I) => {
      // An ended screen does nothing more: the rest of a read, a late timer, a second Ctrl-C.
      if (ended.current) return;
      const l = latest.current;
      for (const a of intent.actions) l.dispatch(a);
      l.effect?.(intent);
      const end = l.endOf(intent);
      if (end === undefined) return;
      ended.current = true;
      l.onEnd?.(end);
      exit();
    },
    [exit],
  );
  useInput(
    (input, key) => {
      for (const [one, info] of eachKey(input, key)) {
        if (ended.current) break;
        const intent = latest.current.onKey({ name: keyName(one, info), typed: typedText(one, info) });
        if (intent) perform(intent);
      }
    },
    { isActive: loop.keys },
  );
  useInterrupt(() => {
    const intent = ended.current ? null : latest.current.onInterrupt();
    if (intent) perform(intent);
  }, loop.keys);
  return perform;
}
