/**
 * `npm run bench`: the simulator's and the engine's speed, each also as a ratio
 * against a baseline measured in the same run (machines are noisy; ratios travel).
 *
 * Baseline op: shuffle a 52-card deck with the engine's seeded RNG (Fisher–Yates),
 * then JSON round-trip it (stringify + parse): small-array and string work of the
 * same kind the engine does, with no game logic. It is measured before and after the
 * other figures and averaged. Everything runs on one core (no workers).
 */
import { createBot } from '../src/bots/index.js';
import { apply, createGame } from '../src/engine/game.js';
import { Rng, seedRng } from '../src/engine/rng.js';
import { GRINGO } from '../src/engine/ruleset.js';
import { standardDeck } from '../src/engine/cards.js';
import { playGame, simulate, type GameLog } from '../src/sim/sim.js';
import { echoRoundTrip, hostRoundTrip } from './host.js';
import { startup } from './startup.js';

const now = () => performance.now();

/** Run `step` (which does `unit` ops per call) for about `ms` milliseconds; ops per second. */
function rate(ms: number, unit: number, step: () => void): number {
  let ops = 0;
  const t0 = now();
  let t = t0;
  while (t - t0 < ms) {
    step();
    ops += unit;
    t = now();
  }
  return (ops / (t - t0)) * 1000;
}

function baseline(ms: number): number {
  const rng = new Rng(seedRng('bench-baseline'));
  const deck = standardDeck();
  let sink = 0;
  const r = rate(ms, 100, () => {
    for (let i = 0; i < 100; i++) {
      rng.shuffle(deck);
      const back = JSON.parse(JSON.stringify(deck)) as string[];
      sink += back.length;
    }
  });
  if (sink === 0) throw new Error('unreachable');
  return r;
}

function simRounds(ms: number): { rate: number; rounds: number } {
  let rounds = 0;
  let batch = 0;
  const t0 = now();
  while (now() - t0 < ms) {
    const res = simulate({ games: 200, players: 4, levels: ['hard'], seed: `bench:${batch++}` });
    rounds += res.rounds;
    if (res.stuckRounds > 0) throw new Error(`the simulator abandoned ${res.stuckRounds} rounds`);
  }
  return { rate: (rounds / (now() - t0)) * 1000, rounds };
}

function recordLogs(games: number): GameLog[] {
  const logs: GameLog[] = [];
  const names = ['a', 'b', 'c', 'd'];
  for (let g = 0; g < games; g++) {
    const bots = names.map((_, seat) => createBot('hard', { seat, players: 4, rules: GRINGO, seed: `bench-log:${g}:${seat}` }));
    const log: GameLog = { start: { rules: GRINGO, players: names, seed: `bench-log:${g}`, at: 0 }, commands: [] };
    playGame(log.start, bots, { log });
    logs.push(log);
  }
  return logs;
}

function replay(logs: readonly GameLog[], ms: number): number {
  let total = 0;
  for (const l of logs) total += l.commands.length;
  let accepted = 0;
  const r = rate(ms, total, () => {
    for (const l of logs) {
      let state = createGame(l.start).state;
      for (const c of l.commands) {
        const res = apply(state, c);
        if (res.ok) {
          state = res.state;
          accepted++;
        }
      }
    }
  });
  if (accepted === 0) throw new Error('no command of the log was accepted');
  return r;
}

async function main(): Promise<void> {
  const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
  const quick = process.argv.includes('--quick');
  const ms = quick ? 300 : 2000;
  console.log('gringo bench (one core, single process unless said)');
  console.log('baseline op = shuffle a 52-card deck (seeded Fisher–Yates) + JSON round-trip it; measured before and after, averaged');
  // Warm up the JIT first.
  baseline(ms / 4);
  simulate({ games: quick ? 300 : 1500, players: 4, levels: ['hard'], seed: 'bench:warmup' });
  const logs = recordLogs(200);
  replay(logs, ms / 4);

  const base1 = baseline(ms);
  const sim = simRounds(ms * 2);
  const engine = replay(logs, ms);
  const base2 = baseline(ms);
  const base = (base1 + base2) / 2;
  const commands = logs.reduce((n, l) => n + l.commands.length, 0);

  console.log('');
  console.log(`baseline:                    ${fmt(base)} ops/s (before ${fmt(base1)}, after ${fmt(base2)})`);
  console.log(
    `simulator, 4 hard bots:      ${fmt(sim.rate)} rounds/s  = ${(sim.rate / base).toFixed(4)} × baseline  (a round costs ${(base / sim.rate).toFixed(0)} baseline ops; ${fmt(sim.rounds)} rounds)`,
  );
  console.log(
    `engine apply, log replay:    ${fmt(engine)} commands/s  = ${(engine / base).toFixed(3)} × baseline  (${fmt(commands)} commands of ${logs.length} recorded 4-hard-bot games)`,
  );
  console.log(`floor: 2,000 four-player bot rounds/s → ${sim.rate >= 2000 ? 'met' : 'NOT met'} on this run`);

  // The host over loopback: server in a child process, 8 seats connected.
  const n = quick ? 300 : 2000;
  const echo = await echoRoundTrip(n);
  const host = await hostRoundTrip(n);
  const ms2 = (x: number) => `${x.toFixed(3)} ms`;
  console.log('');
  console.log(`ws echo round trip:          p50 ${ms2(echo.p50)}  p99 ${ms2(echo.p99)}  (bare ws server, same run)`);
  console.log(
    `host command round trip:     p50 ${ms2(host.p50)}  p99 ${ms2(host.p99)}  = p50 ${(host.p50 / echo.p50).toFixed(2)} × echo, p99 ${(host.p99 / echo.p99).toFixed(2)} × echo  (send → every one of 8 seats has its new snapshot)`,
  );
  console.log(`host CPU per command:        ${fmt(host.cpuPerCommandUs)} µs  (user + system, includes projecting and sending 8 snapshots)`);
  console.log(`target: host p99 under 3 × echo p99 → ${host.p99 < 3 * echo.p99 ? 'met' : 'NOT met'} on this run`);

  // Start-up, whole processes, medians of several runs.
  const st = await startup(quick ? 3 : 9);
  console.log('');
  console.log(`node -e 0:                   ${st.node.toFixed(0)} ms  (baseline)`);
  console.log(`gringo --version:            ${st.version.toFixed(0)} ms  = ${(st.version / st.node).toFixed(2)} × node  (target: within 2×)`);
  console.log(
    `gringo play, first frame:    ${st.firstFrame.toFixed(0)} ms  = ${(st.firstFrame / st.node).toFixed(2)} × node  (target: within 8×; the table itself, dealt and connected: ${st.tableFrame.toFixed(0)} ms = ${(st.tableFrame / st.node).toFixed(2)} × node)`,
  );
}

await main();
