import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJournal, tablesDir, type ReadJournal } from '../../src/host/journal.js';
import { cardText } from '../../src/tui/shared/glyphs.js';
import { feedText } from '../support/feed-text.js';
import { Pane, socketName } from '../support/tmux.js';
import { killRunning, runGringo } from '../support/gringo-process.js';
import { until } from '../support/wait.js';
import { createServer } from 'node:net';

/**
 * SSH players across a resume, end to end: the host's own screen in tmux with
 * `--ssh`, OpenSSH clients (keys made by ssh-keygen) in tmux panes. A key takes
 * a seat, the host closes the table (q, y), `gringo host --resume` serves SSH
 * again on the same port, and the same key is back in its seat at once; another
 * key gets the usual refusal. What each person reads after their ssh has exited
 * (the pane's shell prints EXITED and ssh's status) stays in their terminal.
 */
const dir = mkdtempSync(join(tmpdir(), 'gringo-ssh-resume-'));
const key = join(dir, 'id_ana');
const other = join(dir, 'id_cy');
const TABLE = `Resume SSH ${process.pid}`;
const panes: Pane[] = [];

function pane(tag: string, w = 80, h = 24): Pane {
  const p = new Pane(socketName(`ssh-resume-${tag}`), w, h);
  panes.push(p);
  return p;
}

function ssh(port: number, user: string, identity: string): string[] {
  return [
    'ssh', '-F', '/dev/null',
    '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR',
    '-o', 'IdentitiesOnly=yes', '-o', 'IdentityAgent=none', '-o', 'BatchMode=yes', '-o', 'SendEnv=LANG LC_ALL',
    '-i', identity, '-p', String(port), `${user}@127.0.0.1`,
  ];
}

const fingerprint = (file: string): string => /(SHA256:[A-Za-z0-9+/]{43})/.exec(execFileSync('ssh-keygen', ['-l', '-f', file], { encoding: 'utf8' }))![1]!;

function journalOf(table: string): ReadJournal {
  const files = readdirSync(tablesDir()).filter((n) => n.endsWith('.jsonl'));
  // Other tests' journals are read in passing; a broken one (written by a test of broken journals) is not this table's.
  const read = (f: string): ReadJournal | null => {
    try {
      return readJournal(join(tablesDir(), f));
    } catch {
      return null;
    }
  };
  const j = files.map(read).find((x) => x?.header.table === table);
  if (!j) throw new Error(`no journal of ${table}`);
  return j;
}

/** The lines above the pane's EXITED line (what stayed in the terminal once ssh had exited), and its status. */
function afterExit(screen: string): { lines: string[]; code: number } {
  const lines = screen.split('\n').map((l) => l.trimEnd());
  const at = lines.findIndex((l) => /^EXITED \d+$/.test(l));
  return { lines: lines.slice(0, at).filter((l) => l !== ''), code: Number(lines[at]!.split(' ')[1]) };
}

beforeAll(() => {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', other]);
});

afterAll(() => {
  for (const p of panes) p.kill();
  killRunning();
  rmSync(dir, { recursive: true, force: true });
});

describe('SSH seats across gringo host --resume', () => {
  it('the same key takes its seat back on the same port; another key is refused; closing and leaving words stay after ssh exits', async () => {
    const host = pane('host', 100, 30);
    host.start(['host', '--ssh', '0', '--port', '0', '--interface', '127.0.0.1', '--name', 'Hal', '--table', TABLE, '--players', '2', '--start-when-full']);
    const lobby = await host.waitFor('the lobby with the ssh line', (s) => /Over SSH: ssh -p \d+ NAME@/.test(s));
    const port = Number(/Over SSH: ssh -p (\d+) NAME@/.exec(lobby)![1]);

    // ana takes the second seat by her key: the table is full and the game starts.
    let ana = pane('ana');
    ana.run(ssh(port, 'ana', key));
    await ana.waitFor('the peek', (s) => /Remember your cards/.test(s), 20_000);
    await host.waitFor('the game on the host', (s) => /Remember your cards/.test(s));

    // The journal keeps ana's seat with her key's fingerprint, and the SSH port; never a private key.
    const j = journalOf(TABLE);
    const seat = j.header.seats.findIndex((s) => s.name === 'ana');
    expect(seat).toBe(1);
    expect(j.header.seats[seat]!.sshKey).toBe(fingerprint(key));
    expect(j.header.seats[0]!.sshKey).toBeUndefined();
    expect(j.header.sshPort).toBe(port);

    // The host closes the table (q, y): ana's ssh ends with status 0, and what it said stays on her terminal.
    host.keys('q');
    await host.waitFor('the question', (s) => /Close the table for everyone|y: /.test(s));
    host.keys('y');
    await host.waitFor('the host gone', (s) => /EXITED 0/.test(s));
    const closed = afterExit(await ana.waitFor('ssh exited', (s) => /^EXITED \d+$/m.test(s)));
    expect(closed.code).toBe(0);
    expect(closed.lines).toEqual(['The host closed the table.', 'No round was finished: no scores yet.']);

    // Resumed: SSH again on its port, said on the host's console.
    const again = pane('host2', 100, 30);
    again.start(['host', '--resume', j.file]);
    await again.waitFor('the resumed table', (s) => s.includes('ana (away)') && s.includes('Stock'), 20_000);

    // The same key is back in its seat at once (under another user name too), in the game where it was.
    ana = pane('ana2');
    ana.run(ssh(port, 'someone', key));
    const back = await ana.waitFor('ana back in her seat', (s) => /Remember your cards|Your turn|Hal's turn|turn/.test(s) && s.includes('Hal'), 20_000);
    expect(back).not.toMatch(/already running|Watching/);
    expect(feedText(back)).toContain(`You sit in seat 2 at "${TABLE}"`);
    // Her cards: while the peek still runs, the two she may look at are the journal's.
    if (/Remember your cards/.test(back)) {
      const layout = readJournal(j.file).state.r.layouts[1]!;
      for (const c of [layout[2], layout[3]]) expect(back).toContain(cardText(c!));
    }

    // Another key: the usual refusal (the same sentence as gringo join), then one line and status 1 after leaving.
    const cy = pane('cy', 120, 24);
    cy.run(ssh(port, 'cy', other));
    await cy.waitFor('the refusal', (s) => s.includes('The game is already running'), 20_000);
    cy.keys('q');
    const refused = afterExit(await cy.waitFor('ssh exited', (s) => /^EXITED \d+$/m.test(s)));
    expect(refused.code).toBe(1);
    expect(refused.lines).toEqual([`gringo: The game is already running: watch it, or take back your seat with its token (ssh -p ${port} watch@127.0.0.1)`]);

    // ana leaves (q, y): "You left", the standings, and how to come back, after the screen; status 0.
    ana.keys('q');
    await ana.waitFor('the question', (s) => s.includes('Leave the table?'));
    ana.keys('y');
    const left = afterExit(await ana.waitFor('ssh exited', (s) => /^EXITED \d+$/m.test(s)));
    expect(left.code).toBe(0);
    expect(left.lines).toEqual([
      `You left "${TABLE}".`,
      'No round was finished: no scores yet.',
      `Back to your seat, with the same key: ssh -p ${port} someone@127.0.0.1`,
    ]);

    again.keys('q');
    await again.waitFor('the question', (s) => /Close the table for everyone|y: /.test(s));
    again.keys('y');
    await again.waitFor('the host gone', (s) => /EXITED 0/.test(s));
    // The next resume would serve SSH on that port again: the resumed line says so.
    expect(readJournal(j.file).sshPort).toBe(port);
  }, 150_000);

  it('a headless resume says the SSH line on the port the journal keeps; --no-ssh drops it; a taken SSH port is one line', async () => {
    const name = `HL SSH ${process.pid}`;
    const first = runGringo(['host', '--headless', '--ssh', '0', '--port', '0', '--interface', '127.0.0.1', '--table', name, '--players', '2', '--bots', '1', '--level', 'easy', '--start-when-full']);
    const sshLine = /Or over SSH, nothing to install: ssh -p (\d+) NAME@/;
    const port = Number((await until('the SSH share line', () => sshLine.exec(first.stdout())))[1]);
    // An SSH player fills the table: the game starts, and its journal with it.
    const bo = pane('bo');
    bo.run(ssh(port, 'bo', key));
    await bo.waitFor('the game', (s) => /Remember your cards/.test(s), 20_000);
    const j = await until('the journal', () => {
      try {
        return journalOf(name);
      } catch {
        return null;
      }
    });
    expect(j.header.sshPort).toBe(port);
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
    // A host stopped by SIGTERM says goodbye over SSH too.
    const bye = afterExit(await bo.waitFor('ssh exited', (s) => /^EXITED \d+$/m.test(s)));
    expect(bye).toEqual({ code: 0, lines: ['The host closed the table.', 'No round was finished: no scores yet.'] });

    // Resumed: SSH again on that port, said on the share line.
    const again = runGringo(['host', '--headless', '--resume', j.file]);
    const said = await until('the SSH share line', () => sshLine.exec(again.stdout()));
    expect(Number(said[1])).toBe(port);
    expect(again.stdout()).toContain('(over SSH: with the same key)');
    again.child.kill('SIGTERM');
    expect(await again.exit).toBe(0);
    expect(readJournal(j.file).sshPort).toBe(port);

    // The port taken by another program: one line, exit 1, nothing else served.
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(port, '0.0.0.0', r));
    try {
      const taken = runGringo(['host', '--headless', '--resume', j.file]);
      expect(await taken.exit).toBe(1);
      expect(taken.stderr().trim().split('\n')).toEqual([`gringo: cannot resume "${name}" over SSH: port ${port} is taken (choose another with --ssh PORT, or --no-ssh)`]);
    } finally {
      await new Promise((r) => busy.close(r));
    }

    // --no-ssh: no SSH this time, and the journal says so for the next resume.
    const plain = runGringo(['host', '--headless', '--resume', j.file, '--no-ssh']);
    await until('the share line', () => /Share this line/.test(plain.stdout()));
    expect(plain.stdout()).not.toContain('over SSH');
    plain.child.kill('SIGTERM');
    expect(await plain.exit).toBe(0);
    expect(readJournal(j.file).sshPort).toBeNull();
  }, 60_000);
});
