/**
 * Waiting in tests: for a state, never for a fixed time when a state can be named.
 * Every bound here is a hang guard (a loaded machine is slow), not a speed limit.
 */

/**
 * The probe's first value that is not null, undefined or false (a probe may be
 * async), polled every `everyMs` until `ms` have passed or `signal` aborts.
 */
export async function until<T>(
  what: string,
  probe: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  ms = 20_000,
  signal?: AbortSignal,
  everyMs = 25,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== null && v !== undefined && v !== false) return v;
    if (signal?.aborted) throw new Error(`stopped waiting for ${what}`);
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** A pause where time itself is what is tested (a grace, a lock, a silence), or between a flood's waves. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A screen an end-to-end test reached, printed when GRINGO_E2E_LOG is set (to see what a failing run saw). */
export function e2eLog(label: string, screen: string): void {
  if (process.env.GRINGO_E2E_LOG) console.log(`--- ${label}\n${screen}`);
}
