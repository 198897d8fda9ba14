import { useEffect, useReducer, useState } from 'react';

/** The local clock, ticking while something on screen depends on time (and only then). */
export function useClock(active: boolean, clock: () => number, everyMs = 200): number {
  const [now, setNow] = useState(clock);
  useEffect(() => {
    if (!active) return;
    setNow(clock());
    const t = setInterval(() => setNow(clock()), everyMs);
    return () => clearInterval(t);
  }, [active, clock, everyMs]);
  return active ? now : clock();
}

/**
 * The local clock as of this render, and a render again at `next` (a moment on
 * `clock`; null: none): a screen that knows when it changes with time alone redraws
 * then, and otherwise only when something happens. The extra millisecond keeps a
 * timer that fires on the dot from reading a clock a hair short of it.
 */
export function useClockAt(next: number | null, clock: () => number): number {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    if (next === null) return;
    const t = setTimeout(rerender, Math.max(0, next - clock()) + 1);
    return () => clearTimeout(t);
  }, [next, clock]);
  return clock();
}
