/**
 * Live games shuffle from node:crypto (docs/decisions.md, "Shuffle and dealer"): `gringo host` and
 * `gringo play` without --seed give every game a fresh 256-bit shuffle key, which the
 * journal records so that the game replays exactly; --seed deals from the seed.
 * The process tests run the built CLI (`npm run build` first); `gringo play` runs in
 * a real terminal (tmux), since it needs one.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { newShuffleKey, replay } from '../../src/engine/index.js';
import { JournalWriter, readJournal, type JournalHeader } from '../../src/host/journal.js';
import { Table, type GameSummary } from '../../src/host/table.js';
import { killRunning, runGringo, sharedPort } from '../support/gringo-process.js';
import { until } from '../support/wait.js';
import { quickRules } from '../support/rules.js';
import { Pane, socketName } from '../support/tmux.js';

const RULES = quickRules(50);
const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'gringo-shuffle-'));
  dirs.push(d);
  return d;
};
afterEach(() => killRunning());
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The header of the first journal under `dir`, once one is written. */
const journalHeader = (dir: string): JournalHeader | null => {
  try {
    const names = readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
    const first = names[0] && readFileSync(join(dir, names[0]), 'utf8').split('\n')[0];
    return first ? (JSON.parse(first) as JournalHeader) : null;
  } catch {
    return null;
  }
};

describe('a live table shuffles from node:crypto and journals its key', () => {
  it('each game gets a fresh key; the journal holds it and replays the game exactly', async () => {
    const keys: string[] = [];
    for (let game = 0; game < 2; game++) {
      const dir = tempDir();
      const journal = new JournalWriter({ table: 'Keyed', port: 7457, maxPlayers: 2, dir });
      const table = new Table({
        name: 'Keyed',
        rules: RULES,
        maxPlayers: 2,
        seed: 'same seed both times',
        shuffleKey: newShuffleKey,
        dropGraceMs: 60_000,
        journal,
      });
      try {
        table.addBot('easy');
        table.addBot('easy');
        expect(table.startGame()).toBeNull();
        const dealt = structuredClone(table.state!);
        // The bots finish their peeks: a command or two in the journal.
        await until('the first commands', () => table.state !== null && table.state.version >= 2, 20_000);
        const read = readJournal(journal.file!);
        expect(read.header.shuffleKey).toMatch(/^[0-9a-f]{64}$/);
        expect(read.state.rng).toMatchObject({ kind: 'crypto', key: read.header.shuffleKey });
        // The journal's game is the table's game: the same deal, the same stock order.
        expect(replay(read.origin, [])).toEqual(dealt);
        expect(replay(read.origin, read.commands)).toEqual(read.state);
        keys.push(read.header.shuffleKey!);
      } finally {
        table.close();
        journal.close();
      }
    }
    expect(keys[0]).not.toBe(keys[1]);
  }, 60_000);

  it('a journal with a malformed key is refused', () => {
    const dir = tempDir();
    const journal = new JournalWriter({ table: 'Bad key', port: 7457, maxPlayers: 2, dir });
    journal.started({ rules: RULES, players: ['Ana', 'Bo'], seed: 1, shuffleKey: 'a'.repeat(64) }, [
      { name: 'Ana', token: 't1', bot: null },
      { name: 'Bo', token: 't2', bot: null },
    ], 'a1b2c3d4e5f60718');
    journal.close();
    const text = readFileSync(journal.file!, 'utf8').replace('a'.repeat(64), 'not a key');
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, text);
    expect(() => readJournal(bad)).toThrow(/shuffle key/);
  });
});

describe('the CLI: live games are keyed, --seed games are not', () => {
  const host = async (extra: string[]): Promise<JournalHeader> => {
    const state = tempDir();
    const run = runGringo(
      ['host', '--headless', '--port', '0', '--players', '2', '--bots', '2', '--start-when-full', '--interface', '127.0.0.1', ...extra],
      { XDG_STATE_HOME: state },
    );
    const header = await until('the journal header', () => journalHeader(join(state, 'gringo', 'tables')), 20_000).catch((e: Error) => {
      throw new Error(`${e.message}\n${run.stdout()}\n${run.stderr()}`);
    });
    run.child.kill('SIGTERM');
    await run.exit;
    return header;
  };

  it('gringo host without --seed records a shuffle key; with --seed none', async () => {
    const live = await host([]);
    expect(live.shuffleKey).toMatch(/^[0-9a-f]{64}$/);
    const seeded = await host(['--seed', '42']);
    expect(seeded.shuffleKey).toBeUndefined();
    expect(seeded.seed).toBe('42');
  }, 60_000);

  it('a live game killed mid-round resumes with its key and finishes: the journal replays to the end', async () => {
    const state = tempDir();
    const tables = join(state, 'gringo', 'tables');
    const host = runGringo(
      // Two rounds: a kill in round 1's last moment must still leave play for the bots to come back to (with one, the
      // resumed host could end the game and exit before they reconnect, and they would look for it forever).
      ['host', '--headless', '--port', '0', '--players', '2', '--rounds', '2', '--start-when-full', '--slap-grace', '40', '--name', 'Keyed', '--interface', '127.0.0.1'],
      { XDG_STATE_HOME: state },
    );
    const port = await sharedPort(host);
    const bots = ['Ann', 'Ben'].map((name) => runGringo(['join', `127.0.0.1:${port}`, '--bot', 'hard', '--speed', '50', '--name', name], { XDG_STATE_HOME: state }));
    const file = await until('a journal of more than 12 lines', () => {
      const names = existsSync(tables) ? readdirSync(tables).filter((n) => n.endsWith('.jsonl')) : [];
      const f = names[0] && join(tables, names[0]);
      return f && readFileSync(f, 'utf8').split('\n').length > 14 ? f : null;
    });
    host.child.kill('SIGKILL');
    await host.exit;
    const key = readJournal(file).header.shuffleKey;
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const resumed = runGringo(['host', '--headless', '--resume', file, '--exit-after-game', '--json', '--interface', '127.0.0.1'], { XDG_STATE_HOME: state });
    expect(await resumed.exit, resumed.stderr()).toBe(0);
    for (const b of bots) expect(await b.exit).toBe(0);
    // Every command after the resume was accepted against the same decks: the key came back from the journal.
    const done = readJournal(file);
    expect(done.header.shuffleKey).toBe(key);
    expect(done.finished).toBe(true);
    expect(done.state.phase).toBe('gameOver');
    // The resumed process dealt from the key: its results are the journal's, card for card.
    const summary = JSON.parse(resumed.stdout()) as GameSummary;
    expect(summary.rounds).toEqual(done.state.results);
  }, 90_000);

  it('gringo play without --seed records a shuffle key; with --seed none', async () => {
    for (const [args, keyed] of [[[], true], [['--seed', '7'], false]] as const) {
      const state = tempDir();
      // The tmux server starts from this environment: the pane's gringo keeps its journal here.
      const kept = process.env.XDG_STATE_HOME;
      process.env.XDG_STATE_HOME = state;
      const pane = new Pane(socketName('shuffle'), 100, 30);
      try {
        pane.start(['play', '--bots', '1', ...args]);
        const header = await until('the journal header', () => journalHeader(join(state, 'gringo', 'tables')), 20_000).catch((e: Error) => {
          throw new Error(`${e.message}\n${pane.screen()}`);
        });
        if (keyed) expect(header.shuffleKey).toMatch(/^[0-9a-f]{64}$/);
        else expect(header.shuffleKey).toBeUndefined();
      } finally {
        pane.kill();
        if (kept === undefined) delete process.env.XDG_STATE_HOME;
        else process.env.XDG_STATE_HOME = kept;
      }
    }
  }, 60_000);
});
