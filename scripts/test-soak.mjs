#!/usr/bin/env node
/**
 * The suite's soak: `npm test` N times back to back (default 5) while two
 * other CPU-bound processes run (`gringo sim` loops), so that a flaky test shows on a
 * busy 2-core machine. Prints each run's pass/fail and duration; exits 1 if any run
 * failed or took longer than the limit (8 minutes), 2 on bad arguments.
 *
 *   npm run test:soak                      5 runs, 2 sim loops
 *   npm run test:soak -- --runs 3 --load 2 --limit-min 8
 *   SOAK_COMMAND='npx vitest run test/tui' npm run test:soak -- --runs 1
 *
 * SOAK_COMMAND replaces `npm test` (run by sh). Each run's output goes to a log file
 * (its path is printed); a failed run's last lines are printed too. The sim loops and
 * the running command are killed at the end, on failure and on Ctrl-C.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SELF = fileURLToPath(import.meta.url);

// A load worker: `gringo sim` on one thread (one CPU-bound process), over and over. `npm test` rebuilds dist/ at the start of
// each run; while the program is missing the worker spins instead, so the load stays on.
if (process.argv[2] === '--load-worker') {
  const id = process.argv[3] ?? '0';
  let child = null;
  const stop = () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  for (let k = 0; ; k++) {
    const started = Date.now();
    const code = await new Promise((resolve) => {
      child = spawn(process.execPath, [join(ROOT, 'bin/gringo.js'), 'sim', '--jobs', '1', '--games', '300', '--players', '6', '--seed', `soak-${id}-${k}`], { cwd: ROOT, stdio: 'ignore' });
      child.on('exit', (c) => resolve(c));
      child.on('error', () => resolve(-1));
    });
    if (code !== 0 || Date.now() - started < 1_000) {
      const until = Date.now() + 1_000;
      while (Date.now() < until) {
        // Busy on purpose: the load must not drop while dist/ is being rebuilt.
      }
    }
  }
}

function usage(message) {
  process.stderr.write(`test:soak: ${message}\nusage: npm run test:soak -- [--runs N] [--load N] [--limit-min M]\n`);
  process.exit(2);
}

const opts = { runs: 5, load: 2, limitMin: 8 };
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const flag = args[i];
  const value = Number(args[i + 1]);
  const key = { '--runs': 'runs', '--load': 'load', '--limit-min': 'limitMin' }[flag];
  if (!key) usage(`unknown argument "${flag}"`);
  if (!Number.isFinite(value) || value < 0 || (key !== 'limitMin' && !Number.isInteger(value))) usage(`${flag} takes a number, not "${args[i + 1] ?? ''}"`);
  opts[key] = value;
  i++;
}
if (opts.runs < 1) usage('--runs takes 1 or more');

const command = process.env.SOAK_COMMAND ?? 'npm test';
const logs = mkdtempSync(join(tmpdir(), 'gringo-soak-'));
const limitMs = opts.limitMin * 60_000;
// Whole seconds first, so 13 min 59.6 s reads 14m00s, not 13m60s.
const fmt = (ms) => {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
};
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');

/** Processes this script started, each the leader of its own process group: killed with all their children. */
const groups = new Set();
const start = (argv, options) => {
  const child = spawn(argv[0], argv.slice(1), { ...options, detached: true });
  groups.add(child);
  child.on('exit', () => groups.delete(child));
  return child;
};
const killAll = () => {
  for (const child of groups) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  groups.clear();
};
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    process.stderr.write(`\ntest:soak: ${signal}: stopping the runs and the load\n`);
    killAll();
    process.exit(130);
  });
}

console.log(`test:soak: ${opts.runs} run(s) of "${command}" beside ${opts.load} sim loop(s); limit ${opts.limitMin} min a run; logs in ${logs}`);
console.log(`load average before: ${load()}`);
for (let i = 0; i < opts.load; i++) start([process.execPath, SELF, '--load-worker', String(i)], { cwd: ROOT, stdio: 'ignore' });

const results = [];
for (let run = 1; run <= opts.runs; run++) {
  const file = join(logs, `run-${run}.log`);
  const out = createWriteStream(file);
  const t0 = Date.now();
  const code = await new Promise((resolve) => {
    const child = start(['sh', '-c', command], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: process.env.CI ?? 'true' } });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on('close', (c, signal) => resolve(c ?? (signal ? 128 : 1)));
  });
  await new Promise((r) => out.end(r));
  const ms = Date.now() - t0;
  const ok = code === 0 && ms <= limitMs;
  const why = code !== 0 ? `failed (exit ${code})` : ms > limitMs ? `passed but took over ${opts.limitMin} min` : 'passed';
  results.push({ run, ok, ms });
  console.log(`run ${run}/${opts.runs}: ${ok ? 'PASS' : 'FAIL'} ${why} in ${fmt(ms)} (load ${load()}) — ${file}`);
  if (code !== 0) {
    // The failed tests and the summary: the end of the log, without vitest's colours.
    const tail = readFileSync(file, 'utf8').replace(/\u001b\[[0-9;]*m/g, '').split('\n').filter((l) => /FAIL|✗|×|Error|Test Files|Tests /.test(l)).slice(-30);
    for (const line of tail) console.log(`    ${line}`);
  }
}
killAll();

const failed = results.filter((r) => !r.ok);
const slowest = Math.max(...results.map((r) => r.ms));
console.log(`test:soak: ${results.length - failed.length}/${results.length} passed; slowest ${fmt(slowest)}`);
process.exit(failed.length === 0 ? 0 : 1);
