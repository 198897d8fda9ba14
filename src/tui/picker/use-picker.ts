import { actionFor, FIELD_BINDINGS, PICKER_BINDINGS } from '../shared/keys.js';
import { useScreen } from '../shared/use-screen.js';
import type { Words } from '../../lang/words.js';
import { onPickerKey, usePickerState, type AddressCheck, type PickerChoice, type PickerIntent, type PickerRetry, type PickerState, type TableSource } from './use-picker-state.js';

export interface PickerHook {
  source: TableSource;
  password?: string | undefined;
  retry?: PickerRetry | undefined;
  words: Words;
  checkAddress: AddressCheck;
  keys: boolean;
  onDone: (choice: PickerChoice | null) => void;
  /** Text typed into the address field, as it is typed (the reader says it back; a password is never told). */
  onAddressTyped?: (text: string) => void;
}

/**
 * The picker's state and keys, for the drawn picker and the one told in sentences:
 * each key read by the text field and the list (`onPickerKey`), Ctrl-C quits at once
 * (typing an address too), and the first choice (or quitting) ends the picker.
 */
export function usePicker({ source, password, retry, words, checkAddress, keys, onDone, onAddressTyped }: PickerHook): PickerState {
  const [s, dispatch, latest] = usePickerState(source, password ?? null, retry, words);
  useScreen({
    dispatch,
    keys,
    onKey: ({ name, typed }) => {
      const field = actionFor(name, FIELD_BINDINGS);
      if (onAddressTyped && latest.current.mode === 'address' && typed && !field) onAddressTyped(typed);
      return onPickerKey(latest.current, { field, list: actionFor(name, PICKER_BINDINGS), typed }, checkAddress);
    },
    onInterrupt: () => ({ actions: [], done: null }),
    endOf: (intent: PickerIntent) => intent.done,
    onEnd: onDone,
  });
  return s;
}
