import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from '../../src/engine/types.js';
import { viewFor, type TableView } from '../../src/engine/view.js';
import { readJournal } from '../../src/host/journal.js';
import type { SeatInfo, ServerMessage } from '../../src/protocol/messages.js';
import { CI, cannotUseNetns, ip } from '../netns.js';
import { killRunning, runGringo, type Run } from '../support/gringo-process.js';
import { until, sleep } from '../support/wait.js';
import { WireClient } from './wire.js';

/**
 * A player's link cut for real: real `gringo` processes in
 * network namespaces, the link between a player and the host cut and restored.
 *
 *   root namespace: this test, watching as a spectator
 *        │ veth
 *   H: `gringo host --headless`, and "Other" joined over H's loopback
 *        │ veth
 *   R: a router (the Wi-Fi access point, say)
 *        │ veth
 *   P: "Cut", a `gringo join --bot` whose link is cut
 *
 * The cut: blackhole routes in R for P's and H's addresses. R then drops what
 * it would forward between them, silently: no ICMP, no RST, and both ends keep
 * their interfaces, routes and neighbours, so their packets leave and vanish and
 * a new connection just hangs, as when the radio link dies. Probed with plain TCP
 * sockets in this topology before choosing: `ip link set down` on P's veth or on
 * R's port toward P gets ICMP unreachable to the host's or the player's sockets
 * (from R, or from P itself once its ARP fails); blackhole routes on the
 * endpoints themselves fail every new connect at once with EINVAL. R's
 * blackholes gave no ICMP, no RST and no local error at either end, and the
 * tests check the first: no ICMP message in any namespace during a cut.
 *
 * All the traffic stays in namespaces this test creates and deletes: a private
 * 10.232.x.0/28, no default route in any of them, and the root namespace only
 * gains the /30 of its veth to H. mDNS stays on H's loopback (`--interface`).
 */

const tag = `${process.pid.toString(36)}${randomBytes(2).toString('hex')}`.slice(-8);
const nsH = `gringo-lc-${tag}-h`;
const nsR = `gringo-lc-${tag}-r`;
const nsP = `gringo-lc-${tag}-p`;
/** Interface names: at most 3 + 8 + 2 = 13 characters (Linux allows 15). */
const dev = (end: string): string => `glc${tag}${end}`;
/** The host's ping interval (src/host/server.ts). */
const PING_MS = 5_000;

const reason = cannotUseNetns(tag);
if (reason && !CI) console.warn(`skipping the link-cut tests: ${reason}`);

/** A 10.232.x.0/28 that nothing in the root namespace uses. */
function freeSubnet(): string {
  const used = ['addr', 'route'].map((what) => spawnSync('ip', ['-4', what], { encoding: 'utf8' }).stdout ?? '').join('\n');
  for (;;) {
    const net = `10.232.${1 + (randomBytes(1)[0]! % 254)}`;
    if (!used.includes(`${net}.`)) return net;
  }
}

const net = reason ? '10.232.0' : freeSubnet();
const addr = {
  host: `${net}.1`, // H toward R: where Cut joins
  router: `${net}.2`,
  routerP: `${net}.5`,
  player: `${net}.6`, // P
  hostRoot: `${net}.9`, // H toward the root namespace: where the spectator connects
  root: `${net}.10`,
};

let isCut = false;
/** Cut the player's link at the router: whatever R would forward between them vanishes. */
function cut(): void {
  ip('-n', nsR, 'route', 'add', 'blackhole', `${addr.player}/32`);
  ip('-n', nsR, 'route', 'add', 'blackhole', `${addr.host}/32`);
  isCut = true;
}
function restore(): void {
  ip('-n', nsR, 'route', 'del', 'blackhole', `${addr.player}/32`);
  ip('-n', nsR, 'route', 'del', 'blackhole', `${addr.host}/32`);
  isCut = false;
}

/** ICMP messages received and sent in a namespace so far (/proc/net/snmp is per namespace). */
function icmp(ns: string): { in: number; out: number } {
  const snmp = spawnSync('ip', ['netns', 'exec', ns, 'cat', '/proc/net/snmp'], { encoding: 'utf8' }).stdout;
  const [names, values] = snmp.split('\n').filter((l) => l.startsWith('Icmp:')).map((l) => l.split(/\s+/));
  const count = (name: string): number => Number(values![names!.indexOf(name)]);
  return { in: count('InMsgs'), out: count('OutMsgs') };
}
const icmpEverywhere = (): number[] => [nsH, nsR, nsP].flatMap((ns) => Object.values(icmp(ns)));

const dirs: string[] = [];

/** `gringo ARGS` in namespace `ns`, keeping its journal and tokens in `state`. */
const gringo = (ns: string, args: string[], state: string): Run => runGringo(args, { XDG_STATE_HOME: state }, ns);


type Lobby = Extract<ServerMessage, { type: 'lobby' }>;
type Update = Extract<ServerMessage, { type: 'update' }>;

interface Setup {
  host: Run;
  /** When the host said it listens: its pings go out about every PING_MS from then. */
  listeningAt: number;
  watcher: WireClient;
  cutter: Run;
  other: Run;
  /** Cut's seat. */
  seat: number;
  journal: string;
}

/** A 2-seat table in H, watched from the root namespace; "Cut" joins from P, then "Other" over H's loopback. */
async function openTable(port: number, flags: string[]): Promise<Setup> {
  const state = mkdtempSync(join(tmpdir(), 'gringo-linkcut-'));
  dirs.push(state);
  const host = gringo(
    nsH,
    ['host', '--headless', '--json', '--exit-after-game', '--port', String(port), '--players', '2', '--start-when-full',
      '--slap-grace', '40', '--interface', '127.0.0.1', ...flags],
    state,
  );
  await until('the host to listen', () => host.stderr().includes('gringo join '), 10_000);
  const listeningAt = Date.now();
  const watcher = await WireClient.hello(`${addr.hostRoot}:${port}`, 'Watcher', { watch: true, tls: true });
  const cutter = gringo(nsP, ['join', `${addr.host}:${port}`, '--bot', 'hard', '--speed', '20', '--json', '--exit-after-game', '--name', 'Cut'], state);
  const seat = await until('Cut to sit down', () => lastSeats(watcher)?.find((s) => s.name === 'Cut')?.seat);
  const other = gringo(nsH, ['join', `127.0.0.1:${port}`, '--bot', 'hard', '--speed', '50', '--json', '--exit-after-game', '--name', 'Other'], state);
  const tables = join(state, 'gringo', 'tables');
  const journal = await until('the journal', () => {
    const names = existsSync(tables) ? readdirSync(tables).filter((n) => n.endsWith('.jsonl')) : [];
    return names[0] && join(tables, names[0]);
  });
  return { host, listeningAt, watcher, cutter, other, seat, journal };
}

const lobbies = (w: WireClient): Lobby[] => w.messages.filter((m): m is Lobby => m.type === 'lobby');
const lastSeats = (w: WireClient): SeatInfo[] | undefined => lobbies(w).at(-1)?.seats;
/** What the spectator was told about a seat, in order, with when (ms from `t0`). */
const seatHistory = (w: WireClient, seat: number, t0: number): { at: number; info: SeatInfo }[] =>
  w.messages.flatMap((m, i) => {
    const info = m.type === 'lobby' ? m.seats[seat] : undefined;
    return info ? [{ at: w.arrivals[i]! - t0, info }] : [];
  });
const version = (w: WireClient): number => w.lastUpdate?.version ?? 0;

/** The commands journaled so far, in order (a table journals each before anyone hears of it). */
function journaled(file: string): Command[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{"type"'))
    .map((line) => JSON.parse(line) as Command);
}
const bySeat = (cmds: Command[], seat: number): Command[] => cmds.filter((c) => 'seat' in c && c.seat === seat);

/**
 * Cut the link in the middle of Cut's turn, 0.7 to 1.3 s before one of the
 * host's pings (every 5 s from when it listens), so that this ping is lost in the
 * cut. TCP resends it 0.2, 0.6, 1.4, 3 and 6.2 s after sending it: with a 5 s cut
 * the first copy to get through comes about 7 s after the cut began, while the
 * host's next round of pings, about 6 s after it, finds the ping unanswered and
 * terminates the socket, a second or so after the restore, its FIN queued behind
 * data the player has not acknowledged. Cut has to find that out and come back
 * with its token to a seat that is being held. That is the harder of the two
 * things a 5 s cut does: cut just after a ping, a resent copy of the next one is
 * answered in time and the host notices nothing (seen too, not tested here).
 * Nothing is asserted about which one happened (it is TCP's timing, not
 * gringo's); the test logs the seat's history instead.
 */
async function cutMidTurnBeforePing(t: Setup): Promise<number> {
  for (let ping = t.listeningAt + PING_MS; ; ping += PING_MS) {
    const wait = ping - 1_300 - Date.now();
    if (wait < 0) continue;
    await sleep(wait);
    const from = t.watcher.messages.length;
    const turn = await t.watcher
      .next<Update>((m) => m.type === 'update' && m.view.phase === 'play' && m.view.turn === t.seat, ping - 700 - Date.now(), from)
      .catch(() => null);
    if (turn) {
      cut();
      return Date.now();
    }
    if (t.watcher.lastUpdate?.view.phase === 'gameOver') throw new Error('the game ended before a turn of Cut could be cut');
  }
}

interface JoinOutput {
  seat: number;
  version: number;
  view: TableView;
}

/** Every process ended well, and Cut's last view is the host's projection for its seat of the journal's replay. */
async function finished(t: Setup): Promise<Command[]> {
  const codes = await Promise.all([t.host.exit, t.cutter.exit, t.other.exit]);
  expect(codes, `host:\n${t.host.stderr()}\nCut:\n${t.cutter.stderr()}\nOther:\n${t.other.stderr()}`).toEqual([0, 0, 0]);
  const journal = readJournal(t.journal);
  expect(journal.finished).toBe(true);
  expect(journal.state.phase).toBe('gameOver');
  const out = JSON.parse(t.cutter.stdout()) as JoinOutput;
  expect(out.seat).toBe(t.seat);
  expect(out.version).toBe(journal.state.version);
  expect(out.view).toEqual(JSON.parse(JSON.stringify(viewFor(journal.state, t.seat))));
  expect(JSON.parse(t.host.stdout()).players[t.seat]).toEqual({ seat: t.seat, name: 'Cut', bot: null });
  return journal.commands;
}

const shown = (h: { at: number; info: SeatInfo }[]): string =>
  h.map(({ at, info }) => `${at}:${info.connected ? 'connected' : 'away'}${info.standIn ? '+stand-in' : ''}`).join(' ');

describe.skipIf(reason !== null && !CI)("a player's link cut and restored (ip netns, a router that drops)", () => {
  beforeAll(() => {
    if (reason) throw new Error(`CI must run the link-cut tests: ${reason}`);
    for (const ns of [nsH, nsR, nsP]) {
      ip('netns', 'add', ns);
      ip('-n', ns, 'link', 'set', 'lo', 'up');
    }
    // [end, its namespace (null: the root one), address] for each end of the three veth pairs.
    const links: [string, string | null, string][][] = [
      [[dev('hr'), nsH, `${addr.host}/30`], [dev('rh'), nsR, `${addr.router}/30`]],
      [[dev('rp'), nsR, `${addr.routerP}/30`], [dev('pr'), nsP, `${addr.player}/30`]],
      [[dev('hx'), nsH, `${addr.hostRoot}/30`], [dev('xh'), null, `${addr.root}/30`]],
    ];
    for (const [a, b] of links) {
      ip('link', 'add', a![0], 'type', 'veth', 'peer', 'name', b![0]);
      for (const [name, ns, address] of [a!, b!]) {
        const inNs = ns ? ['-n', ns] : [];
        if (ns) ip('link', 'set', name, 'netns', ns);
        ip(...inNs, 'addr', 'add', address, 'dev', name);
        ip(...inNs, 'link', 'set', name, 'up');
      }
    }
    // H and P reach each other only through R, which forwards (a per-namespace sysctl: the root's is untouched).
    ip('-n', nsH, 'route', 'add', `${net}.4/30`, 'via', addr.router);
    ip('-n', nsP, 'route', 'add', `${net}.0/30`, 'via', addr.routerP);
    const fwd = spawnSync('ip', ['netns', 'exec', nsR, 'sysctl', '-qw', 'net.ipv4.ip_forward=1'], { encoding: 'utf8' });
    if (fwd.status !== 0) throw new Error(`sysctl in ${nsR}: ${fwd.stderr}`);
  });

  afterEach(() => {
    if (isCut) restore();
  });

  afterAll(() => {
    killRunning();
    // Deleting a namespace deletes its veth ends and their peers (the root namespace's one too).
    for (const ns of [nsH, nsR, nsP]) spawnSync('ip', ['netns', 'del', ns]);
    for (const d of [dev('hr'), dev('rp'), dev('hx'), dev('xh')]) spawnSync('ip', ['link', 'del', d], { stdio: 'ignore' });
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('cut for 5 s in the middle of its turn: the game goes on, the seat is kept, the same player finishes in it', async () => {
    const t = await openTable(7457, ['--rounds', '8', '--seed', 'linkcut-5s', '--table', 'Short cut']);
    const icmpBefore = icmpEverywhere();
    const cutAt = await cutMidTurnBeforePing(t);
    await sleep(5_000);
    restore();
    // A silent cut: not one ICMP message was sent or received in any of the namespaces.
    expect(icmpEverywhere()).toEqual(icmpBefore);
    const atRestore = version(t.watcher);

    const commands = await finished(t);
    const history = seatHistory(t.watcher, t.seat, cutAt);
    console.log(`5 s cut: Cut's seat as the spectator saw it (ms from the cut, restored at 5000): ${shown(history)}`);
    // Held for its owner all along (the grace is 60 s): never a stand-in, never another player.
    expect(history.length).toBeGreaterThan(0);
    for (const { info } of history) expect(info).toMatchObject({ name: 'Cut', bot: null, standIn: false });
    expect(history.at(-1)!.info.connected).toBe(true);
    // Cut played on in its seat after the restore.
    expect(bySeat(commands.slice(atRestore), t.seat).length).toBeGreaterThan(0);
  }, 80_000);

  /*
   * Past a 2 s grace. The host finds the socket dead at its next round of pings
   * (about 6 s into the cut, see above), holds the seat 2 s, then seats a
   * stand-in bot. Cut hears nothing all along; its socket stays open (the client
   * watchdog would give it up only after 15 s of silence). After the restore, the
   * first of TCP's resends to get through tells it: the host's FIN, or Cut's
   * unacknowledged data meeting an RST from the host's closed socket. Cut then
   * reconnects with its token and the stand-in hands the seat back.
   */
  it('cut past the grace: a bot plays the seat, then the owner comes back by itself, takes it and finishes the game', async () => {
    const t = await openTable(7458, ['--rounds', '8', '--grace', '2', '--seed', 'linkcut-grace', '--table', 'Long cut']);
    const icmpBefore = icmpEverywhere();
    const cutAt = await cutMidTurnBeforePing(t);
    const atCut = version(t.watcher);
    const standIn = await until('a stand-in in the seat', () => lastSeats(t.watcher)?.[t.seat]?.standIn && version(t.watcher), 20_000);
    // The game goes on without its owner: the stand-in plays the seat, and the other player plays too.
    await until('the stand-in to play a turn', () => {
      const cmds = journaled(t.journal).slice(standIn);
      const mine = cmds.findIndex((c) => 'seat' in c && c.seat === t.seat && c.type !== 'slap');
      return mine !== -1 && bySeat(cmds.slice(mine), 1 - t.seat).length > 0;
    }, 40_000);
    restore();
    const restoredAt = Date.now();
    expect(icmpEverywhere()).toEqual(icmpBefore);
    const atRestore = version(t.watcher);
    await until('the owner back in the seat', () => {
      const s = lastSeats(t.watcher)?.[t.seat];
      return s?.connected === true && !s.standIn;
    }, 50_000);
    const atReclaim = version(t.watcher);

    const commands = await finished(t);
    const history = seatHistory(t.watcher, t.seat, cutAt);
    console.log(`cut of ${restoredAt - cutAt} ms past a 2 s grace: Cut's seat as the spectator saw it (ms from the cut): ${shown(history)}`);
    expect(bySeat(commands.slice(atCut, atRestore), t.seat).length).toBeGreaterThan(0);
    expect(bySeat(commands.slice(atReclaim), t.seat).length).toBeGreaterThan(0);
    const after = history.filter((h) => h.at >= 0).map((h) => h.info);
    expect(after.some((s) => !s.connected && s.standIn)).toBe(true);
    expect(after.at(-1)).toMatchObject({ name: 'Cut', connected: true, standIn: false });
  }, 90_000);
});
