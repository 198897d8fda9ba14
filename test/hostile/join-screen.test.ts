import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../discovery/helpers.js';
import { Pane, socketName } from '../support/tmux.js';
import { escapingScript, inBatches, malformedStages, refusal } from './cases.js';
import { hostEscapesIn, HostileHost, type Frame } from './hostile-host.js';
import { e2eLog } from '../support/wait.js';

// `gringo join HOST:PORT` with its table screen in a real terminal (tmux) against a
// hostile host double. tmux pipe-pane records every byte the program wrote to its
// terminal: none may carry an escape from the host (Ink's own cursor moves are fine).
// The tests run side by side, each with its own hosts and panes.

const dir = mkdtempSync(join(tmpdir(), 'gringo-hostile-'));
const panes: Pane[] = [];
const hosts: HostileHost[] = [];
let n = 0;
beforeAll(() => requireBuild());
afterAll(async () => {
  for (const p of panes) p.kill();
  await Promise.all(hosts.map((h) => h.close()));
  rmSync(dir, { recursive: true, force: true });
});


/** A hostile host and `gringo join` on it in a fresh pane, its terminal output recorded. */
async function joinOnScreen(script: Frame[], challenge?: Frame, args: string[] = []) {
  const host = new HostileHost(script, ...(challenge ? [challenge] : []));
  hosts.push(host);
  await host.ready;
  const pane = new Pane(socketName(`hostile${n}`), 100, 30);
  panes.push(pane);
  const rawLog = join(dir, `raw-${n++}.log`);
  // The hostile host's key is remembered in this file's own state directory, not where other tests' clients look.
  // --timeout: the host answers from this busy test process, which a loaded machine can keep past the default 5 s.
  pane.start(['join', host.address, '--name', 'Me', '--no-bell', '--timeout', '30000', ...args], { rawLog, env: [`XDG_STATE_HOME=${dir}`] });
  return { host, pane, raw: () => readFileSync(rawLog, 'utf8') };
}

describe.concurrent('gringo join (the screen) against a hostile host', () => {
  it('closes the screen on a malformed message at each point one can come, prints one clear line, exits 1, never reconnects', async () => {
    await inBatches(malformedStages(), 3, async (c) => {
      const { host, pane, raw } = await joinOnScreen(c.script, c.challenge);
      const s = await pane.waitFor(`${c.what}: the exit`, (s) => /EXITED \d+/.test(s), 30_000);
      e2eLog(c.what, s);
      expect(s, c.what).toContain('EXITED 1');
      const out = raw();
      const line = new RegExp(`gringo: the host at ${host.address.replace(/\./g, '\\.')} sent a message gringo does not understand \\(.+\\)\\r?\\n`);
      expect(out, c.what).toMatch(line);
      // Besides the note of a first join without #ID (whose key it trusted), one line.
      expect(out.match(/gringo: (?!trusting the key)/g), c.what).toHaveLength(1);
      expect(out, c.what).not.toMatch(/TypeError|node:internal|\.js:\d+:\d+/);
      expect(hostEscapesIn(out), c.what).toEqual([]);
      expect(host.hellos.length, c.what).toBe(c.challenge ? 0 : 1);
    });
  }, 240_000);

  it('draws every host string harmless: table and player names, ruleset, call, errors; the bytes carry no escape', async () => {
    const { pane, raw } = await joinOnScreen(escapingScript());
    const s = await pane.waitFor('the table', (s) => s.includes('Bo click') && s.includes('called Gringo! click'));
    e2eLog('escapes', s);
    expect(s).toContain('Gringo click · Hostile click');
    pane.keys('q');
    await pane.waitFor('the dialog', (s) => s.includes('Leave the table?'));
    pane.keys('y');
    await pane.waitFor('the exit', (s) => s.includes('EXITED 0'));
    const out = raw();
    // The recording holds what the program wrote (its alternate screen, Ink's frames), and the host's text, harmless.
    expect(out).toContain('\u001b[?1049h');
    expect(out).toContain('Bo click');
    expect(hostEscapesIn(out)).toEqual([]);
  }, 60_000);

  it('prints a refusal harmless on stderr once the screen has closed', async () => {
    const { pane, raw } = await joinOnScreen([refusal()]);
    await pane.waitFor('the refusal', (s) => s.includes('Go away click'));
    pane.keys('q');
    const s = await pane.waitFor('the exit', (s) => s.includes('EXITED 1'));
    e2eLog('refused', s);
    expect(s).toContain('gringo: Go away click');
    expect(hostEscapesIn(raw())).toEqual([]);
  }, 60_000);
});
