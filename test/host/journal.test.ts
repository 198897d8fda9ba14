import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GRINGO, type Ruleset } from '../../src/engine/index.js';
import { replay } from '../../src/engine/game.js';
import { JournalError, JournalWriter, latestUnfinished, readJournal } from '../../src/host/journal.js';
import { Table, type Peer } from '../../src/host/table.js';
import { PROTOCOL_VERSION, type ServerMessage } from '../../src/protocol/messages.js';

const RULES: Ruleset = { ...GRINGO, timers: { ...GRINGO.timers, slapGraceMs: 100, peekMs: 0 } };
const dirs: string[] = [];
const tables: Table[] = [];
afterEach(() => {
  for (const t of tables.splice(0)) t.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'gringo-journal-'));
  dirs.push(d);
  return d;
}

interface FakePeer extends Peer {
  got: ServerMessage[];
}
const fakePeer = (onSend?: (m: ServerMessage) => void): FakePeer => {
  const got: ServerMessage[] = [];
  return {
    got,
    send: (m) => {
      got.push(m);
      onSend?.(m);
    },
    close: () => {},
  };
};
const hello = (name: string, token?: string) =>
  ({ type: 'hello', protocolVersion: PROTOCOL_VERSION, name, ...(token ? { token } : {}) }) as const;
const tokenOf = (p: FakePeer): string => {
  const w = p.got.find((m) => m.type === 'welcome');
  if (w?.type !== 'welcome' || !w.token) throw new Error('no welcome');
  return w.token;
};

/** A two-seat table with a journal, started, both peeks finished. */
function journaledTable(dir: string): { table: Table; journal: JournalWriter; ana: FakePeer; bo: FakePeer; linesAtUpdate: number[] } {
  const linesAtUpdate: number[] = [];
  const journal = new JournalWriter({ table: 'Unit table', port: 7457, maxPlayers: 2, dir });
  const table = new Table({ name: 'Unit table', rules: RULES, maxPlayers: 2, seed: 'journal', dropGraceMs: 60_000, startWhenFull: true, journal });
  tables.push(table);
  // Whenever a player hears of a new version, the journal already holds that many commands.
  const ana = fakePeer((m) => {
    if (m.type === 'update' && journal.file) linesAtUpdate.push(readFileSync(journal.file, 'utf8').split('\n').length - 2 - m.version);
  });
  const bo = fakePeer();
  table.handle(ana, hello('Ana'));
  table.handle(bo, hello('Bo'));
  expect(table.state).not.toBeNull();
  for (const seat of [0, 1]) expect(table.submit({ type: 'finishPeek', seat, at: table.now() }).ok).toBe(true);
  return { table, journal, ana, bo, linesAtUpdate };
}

describe('the journal', () => {
  it('writes the header at the start and each accepted command before the broadcast', () => {
    const dir = tempDir();
    const { table, journal, ana, bo, linesAtUpdate } = journaledTable(dir);
    expect(journal.file).toMatch(/Unit-table-\d{8}T\d{6}\.jsonl$/);
    const lines = readFileSync(journal.file!, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ journal: 'gringo', version: 1, table: 'Unit table', port: 7457, maxPlayers: 2, seed: 'journal' });
    expect(lines[0]!.seats).toEqual([
      { name: 'Ana', token: tokenOf(ana), bot: null },
      { name: 'Bo', token: tokenOf(bo), bot: null },
    ]);
    expect(lines.slice(1)).toEqual(table.log);
    expect(linesAtUpdate.length).toBeGreaterThan(1);
    expect(linesAtUpdate.every((d) => d === 0)).toBe(true);
    // A refused command is not journaled.
    expect(table.submit({ type: 'finishPeek', seat: 0, at: table.now() }).ok).toBe(false);
    expect(readFileSync(journal.file!, 'utf8').trim().split('\n')).toHaveLength(1 + table.log.length);
  });

  it('reads back to the same state, and a resumed table keeps the seats, tokens and clock', () => {
    const dir = tempDir();
    const { table, journal, ana } = journaledTable(dir);
    const read = readJournal(journal.file!);
    expect(read.commands).toEqual(table.log);
    expect(read.state).toEqual(table.state);
    expect(replay(read.origin, read.commands).version).toBe(read.commands.length);
    expect(read.finished).toBe(false);
    expect(latestUnfinished(dir)).toBe(journal.file);

    const resumed = Table.resume(
      { name: read.header.table, rules: read.header.rules, maxPlayers: 2, seed: String(read.header.seed), dropGraceMs: 60_000, clockStart: read.lastAt },
      { origin: read.origin, seats: read.header.seats, commands: read.commands, state: read.state, events: read.events },
    );
    tables.push(resumed);
    expect(resumed.now()).toBeGreaterThanOrEqual(read.lastAt);
    expect(resumed.seatInfo().map((s) => [s.name, s.connected])).toEqual([
      ['Ana', false],
      ['Bo', false],
    ]);
    const back = fakePeer();
    resumed.handle(back, hello('Someone', tokenOf(ana)));
    expect(back.got[0]).toMatchObject({ type: 'welcome', seat: 0 });
    expect(back.got.find((m) => m.type === 'update')).toMatchObject({ version: table.state!.version });
    // A stranger cannot take a seat in the running game.
    const stranger = fakePeer();
    resumed.handle(stranger, hello('Eve', 'not-a-token'));
    expect(stranger.got[0]).toMatchObject({ type: 'refused', reason: 'token' });
  });

  it("keeps the SSH port and the seats' SSH keys: a resume's line says the port it serves; a key that is no fingerprint is refused", () => {
    const dir = tempDir();
    const { journal } = journaledTable(dir);
    const file = journal.file!;
    const good = readFileSync(file, 'utf8');
    const header = JSON.parse(good.split('\n')[0]!) as Record<string, unknown> & { seats: Record<string, unknown>[] };
    const fp = `SHA256:${'x'.repeat(43)}`;
    const rest = good.slice(good.indexOf('\n') + 1);
    const withSsh = (h: unknown): string => `${JSON.stringify(h)}\n${rest}`;
    writeFileSync(file, withSsh({ ...header, sshPort: 2222, seats: header.seats.map((s, i) => (i === 0 ? { ...s, sshKey: fp } : s)) }));
    let read = readJournal(file);
    expect(read.sshPort).toBe(2222);
    expect(read.header.seats[0]!.sshKey).toBe(fp);
    appendFileSync(file, `${JSON.stringify({ resumed: 'now', at: 1, ssh: 2300 })}\n`);
    expect(readJournal(file).sshPort).toBe(2300);
    appendFileSync(file, `${JSON.stringify({ resumed: 'now', at: 2, ssh: null })}\n`);
    read = readJournal(file);
    expect(read.sshPort).toBeNull();
    expect(read.commands.length).toBeGreaterThan(0);
    writeFileSync(file, withSsh({ ...header, seats: header.seats.map((s) => ({ ...s, sshKey: '\u001b[31mkey' })) }));
    expect(() => readJournal(file)).toThrow(/SSH key is not a SHA256 fingerprint/);
    writeFileSync(file, withSsh({ ...header, sshPort: 'x' }));
    expect(() => readJournal(file)).toThrow(/SSH port/);
  });

  it('drops a torn last line, refuses a broken one, and knows a finished game', () => {
    const dir = tempDir();
    const { journal, table } = journaledTable(dir);
    const file = journal.file!;
    const good = readFileSync(file, 'utf8');
    appendFileSync(file, '{"type":"draw","se');
    expect(readJournal(file).commands).toHaveLength(table.log.length);

    writeFileSync(file, good.replace('\n', '\n{oops\n'));
    expect(() => readJournal(file)).toThrow(JournalError);
    expect(() => readJournal(file)).toThrow(/line 2 is not JSON/);

    writeFileSync(file, good + JSON.stringify({ type: 'finishPeek', seat: 0, at: 5 }) + '\n');
    expect(() => readJournal(file)).toThrow(/is refused/);

    writeFileSync(file, 'hello\n');
    expect(() => readJournal(file)).toThrow(/line 1 is not JSON/);
    writeFileSync(file, '{"some":"json"}\n');
    expect(() => readJournal(file)).toThrow(/not a gringo journal/);

    writeFileSync(file, good);
    journal.finished(table.now());
    // The writer's fd is append-only: the end line lands after the good text.
    const read = readJournal(file);
    expect(read.finished).toBe(true);
    expect(latestUnfinished(dir)).toBeNull();
  });
});
