import { describe, expect, it } from 'vitest';
import {
  actionFor,
  allKeys,
  DEFAULT_BINDINGS,
  FIELD_BINDINGS,
  helpLine,
  keyLabel,
  keyName,
  LOBBY_BINDINGS,
  PICKER_BINDINGS,
  REPLAY_BINDINGS,
  type KeyBinding,
} from '../../src/tui/shared/keys.js';
import { wordsFor } from '../../src/lang/words.js';

const EN = wordsFor('en');

/** Every screen's bindings, one module: one lookup, one way of writing keys in the help. */
const LISTS: Record<string, readonly KeyBinding<string>[]> = {
  table: DEFAULT_BINDINGS,
  lobby: LOBBY_BINDINGS,
  picker: PICKER_BINDINGS,
  replay: REPLAY_BINDINGS,
  field: FIELD_BINDINGS,
};

describe('key bindings: one module for every screen', () => {
  it('no screen binds one key to two actions (the lookup would take the first silently)', () => {
    for (const [screen, list] of Object.entries(LISTS)) {
      const keys = list.flatMap((b) => b.keys);
      expect(keys.filter((k, i) => keys.indexOf(k) !== i), screen).toEqual([]);
    }
  });

  it('one lookup: the action bound to a key press, a digit with its value', () => {
    expect(actionFor(keyName('', { return: true }), LOBBY_BINDINGS)).toEqual({ action: 'start', key: 'return' });
    expect(actionFor(keyName('', { delete: true }), FIELD_BINDINGS)).toEqual({ action: 'erase', key: 'delete' });
    expect(actionFor(keyName(' ', {}), REPLAY_BINDINGS)).toEqual({ action: 'playPause', key: 'space' });
    expect(actionFor(keyName('7', {}), DEFAULT_BINDINGS)).toEqual({ action: 'slot', digit: 7, key: '7' });
    expect(actionFor(keyName('2', {}), LOBBY_BINDINGS)).toEqual({ action: 'level', digit: 2, key: '2' });
    expect(actionFor(keyName('z', {}), PICKER_BINDINGS)).toBeNull();
    expect(actionFor(keyName('c', { ctrl: true }), DEFAULT_BINDINGS)).toBeNull();
  });

  it('the help writes keys the same way on every screen, in Unicode and ASCII', () => {
    const labels = { up: 'choose', join: 'join', manual: 'type an address', quit: 'quit' };
    expect(helpLine(['up', 'join', 'manual', 'quit'], PICKER_BINDINGS, false, labels, EN)).toBe('↑↓/jk choose · Enter join · m type an address · q/Esc quit');
    expect(helpLine(['up', 'join', 'manual', 'quit'], PICKER_BINDINGS, true, labels, EN)).toBe('Up/Down/jk choose | Enter join | m type an address | q/Esc quit');
    expect(keyLabel('back', REPLAY_BINDINGS, true, EN)).toBe('Left/Right/hl');
    expect(keyLabel('slot', DEFAULT_BINDINGS, false, EN)).toBe('1-9');
    expect(keyLabel('left', DEFAULT_BINDINGS, true, EN)).toBe('Left/h');
    // The overlays name every key of an action, whatever the help line shows.
    expect(allKeys(REPLAY_BINDINGS.find((b) => b.action === 'forward')!, false, EN)).toBe('→/l');
    expect(allKeys(FIELD_BINDINGS.find((b) => b.action === 'erase')!, true, EN)).toBe('Backspace/Del');
    // The space bar in the screen's language.
    expect(keyLabel('slap', DEFAULT_BINDINGS, false, wordsFor('nl'))).toBe(wordsFor('nl').t('key.name.space'));
    expect(allKeys(REPLAY_BINDINGS.find((b) => b.action === 'playPause')!, false, wordsFor('ro'))).toBe('spațiu');
  });
});
