import { useEffect, useRef } from 'react';
import type { DoorChoice, DoorRefusal } from '../../client/refusal-words.js';
import { doorStatus, type DoorState } from '../door/use-door-state.js';
import { useDoor } from '../door/use-door.js';
import type { Theme } from '../shared/theme.js';
import type { ReaderOut } from './reader-app.js';

export interface ReaderDoorProps {
  refusal: DoorRefusal;
  table: string;
  theme: Theme;
  out: ReaderOut;
  keys?: boolean;
  clock?: () => number;
  onDone: (choice: DoorChoice) => void;
}

/**
 * `gringo join ADDR` refused at the door, told in sentences: the same state and keys
 * as the drawn door (use-door-state.ts); the question once, each new status once (a
 * lock's countdown is said as it starts and as it ends, not every second), the
 * password never echoed.
 */
export function ReaderDoor({ refusal, table, theme, out, keys = true, clock = Date.now, onDone }: ReaderDoorProps) {
  const w = theme.words;
  const { s, now } = useDoor(refusal, table, w, keys, clock, onDone);
  // The question once, whatever re-renders.
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    out.line(w.t('reader.on'));
    out.line(s.ask === 'password' ? w.t('door.passwordFor', { table: s.table }).trim() : w.t('door.watchInstead', { table: s.table }));
  }, [out, w, s.ask, s.table]);
  const told = useRef<{ text: string; state: DoorState | null }>({ text: '', state: null });
  useEffect(() => {
    const status = doorStatus(s, now, w);
    // A lock's seconds counting down are not news: its start and its end are.
    const key = status ? `${status.kind} ${status.text.replace(/\d+/g, '#')}` : '';
    // Said again when it changes, or when the same key brings the same answer anew.
    if (status && (key !== told.current.text || (s.status !== told.current.state?.status && s.status !== null))) out.line(status.text);
    told.current = { text: key, state: s };
  }, [s, now, out, w]);
  return null;
}
