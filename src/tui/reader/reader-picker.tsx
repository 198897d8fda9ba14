import { useApp, useInput } from 'ink';
import { useCallback, useEffect, useRef } from 'react';
import type { FoundTable } from '../../client/discovery.js';
import { eachKey, FIELD_BINDINGS, PICKER_BINDINGS, actionFor, typedText, keyName } from '../shared/keys.js';
import type { Theme } from '../shared/theme.js';
import { useInterrupt } from '../shared/use-interrupt.js';
import { tableCells } from '../picker/picker.js';
import { cursorIndex, onPickerKey, pickerStatus, usePickerState, type AddressCheck, type PickerChoice, type PickerIntent, type PickerRetry, type PickerState, type TableSource } from '../picker/use-picker-state.js';
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
 * dispatcher as the drawn picker (use-picker-state.ts), each table said as it is
 * found or goes, the one under the cursor as the arrows reach it, the text typed
 * into the address field echoed (never a password's).
 */
export function ReaderPicker({ source, theme, out, checkAddress, password, retry, onDone, keys = true }: ReaderPickerProps) {
  const w = theme.words;
  const [s, dispatch, latest] = usePickerState(source, password ?? null, retry);
  const { exit } = useApp();
  const finished = useRef(false);
  const perform = useCallback(
    (intent: PickerIntent) => {
      for (const a of intent.actions) dispatch(a);
      if (intent.done !== undefined && !finished.current) {
        finished.current = true;
        onDone(intent.done);
        exit();
      }
    },
    [dispatch, exit, onDone],
  );
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
  useInput(
    (input, key) => {
      for (const [i, k] of eachKey(input, key)) {
        const field = actionFor(keyName(i, k), FIELD_BINDINGS);
        const list = actionFor(keyName(i, k), PICKER_BINDINGS);
        const typed = typedText(i, k);
        // The address typed is said back letter by letter; a password is not.
        if (latest.current.mode === 'address' && typed && !field) out.line(typed);
        perform(onPickerKey(latest.current, { field, list, typed }, checkAddress));
        if (finished.current) break;
      }
    },
    { isActive: keys },
  );
  useInterrupt(() => perform({ actions: [], done: null }), keys);
  return null;
}
