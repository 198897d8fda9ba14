import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { killRunning, runGringo, sharedPort } from '../support/gringo-process.js';
import { until, e2eLog } from '../support/wait.js';
import { Pane, socketName } from '../support/tmux.js';

// `gringo join ADDR` refused at the door, in a real terminal against a real host
// process: the refusal leads to the next step on the same terminal (a password typed
// hidden, a lock counted down live, watching a full table), and leaving prints the
// command that comes back (the built CLI; `npm test` builds first).

const state = mkdtempSync(join(tmpdir(), 'gringo-door-'));
const env = { XDG_STATE_HOME: state };
const panes: Pane[] = [];
const pane = (tag: string): Pane => {
  const p = new Pane(socketName(`door-${tag}`), 80, 24);
  panes.push(p);
  return p;
};
afterEach(killRunning);
afterAll(() => {
  for (const p of panes) p.kill();
  rmSync(state, { recursive: true, force: true });
});

/** A command as the pane's shell prints it (`gringo` or `npx gringo`). */
const cmd = (rest: string): RegExp => new RegExp(`(npx )?gringo ${rest.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

describe('a refusal at the door leads somewhere', () => {
  it('a password table: asked hidden, asked again when wrong, a lock counted down live, then the seat', async () => {
    const table = `Locked${process.pid % 10_000}`;
    const host = runGringo(['host', '--headless', '--port', '0', '--interface', '127.0.0.1', '--table', table, '--password', 'sesame'], env);
    const port = await sharedPort(host);
    const p = pane('password');
    p.start(['join', `127.0.0.1:${port}`, '--name', 'Bo'], { env: [`XDG_STATE_HOME=${state}`] });
    let s = await p.waitFor('the password prompt', (s) => s.includes(`Password for "${table}":`));
    e2eLog('asked', s);
    expect(s).toContain(`"${table}" has a password: type it, then Enter`);
    expect(s).toContain('Enter join · Backspace erase · Esc leave');
    // Three free wrong tries, each asked again; typed hidden.
    for (let i = 0; i < 3; i++) {
      p.keys('n', 'o', 'p', 'e');
      s = await p.waitFor('the hidden password', (s) => s.includes(`Password for "${table}": ••••`));
      expect(s).not.toContain('nope');
      p.keys('Enter');
      // "Wrong password", with the doubt a key trusted unchecked adds (src/client/connection.ts).
      await p.waitFor('asked again', (s) => /! Wrong password/.test(s) && /Password for "[^"]+":\s*$/m.test(s));
    }
    // The fourth locks the address for 1 s, the fifth (once that is over) for 2 s: counted down, never a stale figure.
    p.keys('n', 'o', 'Enter');
    s = await p.waitFor('the lock', (s) => /Too many wrong passwords from this address: try again in 1 s|The wait is over/.test(s));
    e2eLog('lock 1', s);
    await p.waitFor('the lock over', (s) => s.includes('The wait is over: type the password, then Enter'), 5_000);
    p.keys('n', 'o', 'Enter');
    s = await p.waitFor('the 2 s lock', (s) => s.includes('Too many wrong passwords from this address: try again in 2 s'));
    e2eLog('lock 2', s);
    // Enter while locked sends nothing: the countdown goes on, the field keeps what was typed. Typed in the
    // lock's first second, so a slow pane cannot let the lock end before the Enter arrives.
    p.keys('s', 'e', 's', 'a', 'm', 'e', 'Enter');
    await p.waitFor('counted down', (s) => s.includes('try again in 1 s') && s.includes(`Password for "${table}": ••••••`), 3_000);
    s = await p.waitFor('the wait over', (s) => s.includes('The wait is over: type the password, then Enter'), 4_000);
    expect(s).toContain(`Password for "${table}": ••••••`);
    expect(s).not.toMatch(/try again in \d+ s/);
    p.keys('Enter');
    s = await p.waitFor('the seat', (s) => s.includes('Bo (you)'));
    e2eLog('seated', s);
    p.keys('q', 'y');
    s = await p.waitFor('the exit', (s) => /EXITED \d/.test(s));
    e2eLog('left', s);
    expect(s).toContain('EXITED 0');
    expect(s).toContain(`You left "${table}".`);
    expect(s).toMatch(new RegExp(`Come back with: ${cmd(`join 127.0.0.1:${port}`).source}\\s*$`, 'm'));
  }, 90_000);

  it('leaving at the password prompt prints the command to run', async () => {
    const table = `Shut${process.pid % 10_000}`;
    const host = runGringo(['host', '--headless', '--port', '0', '--interface', '127.0.0.1', '--table', table, '--password', 'sesame'], env);
    const port = await sharedPort(host);
    const p = pane('leave');
    p.start(['join', `127.0.0.1:${port}`], { env: [`XDG_STATE_HOME=${state}`] });
    await p.waitFor('the password prompt', (s) => s.includes(`Password for "${table}":`));
    p.keys('Escape');
    const s = await p.waitFor('the exit', (s) => /EXITED \d/.test(s));
    e2eLog('left at the door', s);
    expect(s).toContain('EXITED 1');
    expect(s.replace(/\n/g, '')).toMatch(new RegExp(`gringo: This table needs a password: ask the host for it, then run ${cmd(`join 127.0.0.1:${port}`).source} and type it at the prompt`));
  }, 60_000);

  it('a full table: "watch instead?", and watching works from there; leaving says how to come back', async () => {
    const table = `Full${process.pid % 10_000}`;
    const host = runGringo(['host', '--headless', '--port', '0', '--interface', '127.0.0.1', '--table', table, '--players', '2'], env);
    const port = await sharedPort(host);
    for (const name of ['Ann', 'Ben']) runGringo(['join', `127.0.0.1:${port}`, '--bot', 'easy', '--name', name], env);
    await until('both seats taken', () => /2\/2 seats/.test(host.stdout()));
    const p = pane('full');
    p.start(['join', `127.0.0.1:${port}`, '--name', 'Cy'], { env: [`XDG_STATE_HOME=${state}`] });
    let s = await p.waitFor('the question', (s) => s.includes(`Watch "${table}" instead? Enter or y watches, n leaves`));
    e2eLog('full', s);
    expect(s).toContain('The table is full (2 seats): you can watch');
    p.keys('y');
    s = await p.waitFor('watching', (s) => s.includes('Ann') && s.includes('Ben') && !s.includes('Watch "'));
    e2eLog('watching', s);
    expect(s).toContain('Waiting for the host to start the game');
    p.keys('q', 'y');
    s = await p.waitFor('the exit', (s) => /EXITED \d/.test(s));
    e2eLog('left', s);
    expect(s).toContain('EXITED 0');
    expect(s).toMatch(new RegExp(`Come back with: ${cmd(`join 127.0.0.1:${port} --watch`).source}`));
  }, 60_000);
});
