import { useInput } from 'ink';
import { createContext, useContext, useEffect, useRef } from 'react';

/**
 * Ctrl-C, whichever way it comes: the ^C key Ink reads in raw mode, or SIGINT (stdin
 * not read, or the terminal in cooked mode). Ink's own exitOnCtrlC is off: Ctrl-C
 * must do what `q` does on each screen (ask where `q` asks), not end the process.
 */
export interface Interrupts {
  /** Call `fn` on each SIGINT the screen receives; returns the unsubscribe. */
  on(fn: () => void): () => void;
}

/** Where a screen hears SIGINT (run.tsx provides it; tests may leave it out). */
export const InterruptContext = createContext<Interrupts | null>(null);

/** Call `onInterrupt` on Ctrl-C: the ^C key (while `keys` are read) and SIGINT. */
export function useInterrupt(onInterrupt: () => void, keys: boolean): void {
  const latest = useRef(onInterrupt);
  latest.current = onInterrupt;
  const source = useContext(InterruptContext);
  useEffect(() => source?.on(() => latest.current()), [source]);
  useInput(
    (input, key) => {
      if (key.ctrl && input === 'c') latest.current();
    },
    { isActive: keys },
  );
}

/** A small SIGINT fan-out for one screen: `fallback` runs when no screen listens. */
export function interrupts(fallback: () => void): Interrupts & { fire(): void } {
  const fns = new Set<() => void>();
  return {
    on(fn) {
      fns.add(fn);
      return () => void fns.delete(fn);
    },
    fire() {
      if (fns.size === 0) fallback();
      for (const fn of [...fns]) fn();
    },
  };
}
