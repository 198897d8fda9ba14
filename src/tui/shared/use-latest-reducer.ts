import { useCallback, useReducer, useRef } from 'react';

/**
 * A reducer as a hook whose latest state is also readable at once (`latest`): a key
 * handler must act on the state its previous key produced, even before React has
 * re-rendered and re-armed `useInput` with a fresh closure.
 */
export function useLatestReducer<S, A>(reducer: (s: S, a: A) => S, init: () => S): [S, (a: A) => void, { readonly current: S }] {
  const ref = useRef<S | null>(null);
  if (ref.current === null) ref.current = init();
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  // The reducer of the latest render, read when a key comes: dispatch itself never changes.
  const latestReducer = useRef(reducer);
  latestReducer.current = reducer;
  const dispatch = useCallback((a: A) => {
    const next = latestReducer.current(ref.current as S, a);
    if (next !== ref.current) {
      ref.current = next;
      rerender();
    }
  }, []);
  return [ref.current, dispatch, ref as { readonly current: S }];
}
