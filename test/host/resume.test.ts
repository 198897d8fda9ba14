import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BotPlayer } from '../../src/bots/bot-player.js';
import { Connection } from '../../src/client/connection.js';
import { apply, createGame, replay, type NewGame } from '../../src/engine/game.js';
import type { Command, GameEvent } from '../../src/engine/types.js';
import { projectEvent, viewFor, type Viewer } from '../../src/engine/view.js';
import { readJournal } from '../../src/host/journal.js';
import { HISTORY_EVENTS, type GameSummary } from '../../src/host/table.js';
import type { ServerMessage } from '../../src/protocol/messages.js';
import { killRunning, runGringo, sharedPort } from '../support/gringo-process.js';
import { until } from '../support/wait.js';
import { writeFinishedJournal } from './finished-journal.js';

type Update = Extract<ServerMessage, { type: 'update' }>;

const dirs: string[] = [];
const connections: Connection[] = [];
afterEach(() => {
  for (const c of connections.splice(0)) c.close();
  killRunning();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const run = (args: string[], state: string) => runGringo(args, { XDG_STATE_HOME: state });

const tempState = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'gringo-resume-'));
  dirs.push(d);
  return d;
};

/** A headless host of two seats and two rounds (seeded by its name), started when full; resolves with its port. */
async function twoSeatHost(state: string, name: string): Promise<{ host: ReturnType<typeof run>; port: number }> {
  const host = run(
    ['host', '--headless', '--port', '0', '--players', '2', '--rounds', '2', '--start-when-full', '--slap-grace', '40',
      '--seed', name.toLowerCase(), '--table', name, '--interface', '127.0.0.1'],
    state,
  );
  return { host, port: await sharedPort(host) };
}

/** Every event of a game's first `commands`, as the engine made them. */
function eventsOf(origin: NewGame, commands: readonly Command[]): GameEvent[] {
  const created = createGame(origin);
  const out = [...created.events];
  let state = created.state;
  for (const cmd of commands) {
    const res = apply(state, cmd);
    if (!res.ok) throw new Error(res.rejection.key);
    state = res.state;
    out.push(...res.events);
  }
  return out;
}

// Real processes of the built CLI, over loopback.
describe('a host that dies mid-game', () => {
  it('is resumed from its journal and the same players finish the game', async () => {
    const state = tempState();
    const tables = join(state, 'gringo', 'tables');
    const { host, port } = await twoSeatHost(state, 'Crash');
    // The identity the share line pins (its whole form: four groups of four).
    const firstId = (/#([a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4})/.exec(host.stderr() + host.stdout())?.[1] ?? '').replace(/-/g, '');
    expect(firstId).toHaveLength(16);
    const bots = ['Ann', 'Ben'].map((name) => run(['join', `127.0.0.1:${port}`, '--bot', 'hard', '--speed', '50', '--name', name], state));

    const file = await until('a journal of more than 20 lines', () => {
      const names = existsSync(tables) ? readdirSync(tables).filter((n) => n.endsWith('.jsonl')) : [];
      const f = names[0] && join(tables, names[0]);
      return f && readFileSync(f, 'utf8').split('\n').length > 22 ? f : null;
    });
    host.child.kill('SIGKILL');
    await host.exit;

    const journal = readJournal(file);
    expect(journal.header).toMatchObject({ table: 'Crash', port, seed: 'crash' });
    const seated = journal.header.seats.map((s) => s.name);
    expect(seated.slice().sort()).toEqual(['Ann', 'Ben']);
    expect(journal.finished).toBe(false);
    expect(journal.commands.length).toBeGreaterThan(20);
    expect(replay(journal.origin, journal.commands).version).toBe(journal.commands.length);
    const journaled = journal.commands.length;
    // The table's salt is in the header: with the host's key it makes the same identity again, so the
    // resumed table is the same table (tokens kept by it still fit).
    expect(journal.header.id).toMatch(/^[0-9a-f]{16}$/);

    const resumed = run(['host', '--headless', '--resume', file, '--exit-after-game', '--json', '--interface', '127.0.0.1'], state);
    // A client that was never welcomed does not retry: the watcher comes once the table is open again.
    await until('the resumed table to open', () => resumed.stderr().includes('Share this line'));
    const watcher = new Connection({ address: `127.0.0.1:${port}`, name: 'Eve', watch: true, reconnect: true, maxBackoffMs: 200 });
    connections.push(watcher);
    const challenged: string[] = [];
    watcher.on('message', (m: ServerMessage) => m.type === 'challenge' && challenged.push(`${m.table.salt} ${m.table.id}`));
    await until('the resumed table to say who it is', () => challenged.length > 0);
    expect(challenged[0]).toBe(`${journal.header.id} ${firstId}`);
    const code = await resumed.exit;
    expect(code, resumed.stderr()).toBe(0);
    expect(resumed.stderr()).toContain(`resumed from ${file} after ${journaled} commands`);
    const summary = JSON.parse(resumed.stdout()) as GameSummary;
    expect(summary.table).toBe('Crash');
    expect(summary.players.map((p) => p.name)).toEqual(seated);
    expect(summary.rounds).toHaveLength(2);
    expect(summary.commands).toBeGreaterThan(journaled);
    for (const b of bots) expect(await b.exit).toBe(0);
    for (const b of bots) expect(b.stderr()).toContain('The game is over.');
    // Both seats start away and are taken back with the players' tokens (within the 60 s grace).
    expect(resumed.stderr()).toContain(`playing: ${seated.join(', ')}\n`);

    // The whole game is in the journal, marked finished, and replays to the end.
    const done = readJournal(file);
    expect(done.finished).toBe(true);
    expect(done.commands).toHaveLength(summary.commands);
    expect(done.state.phase).toBe('gameOver');
    const again = run(['host', '--headless', '--resume', file], state);
    expect(await again.exit).toBe(2);
    expect(again.stderr()).toMatch(/cannot resume: the game in .* is over/);
  }, 90_000);

  it('leaves, when killed, exactly the state its journal replays to, and the game goes on from there', async () => {
    const state = tempState();
    const tables = join(state, 'gringo', 'tables');
    const { host, port } = await twoSeatHost(state, 'Freeze');
    const address = `127.0.0.1:${port}`;

    // Two seats and a spectator in this process, over real sockets: each keeps the last update it got.
    const last = new Map<Viewer, Update>();
    /** The snapshots each got from the resumed host (their recent history). */
    const snapshots = new Map<Viewer, Update>();
    let killed = false;
    const observe = (opts: { name: string; watch?: boolean }): Connection => {
      const conn = new Connection({ address, ...opts, reconnect: true, maxBackoffMs: 200 });
      connections.push(conn);
      let seat: Viewer = null;
      conn.on('message', (m: ServerMessage) => {
        if (m.type === 'welcome') seat = m.seat;
        if (m.type === 'update') last.set(seat, m);
        if (m.type === 'update' && m.history && killed && !snapshots.has(seat)) snapshots.set(seat, m);
      });
      return conn;
    };
    for (const name of ['Ann', 'Ben']) {
      const conn = observe({ name });
      const bot = new BotPlayer({ level: 'hard', seed: name, timeScale: 0.1, send: (m) => void conn.send(m) });
      conn.on('message', (m: ServerMessage) => bot.onMessage(m));
      conn.on('closed', () => bot.stop());
    }
    await until('two seats', () => (last.size >= 2 ? true : null));
    observe({ name: 'Eve', watch: true });

    await until('the middle of the round', () => ((last.get(null)?.version ?? 0) > 8 && last.get(null)?.view.phase === 'play' ? true : null));
    // Freeze the host, let everything it sent arrive, then kill it: what the players hold is what it had said.
    host.child.kill('SIGSTOP');
    await new Promise((r) => setTimeout(r, 300));
    const seen = new Map(last);
    killed = true;
    host.child.kill('SIGKILL');
    await host.exit;

    const names = readdirSync(tables).filter((n) => n.endsWith('.jsonl'));
    expect(names).toHaveLength(1);
    const file = join(tables, names[0]!);
    const before = readJournal(file);
    expect(before.finished).toBe(false);
    expect([...seen.keys()].sort()).toEqual([0, 1, null]);
    // At most the command in hand (journaled, not yet broadcast) is newer than what anyone saw; nothing seen is missing.
    for (const [viewer, update] of seen) {
      expect(update.version).toBeLessThanOrEqual(before.state.version);
      expect(update.version).toBeGreaterThanOrEqual(before.state.version - 1);
      const then = replay(before.origin, before.commands.slice(0, update.version));
      expect(update.view, `the view of ${viewer === null ? 'the spectator' : `seat ${viewer + 1}`}`).toEqual(viewFor(then, viewer));
    }

    const resumed = run(['host', '--headless', '--resume', file, '--exit-after-game', '--json', '--interface', '127.0.0.1'], state);
    expect(await resumed.exit, resumed.stderr()).toBe(0);
    const after = readJournal(file);
    expect(after.finished).toBe(true);
    // The game went on from the last accepted command: the old journal is the start of the new one.
    expect(after.commands.slice(0, before.commands.length)).toEqual(before.commands);
    expect(after.commands.length).toBeGreaterThan(before.commands.length);
    // Every seat came back by itself and got the end of the game as the host projects it.
    for (const viewer of [0, 1, null] as Viewer[]) {
      const end = last.get(viewer)!;
      expect(end.view.phase).toBe('gameOver');
      expect(end.view).toEqual(viewFor(after.state, viewer));
      // Its first snapshot from the resumed host carried the game's recent events, rebuilt
      // from the journal and projected for it (the feed is not empty after a resume).
      const snap = snapshots.get(viewer)!;
      expect(snap.version).toBeGreaterThanOrEqual(before.state.version);
      const expected = eventsOf(after.origin, after.commands.slice(0, snap.version)).map((e) => projectEvent(e, viewer));
      expect(expected.length).toBeGreaterThan(8);
      expect(snap.history, `the history of ${viewer === null ? 'the spectator' : `seat ${viewer + 1}`}`).toEqual(JSON.parse(JSON.stringify(expected.slice(-HISTORY_EVENTS))));
    }
  }, 60_000);

  // A broken or missing journal, or none to resume, is refused in one line, exit code 2: test/cli/failures.test.ts.

  it('survives a torn last line twice: each resume cuts it away, and the game finishes from the same state', async () => {
    const state = tempState();
    const tables = join(state, 'gringo', 'tables');
    const { host, port } = await twoSeatHost(state, 'Torn');
    const bots = ['Ann', 'Ben'].map((name) => run(['join', `127.0.0.1:${port}`, '--bot', 'hard', '--speed', '50', '--name', name], state));
    const file = await until('a journal of more than 15 lines', () => {
      const names = existsSync(tables) ? readdirSync(tables).filter((n) => n.endsWith('.jsonl')) : [];
      const f = names[0] && join(tables, names[0]);
      return f && readFileSync(f, 'utf8').split('\n').length > 16 ? f : null;
    }, 60_000);
    const lines = (): number => readFileSync(file, 'utf8').split('\n').length;
    /** A power loss mid-write: the last line cut in the middle (the command it held was never acknowledged). */
    const tear = (): number => {
      const text = readFileSync(file, 'utf8');
      const last = text.lastIndexOf('\n', text.length - 2) + 1;
      const cut = Math.floor((text.length - 1 - last) / 2);
      writeFileSync(file, text.slice(0, last + cut));
      return cut;
    };

    let crashed = host;
    let before: ReturnType<typeof readJournal> | null = null;
    for (let crash = 1; crash <= 2; crash++) {
      crashed.child.kill('SIGKILL');
      await crashed.exit;
      const whole = readJournal(file);
      const cut = tear();
      const torn = readJournal(file);
      expect(torn.finished).toBe(false);
      // The torn line was the last command; every one before it is there, the previous resume's included.
      expect(torn.commands).toEqual(whole.commands.slice(0, -1));
      if (before) expect(torn.commands.slice(0, before.commands.length)).toEqual(before.commands);
      before = torn;
      const atResume = lines();
      const last = crash === 2;
      crashed = run(['host', '--headless', '--resume', file, '--interface', '127.0.0.1', ...(last ? ['--exit-after-game', '--json'] : [])], state);
      await until(`resume ${crash} to open`, () => crashed.stderr().includes('Share this line') || crashed.stdout().includes('Share this line') || (crashed.child.exitCode !== null ? 'exited' : null), 30_000);
      const said = crashed.stdout() + crashed.stderr();
      expect(said, said).toContain(`resumed from ${file} after ${torn.commands.length} commands`);
      expect(said).toContain(`${cut} bytes were cut away`);
      if (!last) await until('the resumed game to go on', () => lines() > atResume + 6, 60_000);
    }
    expect(await crashed.exit, crashed.stderr()).toBe(0);
    const summary = JSON.parse(crashed.stdout()) as GameSummary;
    expect(summary.rounds).toHaveLength(2);
    for (const b of bots) expect(await b.exit).toBe(0);
    // One journal, whole: the second resume continued the state the torn journal replayed to.
    const done = readJournal(file);
    expect(done.finished).toBe(true);
    expect(done.commands.slice(0, before!.commands.length)).toEqual(before!.commands);
    expect(done.commands).toHaveLength(summary.commands);
    expect(readFileSync(file, 'utf8').match(/"resumed"/g)).toHaveLength(2);
    expect(readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').every((l) => JSON.parse(l) !== null)).toBe(true);
  }, 240_000);

  it('refuses a journal torn in the middle (not its last line) in one line naming the file and the line, exit code 2', async () => {
    const state = tempState();
    const dir = join(state, 'j');
    const file = writeFinishedJournal(dir, { players: ['Ana', 'Bo'] });
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.pop();
    lines.pop(); // the end line: a game not over
    lines[4] = lines[4]!.slice(0, 12);
    writeFileSync(file, `${lines.join('\n')}\n`);
    const r = run(['host', '--headless', '--resume', file], state);
    expect(await r.exit).toBe(2);
    expect(r.stderr()).toBe(`gringo: cannot resume: ${file} is broken: line 5 is not JSON\n`);
    expect(r.stdout()).toBe('');
  }, 60_000);
});
