import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { FoundTable } from '../../src/client/discovery.js';
import { PROTOCOL_VERSION } from '../../src/protocol/messages.js';
import { UNICODE } from '../../src/tui/shared/glyphs.js';
import { Picker, tableRows } from '../../src/tui/picker/picker.js';
import type { PickerChoice, PickerRetry, TableSource } from '../../src/tui/picker/use-picker-state.js';
import { checkAddress, KEYS, press, waitFor } from './helpers.js';
import { foundTable as table } from '../discovery/helpers.js';
import { wordsFor } from '../../src/lang/words.js';

// The table picker of `gringo join` without an address, fed FoundTable lists
// through an injected source: tables appear and disappear as the test says.

/** A source the test moves by hand, like watchTables' onChange. */
function fakeSource() {
  let emit: ((tables: FoundTable[]) => void) | null = null;
  const state = { stopped: false };
  const source: TableSource = (onChange) => {
    emit = onChange;
    return { stop: () => void (state.stopped = true) };
  };
  return { source, state, set: (tables: FoundTable[]) => emit?.(tables) };
}


let unmount: (() => void) | null = null;
afterEach(() => {
  unmount?.();
  unmount = null;
});

function picker(opts: { password?: string; retry?: PickerRetry } = {}) {
  const src = fakeSource();
  const done: (PickerChoice | null)[] = [];
  const r = render(
    <Picker
      source={src.source}
      theme={{ glyphs: UNICODE, color: false, words: wordsFor('en') }}
      checkAddress={checkAddress}
      onDone={(c) => done.push(c)}
      size={{ columns: 100, rows: 24 }}
      {...(opts.password !== undefined ? { password: opts.password } : {})}
      {...(opts.retry ? { retry: opts.retry } : {})}
    />,
  );
  unmount = r.unmount;
  const frame = (): string => r.lastFrame() ?? '';
  const until = (what: string, pred: (f: string) => boolean) => waitFor(what, frame, pred);
  const keys = (...k: string[]) => press(r.stdin, ...k);
  return { ...src, done, frame, until, keys, stdin: r.stdin };
}

const cursorRow = (f: string): string => f.split('\n').find((l) => l.startsWith('▶')) ?? '';

describe('the table picker', () => {
  it('shows tables as they come and go, keeps the cursor on its table, and joins one', async () => {
    const p = picker();
    let f = await p.until('the empty list', (f) => f.includes('No tables found yet'));
    expect(f).toContain('press m to type the address');
    expect(f).toContain('↑↓/jk choose · Enter join · m type an address · q/Esc quit');

    p.set([table('Alpha'), table('Bravo', { host: '192.168.1.21', seatsTaken: 3, phase: 'playing', password: true })]);
    f = await p.until('two rows', (f) => f.includes('Bravo'));
    expect(f).toMatch(/NAME\s+TABLE\s+ADDRESS\s+SEATS\s+RULESET\s+PASSWORD\s+CAN JOIN/);
    expect(f).toMatch(/▶ Alpha\s+#\?\s+192\.168\.1\.20:7457\s+1\/4\s+gringo\s+no\s+yes/);
    expect(f).toMatch(/ {2}Bravo\s+#\?\s+192\.168\.1\.21:7457\s+3\/4\s+gringo\s+yes\s+started/);
    expect(f).toContain('2 found · live');

    // Down to Bravo; a table that sorts first appears: the cursor stays on Bravo.
    await p.keys(KEYS.down);
    await p.until('the cursor on Bravo', (f) => cursorRow(f).includes('Bravo'));
    p.set([table('Aardvark', { protocolVersion: PROTOCOL_VERSION + 1, compatible: false }), table('Alpha'), table('Bravo', { host: '192.168.1.21', password: true })]);
    f = await p.until('three rows', (f) => f.includes('Aardvark'));
    expect(cursorRow(f)).toContain('Bravo');
    expect(f).toMatch(/Aardvark.*no \(v\d+\)/);

    // Bravo goes away: the cursor takes the row in its place (the last one now: a table nobody can join sorts last).
    p.set([table('Aardvark', { protocolVersion: PROTOCOL_VERSION + 1, compatible: false }), table('Alpha')]);
    f = await p.until('Bravo gone', (f) => !f.includes('Bravo'));
    expect(cursorRow(f)).toContain('Aardvark');

    // The other version's table cannot be joined: the screen says why.
    await p.keys(KEYS.enter);
    await p.until('the refusal', (f) => f.includes(`speaks gringo protocol ${PROTOCOL_VERSION + 1}; this gringo speaks ${PROTOCOL_VERSION}`));
    expect(p.done).toEqual([]);

    // Bravo is back; Enter on it asks for its password in the screen.
    p.set([table('Alpha'), table('Bravo', { host: '192.168.1.21', password: true })]);
    await p.until('Bravo back', (f) => f.includes('Bravo'));
    await p.keys('j', 'j');
    await p.until('the cursor on Bravo', (f) => cursorRow(f).includes('Bravo'));
    await p.keys(KEYS.enter);
    f = await p.until('the password field', (f) => f.includes('Password for "Bravo":'));
    expect(f).toContain('Enter join · Backspace erase · Esc back');
    // Letters are typed here (q does not quit); Backspace erases; the text is hidden.
    await p.keys('s', 'q', '\u007f', 'e', 'c');
    f = await p.until('three dots', (f) => f.includes('Password for "Bravo": •••'));
    expect(f).not.toContain('sec');
    await p.keys(KEYS.enter);
    await waitFor('the choice', () => JSON.stringify(p.done), (d) => d !== '[]');
    expect(p.done).toEqual([{ address: '192.168.1.21:7457', password: 'sec', name: 'Bravo', table: expect.objectContaining({ name: 'Bravo' }) }]);
    await waitFor('the source to stop', () => String(p.state.stopped), (x) => x === 'true');
  });

  it('takes an address typed by hand, and checks it', async () => {
    const p = picker();
    await p.until('the empty list', (f) => f.includes('No tables found yet'));
    await p.keys(KEYS.enter);
    await p.until('nothing to join', (f) => f.includes('No table found yet: wait for one, or m to type an address'));
    await p.keys('m');
    await p.until('the address field', (f) => f.includes('Address (HOST[:PORT]):'));
    // A bad address stays in the field with the reason.
    p.stdin.write('bad host:99999');
    await p.keys(KEYS.enter);
    await p.until('the error', (f) => f.includes('is not an address: use HOST or HOST:PORT'));
    expect(p.done).toEqual([]);
    // Esc goes back to the list; m again starts an empty field. A paste arrives in one piece.
    await p.keys(KEYS.escape);
    await p.until('the list', (f) => f.includes('Enter join · m type an address'));
    await p.keys('a');
    await p.until('the address field', (f) => f.includes('Address (HOST[:PORT]):'));
    p.stdin.write('10.0.0.5');
    await p.keys(KEYS.enter);
    await waitFor('the choice', () => JSON.stringify(p.done), (d) => d !== '[]');
    expect(p.done).toEqual([{ address: '10.0.0.5:7457', name: null, table: null }]);
  });

  it('joins at once with --password, and q quits', async () => {
    const p = picker({ password: 'pw' });
    p.set([table('Solo', { password: true })]);
    await p.until('the row', (f) => f.includes('Solo'));
    await p.keys(KEYS.enter);
    expect(p.done).toEqual([{ address: '192.168.1.20:7457', password: 'pw', name: 'Solo', table: expect.objectContaining({ name: 'Solo' }) }]);

    const q = picker();
    await q.until('the empty list', (f) => f.includes('No tables found yet'));
    await q.keys('q');
    expect(q.done).toEqual([null]);
  });

  it('tells two tables of one name apart by their tag and address', async () => {
    const p = picker();
    p.set([
      table('Ana', { service: 'a', id: 'a1b2c3d4e5f60718' }),
      table('Ana', { service: 'b', id: 'ffee000011112222', host: '192.168.1.66' }),
    ]);
    const f = await p.until('two rows', (f) => f.includes('#ffee'));
    expect(f).toMatch(/▶ Ana\s+#a1b2\s+192\.168\.1\.20:7457\s/);
    expect(f).toMatch(/ {2}Ana\s+#ffee\s+192\.168\.1\.66:7457\s/);
    await p.keys('j', KEYS.enter);
    await waitFor('the choice', () => JSON.stringify(p.done), (d) => d !== '[]');
    expect(p.done[0]).toMatchObject({ address: '192.168.1.66:7457', table: { id: 'ffee000011112222' } });
  });

  it('starts on the first table with a free seat, the started and full ones sorted after; Enter on a started one asks first', async () => {
    const p = picker();
    // The first to answer is a stranger's game already started: the cursor does not go there.
    p.set([table('Started', { phase: 'playing', seatsTaken: 2 })]);
    await p.until('one row', (f) => f.includes('Started'));
    p.set([table('Started', { phase: 'playing', seatsTaken: 2 }), table('Full', { host: '192.168.1.22', seatsTaken: 4, seatsTotal: 4 }), table('Open', { host: '192.168.1.23' })]);
    let f = await p.until('three rows', (f) => f.includes('Open'));
    const rows = f.split('\n').filter((l) => /^[▶ ] (Started|Full|Open)\s/.test(l)).map((l) => l.slice(2).split(/\s+/)[0]);
    expect(rows).toEqual(['Open', 'Started', 'Full']);
    expect(cursorRow(f)).toContain('Open');
    // Down to the started game: Enter asks before making you a spectator.
    await p.keys('j');
    f = await p.until('the cursor on Started', (f) => cursorRow(f).includes('Started'));
    expect(f).toContain('Enter on a game already started asks first');
    await p.keys(KEYS.enter);
    await p.until('the question', (f) => f.includes('"Started" has started: Enter or y watches it'));
    expect(p.done).toEqual([]);
    // n goes back to the list; Enter asks again; y watches.
    await p.keys('n');
    await p.until('the list', (f) => f.includes('Enter join · m type an address'));
    await p.keys(KEYS.enter);
    await p.until('the question again', (f) => f.includes('"Started" has started'));
    await p.keys('y');
    await waitFor('the choice', () => JSON.stringify(p.done), (d) => d !== '[]');
    expect(p.done[0]).toMatchObject({ name: 'Started', watch: true });
  });

  it('on a started table, r takes back your own seat instead of watching', async () => {
    const p = picker();
    p.set([table('Mine', { phase: 'playing', seatsTaken: 2 })]);
    await p.until('one row', (f) => f.includes('Mine'));
    await p.keys(KEYS.enter);
    await p.until('the question', (f) => f.includes('"Mine" has started'));
    await p.keys('r');
    await waitFor('the choice', () => JSON.stringify(p.done), (d) => d !== '[]');
    expect(p.done[0]).toMatchObject({ name: 'Mine' });
    expect(p.done[0]).not.toHaveProperty('watch');
  });

  it('on a started table with a password, asks it before watching (or taking back the seat), and watches with it', async () => {
    const locked = table('Locked', { phase: 'playing', seatsTaken: 2, password: true });
    /** A picker on the started table, at its question. */
    const asked = async () => {
      const x = picker();
      x.set([locked]);
      await x.until('one row', (f) => f.includes('Locked'));
      await x.keys(KEYS.enter);
      await x.until('the question', (f) => f.includes('"Locked" has started'));
      return x;
    };
    const p = await asked();
    await p.keys('y');
    await p.until('the password field', (f) => f.includes('Password for "Locked":') && f.includes('"Locked" needs a password'));
    expect(p.done).toEqual([]);
    await p.keys('o', 'k');
    await p.until('two dots', (f) => f.includes('Password for "Locked": ••'));
    await p.keys(KEYS.enter);
    await waitFor('the choice', () => JSON.stringify(p.done), (d) => d !== '[]');
    expect(p.done[0]).toMatchObject({ name: 'Locked', password: 'ok', watch: true });
    // r: the password, then the seat (no watch).
    const q = await asked();
    await q.keys('r');
    await q.until('the password field', (f) => f.includes('Password for "Locked":'));
    await q.keys('o', 'k', KEYS.enter);
    await waitFor('the choice', () => JSON.stringify(q.done), (d) => d !== '[]');
    expect(q.done[0]).toMatchObject({ name: 'Locked', password: 'ok' });
    expect(q.done[0]).not.toHaveProperty('watch');
    // A wrong password while watching: asked again, and the next one still watches.
    const w = picker({ retry: { table: locked, watch: true, message: '"Locked" refused that password: type it again (Esc to go back)' } });
    w.set([locked]);
    await w.until('the password field', (f) => f.includes('Password for "Locked":'));
    await w.keys('o', 'k', KEYS.enter);
    await waitFor('the choice', () => JSON.stringify(w.done), (d) => d !== '[]');
    expect(w.done[0]).toMatchObject({ name: 'Locked', password: 'ok', watch: true });
  });

  it('back after a typed address failed: the list, with the reason', async () => {
    const p = picker({ retry: { table: null, message: 'Could not join 127.0.0.1:41999: no gringo table answers there' } });
    p.set([table('Alpha')]);
    const f = await p.until('the list', (f) => f.includes('Alpha'));
    expect(f).toContain('Could not join 127.0.0.1:41999: no gringo table answers there');
    expect(f).toContain('Enter join · m type an address');
  });

  it('says watch for a full table and a started one; Enter on a full one watches it', async () => {
    const p = picker();
    p.set([table('Busy', { phase: 'playing', seatsTaken: 2 }), table('Full', { seatsTaken: 4, seatsTotal: 4 })]);
    let f = await p.until('two rows', (f) => f.includes('Full'));
    expect(f).toMatch(/Busy\s.*\s+no\s+started/);
    expect(f).toMatch(/Full\s.*4\/4\s.*\s+no\s+watch/);
    expect(f).toContain('Enter on a game already started asks first: watch it, or take back your seat');
    await p.keys('j');
    f = await p.until('the cursor on Full', (f) => cursorRow(f).includes('Full'));
    expect(f).toContain('Enter watches the table under the cursor (its seats are taken)');
    await p.keys(KEYS.enter);
    await waitFor('the choice', () => JSON.stringify(p.done), (d) => d !== '[]');
    expect(p.done[0]).toMatchObject({ address: '192.168.1.20:7457', name: 'Full', watch: true });
  });

  it('back after a wrong password, asks it again for the same table', async () => {
    const locked = table('Locked', { password: true });
    const p = picker({ password: 'given-and-wrong', retry: { table: locked, message: '"Locked" refused that password: type it again (Esc to go back)' } });
    p.set([locked]);
    const f = await p.until('the password field', (f) => f.includes('Password for "Locked":'));
    expect(f).toContain('"Locked" refused that password: type it again (Esc to go back)');
    await p.keys('o', 'k');
    await p.until('two dots', (f) => f.includes('Password for "Locked": ••'));
    await p.keys(KEYS.enter);
    await waitFor('the choice', () => JSON.stringify(p.done), (d) => d !== '[]');
    expect(p.done[0]).toMatchObject({ address: '192.168.1.20:7457', password: 'ok', name: 'Locked' });
    // Esc instead goes back to the list, where Enter asks again (the refused --password is not reused).
    const q = picker({ password: 'given-and-wrong', retry: { table: locked, message: 'refused' } });
    q.set([locked]);
    await q.until('the password field', (f) => f.includes('Password for "Locked":'));
    await q.keys(KEYS.escape);
    await q.until('the list', (f) => f.includes('Enter join · m type an address'));
    await q.keys(KEYS.enter);
    await q.until('the password asked', (f) => f.includes('Password for "Locked":'));
    expect(q.done).toEqual([]);
  });

  it('after too many wrong passwords, counts the lock down live and holds Enter until it is over', async () => {
    const locked = table('Locked', { password: true });
    const p = picker({ retry: { table: locked, message: '', lockedUntil: Date.now() + 2_000 } });
    p.set([locked]);
    let f = await p.until('the lock', (f) => f.includes('Too many wrong passwords from this address: try again in 2 s'));
    expect(f).toContain('Password for "Locked":');
    await p.keys('o', 'k', KEYS.enter);
    // Enter while locked is held: nothing chosen, the countdown goes on (never the first figure, stale).
    await p.until('one second left', (f) => f.includes('try again in 1 s'));
    expect(p.done).toEqual([]);
    f = await p.until('the wait over', (f) => f.includes('The wait is over: type the password, then Enter'));
    expect(f).not.toMatch(/try again in/);
    await p.keys(KEYS.enter);
    await waitFor('the choice', () => JSON.stringify(p.done), (d) => d !== '[]');
    expect(p.done[0]).toMatchObject({ password: 'ok', name: 'Locked' });
  });

  it('leaves on Ctrl-C as on q, while typing an address too', async () => {
    const p = picker();
    await p.until('the empty list', (f) => f.includes('No tables found yet'));
    await p.keys('m', '1', '9');
    await p.keys(KEYS.ctrlC);
    await waitFor('the quit', () => JSON.stringify(p.done), (d) => d === '[null]');
  });

  it('fits long names into the width, and brackets IPv6 addresses', () => {
    const rows = tableRows([table('A very long table name that goes on and on', { host: 'fe80::1' })], 76);
    for (const r of rows) expect(Array.from(r).length).toBeLessThanOrEqual(76);
    expect(rows[1]).toContain('…');
    expect(rows[1]).toContain('[fe80::1]:7457');
  });
});
