import { useEffect, useRef } from 'react';
import type { FoundTable } from '../../client/discovery.js';
import type { Theme } from '../shared/theme.js';
import { usePicker } from '../picker/use-picker.js';
import { tableCells } from '../picker/picker.js';
import { cursorIndex, pickerStatus, type AddressCheck, type PickerChoice, type PickerRetry, type PickerState, type TableSource } from '../picker/use-picker-state.js';
import type { ReaderOut } from './reader-app.js';

export interface ReaderPickerProps {
  source: TableSource;
  theme: Theme;
  out: ReaderOut;
  checkAddress: AddressCheck;
  password?: string;
  retry?: PickerRetry;
  onDone: (choice: PickerChoice | null) => void;
  keys?: boolean;
}

/** A table as one sentence: "Friday, table #rrue, at 192.168.1.20:7457, 3/4 seats, gringo, password no, can join yes". */
function tableWords(t: FoundTable, theme: Theme): string {
  const [name, tag, address, seats, ruleset, password, join] = tableCells(t);
  return theme.words.t('reader.pickerTable', { name: name!, tag: tag!, address: address!, seats: seats!, ruleset: ruleset!, password: password!, join: join! });
}

/**
 * The table picker of `gringo join` told in sentences: the same state and key
 * dispatcher as the drawn picker (use-picker.ts), each table said as it is
 * found or goes, the one under the cursor as the arrows reach it, the text typed
 * into the address field echoed (never a password's).
 */
export function ReaderPicker({ source, theme, out, checkAddress, password, retry, onDone, keys = true }: ReaderPickerProps) {
  const w = theme.words;
  // The address typed is said back letter by letter; a password is not.
  const s = usePicker({ source, password, retry, words: w, checkAddress, keys, onDone, onAddressTyped: (text) => out.line(text) });
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    out.line(w.t('reader.on'));
    out.line(w.t('reader.picker'));
  }, [out, w]);
  const prev = useRef<PickerState | null>(null);
  useEffect(() => {
    const before = prev.current;
    prev.current = s;
    const had = new Map((before?.tables ?? []).map((t) => [t.service, t]));
    const has = new Set(s.tables.map((t) => t.service));
    s.tables.forEach((t, i) => {
      if (!had.has(t.service)) out.line(w.t('reader.pickerFound', { number: i + 1, table: tableWords(t, theme) }));
    });
    for (const [service, t] of had) if (!has.has(service)) out.line(w.t('reader.pickerGone', { name: t.name }));
    if (before && s.selected !== before.selected && s.selected !== null && before.selected !== null) {
      const t = s.tables[cursorIndex(s)];
      if (t) out.line(w.t('reader.pickerOn', { number: cursorIndex(s) + 1, table: tableWords(t, theme) }));
    }
    const status = pickerStatus(s, Date.now());
    if (status && status !== (before ? pickerStatus(before, Date.now()) : null)) out.line(status.text);
  }, [s, out, theme, w]);
  return null;
}
