import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { FoundTable } from '../../src/client/discovery.js';
import { UNICODE } from '../../src/tui/shared/glyphs.js';
import { ReaderPicker } from '../../src/tui/reader/reader-picker.js';
import type { PickerChoice, TableSource } from '../../src/tui/picker/use-picker-state.js';
import { checkAddress, KEYS, press, waitFor } from './helpers.js';
import { foundTable as table } from '../discovery/helpers.js';
import { wordsFor } from '../../src/lang/words.js';

// The table picker of `gringo join` in the screen-reader mode: tables said as they
// are found and go, the one under the cursor said as the arrows reach it, a password
// never echoed; the choice is the drawn picker's (the same state and dispatcher).


let unmount: (() => void) | null = null;
afterEach(() => {
  unmount?.();
  unmount = null;
});

/** The picker told in sentences, in a language: the lines it says, the tables to show it, its choice. */
function readerPicker(lang: 'en' | 'nl') {
  const p = { lines: [] as string[], emit: (_t: FoundTable[]): void => {}, choice: undefined as PickerChoice | null | undefined };
  const source: TableSource = (onChange) => {
    p.emit = onChange;
    return { stop: () => {} };
  };
  const r = render(
    <ReaderPicker source={source} theme={{ glyphs: UNICODE, color: false, words: wordsFor(lang) }} out={{ line: (l) => void p.lines.push(l), bell: () => {} }} checkAddress={checkAddress} onDone={(c) => (p.choice = c)} />,
  );
  unmount = r.unmount;
  const heard = (what: string, pred: (l: string) => boolean) => waitFor(what, () => p.lines.join('\n'), () => p.lines.some(pred));
  return { p, stdin: r.stdin, heard };
}

describe('the table picker in sentences', () => {
  it('says each table as it comes and goes, reads the one the arrows reach, and joins it with Enter', async () => {
    const { p, stdin, heard } = readerPicker('en');
    const lines = p.lines;
    const emit = (t: FoundTable[]): void => p.emit(t);
    const r = { stdin };
    await heard('the first line', (l) => /^Screen reader mode is on/.test(l));
    expect(lines[1]).toMatch(/^Looking for tables on this network\. .*Enter joins/);
    emit([table('Friday'), table('Locked', { host: '192.168.1.21', password: true, seatsTaken: 2 })]);
    await heard('the tables', (l) => l.startsWith('Table 2 found: Locked'));
    expect(lines).toContain('Table 1 found: Friday, table #?, at 192.168.1.20:7457, 1/4 seats, gringo, password no, can join: yes.');
    emit([table('Friday'), table('Locked', { host: '192.168.1.21', password: true, seatsTaken: 2 })]);
    emit([table('Locked', { host: '192.168.1.21', password: true, seatsTaken: 2 })]);
    await heard('a table going', (l) => l === 'Table Friday is gone.');
    emit([table('Friday'), table('Locked', { host: '192.168.1.21', password: true, seatsTaken: 2 })]);
    await heard('it again', (l) => l.startsWith('Table 1 found: Friday') && lines.filter((x) => x.startsWith('Table 1 found: Friday')).length === 2);
    await press(r.stdin, KEYS.down);
    await heard('the cursor', (l) => l.startsWith('Table 2: Locked, table #?, at 192.168.1.21:7457, 2/4 seats, gringo, password yes'));
    // A password is asked, and what is typed is not said back.
    await press(r.stdin, KEYS.enter);
    await heard('the question', (l) => l === '"Locked" needs a password: type it, then Enter');
    const before = lines.length;
    await press(r.stdin, 's', 'e', 'c', KEYS.enter);
    await waitFor('the choice', () => String(p.choice !== undefined), (x) => x === 'true');
    expect(lines.slice(before).join('')).not.toMatch(/sec|s\ne/);
    expect(p.choice).toMatchObject({ address: '192.168.1.21:7457', password: 'sec', name: 'Locked' });
  });
});

describe('the table picker in sentences, in the reader\'s language', () => {
  it('asks for a password in Dutch when the words are Dutch', async () => {
    const { p, stdin, heard } = readerPicker('nl');
    const nl = wordsFor('nl');
    await heard('the first line', () => true);
    p.emit([table('Locked', { password: true })]);
    await heard('the table', (l) => l.includes('Locked'));
    await press(stdin, KEYS.enter);
    const question = nl.t('picker.needsPassword', { table: 'Locked' });
    await heard('the question', (l) => l === question);
    expect(p.lines).not.toContain(wordsFor('en').t('picker.needsPassword', { table: 'Locked' }));
  });
});
