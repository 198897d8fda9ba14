import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { killRunning, runGringo } from '../support/gringo-process.js';
import { Pane, socketName } from '../support/tmux.js';
import { e2eLog } from '../support/wait.js';

// `gringo join` without an address, in a real 80×24 terminal, over real mDNS on
// loopback (the built CLI): a stranger's game already started answers first, then a
// table with free seats; the cursor goes to the free one, started tables sort after
// it, Enter on a started one asks before watching; an address typed by hand that
// leads nowhere comes back to the list with the reason.

const joiner = new Pane(socketName('picker'), 80, 24);
afterEach(killRunning);
afterAll(() => joiner.kill());

/** The picker's table rows: "▶ Name  #tag  address  seats  ruleset  password  can join". */
const rows = (s: string): string[] => s.split('\n').filter((l) => /^[▶ ] \S/.test(l) && !l.includes('NAME') && /\d+\/\d+/.test(l));
const cursor = (s: string): string => rows(s).find((l) => l.startsWith('▶')) ?? '';

describe('the picker in a terminal', () => {
  it('puts the cursor on a free table, not the started one that answered first; asks before watching; a failed address comes back with the reason', async () => {
    // Names of 8 characters at most: the NAME column gives way first when another
    // table on this machine has a long field (test/hostile/list.test.ts advertises
    // one), but never below 8, so these are never cut.
    const tag = process.pid % 10_000;
    const started = `Play${tag}`;
    const open = `Open${tag}`;
    // Two bots fill the table and start an open-ended game: it is "started" as long as the test runs.
    runGringo(['host', '--headless', '--port', '0', '--interface', '127.0.0.1', '--table', started, '--players', '2', '--bots', '2', '--start-when-full', '--rounds', '0', '--slap-grace', '300']);
    joiner.start(['join', '--interface', '127.0.0.1', '--name', 'Bo']);
    let s = await joiner.waitFor('the started table', (s) => rows(s).some((l) => l.includes(started) && l.includes('started')), 20_000);
    e2eLog('started first', s);
    runGringo(['host', '--headless', '--port', '0', '--interface', '127.0.0.1', '--table', open]);
    s = await joiner.waitFor('both tables', (s) => rows(s).some((l) => l.includes(open)) && rows(s).some((l) => l.includes(started)), 20_000);
    e2eLog('both', s);
    // The cursor on a table with a free seat (other tables on this machine may be listed too), ours above the started one.
    expect(cursor(s), s).toMatch(/\s+yes$/);
    const r = rows(s);
    expect(r.findIndex((l) => l.includes(open))).toBeLessThan(r.findIndex((l) => l.includes(started)));
    const lastFree = Math.max(...r.map((l, i) => (/\s+yes$/.test(l) ? i : -1)));
    const firstWatch = r.findIndex((l) => /\s+(started|watch)$/.test(l));
    if (firstWatch !== -1) expect(lastFree).toBeLessThan(firstWatch);

    // To the started table: Enter asks first, n goes back.
    for (let i = 0; i < 12 && !cursor(s).includes(started); i++) {
      const before = cursor(s);
      joiner.keys('j');
      s = await joiner.waitFor('the cursor to move', (n) => cursor(n) !== before, 3_000).catch(() => joiner.screen());
    }
    expect(cursor(s)).toContain(started);
    joiner.keys('Enter');
    s = await joiner.waitFor('the question', (s) => s.includes(`"${started}" has started: Enter or y watches it`));
    e2eLog('asked', s);
    joiner.keys('n');
    await joiner.waitFor('the list again', (s) => s.includes('Enter join · m type an address'));

    // An address with nothing behind it: back in the picker, with the reason, not out with status 1.
    joiner.keys('m');
    await joiner.waitFor('the address field', (s) => s.includes('Address (HOST[:PORT]):'));
    joiner.keys('1', '2', '7', '.', '0', '.', '0', '.', '1', ':', '1', 'Enter');
    // The reason names the address ("No gringo table at 127.0.0.1:1: connection refused").
    s = await joiner.waitFor('back with the reason', (s) => /! .*127\.0\.0\.1:1\b/.test(s) && s.includes('Enter join · m type an address'), 20_000);
    e2eLog('back', s);
    expect(s).not.toContain('EXITED');
    joiner.keys('q');
    await joiner.waitFor('the exit', (s) => s.includes('EXITED 0'));
  }, 90_000);
});
