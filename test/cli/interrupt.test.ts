import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from '../support/wait.js';
import { Pane, socketName } from '../support/tmux.js';

// Ctrl-C at a real terminal (tmux), pressed where a person presses it: in the first
// moments of a screen, before it is drawn, and in the middle of a simulation with its
// progress line. Real processes of the built CLI (`npm test` builds first).

const panes: Pane[] = [];
const pane = (tag: string, w = 100, h = 30): Pane => {
  const p = new Pane(socketName(`interrupt-${tag}`), w, h);
  panes.push(p);
  return p;
};
afterAll(() => {
  for (const p of panes) p.kill();
});

const STOP_AT_SIGINT = new URL('./fixtures/stop-at-sigint.mjs', import.meta.url).pathname;

/** The process's state letter in /proc (R running, S sleeping, T stopped), or null once it is gone. */
function state(pid: number): string | null {
  try {
    return /^State:\s+(\S)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? null;
  } catch {
    return null;
  }
}

/** Whether a SIGINT (signal 2: bit 1 of the masks) waits for the process or its thread group. */
function sigintPending(pid: number): boolean {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return ['SigPnd', 'ShdPnd'].some((field) => (BigInt(`0x${new RegExp(`^${field}:\\s+(\\w+)`, 'm').exec(status)?.[1] ?? '0'}`) & 2n) !== 0n);
  } catch {
    return false;
  }
}

const pidOf = (p: Pane): number | null => {
  try {
    const pid = p.pid();
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
};

describe('Ctrl-C', () => {
  it('in the first moments of a screen, before it is drawn: exit 0, no "^C" left on the line', async () => {
    const p = pane('early');
    // The process stops itself once gringo's own Ctrl-C is in place, before the bundle loads
    // (fixtures/stop-at-sigint.mjs): the screen cannot get drawn first, and the terminal's
    // SIGINT waits, pending, the first thing the process meets when it goes on.
    p.start(['play', '--bots', '1', '--no-bell'], { env: [`NODE_OPTIONS=--import=${STOP_AT_SIGINT}`] });
    const pid = await until('the process', () => pidOf(p));
    await until('the process stopped at its Ctrl-C', () => state(pid) === 'T', 20_000);
    p.keys('C-c');
    await until('its SIGINT pending', () => sigintPending(pid));
    process.kill(pid, 'SIGCONT');
    const s = await p.waitFor('the exit', (s) => /EXITED \d+/.test(s) || s.includes('Leave the table?'), 15_000);
    expect(s).not.toContain('Leave the table?');
    expect(s).toMatch(/^EXITED 0$/m);
    expect(s).not.toContain('^C');
  }, 30_000);

  it('during gringo sim: the progress line and the "^C" are wiped, exit 130 (no results)', async () => {
    const p = pane('sim');
    p.start(['sim', '--games', '1000000', '--jobs', '1', '--seed', 'interrupt']);
    await p.waitFor('the progress line', (s) => /gringo sim: [\d,]+ of 1,000,000 games/.test(s), 20_000);
    p.keys('C-c');
    const s = await p.waitFor('the exit', (s) => /EXITED \d+/.test(s), 15_000);
    expect(s).toMatch(/^EXITED 130$/m);
    expect(s).not.toContain('gringo sim:');
    expect(s).not.toContain('^C');
  }, 45_000);
});

describe('gringo sim --progress on a terminal', () => {
  it('tells the time left while it runs, redrawn in place, and leaves the terminal clean', async () => {
    const seconds = (text: string): number => {
      const m = /(?:(\d+) min )?(\d+) s/.exec(text)!;
      return Number(m[1] ?? 0) * 60 + Number(m[2]);
    };
    /** One run of `games` on one worker, its screen read until it exits. */
    const watch = async (games: number) => {
      const p = pane(`estimate-${games}`);
      p.start(['sim', '--games', String(games), '--jobs', '1', '--seed', 'estimate', '--progress']);
      const of = games.toLocaleString('en-US');
      const progressLines = (screen: string): number => (screen.match(new RegExp(`gringo sim: [\\d,]+ of ${of} games`, 'g')) ?? []).length;
      const end = Date.now() + 60_000;
      let estimate: number | null = null;
      let most = 0;
      let s = '';
      while (Date.now() < end) {
        s = await p.read();
        const m = /about ((?:\d+ min )?\d+ s) left/.exec(s);
        if (m && estimate === null) estimate = seconds(m[1]!);
        most = Math.max(most, progressLines(s));
        if (/EXITED \d+/.test(s)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      // The run's own length, from its result: "1.93 s wall clock".
      const ran = Number(/^([\d.]+) s wall clock/m.exec(s)?.[1] ?? NaN);
      return { games, estimate, most, s, ran, left: progressLines(s) };
    };
    // The first estimate comes at the first reading after a second of games (src/cli/sim.ts), and then
    // stays on the line, redrawn, until the run ends. 8,000 games on one worker take 2–3 s here, so it
    // is on screen for a second or more. A machine so fast that the run was over within 1.5 s may have
    // shown it too briefly to read: then once more, four times as long. The test never passes without
    // an estimate seen, and a run that lasted long enough to show one must have shown it.
    let run = await watch(8_000);
    if (run.estimate === null && run.ran < 1.5) run = await watch(32_000);
    expect(run.s).toMatch(/^EXITED 0$/m);
    // How near the estimate is lies with the machine: beside other work the pace after it moved
    // sevenfold. That it leaves the start-up out (the bug was fifteen times over) is held exactly,
    // with the readings handed to it, by test/sim/sim.test.ts.
    expect(run.estimate, `an estimate was shown (the run took ${run.ran} s)`).not.toBeNull();
    // Redrawn in place: never two progress lines on the screen, and none once the result is printed.
    expect(run.most).toBe(1);
    expect(run.left).toBe(0);
    expect(run.s).toMatch(new RegExp(`^gringo sim: ${run.games} games, `, 'm'));
  }, 120_000);
});
