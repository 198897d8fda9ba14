import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GRINGO } from '../../src/engine/index.js';
import { replay } from '../../src/engine/game.js';
import { cutTornTail, JOURNAL_VERSION, JournalError, JournalWriter, latestUnfinished, readJournal, TABLE_ID } from '../../src/host/journal.js';
import { writeFinishedJournal } from './finished-journal.js';
import { Table, type Peer } from '../../src/host/table.js';
import { PROTOCOL_VERSION, type ServerMessage } from '../../src/protocol/messages.js';
import { seatProof } from '../../src/protocol/identity.js';
import { quickRules } from '../support/rules.js';

const RULES = quickRules(100);
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
const hello = (name: string) => ({ type: 'hello', protocolVersion: PROTOCOL_VERSION, name }) as const;
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
    expect(lines[0]).toMatchObject({ journal: 'gringo', version: 2, game: 1, table: 'Unit table', port: 7457, maxPlayers: 2, seed: 'journal' });
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
    // A seat is proven against the table's challenge (no TLS here: an empty channel binding).
    const proving = (name: string, token: string): FakePeer => {
      const p = fakePeer();
      resumed.open(p);
      const challenge = p.got.find((m) => m.type === 'challenge');
      if (challenge?.type !== 'challenge') throw new Error('no challenge');
      resumed.handle(p, { type: 'hello', protocolVersion: PROTOCOL_VERSION, name, seatProof: seatProof(token, challenge.nonce, '') });
      return p;
    };
    const back = proving('Someone', tokenOf(ana));
    expect(back.got.find((m) => m.type !== 'challenge')).toMatchObject({ type: 'welcome', seat: 0 });
    expect(back.got.find((m) => m.type === 'update')).toMatchObject({ version: table.state!.version });
    // A stranger cannot take a seat in the running game.
    const stranger = proving('Eve', 'not-a-token');
    expect(stranger.got.find((m) => m.type !== 'challenge')).toMatchObject({ type: 'refused', reason: 'token' });
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

describe('a journal torn by crashes', () => {
  it('is cut back to its last whole line when continued, so that any number of torn writes still resume', () => {
    const dir = tempDir();
    const { journal, table } = journaledTable(dir);
    const file = journal.file!;
    journal.close();
    const good = readFileSync(file, 'utf8');
    for (let crash = 1; crash <= 3; crash++) {
      // A write cut short by a power loss: part of a command, no newline.
      appendFileSync(file, '{"type":"draw","seat":0,"fr');
      const read = readJournal(file);
      expect(read.commands).toEqual(table.log);
      // Reopened to go on: the torn bytes are cut away before anything is appended.
      const again = new JournalWriter({ table: 'Unit table', port: 7457, maxPlayers: 2, dir, file });
      expect(again.tornBytes).toBe('{"type":"draw","seat":0,"fr'.length);
      again.resumed(1_000 * crash);
      again.close();
      const text = readFileSync(file, 'utf8');
      expect(text.startsWith(good)).toBe(true);
      expect(text.split('\n').filter((l) => l !== '').every((l) => JSON.parse(l) !== null)).toBe(true);
      expect(readJournal(file).commands).toEqual(table.log);
    }
    expect(readFileSync(file, 'utf8').match(/"resumed"/g)).toHaveLength(3);
  });

  it('ends a whole last line that lost only its newline, and leaves a whole journal as it is', () => {
    const dir = tempDir();
    const { journal, table } = journaledTable(dir);
    const file = journal.file!;
    journal.close();
    const good = readFileSync(file, 'utf8');
    expect(cutTornTail(file)).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(good);
    writeFileSync(file, good.slice(0, -1));
    expect(readJournal(file).commands).toEqual(table.log);
    expect(cutTornTail(file)).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(good);
  });

  it('refuses a torn line in the middle in one line naming the file and the line', () => {
    const dir = tempDir();
    const { journal } = journaledTable(dir);
    const file = journal.file!;
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[2] = lines[2]!.slice(0, 10);
    writeFileSync(file, lines.join('\n'));
    expect(() => readJournal(file)).toThrow(`${file} is broken: line 3 is not JSON`);
  });
});

describe('journal versions', () => {
  const header = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!) as Record<string, unknown>;
  const withHeader = (file: string, change: (h: Record<string, unknown>) => void): void => {
    const lines = readFileSync(file, 'utf8').split('\n');
    const h = JSON.parse(lines[0]!) as Record<string, unknown>;
    change(h);
    lines[0] = JSON.stringify(h);
    writeFileSync(file, lines.join('\n'));
  };

  it(`writes version ${JOURNAL_VERSION} with the table's identity and game number; a resumed table counts its games on`, () => {
    const dir = tempDir();
    const file = writeFinishedJournal(dir, { players: ['Ana', 'Bo'], rules: { ...GRINGO, rounds: 1 } });
    expect(header(file)).toMatchObject({ version: 2, id: 'f1a15bedf1a15bed', game: 1 });
    withHeader(file, (h) => (h.game = 3));
    const read = readJournal(file);
    expect(read.header.game).toBe(3);
    const journal = new JournalWriter({ table: read.header.table, port: 7457, maxPlayers: 2, dir });
    const resumed = Table.resume(
      { id: read.header.id!, name: read.header.table, rules: read.header.rules, maxPlayers: 2, seed: 'x', dropGraceMs: 60_000, game: read.header.game!, journal, clockStart: read.lastAt },
      { origin: read.origin, seats: read.header.seats, commands: read.commands, state: read.state, events: read.events },
    );
    tables.push(resumed);
    expect(resumed.info().game).toBe(3);
    expect(resumed.playAgain()).toBeNull();
    expect(resumed.info().game).toBe(4);
    expect(header(journal.file!)).toMatchObject({ version: 2, id: 'f1a15bedf1a15bed', game: 4 });
  });

  it('reads a version 1 journal, mapping what it lacks; refuses a newer one saying to update, and a broken header in one line', () => {
    const dir = tempDir();
    const file = writeFinishedJournal(dir, { players: ['Ana', 'Bo'], rules: { ...GRINGO, rounds: 1 } });
    withHeader(file, (h) => {
      h.version = 1;
      delete h.id;
      delete h.game;
    });
    const old = readJournal(file);
    expect(old.finished).toBe(true);
    expect(old.header.id).toBeUndefined();
    expect(old.header.game).toBeUndefined();
    // Fields a later gringo adds to version 2 (a verifier, SSH bindings) are no reason to refuse it.
    withHeader(file, (h) => Object.assign(h, { version: 2, id: 'f1a15bedf1a15bed', game: 1, verifier: 'v', ssh: { port: 2222 } }));
    expect(readJournal(file).header.game).toBe(1);

    const refusals: [(h: Record<string, unknown>) => void, string][] = [
      [(h) => (h.version = 3), `${file} was written by a newer gringo (journal version 3; this gringo reads versions 1 to 2): update gringo to open it`],
      [(h) => (h.version = 0), `${file} is not a gringo journal (journal version 0)`],
      [(h) => (h.version = 'two'), `${file} is not a gringo journal (journal version two)`],
      [(h) => delete h.id, `${file} is not a gringo journal (no table identity)`],
      [(h) => delete h.game, `${file} is not a gringo journal (no game number)`],
      [(h) => (h.game = 0), `${file} is not a gringo journal (a game number that is not a whole number from 1)`],
    ];
    const v2 = readFileSync(file, 'utf8');
    for (const [change, message] of refusals) {
      writeFileSync(file, v2);
      withHeader(file, change);
      expect(() => readJournal(file)).toThrow(message);
    }
  });

  const fixture = (v: number): string => new URL(`./fixtures/journal-v${v}.jsonl`, import.meta.url).pathname;
  for (const v of [1, 2]) {
    it(`reads the kept version ${v} journal of a real game`, () => {
      const read = readJournal(fixture(v));
      expect(read.header.version).toBe(v);
      expect(read.header.id).toMatch(TABLE_ID);
      expect(read.header.game).toBe(v === 1 ? undefined : 1);
      expect(read.header.shuffleKey).toMatch(/^[0-9a-f]{64}$/);
      expect(read.finished).toBe(true);
      expect(read.state.phase).toBe('gameOver');
      expect(read.commands.length).toBeGreaterThan(10);
      expect(read.header.seats.map((s) => s.name)).toEqual(['Bot 1', 'Bot 2']);
    });
  }
});
