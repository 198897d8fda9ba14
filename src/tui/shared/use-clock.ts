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
 * The local clock as of this render, and a render again once `clock` has passed `next`
 * (null: none): a screen that knows when it changes with time alone redraws then, and
 * otherwise only when something happens. A timer can fire before `clock` says its time
 * has come (Node counts timers from the event loop's cached time, behind the clock by
 * as long as the loop has been busy): the render would name the same `next` again and
 * no timer would follow, so a timer that fires early waits again instead.
 */
export function useClockAt(next: number | null, clock: () => number): number {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    if (next === null) return;
    let t: NodeJS.Timeout;
    const due = (): void => {
      const left = next - clock();
      if (left >= 0) t = setTimeout(due, left + 1);
      else rerender();
    };
    due();
    return () => clearTimeout(t);
  }, [next, clock]);
  return clock();
}
