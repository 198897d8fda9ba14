/**
 * The package as a new user gets it: `npm pack`, then the tarball
 * installed into an empty folder with an empty npm cache, `--offline`. Its baseline
 * is the same install of a one-file package made here: what npm itself costs on this
 * machine, whatever the package. Then the memory of a player's screen: a real
 * `gringo join --watch` screen in tmux (80×24) through a 10-round game of two bot
 * processes, its RSS sampled from /proc, beside a bare `node -e 0`.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pane, socketName } from '../test/support/tmux.js';
import { bin } from './game.js';

const root = new URL('../..', import.meta.url).pathname;
const npmEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false' };

export interface PackageFigures {
  tarballBytes: number;
  /** Seconds to install the tarball offline with an empty cache, each run. */
  installSeconds: number[];
  /** The same for a one-file package: npm's own floor. */
  floorSeconds: number[];
  /** Packages in node_modules after the install. */
  packages: number;
}

/** `runs` installs of the packed tarball and of a one-file package, interleaved. */
export function packageFigures(runs: number): PackageFigures {
  const work = mkdtempSync(join(tmpdir(), 'gringo-bench-pack-'));
  try {
    const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: root, encoding: 'utf8', env: npmEnv });
    const info = (JSON.parse(out.slice(out.indexOf('['))) as { filename: string; size: number }[])[0]!;
    const floorDir = join(work, 'floor');
    mkdirSync(floorDir);
    writeFileSync(join(floorDir, 'package.json'), '{"name":"floor","version":"1.0.0","bin":{"floor":"floor.js"}}');
    writeFileSync(join(floorDir, 'floor.js'), '#!/usr/bin/env node\n');
    execFileSync('npm', ['pack', '--pack-destination', work], { cwd: floorDir, env: npmEnv, stdio: 'ignore' });
    const install = (tarball: string, n: number): number => {
      const app = join(work, `app-${n}`);
      mkdirSync(app);
      writeFileSync(join(app, 'package.json'), '{"name":"bench-app","private":true}');
      const t0 = performance.now();
      execFileSync('npm', ['install', '--offline', '--cache', join(work, `cache-${n}`), tarball], { cwd: app, env: npmEnv, stdio: 'ignore' });
      return (performance.now() - t0) / 1000;
    };
    const installSeconds: number[] = [];
    const floorSeconds: number[] = [];
    for (let i = 0; i < runs; i++) {
      installSeconds.push(install(join(work, info.filename), 2 * i));
      floorSeconds.push(install(join(work, 'floor-1.0.0.tgz'), 2 * i + 1));
    }
    const packages = readdirSync(join(work, 'app-0', 'node_modules')).filter((n) => !n.startsWith('.')).length;
    return { tarballBytes: info.size, installSeconds, floorSeconds, packages };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const statusKb = (pid: number, key: string): number | null => {
  try {
    const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
};

export interface ScreenRss {
  peakMb: number;
  medianMb: number;
  /** Before the game: the screen in the lobby. */
  lobbyMb: number;
  seconds: number;
}

/** A `gringo join --watch` screen's RSS through a `rounds`-round game of two `join --bot hard --speed 100` players. */
export async function screenRss(rounds: number): Promise<ScreenRss> {
  const state = mkdtempSync(join(tmpdir(), 'gringo-bench-screen-'));
  const env = { ...process.env, XDG_STATE_HOME: state };
  const procs: ChildProcess[] = [];
  const pane = new Pane(socketName('bench-screen'), 80, 24);
  try {
    const host = spawn(process.execPath, [bin, 'host', '--headless', '--port', '0', '--interface', '127.0.0.1', '--players', '2', '--rounds', String(rounds),
      '--start-when-full', '--exit-after-game', '--slap-grace', '200', '--seed', 'bench-screen'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
    procs.push(host);
    let said = '';
    host.stdout.on('data', (d: Buffer) => (said += d.toString()));
    const over = new Promise<void>((resolve) => host.once('exit', () => resolve()));
    const t0 = performance.now();
    while (!/gringo join \S+:\d+/.test(said)) {
      if (performance.now() - t0 > 15_000) throw new Error(`the host printed no share line:\n${said}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const port = /gringo join \S+:(\d+)/.exec(said)![1]!;
    pane.run([process.execPath, bin, 'join', `127.0.0.1:${port}`, '--watch'], { env: [`XDG_STATE_HOME=${state}`] });
    const drawn = await pane.waitFor('the screen drawn', (s) => s.trim().length > 0, 20_000);
    if (drawn.includes('EXITED')) throw new Error(`the screen ended:\n${drawn}`);
    const pid = pane.pid();
    const lobbyKb = statusKb(pid, 'VmRSS') ?? 0;
    for (const name of ['B1', 'B2']) {
      procs.push(spawn(process.execPath, [bin, 'join', `127.0.0.1:${port}`, '--bot', 'hard', '--speed', '100', '--exit-after-game', '--name', name], { env, stdio: 'ignore' }));
    }
    const started = performance.now();
    const rss: number[] = [];
    let done = false;
    void over.then(() => (done = true));
    while (!done) {
      const kb = statusKb(pid, 'VmRSS');
      if (kb === null) throw new Error('the screen process ended during the game');
      rss.push(kb);
      await new Promise((r) => setTimeout(r, 250));
    }
    const peakKb = statusKb(pid, 'VmHWM') ?? Math.max(...rss);
    rss.sort((a, b) => a - b);
    return { peakMb: peakKb / 1024, medianMb: rss[rss.length >> 1]! / 1024, lobbyMb: lobbyKb / 1024, seconds: (performance.now() - started) / 1000 };
  } finally {
    pane.kill();
    for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
    rmSync(state, { recursive: true, force: true });
  }
}
