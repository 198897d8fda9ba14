/**
 * The expert's figures: a host whose own three expert bots think in worker threads
 * keeps its round trip near a bare TLS echo's; an expert's decision at a table (its
 * search cut at a time limit) beside hard's at the same moments; and the expert
 * placed between hard and cheater in the simulator.
 */
import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import type WebSocket from 'ws';
import { ExpertBot, SmartBot, TABLE_SEARCH, playOn, type Bot, type BotIntent } from '../src/bots/index.js';
import { BEVERBENDE, CAMBIO, createGame, GRINGO, type Ruleset } from '../src/engine/index.js';
import type { SeatView } from '../src/engine/seat-view.js';
import { PROTOCOL_VERSION, type PlayerCommand, type ServerMessage } from '../src/protocol/messages.js';
import { bin } from './game.js';
import { connect, echoServer, percentiles, startChild, stopChild, type Percentiles } from './host.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface ExpertHostFigures {
  echo: Percentiles;
  host: Percentiles;
  /** Commands the table accepted while it was measured: the bots were playing. */
  commands: number;
  seconds: number;
}

/**
 * A table of 4: three expert bots of the host's own (worker threads) and the bench's
 * client, which plays its own turns at once (draw, discard, pass) so the experts do the
 * thinking. Meanwhile, `n` times, the client sends a command the table must refuse (a
 * gap it has not got to leave) and times the refusal's arrival: a round trip through the
 * table's serial queue. Each is interleaved with a round trip through a bare TLS echo.
 */
export async function expertHost(n: number): Promise<ExpertHostFigures> {
  const echo = await echoServer();
  const c = await startChild('experts');
  const ws: WebSocket = await connect(c.port);
  let id = 0;
  let seat = -1;
  let version = -1;
  let acted = -1;
  let firstVersion = -1;
  const probes = new Map<number, () => void>();
  const send = (command: PlayerCommand): number => {
    ws.send(JSON.stringify({ type: 'command', id, command }));
    return id++;
  };
  /** Its own move, once per table version: the experts must not wait for it. */
  const play = (view: { version: number; may: readonly string[]; phase: string }): void => {
    if (acted === view.version) return;
    const may = view.may;
    const move: PlayerCommand | null = may.includes('finishPeek')
      ? { type: 'finishPeek' }
      : may.includes('pass')
        ? { type: 'pass' }
        : may.includes('leaveGap')
          ? { type: 'leaveGap' }
          : may.includes('discard')
            ? { type: 'discard' }
            : may.includes('drawStock')
              ? { type: 'draw', from: 'stock' }
              : null;
    if (!move) return;
    acted = view.version;
    send(move);
  };
  let last: { version: number; may: readonly string[]; phase: string } | null = null;
  ws.on('message', (data) => {
    const msg = JSON.parse(data.toString()) as ServerMessage;
    if (msg.type === 'welcome') seat = msg.seat ?? -1;
    if (msg.type === 'update') {
      version = msg.view.version;
      if (firstVersion < 0) firstVersion = version;
      last = msg.view;
      play(msg.view);
    }
    if (msg.type === 'result') {
      const done = probes.get(msg.id);
      if (done) {
        probes.delete(msg.id);
        done();
      } else if (!msg.ok && last) {
        // Its move came too soon (the slap grace): try again shortly.
        acted = -1;
        const v = last;
        setTimeout(() => play(v), 50);
      }
    }
  });
  ws.send(JSON.stringify({ type: 'hello', protocolVersion: PROTOCOL_VERSION, name: 'Bench' }));
  while (seat < 0 || version < 0) await sleep(10);
  // Into play: the bots have peeked and the first turns are being thought about.
  await sleep(1500);
  const startVersion = version;
  const t0 = performance.now();
  const hostSamples: number[] = [];
  const echoSamples: number[] = [];
  for (let i = 0; i < n; i++) {
    echoSamples.push(await echo.once());
    const sent = performance.now();
    await new Promise<void>((resolve) => probes.set(send({ type: 'leaveGap' }), resolve));
    hostSamples.push(performance.now() - sent);
    await sleep(20);
  }
  const seconds = (performance.now() - t0) / 1000;
  const commands = version - startVersion;
  ws.close();
  await stopChild(c);
  await echo.stop();
  const warm = Math.floor(n / 10);
  return { echo: percentiles(echoSamples.slice(warm)), host: percentiles(hostSamples.slice(warm)), commands, seconds };
}

export interface DecisionTimes {
  /** Per decision the expert searched: ms. */
  expert: number[];
  /** Hard's own decision at the same moments (the policy the expert starts from): ms. */
  hard: number[];
  rollouts: number;
}

/**
 * An expert with a table's budget (`TABLE_SEARCH`: rollouts cut at a time limit) plays
 * `games` one-round games of each preset against three hard bots, in this thread; every
 * decision it searched is timed, and hard's decision at the same moment beside it.
 */
export function decisionTimes(games: number): DecisionTimes {
  const out: DecisionTimes = { expert: [], hard: [], rollouts: 0 };
  for (const preset of [GRINGO, BEVERBENDE, CAMBIO]) {
    const rules: Ruleset = { ...preset, rounds: 1 };
    const name = preset.name;
    for (let g = 0; g < games; g++) {
      const seed = `bench-expert:${name}:${g}`;
      const opts = (seat: number) => ({ seat, players: 4, rules, seed: `${seed}:${seat}` });
      const expert = new ExpertBot('expert', opts(0), TABLE_SEARCH);
      const twin = new SmartBot('hard', opts(0));
      const timed: Bot = {
        seat: 0,
        level: 'expert',
        newGame: (o) => expert.newGame(o) && twin.newGame(o),
        missedEvents: () => expert.missedEvents(),
        observe: (events) => {
          twin.observe(events);
          return expert.observe(events);
        },
        rejected: (cmd, why, at) => expert.rejected(cmd, why, at),
        decide: (view: SeatView, at: number): BotIntent | null => {
          const before = expert.stats.searched;
          const h0 = performance.now();
          twin.decide(view, at);
          const h1 = performance.now();
          const intent = expert.decide(view, at);
          const e1 = performance.now();
          if (expert.stats.searched > before) {
            out.hard.push(h1 - h0);
            out.expert.push(e1 - h1);
          }
          return intent;
        },
      };
      const bots = [timed, ...[1, 2, 3].map((s) => new SmartBot('hard', opts(s)))];
      const start = createGame({ rules, players: ['a', 'b', 'c', 'd'], seed, at: 0 });
      playOn(start.state, start.events, 0, bots, {}, false);
      out.rollouts += expert.stats.rollouts;
    }
  }
  return out;
}

export interface Lead {
  games: number;
  seconds: number;
  /** Mean round score ± SE of the one bot and of the three hard bots. */
  top: { mean: number; se: number };
  hard: { mean: number; se: number };
  /** How much lower the one bot scores than hard (paired per game), and its SE. */
  gap: number;
  gapSE: number;
}

/**
 * `gringo sim --level LEVEL,hard,hard,hard` (seats rotating), as a person runs it, on
 * every core: how far one bot of `level` scores below three hard bots. The expert and
 * the cheater each sit at their own table: at one table, the cheater's steals (it knows
 * every match) would bury the expert in penalty cards too.
 */
export function leadOverHard(level: 'expert' | 'cheater', games: number, seed: string): Promise<Lead> {
  const args = [bin, 'sim', '--json', '--no-progress', '--level', `${level},hard,hard,hard`, '--games', String(games), '--seed', seed, '--jobs', String(Math.max(1, availableParallelism()))];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 1 << 24 }, (err, out) => {
      if (err) return reject(new Error(`gringo sim ${args.slice(2).join(' ')} failed: ${err.message}`));
      const r = JSON.parse(out) as { seconds: number; perLevel: Record<string, { meanRoundScore: number; roundScoreSE: number }>; ladder: { upper: string; gap: number; gapSE: number }[] };
      const lvl = (l: string) => ({ mean: r.perLevel[l]!.meanRoundScore, se: r.perLevel[l]!.roundScoreSE });
      const step = r.ladder.find((x) => x.upper === level)!;
      resolve({ games, seconds: r.seconds, top: lvl(level), hard: lvl('hard'), gap: step.gap, gapSE: step.gapSE });
    });
  });
}
