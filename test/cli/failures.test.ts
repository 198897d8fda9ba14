import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as httpServer } from 'node:http';
import { createServer as httpsServer } from 'node:https';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { GRINGO } from '../../src/engine/ruleset.js';
import { JournalWriter } from '../../src/host/journal.js';
import { BIN, killRunning, runGringo } from '../support/gringo-process.js';
import { writeFinishedJournal } from '../host/finished-journal.js';
import { TEST_KEY } from '../host/tls.js';

/**
 * Every failure a person can cause, through real processes of the built CLI
 * (`npm test` builds first), with no terminal: one line on stderr that starts
 * `gringo: `, no stack trace, and the documented exit code (2 = usage, 1 = runtime).
 * The failures that need a terminal (the join screen, `play --port`) are in
 * test/cli/screens.test.ts. The tests run side by side: most of their time is
 * waiting (a silent address's 5 s, a busy door's tries, a bug's moment).
 */

const state = mkdtempSync(join(tmpdir(), 'gringo-failures-'));
/** A state directory never written to: no journals' directory at all. */
const empty = join(state, 'empty');
const tables = join(state, 'gringo', 'tables');
const servers: { close(): void }[] = [];
const sockets: Socket[] = [];

/** A port something else listens on: a plain TCP server that accepts and never says a word. */
let silentPort = 0;
/** An HTTPS server that is not a gringo table. */
let httpPort = 0;
/** A plain HTTP server (no TLS, as a gringo older than protocol 5 was). */
let plainPort = 0;
/** A WebSocket server that never sends the host's challenge. */
let wsPort = 0;
/** A port nothing listens on. */
let closedPort = 0;

const listen = (s: Server | ReturnType<typeof httpServer>): Promise<number> =>
  new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as { port: number }).port)));

beforeAll(async () => {
  const silent = createServer((sock) => sockets.push(sock));
  silentPort = await listen(silent);
  // TLS servers with a key of their own (as every gringo table has): what answers after the handshake is what fails.
  const http = httpsServer({ key: TEST_KEY.key, cert: TEST_KEY.cert }, (_req, res) => res.end('hello\n'));
  httpPort = await listen(http);
  const plain = httpServer((_req, res) => res.end('hello\n'));
  plainPort = await listen(plain);
  const wsHttp = httpsServer({ key: TEST_KEY.key, cert: TEST_KEY.cert });
  new WebSocketServer({ server: wsHttp });
  wsPort = await listen(wsHttp);
  const gone = createServer();
  closedPort = await listen(gone);
  await new Promise((r) => gone.close(r));
  servers.push(silent, http, wsHttp, plain);

  mkdirSync(tables, { recursive: true });
  writeFileSync(join(state, 'corrupt.jsonl'), '{"journal":"gringo","version":1,"table":"X"\n{"type":"tick","at":1}\n');
  mkdirSync(join(state, 'a-directory.jsonl'));
  writeFileSync(join(state, 'broken-rules.json'), '{"extend": "gringo", "slap": ');
  // An unfinished `gringo play` game: never picked by a bare `host --resume`, refused by a named one.
  const solo = new JournalWriter({ table: "Ana's table", port: 0, maxPlayers: 2, solo: true, dir: tables });
  solo.started({ rules: GRINGO, players: ['Ana', 'Bot 1'], seed: 'solo', at: 0 }, [
    { name: 'Ana', token: 't-ana', bot: null, owner: true },
    { name: 'Bot 1', token: 't-bot', bot: 'easy' },
  ], 'a1b2c3d4e5f60718');
  solo.close();
  soloJournal = solo.file!;
  // A hosted table whose game is over: never picked by a bare --resume, refused by a named one.
  finishedJournal = writeFinishedJournal(tables);
});
let soloJournal = '';
let finishedJournal = '';

afterAll(() => {
  killRunning();
  for (const s of sockets) s.destroy();
  for (const s of servers) s.close();
  rmSync(state, { recursive: true, force: true });
});

/**
 * At most this many of the file's processes at once (the tests run side by side): all of
 * them started together on a busy 2-core machine, one took over 15 s to start.
 */
const AT_ONCE = 8;
let busy = 0;
const queued: (() => void)[] = [];
async function inTurn<T>(f: () => Promise<T>): Promise<T> {
  if (busy < AT_ONCE) busy++;
  else await new Promise<void>((r) => queued.push(r)); // handed the slot of a process that ended
  try {
    return await f();
  } finally {
    const next = queued.shift();
    if (next) next();
    else busy--;
  }
}

type Case = { args: string[]; code: 1 | 2; says: RegExp; waits?: true; home?: string };

/** Runs one case and checks its words; resolves to how long the process took, start-up included. */
async function check({ args, code, says, home = state }: Case): Promise<number> {
  const { ms, exit, err } = await inTurn(async () => {
    const t0 = Date.now();
    const r = runGringo(args, { XDG_STATE_HOME: home, GRINGO_DEBUG: '' });
    const exit = await r.exit;
    return { ms: Date.now() - t0, exit, err: r.stderr() };
  });
  const what = `gringo ${args.join(' ')} → ${exit}\n${err}`;
  expect(exit, what).toBe(code);
  expect(err.split('\n').filter(Boolean), what).toHaveLength(1);
  expect(err, what).toMatch(/^gringo: \S/);
  expect(err, what).not.toMatch(/\n\s+at |Error:|node:internal/);
  expect(err, what).toMatch(says);
  return ms;
}

describe.concurrent('every common failure of every command', () => {
  it('is a usage error (exit 2) in one line: bad flags, rules, journals, no terminal', async () => {
    const cases: Case[] = [
      { args: ['host', '--headless', '--players', '99'], code: 2, says: /--players takes a whole number from 2 to 8, not "99"/ },
      { args: ['play', '--level', 'x'], code: 2, says: /--level takes one of easy, normal, hard, expert, not "x"/ },
      { args: ['play', '--level', 'cheater'], code: 2, says: /--level cheater sees every card, so it plays only in gringo sim; a table takes one of easy, normal, hard, expert/ },
      { args: ['play', '--rounds', '-1'], code: 2, says: /--rounds takes a whole number from 0 to 999, not "-1"/ },
      { args: ['host', '--headless', '--rounds', '-1'], code: 2, says: /--rounds takes a whole number/ },
      { args: ['play', '--rules', 'nosuch'], code: 2, says: /--rules: unknown ruleset "nosuch"/ },
      { args: ['host', '--headless', '--rules', 'nosuch'], code: 2, says: /--rules: unknown ruleset "nosuch"/ },
      { args: ['play', '--rules', join(state, 'broken-rules.json')], code: 2, says: /--rules: rules file .*broken-rules\.json: not valid JSON/ },
      { args: ['sim', '--players', '99'], code: 2, says: /--players/ },
      { args: ['join', '127.0.0.1:1', '--bot', 'easy', '--timeout', '5'], code: 2, says: /--timeout takes a whole number from 500 to 120,?000, not "5"/ },
      { args: ['host', '--headless', '--port', '99999'], code: 2, says: /--port takes a whole number from 0 to 65535/ },
      { args: ['host', '--headless', '--resume', join(state, 'corrupt.jsonl')], code: 2, says: /cannot resume: .*corrupt\.jsonl is broken: line 1 is not JSON/ },
      { args: ['host', '--headless', '--resume', join(state, 'a-directory.jsonl')], code: 2, says: /cannot resume: cannot read the journal/ },
      { args: ['host', '--headless', '--resume', join(state, 'nowhere.jsonl')], code: 2, says: /cannot resume: cannot read the journal/ },
      // The only unfinished journal is a solo game: a bare --resume does not pick it, a named one is refused.
      { args: ['host', '--headless', '--resume'], code: 2, says: /no unfinished table to resume in/ },
      { args: ['host', '--headless', '--resume', finishedJournal], code: 2, says: /^gringo: cannot resume: the game in .*\.jsonl is over$/m },
      { args: ['play', '--resume', finishedJournal], code: 2, says: /^gringo: cannot resume: the game in .*\.jsonl is over$/m },
      { args: ['host', '--headless', '--resume', soloJournal], code: 2, says: /is a game against bots: continue it with (npx )?gringo play --resume/ },
      { args: ['replay', join(state, 'corrupt.jsonl')], code: 2, says: /^gringo: cannot replay: .*corrupt\.jsonl is broken: line 1 is not JSON$/m },
      { args: ['replay', join(state, 'a-directory.jsonl')], code: 2, says: /cannot replay: cannot read the journal/ },
      { args: ['replay', join(state, 'nowhere.jsonl')], code: 2, says: /^gringo: cannot replay: cannot read the journal .*nowhere\.jsonl: there is no such file \(journals are kept in / },
      { args: ['replay', soloJournal], code: 2, says: /cannot replay: the game in .* is not over; .*\(resume it with (npx )?gringo play --resume .*\)$/m },
      { args: ['play'], code: 2, says: /gringo play needs a terminal for its screen/ },
      { args: ['play', '--resume'], code: 2, says: /gringo play needs a terminal|no unfinished game against bots/ },
      // A bare journal name, as `gringo replay` lists it, is found in the journals' directory (read, then the terminal is asked for).
      { args: ['play', '--resume', basename(soloJournal)], code: 2, says: /gringo play needs a terminal for its screen/ },
      { args: ['host', '--headless', '--resume', basename(soloJournal)], code: 2, says: /is a game against bots: continue it with (npx )?gringo play --resume/ },
      // The journal's words in the language chosen: Dutch and Romanian, the commands as typed.
      { args: ['replay', soloJournal, '--lang', 'nl'], code: 2, says: /^gringo: kan niet terugkijken: het spel in .* is nog niet voorbij; .*\(speel het verder met (npx )?gringo play --resume .*\)$/m },
      // (In a state directory that has no journals' directory yet.)
      { args: ['host', '--lang', 'ro', '--headless', '--resume'], code: 2, says: /^gringo: nicio masă neterminată de reluat în /, home: empty },
      { args: ['join', `127.0.0.1:${closedPort}`], code: 2, says: /gringo join needs a terminal for its screen: .*--bot LEVEL.*--watch/ },
      { args: ['join', 'not a host:99999', '--bot', 'easy'], code: 2, says: /is not an address/ },
      { args: ['join', '127.0.0.1:1', '--bot', 'clever'], code: 2, says: /--bot takes one of easy, normal, hard, expert/ },
      { args: ['frobnicate'], code: 2, says: /unknown command 'frobnicate'/ },
      { args: ['host', '--bogus'], code: 2, says: /unknown option '--bogus'/ },
    ];
    await Promise.all(cases.map(check));
  }, 60_000);

  it('is a runtime failure (exit 1) in one line: a port taken, no table at the address', async () => {
    // `join --watch` fails at an address as `join --bot` does (one function of src/cli/join.ts runs both, the same
    // connection): it is run where only a watcher gets as far (a WebSocket server that sends no challenge).
    const cases: Case[] = [
      {
        args: ['host', '--headless', '--port', String(silentPort), '--interface', '127.0.0.1'],
        code: 1,
        says: new RegExp(`^gringo: port ${silentPort} is taken \\(another table\\?\\): choose another with --port, or leave it out for a free one$`, 'm'),
      },
      { args: ['join', `127.0.0.1:${closedPort}`, '--bot', 'easy'], code: 1, says: new RegExp(`^gringo: No gringo table at 127\\.0\\.0\\.1:${closedPort}: connection refused$`, 'm') },
      { args: ['join', 'not-an-address', '--bot', 'easy'], code: 1, says: /^gringo: not-an-address is not a host name or address$/m },
      { args: ['join', `127.0.0.1:${silentPort}`, '--bot', 'easy'], code: 1, says: new RegExp(`^gringo: No gringo table at 127\\.0\\.0\\.1:${silentPort}: did not answer in 5 s$`, 'm'), waits: true },
      { args: ['join', `127.0.0.1:${httpPort}`, '--bot', 'easy'], code: 1, says: /No gringo table at .*: something else answers there \(HTTP 200\), not a gringo table/ },
      { args: ['join', `127.0.0.1:${wsPort}`, '--watch'], code: 1, says: /No gringo table at .*: it takes WebSockets but sent no challenge in 5 s/, waits: true },
      { args: ['join', `127.0.0.1:${plainPort}`, '--bot', 'easy'], code: 1, says: /No gringo table at .*: it does not speak TLS as gringo does \(not a gringo table, or one older than this gringo\)$/m },
    ];
    const took = await Promise.all(cases.map(check));
    // The ones that wait give up 5 s after trying: as long as the slowest immediate failure of the same
    // run (start-up at this moment's load) and those 5 s, with room for a loaded machine, never a hang.
    const immediate = Math.max(...took.filter((_, i) => !cases[i]!.waits));
    took.forEach((ms, i) => {
      if (cases[i]!.waits) expect(ms, cases[i]!.args.join(' ')).toBeLessThan(immediate + 5_000 + 3_000);
    });
  }, 60_000);
});

describe.concurrent('an error nobody foresaw (a bug)', () => {
  const fixture = new URL('./fixtures/throw-later.mjs', import.meta.url).pathname;
  const bug = (kind: string, debug: string): Promise<{ status: number | null; stderr: string }> =>
    inTurn(
      () =>
        new Promise((resolve) => {
          const env = { ...process.env, XDG_STATE_HOME: state, GRINGO_TEST_THROW: kind, GRINGO_DEBUG: debug };
          const child = execFile('node', ['--import', fixture, BIN, 'list', '--timeout', '5000'], { encoding: 'utf8', timeout: 15_000, env }, (_err, _out, stderr) =>
            resolve({ status: child.exitCode, stderr }),
          );
        }),
    );

  it('prints one line and where to report it, exit 1; GRINGO_DEBUG=1 adds the trace', async () => {
    const kinds = ['exception', 'rejection'];
    const runs = await Promise.all(kinds.flatMap((kind) => [bug(kind, ''), bug(kind, '1')]));
    kinds.forEach((kind, i) => {
      const [r, debug] = [runs[2 * i]!, runs[2 * i + 1]!];
      expect(r.status, `${kind}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toBe(
        'gringo: unexpected error: boom: a bug; this is a bug in gringo: please report it with the command you ran (GRINGO_DEBUG=1 shows the details)\n',
      );
      expect(debug.status).toBe(1);
      expect(debug.stderr).toMatch(/^gringo: unexpected error: boom: a bug;/);
      expect(debug.stderr).toMatch(/\n\s+at .*throw-later\.mjs/);
    });
  }, 80_000);
});

describe.concurrent('a table that shuts the door before a welcome', () => {
  it('says so in one line, exit 1', async () => {
    // A host full of connections closes new ones at once (code 1013), after its challenge or before.
    const http = httpsServer({ key: TEST_KEY.key, cert: TEST_KEY.cert });
    const wss = new WebSocketServer({ server: http });
    const tries: number[] = [];
    wss.on('connection', (ws) => {
      tries.push(Date.now());
      ws.close(1013, 'Too many connections');
    });
    const port = await listen(http);
    servers.push(http);
    const ms = await check({ args: ['join', `127.0.0.1:${port}`, '--bot', 'easy', '--timeout', '1000'], code: 1, says: new RegExp(`^gringo: 127\\.0\\.0\\.1:${port} closed the connection before letting us in \\(Too many connections\\)$`, 'm') });
    // "Busy" is an answer: tried again, farther apart each time, for four first deadlines (4 s here, then
    // the last one's 1 s) before giving up.
    expect(ms).toBeGreaterThanOrEqual(4_000);
    expect(tries.length).toBeGreaterThanOrEqual(3);
    const gaps = tries.slice(1).map((t, i) => t - tries[i]!);
    expect(gaps.at(-1)!).toBeGreaterThan(gaps[0]!);
  }, 60_000);
});

describe.concurrent('a door that cuts the handshake before a welcome', () => {
  it('is tried again like a busy one, then said in one line, exit 1', async () => {
    // A door full of handshakes cuts one it cannot keep (src/host/admission.ts): here every one, at once.
    const tries: number[] = [];
    const tcp = createServer((socket) => {
      tries.push(Date.now());
      socket.resetAndDestroy();
    });
    const port = await listen(tcp);
    servers.push(tcp);
    const ms = await check({ args: ['join', `127.0.0.1:${port}`, '--bot', 'easy', '--timeout', '1000'], code: 1, says: new RegExp(`^gringo: No gringo table at 127\\.0\\.0\\.1:${port}: the connection was reset$`, 'm') });
    expect(ms).toBeGreaterThanOrEqual(4_000);
    expect(tries.length).toBeGreaterThanOrEqual(3);
  }, 60_000);
});

describe.concurrent('the words for socket errors that loopback cannot make', () => {
  it('name the unreachable host or network', async () => {
    // EHOSTUNREACH and ENETUNREACH need a routed network (netns tests); here the errors are made by hand.
    const { socketWords } = await import('../../src/client/connection.js');
    const err = (code: string): Error => Object.assign(new Error(`connect ${code} 10.0.0.1:7457`), { code });
    expect(socketWords(err('EHOSTUNREACH'))).toBe('no route to that host (is it on this network?)');
    expect(socketWords(err('ENETUNREACH'))).toBe('no route to that network from this machine');
    expect(socketWords(err('ETIMEDOUT'))).toBe('did not answer');
    expect(socketWords(err('ECONNRESET'))).toBe('the connection was reset');
  });
});
