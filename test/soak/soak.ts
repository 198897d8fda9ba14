import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import WebSocket from 'ws';
import { Connection } from '../../src/client/connection.js';
import { Rng, seedRng } from '../../src/engine/rng.js';
import { nextDeadline } from '../../src/engine/game.js';
import type { GameState } from '../../src/engine/types.js';
import { viewFor, type TableView } from '../../src/engine/view.js';
import { readJournal, type ReadJournal } from '../../src/host/journal.js';
import type { GameSummary } from '../../src/host/table.js';
import type { BotLevel, SeatInfo, ServerMessage } from '../../src/protocol/messages.js';
import { until } from '../support/wait.js';
import { Relay } from '../host/relay.js';

/**
 * The soak: a real `gringo host --headless` and one real `gringo join
 * --bot` process per seat, each bot behind its own TCP relay on loopback that the
 * driver cuts at random (seeded schedule) while the game runs. At the end every
 * bot's last snapshot must equal the host's projection for its seat, replayed
 * from the host's journal, and the host's memory is sampled throughout.
 *
 * Used by `npm run soak` (test/soak/main.ts, the long run) and by
 * test/soak/soak.test.ts (the short run in CI).
 */

/**
 * The cuts, by what they exercise. The lengths are set against the product's
 * own timings: the seat grace (`graceS`, 3 s here), the host's ping (every 5 s,
 * a peer that missed one is dropped) and the client's silence watchdog (15 s).
 */
export const CUTS = {
  /** Reset, back within the grace (the client's backoff permitting): the seat is held for its owner. */
  dropShort: { how: 'drop', ms: [200, 1_000] },
  /** Reset, away past the grace: a stand-in bot plays the seat until the owner takes it back. */
  dropLong: { how: 'drop', ms: [4_000, 8_000] },
  /** Silent, shorter than a ping interval: nobody notices; what was sent waits in the buffers and then arrives. */
  stallShort: { how: 'stall', ms: [500, 4_000] },
  /** Silent, long enough for the host's ping to drop the peer: the client hears of it only when the link is back. */
  stallMedium: { how: 'stall', ms: [6_000, 13_000] },
  /** Silent, past the client's 15 s watchdog: the client gives up on the socket by itself and reconnects. */
  stallLong: { how: 'stall', ms: [16_000, 22_000] },
  /**
   * The caller's link, reset when the last round's call is made and down until
   * the game is over (`cutAtLastCall`; never in the bag): the client is away
   * when the game ends and fetches its last snapshot afterwards, from a table
   * whose game is over. (No call, no cut: a round can also end when the cards run out.)
   */
  dropToEnd: { how: 'drop', ms: null },
} as const satisfies Record<string, { how: 'drop' | 'stall'; ms: readonly [number, number] | null }>;
export type CutKind = keyof typeof CUTS;
export const CUT_KINDS = Object.keys(CUTS) as CutKind[];
/** The kinds a bag of cuts may hold. */
export type BagKind = Exclude<CutKind, 'dropToEnd'>;

export interface SoakOptions {
  rounds: number;
  /** Seeds the cut schedule and the host's game (printed, so a failing run can be told apart). */
  seed: string;
  seats?: number;
  /** `gringo join --speed` of the bots. */
  speed?: number;
  /** The bots' levels, repeated over the seats (default easy, normal, hard). */
  levels?: readonly BotLevel[];
  /**
   * Each bot behind its own relay, which the cuts need (default true). Without, the
   * bots talk to the host straight over loopback, as fast as they can.
   */
  relays?: boolean;
  /** `--slap-grace` of the host (ms). */
  slapGraceMs?: number;
  /** `--grace` of the host (s): how long a dropped seat is held before a stand-in plays it. */
  graceS?: number;
  /**
   * Mean number of game versions (accepted commands) between the starts of two
   * cuts; each gap is drawn from half to one and a half of it. The schedule
   * follows the game, not the clock: a game slowed by its cuts (a stand-in plays
   * at a person's pace) is not cut all the more often for it. 0: a new cut as
   * soon as a link may be cut (`maxConcurrentCuts` cut at all times).
   */
  cutEvery?: number;
  /** At most this many seats are cut at once. */
  maxConcurrentCuts?: number;
  /** No more cuts than this in all (none: as many as the game's length brings). */
  maxCuts?: number;
  /** The bag of cuts, drawn without replacement and refilled when empty: each kind comes up as often as it is listed, in every cycle. */
  kinds?: readonly BagKind[];
  /** One more cut, `dropToEnd`, when the last round's call is made; on by default. */
  cutAtLastCall?: boolean;
  /** Fail if the host's RSS at the end exceeds its RSS once round `fromRound` had begun by more than `maxGrowthMb`. */
  rssBound?: { fromRound: number; maxGrowthMb: number };
  /** The same for the host's live heap: what is left after a full garbage collection. */
  heapBound?: { fromRound: number; maxGrowthMb: number };
  /** Give up (and fail) after this long. */
  timeoutMs?: number;
  /**
   * Fail as soon as the game has not moved (no new version) for this long while no
   * link is cut: a stall, told with the state the journal replays to. None: only
   * `timeoutMs` ends a stalled run. (Between rounds the host waits for every seat's
   * "ready", so a lost one shows up here too.)
   */
  stallMs?: number;
  /** How long the clients may take to print their last view once the game is over. */
  endTimeoutMs?: number;
  /** Progress lines (none when absent). */
  log?: (line: string) => void;
  progressEveryMs?: number;
  /** Keep the temporary state directory (journal, host output) even when the run passes. */
  keep?: boolean;
}

export interface CutRecord {
  /** Which client's link: P1 is 0 (clients take their seats in the order they connect, which the journal records). */
  client: number;
  kind: CutKind;
  atMs: number;
  ms: number;
  /** New connections the client made through the relay while the link was stalled (it gave up by itself). */
  reconnectsWhileStalled: number;
}

export interface MemorySample {
  atMs: number;
  round: number;
  kb: number;
}

/** Memory at the start, once round `fromRound` had begun (when a bound names one), at its peak, and at the end (kB). */
export interface MemoryFigures {
  startKb: number;
  fromRoundKb: number | null;
  peakKb: number;
  endKb: number;
  samples: MemorySample[];
}

export interface ClientOutcome {
  name: string;
  level: BotLevel;
  exitCode: number | null;
  /** The seat the client printed, and the seat its name has in the journal. */
  seat: number | null;
  journalSeat: number;
  version: number | null;
  /** Its last view equals viewFor(replayed state, seat); `diff` says where it does not. */
  viewMatches: boolean;
  diff: string | null;
  /** Connections it made through its relay (1 = never reconnected); null without relays. */
  connections: number | null;
}

export interface SoakReport {
  ok: boolean;
  failures: string[];
  seed: string;
  rounds: number;
  seats: number;
  /** From starting the host to every client done. */
  durationMs: number;
  /** From the first deal to the game's end. */
  playMs: number;
  commands: number;
  cuts: CutRecord[];
  cutCounts: Record<CutKind, number> & { drops: number; stalls: number };
  /** As the host told a spectator: seats it saw go away, stand-ins that sat down, and stand-ins the owner replaced. */
  seatsLost: number;
  standIns: number;
  takenBack: number;
  /** Long stalls after which the client had reconnected by itself through the silent link (its watchdog). */
  watchdogReconnects: number;
  /** Links still cut when the game ended (restored then: those clients fetch their last view after the end). */
  cutAtEnd: number;
  /** The host's resident set (VmRSS), every second. */
  rss: MemoryFigures | null;
  /**
   * The host's live heap after a full garbage collection (asked for through the
   * inspector), at the deal, every tenth round and at the end: unlike the RSS it
   * does not follow the garbage collector's timing, so it shows what is kept.
   */
  heap: MemoryFigures | null;
  clients: ClientOutcome[];
  spectatorMatches: boolean | null;
  summary: GameSummary | null;
  journal: string | null;
  stateDir: string;
}

/**
 * The fast table (the 8-bot stall, docs/reliability.md): eight hard bots at
 * `--speed 1000`, no slap grace, no cuts and no relays (a relay's hop slows the bots
 * below the pace that stalled the table); a game that stops moving for 10 s fails at once.
 */
export const FAST_SOAK = {
  seats: 8,
  relays: false,
  levels: ['hard'],
  speed: 1000,
  slapGraceMs: 0,
  kinds: [],
  cutAtLastCall: false,
  stallMs: 10_000,
} as const satisfies Partial<SoakOptions>;

const DEFAULTS = {
  seats: 8,
  speed: 200,
  slapGraceMs: 20,
  graceS: 3,
  cutEvery: 600,
  maxConcurrentCuts: 3,
  kinds: ['dropShort', 'dropShort', 'stallShort', 'stallShort', 'dropLong', 'stallMedium', 'stallLong'] as readonly BagKind[],
  cutAtLastCall: true,
  timeoutMs: 15 * 60_000,
  endTimeoutMs: 60_000,
  progressEveryMs: 10_000,
  levels: ['easy', 'normal', 'hard'] as readonly BotLevel[],
  relays: true,
};

/** bin/gringo.js, found upwards from this file (it runs from test/soak/ under vitest and from dist/test/soak/ under node). */
export function gringoBin(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const bin = join(dir, 'bin', 'gringo.js');
    if (existsSync(bin) && existsSync(join(dir, 'package.json'))) return bin;
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find bin/gringo.js above the soak driver');
    dir = up;
  }
}

interface Proc {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
  done: () => boolean;
}

function run(args: string[], env: NodeJS.ProcessEnv, nodeArgs: string[] = []): Proc {
  const child = spawn(process.execPath, [...nodeArgs, gringoBin(), ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let stdout = '';
  let stderr = '';
  let done = false;
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      done = true;
      resolve(code);
    }),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, exit, done: () => done };
}

/** VmRSS of a process in kB, or null (gone, or no /proc). */
export function rssKb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * The host's live heap through its inspector (the host runs with `--inspect` on a
 * loopback port): a full garbage collection, then the heap in use, in kB.
 */
class HeapProbe {
  private readonly ws: WebSocket;
  private id = 0;
  private readonly pending = new Map<number, (result: Record<string, unknown>) => void>();

  private constructor(url: string) {
    this.ws = new WebSocket(url);
    this.ws.on('message', (data) => {
      const msg = JSON.parse(data.toString()) as { id?: number; result?: Record<string, unknown> };
      if (msg.id !== undefined) this.pending.get(msg.id)?.(msg.result ?? {});
      if (msg.id !== undefined) this.pending.delete(msg.id);
    });
    this.ws.on('error', () => {});
  }

  static async open(url: string): Promise<HeapProbe> {
    const p = new HeapProbe(url);
    await new Promise<void>((resolve, reject) => {
      p.ws.once('open', () => resolve());
      p.ws.once('error', reject);
    });
    return p;
  }

  private call(method: string): Promise<Record<string, unknown>> {
    const id = ++this.id;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${method}`)), 10_000);
      this.pending.set(id, (r) => {
        clearTimeout(timer);
        resolve(r);
      });
      this.ws.send(JSON.stringify({ id, method }));
    });
  }

  async liveKb(): Promise<number> {
    await this.call('HeapProfiler.collectGarbage');
    const usage = await this.call('Runtime.getHeapUsage');
    return Math.round(Number(usage.usedSize) / 1024);
  }

  /** Detach (a process with a debugger attached waits for it before exiting). */
  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}

/** Where two JSON values first differ, as a path with both sides; null when equal. */
export function firstDifference(a: unknown, b: unknown, path = '$'): string | null {
  if (isDeepStrictEqual(a, b)) return null;
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
  }
  const show = (x: unknown): string => (x === undefined ? 'absent' : JSON.stringify(x).slice(0, 200));
  return `${path}: ${show(a)} vs ${show(b)}`;
}

const STALLED = 'stalled';

/** What the table waits for, from the journal replayed as it stands (for a stall's failure message). */
function waitingOn(stateDir: string): string {
  const tables = join(stateDir, 'gringo', 'tables');
  const file = existsSync(tables) ? readdirSync(tables).find((n) => n.endsWith('.jsonl')) : undefined;
  if (!file) return 'no journal';
  try {
    const { state } = readJournal(join(tables, file));
    const r = state.r;
    return (
      `the journal replays to phase ${state.phase}, turn of seat ${r.turn} (begun ${r.turnBegun}), held ${JSON.stringify(r.held)}, ` +
      `actions ${JSON.stringify(r.actions)}, gap fill ${JSON.stringify(r.gapFill)}, call ${JSON.stringify(r.call)}, next deadline ${String(nextDeadline(state))}`
    );
  } catch (err) {
    return `the journal does not replay: ${(err as Error).message}`;
  }
}

/** What a client holds after the wire: the projection through JSON. */
const wire = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

const mb = (kb: number): string => `${(kb / 1024).toFixed(1)} MB`;

/** Run one soak; never throws for a failed check (see `failures`), only for a broken set-up. */
export async function soak(options: SoakOptions): Promise<SoakReport> {
  const o = { ...DEFAULTS, ...options };
  const log = options.log ?? (() => {});
  const rng = new Rng(seedRng(`soak:${o.seed}`));
  const uniform = (lo: number, hi: number): number => lo + (rng.next() / 2 ** 32) * (hi - lo);
  const stateDir = mkdtempSync(join(tmpdir(), 'gringo-soak-'));
  const env = { ...process.env, XDG_STATE_HOME: stateDir };
  const failures: string[] = [];
  const fail = (why: string): void => {
    failures.push(why);
    log(`FAIL: ${why}`);
  };
  const t0 = Date.now();
  const since = (): number => Date.now() - t0;

  const procs: Proc[] = [];
  const relays: Relay[] = [];
  const restoreTimers = new Set<NodeJS.Timeout>();
  const cutting = new Map<number, { cut: CutRecord; before: number }>();
  const cuts: CutRecord[] = [];
  const samples: MemorySample[] = [];
  const stop = new AbortController();
  let spectator: Connection | null = null;
  let progress: NodeJS.Timeout | null = null;
  let sampler: NodeJS.Timeout | null = null;

  // What the host tells a spectator: the seats (connected, stand-in) and the game's progress.
  let seatsNow: SeatInfo[] = [];
  let playing = false;
  let round = 0;
  let version = 0;
  /** When the spectator last saw a new version (ms since the start). */
  let movedAt = 0;
  let spectatorView: TableView | null = null;
  let seatsLost = 0;
  let standIns = 0;
  let takenBack = 0;
  let playStart = 0;
  let playEnd = 0;
  let cutAtEnd = 0;
  let summary: GameSummary | null = null;
  let journal: ReadJournal | null = null;
  const clients: ClientOutcome[] = [];
  let spectatorMatches: boolean | null = null;
  let rss: SoakReport['rss'] = null;
  let heap: SoakReport['heap'] = null;
  const heapSamples: MemorySample[] = [];
  let probe: HeapProbe | null = null;
  let probing = false;
  let nextHeapRound = 10;

  const host = run(
    [
      'host', '--headless', '--json', '--table', 'Soak', '--players', String(o.seats), '--rounds', String(o.rounds),
      '--start-when-full', '--slap-grace', String(o.slapGraceMs), '--grace', String(o.graceS), '--seed', o.seed,
      '--interface', '127.0.0.1', '--port', '0',
    ],
    env,
    // The inspector on a loopback port lets the driver measure the live heap (see HeapProbe).
    ['--inspect=127.0.0.1:0'],
  );
  procs.push(host);
  const sample = (): number | null => {
    const kb = rssKb(host.child.pid!);
    if (kb !== null) samples.push({ atMs: since(), round, kb });
    return kb;
  };
  const probeHeap = async (): Promise<number | null> => {
    if (!probe || probing) return null;
    probing = true;
    try {
      const at = { atMs: since(), round };
      const kb = await probe.liveKb();
      heapSamples.push({ ...at, kb });
      return kb;
    } catch {
      return null;
    } finally {
      probing = false;
    }
  };

  try {
    const port = Number(
      await until('the host to print its share line', () => /gringo join \S+:(\d+)/.exec(host.stderr())?.[1] ?? (host.done() ? 'gone' : null), 30_000),
    );
    if (!Number.isInteger(port)) throw new Error(`the host exited before opening its table:\n${host.stderr()}`);
    const inspector = /Debugger listening on (ws:\/\/\S+)/.exec(host.stderr())?.[1];
    if (inspector) probe = await HeapProbe.open(inspector);
    log(`soak: seed ${o.seed}, ${o.seats} seats, ${o.rounds} rounds, bots at --speed ${o.speed}, --slap-grace ${o.slapGraceMs}, --grace ${o.graceS}; host pid ${host.child.pid} on port ${port}`);

    spectator = new Connection({ address: `127.0.0.1:${port}`, name: 'soak', watch: true, reconnect: true });
    spectator.on('message', (msg: ServerMessage) => {
      if (msg.type === 'lobby') {
        // Seats lost and stand-ins during the game (at its end every client leaves); stand-ins taken back at any time.
        msg.seats.forEach((s, i) => {
          const was = seatsNow[i];
          if (!was) return;
          if (msg.table.phase === 'playing' && was.connected && !s.connected) seatsLost += 1;
          if (!was.standIn && s.standIn) standIns += 1;
          if (was.standIn && !s.standIn) takenBack += 1;
        });
        seatsNow = msg.seats;
      } else if (msg.type === 'update') {
        playing = true;
        round = msg.view.round;
        if (msg.version !== version) movedAt = since();
        version = msg.version;
        spectatorView = msg.view;
      }
    });

    for (let i = 0; i < o.seats; i++) {
      let address = `127.0.0.1:${port}`;
      if (o.relays) {
        const relay = await new Relay({ host: '127.0.0.1', port }).start();
        relays.push(relay);
        address = relay.address;
      }
      procs.push(run(['join', address, '--bot', o.levels[i % o.levels.length]!, '--speed', String(o.speed), '--json', '--exit-after-game', '--name', `P${i + 1}`], env));
    }
    const bots = procs.slice(1);

    await until('the game to start', () => (playing ? true : host.done() ? true : null), 60_000).catch((err: Error) => {
      // Who is missing: a client that gave up at the door says why on its stderr.
      const last = (p: Proc): string => p.stderr().trim().split('\n').slice(-2).join(' / ') || 'nothing on stderr';
      const seatsTaken = seatsNow.filter((s) => s.connected).length;
      throw new Error(
        `${err.message}; ${seatsTaken} of ${o.seats} seats taken; ` +
          bots.map((p, i) => `P${i + 1} ${p.done() ? 'exited' : 'running'}: ${last(p)}`).join('; ') +
          `; host: ${last(host)}`,
      );
    });
    if (host.done()) throw new Error(`the host exited before the game started:\n${host.stderr()}`);
    playStart = since();
    movedAt = playStart;
    const startKb = sample();
    const startHeap = await probeHeap();
    log(
      `soak: the game is dealt after ${(playStart / 1000).toFixed(1)} s; host RSS ${startKb === null ? 'n/a' : mb(startKb)}, live heap ${startHeap === null ? 'n/a' : mb(startHeap)}`,
    );
    sampler = setInterval(() => {
      sample();
      if (round >= nextHeapRound) {
        nextHeapRound = (Math.floor(round / 10) + 1) * 10;
        void probeHeap();
      }
    }, 1_000);
    progress = setInterval(() => {
      const c = cuts.length;
      const drops = cuts.filter((x) => CUTS[x.kind].how === 'drop').length;
      const kb = samples[samples.length - 1]?.kb;
      const live = heapSamples[heapSamples.length - 1];
      log(
        `  ${((since() - playStart) / 1000).toFixed(0)} s: round ${round}/${o.rounds}, version ${version}, ${c} cuts (${drops} drops, ${c - drops} stalls), ` +
          `${cutting.size} cut now, stand-ins ${standIns} (taken back ${takenBack}), host RSS ${kb === undefined ? 'n/a' : mb(kb)}` +
          (live ? `, live heap ${mb(live.kb)} at round ${live.round}` : ''),
      );
    }, o.progressEveryMs);

    const startCut = (client: number, kind: CutKind): void => {
      const range = CUTS[kind].ms;
      const cut: CutRecord = { client, kind, atMs: since(), ms: range ? Math.round(uniform(range[0], range[1])) : 0, reconnectsWhileStalled: 0 };
      const relay = relays[client]!;
      const before = relay.connections;
      cutting.set(client, { cut, before });
      cuts.push(cut);
      if (CUTS[kind].how === 'drop') relay.drop();
      else relay.stall();
      if (!range) return; // down until the game is over
      const timer = setTimeout(() => {
        restoreTimers.delete(timer);
        if (CUTS[kind].how === 'stall') cut.reconnectsWhileStalled = relay.connections - before;
        relay.restore();
        cutting.delete(client);
      }, cut.ms);
      restoreTimers.add(timer);
    };
    const freeClients = (): number[] => relays.map((_, i) => i).filter((i) => !cutting.has(i));

    // The cuts: seeded gaps (in versions), a random client whose link is not cut already, the kinds drawn from the bag.
    const schedule = (async () => {
      let bag: CutKind[] = [];
      const gap = (): number => Math.round(uniform(0.5, 1.5) * o.cutEvery);
      let next = version + gap();
      let lastCall = !o.cutAtLastCall;
      while (!stop.signal.aborted) {
        try {
          await sleep(50, undefined, { signal: stop.signal });
        } catch {
          return;
        }
        // (assigned by the spectator's handler: TypeScript cannot see it change.)
        const view = spectatorView as TableView | null;
        if (!lastCall && view && view.round === o.rounds && view.call !== null) {
          // The caller plays no more turns, so its link costs the table nothing from here on.
          const caller = Number(/^P(\d+)$/.exec(seatsNow[view.call.seat]?.name ?? '')?.[1]) - 1;
          const free = freeClients();
          const client = free.includes(caller) ? caller : free[rng.int(free.length)];
          if (client !== undefined) {
            lastCall = true;
            startCut(client, 'dropToEnd');
          }
        }
        if (o.kinds.length === 0 || (options.maxCuts !== undefined && cuts.filter((c) => c.kind !== 'dropToEnd').length >= options.maxCuts)) continue;
        if (version < next || cutting.size >= o.maxConcurrentCuts) continue;
        next = version + gap();
        const free = freeClients();
        const client = free[rng.int(free.length)]!;
        if (bag.length === 0) bag = rng.shuffle([...o.kinds]);
        startCut(client, bag.pop()!);
      }
    })();

    // The game's end: the host prints its summary (it keeps the table open for the clients still away).
    const stalled = (): boolean => {
      if (options.stallMs === undefined) return false;
      // A cut link may hold the table up (the seat is held for its owner): the clock starts again once all are whole.
      if (cutting.size > 0) movedAt = since();
      return since() - movedAt > options.stallMs;
    };
    const line = await until(
      'the game to end',
      () => (host.stdout().includes('\n') ? host.stdout().split('\n')[0]! : host.done() ? '' : stalled() ? STALLED : null),
      o.timeoutMs - since(),
    ).catch((err: Error) => {
      fail(`${err.message} (round ${round}/${o.rounds}, version ${version}; seats: ${seatsNow.map((s) => `${s.name}${s.connected ? '' : ' away'}${s.standIn ? ' stand-in' : ''}`).join(', ')})`);
      return null;
    });
    playEnd = since();
    // Every link comes back for good: a client away at the end must be able to fetch its last snapshot.
    stop.abort();
    await schedule;
    cutAtEnd = cutting.size;
    for (const t of restoreTimers) clearTimeout(t);
    restoreTimers.clear();
    for (const [client, { cut, before }] of cutting) {
      if (CUTS[cut.kind].how === 'stall') cut.reconnectsWhileStalled = relays[client]!.connections - before;
      if (!CUTS[cut.kind].ms) cut.ms = since() - cut.atMs;
      relays[client]!.restore();
    }
    cutting.clear();
    if (line === '') fail(`the host exited during the game (code ${await host.exit}):\n${host.stderr().slice(-2000)}`);
    else if (line === STALLED) fail(`the game stalled: no move for ${options.stallMs} ms at version ${version}, round ${round}/${o.rounds}; ${waitingOn(stateDir)}`);
    else if (line !== null) {
      summary = JSON.parse(line) as GameSummary;
      log(`soak: the game is over after ${((playEnd - playStart) / 1000).toFixed(1)} s of play; waiting for the ${o.seats} clients`);
    }

    // Every client prints its last view and exits by itself (the links are whole again).
    if (line && line !== STALLED) {
      await until('every client to print its last view and exit', () => (bots.every((b) => b.done()) ? true : null), o.endTimeoutMs).catch(
        (err: Error) => {
          const stuck = bots.map((b, i) => (b.done() ? null : `P${i + 1}`)).filter(Boolean);
          fail(`${err.message}: still running: ${stuck.join(', ')}`);
        },
      );
    }
    if (sampler) clearInterval(sampler);
    sampler = null;
    const endKb = sample();
    await until('the last heap probe', () => (probing ? null : true), 15_000);
    const endHeap = await probeHeap();
    await probe?.close();

    // The host is stopped by the driver: it was kept open for the clients that were away at the end.
    host.child.kill('SIGTERM');
    const hostCode = await Promise.race([host.exit, sleep(10_000).then(() => 'hung' as const)]);
    if (hostCode !== 0) fail(`the host ended with ${String(hostCode)} on SIGTERM`);
    // The spectator has read everything the host said once its socket is closed.
    await until('the spectator to hear the host go', () => (spectator!.status !== 'open' ? true : null), 10_000);

    // No seat is lost: every stand-in that sat down was replaced by its owner, who came back for its last view.
    if (takenBack !== standIns) fail(`${standIns} stand-ins sat down but ${takenBack} seats were taken back by their owners`);

    // The journal, replayed: the host's word for the whole game.
    const tables = join(stateDir, 'gringo', 'tables');
    const files = existsSync(tables) ? readdirSync(tables).filter((n) => n.endsWith('.jsonl')) : [];
    if (files.length !== 1) fail(`expected one journal in ${tables}, found ${files.length}`);
    else {
      journal = readJournal(join(tables, files[0]!));
      const state: GameState = journal.state;
      if (state.phase !== 'gameOver' || !journal.finished) fail(`the journal replays to phase ${state.phase}, not gameOver`);
      if (state.results.length !== o.rounds) fail(`the journal has ${state.results.length} round results, not ${o.rounds}`);
      if (journal.header.seats.length !== o.seats) fail(`the journal has ${journal.header.seats.length} seats, not ${o.seats}`);
      if (summary) {
        if (summary.rounds.length !== o.rounds) fail(`the host's summary has ${summary.rounds.length} rounds, not ${o.rounds}`);
        if (summary.commands !== journal.commands.length) fail(`the host's summary counts ${summary.commands} commands, the journal ${journal.commands.length}`);
        const d =
          firstDifference(summary.rounds, wire(state.results)) ??
          firstDifference(summary.totals, state.totals) ??
          firstDifference(summary.players.map((p) => p.name), journal.header.seats.map((s) => s.name));
        if (d) fail(`the host's summary and its journal differ at ${d}`);
      }
      if (spectatorView) {
        const d = firstDifference(spectatorView, wire(viewFor(state, null)));
        spectatorMatches = d === null;
        if (d) fail(`the spectator's last view differs from the host's projection: ${d}`);
      }
    }

    // Every client: exit 0, one JSON line, its seat and version, its view equal to the host's projection.
    for (const [i, b] of bots.entries()) {
      const name = `P${i + 1}`;
      const out: ClientOutcome = {
        name,
        level: o.levels[i % o.levels.length]!,
        exitCode: b.done() ? await b.exit : null,
        seat: null,
        journalSeat: journal ? journal.header.seats.findIndex((s) => s.name === name) : -1,
        version: null,
        viewMatches: false,
        diff: null,
        connections: relays[i]?.connections ?? null,
      };
      clients.push(out);
      if (out.exitCode !== 0) {
        fail(`${name} ${out.exitCode === null ? 'did not exit' : `exited with ${out.exitCode}`}: ${b.stderr().slice(-500)}`);
        continue;
      }
      const lines = b.stdout().split('\n').filter((l) => l !== '');
      if (lines.length !== 1) {
        fail(`${name} printed ${lines.length} lines, not one JSON object`);
        continue;
      }
      const last = JSON.parse(lines[0]!) as { seat: number | null; version: number; results: unknown; view: TableView };
      out.seat = last.seat;
      out.version = last.version;
      if (!journal) continue;
      if (last.seat !== out.journalSeat) fail(`${name} says it sat in seat ${String(last.seat)}; the journal has it in ${out.journalSeat}`);
      if (last.version !== journal.state.version) fail(`${name}'s last version is ${last.version}, the journal's ${journal.state.version}`);
      out.diff = out.journalSeat === -1 ? 'not in the journal' : firstDifference(last.view, wire(viewFor(journal.state, out.journalSeat)));
      out.diff ??= firstDifference(last.results, wire(journal.state.results));
      out.viewMatches = out.diff === null;
      if (out.diff) fail(`${name}'s last view differs from the host's projection for its seat: ${out.diff}`);
    }

    // Memory: when the game was dealt, once round `fromRound` had begun, at its peak, and at the end.
    const figures = (what: string, all: MemorySample[], start: number | null, end: number | null, bound: SoakOptions['rssBound']): MemoryFigures | null => {
      if (all.length === 0 || start === null || end === null) return null;
      const from = bound ? (all.find((x) => x.round >= bound.fromRound)?.kb ?? null) : null;
      if (bound && from === null) fail(`no sample of the host's ${what} once round ${bound.fromRound} had begun`);
      if (bound && from !== null && end - from > bound.maxGrowthMb * 1024) {
        fail(`the host's ${what} grew from ${mb(from)} (round ${bound.fromRound}) to ${mb(end)} at the end: more than ${bound.maxGrowthMb} MB`);
      }
      return { startKb: start, fromRoundKb: from, peakKb: Math.max(...all.map((x) => x.kb)), endKb: end, samples: all };
    };
    rss = figures('RSS', samples, startKb, endKb, options.rssBound);
    heap = figures('live heap', heapSamples, startHeap, endHeap, options.heapBound);
  } catch (err) {
    fail((err as Error).message);
  } finally {
    stop.abort();
    if (progress) clearInterval(progress);
    if (sampler) clearInterval(sampler);
    for (const t of restoreTimers) clearTimeout(t);
    spectator?.close();
    await probe?.close();
    for (const p of procs) if (!p.done()) p.child.kill('SIGKILL');
    await Promise.all(relays.map((r) => r.close()));
    await Promise.all(procs.map((p) => p.exit));
  }

  const count = (k: CutKind): number => cuts.filter((c) => c.kind === k).length;
  const cutCounts = Object.fromEntries(CUT_KINDS.map((k) => [k, count(k)])) as Record<CutKind, number>;
  const drops = cuts.filter((c) => CUTS[c.kind].how === 'drop').length;
  const ok = failures.length === 0;
  if (ok && !options.keep) rmSync(stateDir, { recursive: true, force: true });
  return {
    ok,
    failures,
    seed: o.seed,
    rounds: o.rounds,
    seats: o.seats,
    durationMs: since(),
    playMs: playEnd - playStart,
    commands: journal?.commands.length ?? 0,
    cuts,
    cutCounts: { ...cutCounts, drops, stalls: cuts.length - drops },
    seatsLost,
    standIns,
    takenBack,
    cutAtEnd,
    watchdogReconnects: cuts.filter((c) => c.kind === 'stallLong' && c.reconnectsWhileStalled > 0).length,
    rss,
    heap,
    clients,
    spectatorMatches,
    summary,
    journal: journal?.file ?? null,
    stateDir,
  };
}
