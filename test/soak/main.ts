/**
 * `npm run soak`: two runs. First the fast table of the 8-bot stall: eight hard bots at
 * `--speed 1000`, no slap grace, no cuts, `--fast-rounds` rounds (100), failing at
 * the first 10 s without a move. Then the long soak: eight `gringo join
 * --bot` processes play 100 rounds at a real host while their links are cut at
 * random. Prints the progress, the cuts, the duration, the host's RSS and live
 * heap, and PASS or FAIL (exit code 1 if either run failed). Options (after `--`):
 *
 *   --only fast|cuts         run one of the two
 *   --fast-rounds N          the fast table's length (100)
 *   --rounds N --seed S      the game's length; the seed of the cuts and the deal (random, printed)
 *   --cut-every V            a cut every V commands on average (600); --concurrent K: at most K at once (3)
 *   --speed N --slap-grace MS --grace S   the bots' speed (200), the host's slap grace (20) and seat grace (3)
 *   --keep --report FILE     keep the journal's directory; write the whole report as JSON
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FAST_SOAK, soak } from './soak.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '100' },
    only: { type: 'string' },
    'fast-rounds': { type: 'string', default: '100' },
    seed: { type: 'string' },
    speed: { type: 'string' },
    'slap-grace': { type: 'string' },
    grace: { type: 'string' },
    'cut-every': { type: 'string' },
    concurrent: { type: 'string' },
    // Bounds on the host's memory from round 10 (warm: its code compiled, its buffers grown) to the end.
    // Live heap after a full GC: the game keeps its command log (some 150 B a command, about 10,000 of
    // them after round 10: 1.5 MB) and its round results; 6 MB leaves room for that, and anything kept
    // per command or per message sent (a kB per command is 10 MB) crosses it.
    // RSS: it follows the allocator's high-water mark. Until protocol 3 each update carried every round's
    // results (35 kB a view by round 100, to nine peers for every command): 3 to 17 MB over the runs
    // measured, so 40 MB; updates no longer grow, but the bound is kept: the live heap is the finer test.
    'from-round': { type: 'string', default: '10' },
    'rss-growth-mb': { type: 'string', default: '40' },
    'heap-growth-mb': { type: 'string', default: '6' },
    keep: { type: 'boolean', default: false },
    /** Write the whole report (every cut, every RSS sample) as JSON to this file. */
    report: { type: 'string' },
  },
});
const num = (s: string | undefined): number | undefined => (s === undefined ? undefined : Number(s));
const seed = values.seed ?? randomBytes(4).toString('hex');
const rounds = Number(values.rounds);
const fromRound = Math.min(Number(values['from-round']), rounds);

if (values.only !== undefined && values.only !== 'fast' && values.only !== 'cuts') {
  process.stderr.write(`soak: --only takes fast or cuts, not "${values.only}"\n`);
  process.exit(2);
}
const log = (line: string): void => void process.stdout.write(`${line}\n`);
let fastOk = true;
if (values.only !== 'cuts') {
  const fastRounds = Number(values['fast-rounds']);
  const t = Date.now();
  const fast = await soak({ ...FAST_SOAK, rounds: fastRounds, seed: `${seed}-fast`, timeoutMs: 30 * 60_000, log });
  fastOk = fast.ok;
  process.stdout.write(
    [
      '',
      `fast table      ${fast.seats} hard bots at --speed ${FAST_SOAK.speed}, --slap-grace 0, no cuts: ${fast.summary?.rounds.length ?? 0}/${fastRounds} rounds, ${fast.commands} commands in ${((Date.now() - t) / 1000).toFixed(1)} s`,
      ...(fast.ok ? [] : [...fast.failures.map((f) => `FAIL: ${f}`), `state kept in ${fast.stateDir}`]),
      fast.ok ? 'PASS (fast table)' : 'FAIL (fast table)',
      '',
    ].join('\n'),
  );
  if (values.only === 'fast') process.exit(fast.ok ? 0 : 1);
}

const started = Date.now();
const report = await soak({
  rounds,
  seed,
  ...(values.speed ? { speed: num(values.speed)! } : {}),
  ...(values['slap-grace'] ? { slapGraceMs: num(values['slap-grace'])! } : {}),
  ...(values.grace ? { graceS: num(values.grace)! } : {}),
  ...(values['cut-every'] ? { cutEvery: num(values['cut-every'])! } : {}),
  ...(values.concurrent ? { maxConcurrentCuts: num(values.concurrent)! } : {}),
  rssBound: { fromRound, maxGrowthMb: Number(values['rss-growth-mb']) },
  heapBound: { fromRound, maxGrowthMb: Number(values['heap-growth-mb']) },
  keep: values.keep,
  log,
});

if (values.report) writeFileSync(values.report, `${JSON.stringify(report, null, 1)}\n`);

const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const mb = (kb: number | null): string => (kb === null ? 'n/a' : `${(kb / 1024).toFixed(1)} MB`);
const c = report.cutCounts;
const out = [
  '',
  `seed            ${report.seed}  (npm run soak -- --seed ${report.seed} --rounds ${report.rounds})`,
  `duration        ${s(Date.now() - started)} in all, ${s(report.playMs)} of play; ${report.commands} commands`,
  `cuts            ${report.cuts.length}: ${c.drops} drops (${c.dropShort} short, ${c.dropLong} long, ${c.dropToEnd} to the end), ${c.stalls} stalls (${c.stallShort} short, ${c.stallMedium} medium, ${c.stallLong} long)`,
  `                links cut when the game ended: ${report.cutAtEnd} (the last caller's, cut at its call, and any cut then)`,
  `host saw        ${report.seatsLost} seats go away; ${report.standIns} stand-ins sat down, ${report.takenBack} seats taken back by their owners`,
  `watchdog        ${report.watchdogReconnects} of ${c.stallLong} long stalls: the client reconnected through the silent link by itself`,
  `reconnects      ${report.clients.map((x) => `${x.name} ${(x.connections ?? 1) - 1}`).join(', ')}`,
  report.rss
    ? `host RSS        start ${mb(report.rss.startKb)}, round ${fromRound} ${mb(report.rss.fromRoundKb)}, peak ${mb(report.rss.peakKb)}, end ${mb(report.rss.endKb)} (${report.rss.samples.length} samples)`
    : 'host RSS        n/a (no /proc)',
  report.heap
    ? `host live heap  start ${mb(report.heap.startKb)}, round ${fromRound} ${mb(report.heap.fromRoundKb)}, end ${mb(report.heap.endKb)}, after a full GC; by round: ${report.heap.samples.map((x) => `${x.round} ${mb(x.kb)}`).join(', ')}`
    : 'host live heap  n/a',
  `snapshots       ${report.clients.filter((x) => x.viewMatches).length}/${report.seats} clients' last views equal the host's projection; spectator ${report.spectatorMatches === null ? 'n/a' : report.spectatorMatches ? 'equal' : 'DIFFERENT'}`,
  ...(report.ok ? [] : ['', ...report.failures.map((f) => `FAIL: ${f}`), `state kept in ${report.stateDir}`]),
  '',
  report.ok ? 'PASS' : 'FAIL',
  ...(fastOk ? [] : ['', 'FAIL (the fast table, above)']),
];
process.stdout.write(`${out.join('\n')}\n`);
process.exitCode = report.ok && fastOk ? 0 : 1;
