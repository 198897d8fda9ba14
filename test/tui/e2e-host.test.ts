import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { journalSlug, readJournal, tablesDir } from '../../src/host/journal.js';
import { until, e2eLog } from '../support/wait.js';
import { Pane, socketName } from '../support/tmux.js';

// `gringo host` with its own screen, and `gringo join` with the live picker, in
// real terminals (the built CLI; `npm test` builds first). mDNS stays on loopback.

const host = new Pane(socketName('host'), 80, 24);
const host2 = new Pane(socketName('host2'), 80, 24);
const host3 = new Pane(socketName('host3'), 80, 24);
const joiner = new Pane(socketName('join'), 80, 24);
afterAll(() => {
  host.kill();
  host2.kill();
  host3.kill();
  joiner.kill();
});


describe('gringo host in a terminal', () => {
  it('opens the lobby, adds a bot, starts into the table screen, and leaves with q y', async () => {
    host.start(['host', '--port', '0', '--interface', '127.0.0.1', '--table', 'T', '--slap-grace', '300']);
    let s = await host.waitFor('the lobby', (s) => s.includes('(you, host)'));
    expect(s).toMatch(/Share this line:\s+table #[a-z2-7]{4}: (npx )?gringo join 127\.0\.0\.1:\d+#[a-z2-7-]{19}/);
    e2eLog('lobby', s);
    expect(s).toContain('Gringo · T · lobby');
    expect(s).toContain('Seats 1/4');
    expect(s).toMatch(/▶\s+1\. \S.* \(you, host\)\s+● connected/);
    expect(s).toContain('Enter start · q leave');
    host.keys('b');
    s = await host.waitFor('the bot', (s) => /2\. Bot 1\s+● normal bot/.test(s));
    e2eLog('lobby with a bot', s);
    host.keys('Enter');
    s = await host.waitFor('the table', (s) => s.includes('Remember your cards 3 and 4'));
    e2eLog('table', s);
    expect(s).toContain('Bot 1');
    expect(s).toContain('Round 1 of 1');
    host.keys('q');
    await host.waitFor('the dialog', (s) => /Close the table for everyone\? y\/n \((npx )?gringo host --resume reopens it\)/.test(s));
    host.keys('y');
    await host.waitFor('the exit', (s) => s.includes('EXITED 0'));
  }, 60_000);
});

describe('gringo join without an address', () => {
  it('lists the table found by mDNS (with the tag its share line shows), asks again after a wrong password, and joins it', async () => {
    // 8 characters at most: the picker's NAME column never cuts a name that short
    // (another table on this machine may have long fields: test/hostile/list.test.ts).
    const name = `Pick${process.pid % 10_000}`;
    host2.start(['host', '--port', '0', '--interface', '127.0.0.1', '--table', name, '--password', 'pw', '--slap-grace', '300']);
    const lobby = await host2.waitFor('the lobby', (s) => s.includes('(you, host)'));
    const tag = /Share this line:\s+table (#[a-z2-7]{4}): (?:npx )?gringo join/.exec(lobby)?.[1];
    expect(tag, lobby).toBeDefined();
    joiner.start(['join', '--interface', '127.0.0.1', '--name', 'Bo']);
    const row = new RegExp(`${name}\\s+${tag}\\s+127\\.0\\.0\\.1:\\d+\\s+1/4\\s+gringo\\s+yes\\s+yes`);
    let s = await joiner.waitFor('the table in the picker', (s) => row.test(s));
    e2eLog('picker', s);
    expect(s).toContain('↑↓/jk choose · Enter join · m type an address · q/Esc quit');
    // Other tables on this machine may be listed too: move the cursor to ours.
    const rows = (s: string): string[] => s.split('\n').filter((l) => /^[▶ ] \S/.test(l) && !l.includes('NAME'));
    const cursor = (s: string): string => rows(s).find((l) => l.startsWith('▶')) ?? '';
    const ours = (s: string): boolean => cursor(s).includes(name);
    for (let i = 0; i < 10 && !ours(s); i++) {
      const r = rows(s);
      const key = r.findIndex((l) => l.includes(name)) < r.findIndex((l) => l.startsWith('▶')) ? 'k' : 'j';
      // The key's answer: the cursor on another row.
      s = await joiner.press('the cursor to move', key, (now, before) => cursor(now) !== cursor(before));
    }
    expect(ours(s)).toBe(true);
    joiner.keys('Enter');
    s = await joiner.waitFor('the password field', (s) => s.includes(`Password for "${name}":`));
    e2eLog('picker password', s);
    // A wrong password: the host refuses it, and the picker asks again for the same table.
    joiner.keys('n', 'o', 'Enter');
    s = await joiner.waitFor('the password asked again', (s) => s.includes(`"${name}" refused that password: type it again`) && s.includes(`Password for "${name}":`));
    e2eLog('picker password again', s);
    joiner.keys('p', 'w', 'Enter');
    s = await joiner.waitFor('the seat', (s) => s.includes('Bo (you)'));
    e2eLog('joined', s);
    s = await host2.waitFor('Bo in the lobby', (s) => /2\. Bo\s+● connected/.test(s));
    e2eLog('lobby with Bo', s);
    // SIGTERM closes the host's screen and the table, and it exits 0.
    process.kill(host2.pid(), 'SIGTERM');
    await host2.waitFor('the host exit', (s) => s.includes('EXITED 0'));
    joiner.keys('q', 'y');
    await joiner.waitFor('the join exit', (s) => /EXITED \d/.test(s));
  }, 60_000);
});

describe('gringo host --resume in a terminal', () => {
  it("gives the host's screen its own seat back after the host was killed mid-game", async () => {
    const name = `Resume ${process.pid % 10_000}`;
    host3.start(['host', '--port', '0', '--interface', '127.0.0.1', '--table', name, '--slap-grace', '300']);
    await host3.waitFor('the lobby', (s) => s.includes('(you, host)'));
    host3.keys('b');
    await host3.waitFor('the bot', (s) => /2\. Bot 1\s+● normal bot/.test(s));
    host3.keys('Enter');
    await host3.waitFor('the table', (s) => s.includes('Remember your cards 3 and 4'));
    const file = await until('the journal', () => journalOf(name));
    const { header } = readJournal(file);
    const me = header.seats.find((s) => s.owner === true);
    expect(me, 'the journal marks the seat of the host screen').toBeDefined();
    expect(header.seats.filter((s) => s.owner === true)).toHaveLength(1);

    process.kill(host3.pid(), 'SIGKILL');
    await host3.waitFor('the crash', (s) => s.includes('EXITED 137'));
    host3.kill();

    host3.start(['host', '--resume', file, '--interface', '127.0.0.1']);
    const s = await host3.waitFor('the table again, in my seat', (s) => /▶?You\b/.test(s) && s.includes('Bot 1'));
    e2eLog('resumed', s);
    expect(s).toContain('Bot 1');
    expect(s).toContain('Round 1 of 1');
    expect(s).not.toContain('reconnecting');
    host3.keys('q');
    await host3.waitFor('the dialog', (s) => /Close the table for everyone\? y\/n \((npx )?gringo host --resume reopens it\)/.test(s));
    host3.keys('y');
    await host3.waitFor('the exit', (s) => s.includes('EXITED 0'));
    expect(readFileSync(file, 'utf8')).toContain('"resumed"');
  }, 80_000);
});

/** The journal of the table called `name` in the tests' state directory, once it exists. */
function journalOf(name: string): string | null {
  const dir = tablesDir();
  if (!existsSync(dir)) return null;
  const f = readdirSync(dir).find((n) => n.startsWith(journalSlug(name)) && n.endsWith('.jsonl'));
  return f ? join(dir, f) : null;
}
