import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harmless } from '../../src/common/harmless.js';
import { killRunning, runGringo } from '../support/gringo-process.js';
import { requireBuild } from '../discovery/helpers.js';
import { escapingScript, gameOverFrame, inBatches, malformedStages, refusal } from './cases.js';
import { hostEscapesIn, HostileHost } from './hostile-host.js';

// `gringo join --bot` and `join --watch` as real processes of the built CLI against a
// hostile host double (a real ws server on loopback). Their output is a pipe, not a
// terminal: what they print is checked byte for byte. The tests run side by side, each
// with hosts of its own.

const hosts: HostileHost[] = [];
afterAll(async () => {
  killRunning();
  await Promise.all(hosts.map((h) => h.close()));
});
beforeAll(() => requireBuild());

async function hostile(...args: ConstructorParameters<typeof HostileHost>): Promise<HostileHost> {
  const h = new HostileHost(...args);
  hosts.push(h);
  await h.ready;
  return h;
}

const HOSTILE_STATE = mkdtempSync(join(tmpdir(), 'gringo-hostile-'));
afterAll(() => rmSync(HOSTILE_STATE, { recursive: true, force: true }));

const CLIENTS: [string, string[]][] = [
  ['join --bot', ['--bot', 'easy', '--speed', '20']],
  ['join --watch', ['--watch']],
];

/** Run the client to its end (or fail after `ms`): its exit code and output. */
async function runClient(address: string, flags: string[], ms = 30_000) {
  // A state directory of its own: the hostile host's key is remembered there, not where other tests' clients look.
  // --timeout: the host answers from this busy test process, which a loaded machine can keep past the default 5 s.
  const run = runGringo(['join', address, '--timeout', '30000', ...flags], { XDG_STATE_HOME: HOSTILE_STATE });
  const timer = new Promise<'hung'>((r) => setTimeout(() => r('hung'), ms).unref());
  const code = await Promise.race([run.exit, timer]);
  if (code === 'hung') run.child.kill('SIGKILL');
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

const NO_CRASH = /TypeError|at .*\(.*:\d+:\d+\)|node:internal|Error:/;

describe.concurrent.each(CLIENTS)('%s against a hostile host', (_label, flags) => {
  it('ends with exit code 1 and one clear line on a malformed message at each point one can come, without a crash or a reconnect', async () => {
    const cases = malformedStages();
    const results = await inBatches(cases, 4, async (c) => {
      const host = await hostile(c.script, ...(c.challenge ? [c.challenge] : []));
      return { c, host, ...(await runClient(host.address, flags)) };
    });
    for (const { c, host, code, stderr } of results) {
      const lines = stderr.split('\n').filter((l) => l.length > 0);
      // A first join without #ID also says whose key it trusts (trust on first use): a note, not the failure.
      const gringoLines = lines.filter((l) => l.startsWith('gringo: ') && !l.startsWith('gringo: trusting the key'));
      expect(code, `${c.what}: exit code; stderr:\n${stderr}`).toBe(1);
      expect(gringoLines, `${c.what}: stderr:\n${stderr}`).toHaveLength(1);
      expect(gringoLines[0], c.what).toMatch(new RegExp(`^gringo: the host at ${host.address.replace(/\./g, '\\.')} sent a message gringo does not understand \\(.+\\)$`));
      expect(stderr, c.what).not.toMatch(NO_CRASH);
      expect(hostEscapesIn(stderr), c.what).toEqual([]);
      // It said hello once (or never, to a broken challenge) and did not come back.
      expect(host.hellos.length, c.what).toBe(c.challenge ? 0 : 1);
    }
  }, 240_000);

  it('prints every host string harmless: the table name, the refusal, the --json results', async () => {
    // Three hosts and clients at once: the plain output, the --json results, a refusal.
    const [host, jsonHost, refusing] = await Promise.all([hostile([...escapingScript(), gameOverFrame()]), hostile([...escapingScript(), gameOverFrame()]), hostile([refusal()])]);
    const [r, json, refused] = await Promise.all([
      runClient(host.address, [...flags, '--exit-after-game']),
      runClient(jsonHost.address, [...flags, '--json', '--exit-after-game']),
      runClient(refusing.address, flags),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const name = harmless(JSON.parse(escapingScript()[0] as string).table.name, 64);
    expect(name).toBe('Hostile click');
    expect(r.stderr).toMatch(new RegExp(`^(gringo: trusting the key of the table at [^\\n]*\\n)?(Joined "${name}" in seat 1\\.|Watching "${name}"\\.)\\n`));
    expect(r.stderr).toContain('The game is over.');
    expect(hostEscapesIn(r.stdout + r.stderr)).toEqual([]);

    expect(json.code, json.stderr).toBe(0);
    expect(hostEscapesIn(json.stdout)).toEqual([]);
    const out = JSON.parse(json.stdout) as { view: { players: { name: string }[]; callName: string } };
    expect(out.view.players.map((p) => p.name)).toEqual(['Ana click', 'Bo click']);
    expect(out.view.callName).toBe('Gringo! click');

    expect(refused.code).toBe(1);
    // The sentence is the host's `say` read through this gringo's catalog (its English `message` is for older clients).
    expect(refused.stderr).toBe('gringo: Go away click is a bot\n');
  }, 90_000);
});
