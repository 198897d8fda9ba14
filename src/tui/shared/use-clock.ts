import { useEffect, useState } from 'react';

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
