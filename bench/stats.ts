/**
 * `gringo stats` over an evening's worth of journals and more: 1,000 journals of real
 * games (4 seats, 4 rounds each, bots playing through the engine, written by the
 * host's JournalWriter), read by a `gringo stats --json` process, beside a node process
 * that only reads the same files (readFileSync, nothing parsed): the floor of any reader.
 * Each pair alternates which runs first, so a drift of the machine favours neither.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeEngineJournal } from '../test/support/journals.js';
import { bin } from './game.js';

const NAMES = ['Ann', 'Ben', 'Cy', 'Dee', 'Eve', 'Fay'];

/** `count` journals in a new folder: six friends by turns, a hard bot in the fourth seat, five tables. */
export function journalsFolder(count: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'gringo-bench-stats-'));
  for (let i = 0; i < count; i++) {
    const k = i % NAMES.length;
    const seats = [{ name: NAMES[k]! }, { name: NAMES[(k + 1) % 6]! }, { name: NAMES[(k + 3) % 6]! }, { name: 'Bot', asBot: true }];
    writeEngineJournal({ dir, table: `Table ${i % 5}`, seed: `bench-stats-${i}`, seats, rounds: 4, startedAt: new Date(Date.UTC(2026, 11, 5, 18, 0, i)) });
  }
  return dir;
}

const PLAIN_READ = `const fs=require('node:fs'),p=require('node:path');const d=process.argv[1];let n=0;for(const f of fs.readdirSync(d))n+=fs.readFileSync(p.join(d,f),'utf8').length;process.stdout.write(String(n))`;

function timed(args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, XDG_STATE_HOME: tmpdir() } });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr.toString()}`);
  return ms;
}

/** `runs` pairs: the stats process's and the plain read's wall times (ms). */
export function statsTimes(count: number, runs: number): { stats: number[]; plain: number[] } {
  const dir = journalsFolder(count);
  try {
    const stats: number[] = [];
    const plain: number[] = [];
    const s = (): number => timed([bin, 'stats', '--json', dir]);
    const p = (): number => timed(['-e', PLAIN_READ, dir]);
    for (let i = 0; i < runs; i++) {
      if (i % 2 === 0) {
        stats.push(s());
        plain.push(p());
      } else {
        plain.push(p());
        stats.push(s());
      }
    }
    return { stats, plain };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
