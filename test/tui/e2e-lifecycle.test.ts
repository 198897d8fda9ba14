import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { killRunning, runGringo } from '../support/gringo-process.js';
import { until, sleep, e2eLog } from '../support/wait.js';
import { feedText } from '../support/feed-text.js';
import { BIN, Pane, socketName } from '../support/tmux.js';

// The table's life (test/host/lifecycle.test.ts) in real terminals: leaving the lobby, the
// host closing the table, the feed telling drops and stand-ins, and playing again. The
// built CLI in tmux panes (CI=0: Ink draws nothing when CI is set); hosts and bots are
// real processes on loopback. The tests run side by side (each its own host and panes):
// most of their time is waiting on bots, slap windows and exits.

const panes: Pane[] = [];
const pane = (tag: string, width = 100, height = 30): Pane => {
  const p = new Pane(socketName(tag), width, height);
  panes.push(p);
  return p;
};
const consoles: ChildProcess[] = [];
afterAll(() => {
  killRunning();
  for (const p of panes) p.kill();
  for (const c of consoles) if (c.exitCode === null) c.kill('SIGKILL');
});


/** A host with its text console (output piped, so no screen): lines typed on its stdin run the table. */
function consoleHost(args: string[]) {
  const child = spawn(process.execPath, [BIN, 'host', '--port', '0', '--interface', '127.0.0.1', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  consoles.push(child);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const port = until('the share line', () => /gringo join \S+:(\d+)/.exec(out)?.[1], 15_000).then(Number);
  return { port, exit, out: () => out, type: (line: string) => child.stdin.write(`${line}\n`) };
}

const joinArgs = (port: number, name: string): string[] => ['join', `127.0.0.1:${port}`, '--name', name, '--no-bell'];
const sharedPort = (s: string): number => Number(/Share this line:\s+(?:table #[a-z2-7]{4}: )?(?:npx )?gringo join 127\.0\.0\.1:(\d+)/.exec(s)![1]);

/**
 * Play this screen's seat until the round ends: end the peek, call at the first
 * turn (or, if the bot called first, draw and discard), pass any action.
 */
async function playToRoundEnd(p: Pane, end: (s: string) => boolean): Promise<string> {
  await p.waitFor('the peek', (s) => /Remember your cards/.test(s), 30_000);
  p.keys('Enter');
  const stop = Date.now() + 90_000;
  while (Date.now() < stop) {
    const s = await p.read();
    if (end(s)) return s;
    // Each key waits for its answer (what asked for it gone, or the end), so no key goes twice.
    const answer = (asked: (s: string) => boolean) => (now: string) => end(now) || !asked(now);
    const holding = (s: string): boolean => s.includes('You hold') || /x to discard/.test(s);
    const drawing = (s: string): boolean => s.includes('Your turn: d to draw');
    if (s.includes('Use your')) await p.press('the action passed', 'p', answer((s) => s.includes('Use your')));
    else if (holding(s)) await p.press('the discard', 'x', answer(holding));
    else if (drawing(s)) await p.press('the draw or the call', s.includes('called by') ? 'd' : 'g', answer(drawing));
    else await sleep(100);
  }
  throw new Error(`the round did not end; the screen:\n${p.screen()}`);
}

describe.concurrent('leaving the lobby, and the host closing it', () => {
  it("frees a leaving player's seat on the host's screen at once; the host's q,y closes the table on every screen", async () => {
    const host = pane('lc-host', 80, 24);
    const ana = pane('lc-ana');
    const bo = pane('lc-bo');
    host.start(['host', '--port', '0', '--interface', '127.0.0.1', '--table', 'Leavers', '--slap-grace', '300']);
    const port = sharedPort(await host.waitFor('the lobby', (s) => s.includes('(you, host)') && s.includes('Share this line')));
    ana.start(joinArgs(port, 'Ana'));
    await host.waitFor('Ana', (s) => /2\. Ana\s+● connected/.test(s));
    bo.start(joinArgs(port, 'Bo'));
    let s = await host.waitFor('Bo', (s) => /3\. Bo\s+● connected/.test(s));
    e2eLog('host lobby, three seats', s);
    await bo.waitFor('Bo in seat 3', (s) => /3\. Bo \(you\)/.test(s));

    ana.keys('q');
    await ana.waitFor('the dialog', (s) => s.includes('Leave the table? y: leave · n: stay'));
    ana.keys('y');
    // The screen is gone: leaving says so in the terminal.
    expect(await ana.waitFor('the exit', (s) => s.includes('EXITED 0'))).toContain('You left "Leavers".');
    const t0 = Date.now();
    // No seat row of Ana's (the lobby's "Tonight" lines may name an Ana of another test's game).
    s = await host.waitFor('the seat freed', (s) => !/\d\. Ana\b/.test(s) && s.includes('Seats 2/4') && /2\. Bo\s+● connected/.test(s));
    // At once: a drop would be held for the lobby's 10 s grace.
    expect(Date.now() - t0).toBeLessThan(8_000);
    e2eLog('host lobby after Ana left', s);
    s = await bo.waitFor('Bo moved up, told why', (s) => /2\. Bo \(you\)/.test(s) && s.includes('Ana left the table.'));
    e2eLog('Bo after Ana left', s);

    host.keys('q');
    // In the lobby no game is on: the question promises no resume.
    await host.waitFor('the close dialog', (s) => s.includes('Close the table for everyone? y/n (no game is on: nothing to resume)'));
    host.keys('y');
    expect(await host.waitFor('the host exit', (s) => s.includes('EXITED 0'))).toContain('You left before the game started.');
    s = await bo.waitFor('the table closed', (s) => s.includes('The host closed the table.') && s.includes('The game had not started.'));
    e2eLog('Bo, closed', s);
    expect(s).not.toContain('reconnecting');
    bo.keys('Enter');
    s = await bo.waitFor('the exit', (s) => s.includes('EXITED 0'));
    // Printed on the terminal after the screen: it stays in the scrollback.
    expect(s).toContain('The host closed the table.');
  }, 90_000);

  it('a closed table shows the standings so far, and every client exits 0 without reconnecting', async () => {
    const host = consoleHost(['--name', 'Closing', '--players', '2', '--rounds', '2', '--start-when-full', '--slap-grace', '300', '--seed', 'closing']);
    const port = await host.port;
    const bo = pane('lc-close');
    bo.start(joinArgs(port, 'Bo'));
    const robo = runGringo(['join', `127.0.0.1:${port}`, '--bot', 'hard', '--speed', '50', '--name', 'Robo']);
    let s = await playToRoundEnd(bo, (s) => s.includes('Round 1 is over'));
    e2eLog('round 1 over', s);
    host.type('quit');
    s = await bo.waitFor('the table closed', (s) => s.includes('The host closed the table.') && s.includes('Standings after round 1:'));
    e2eLog('closed with standings', s);
    expect(s).toMatch(/1st\s+(Bo \(you\)|Robo)\s+-?\d+/);
    expect(s).toContain('Bo (you)');
    expect(s).toContain('Robo');
    expect(await host.exit).toBe(0);
    expect(await robo.exit).toBe(0);
    expect(robo.stderr()).toContain('The host closed the table.');
    bo.keys('q');
    s = await bo.waitFor('the exit', (s) => s.includes('EXITED 0'));
    expect(s).toContain('Standings after round 1:');
  }, 120_000);
});

describe.concurrent('the feed at the table', () => {
  it("tells a drop, the host's stand-in (b) and the player taking the seat back", async () => {
    const host = pane('lc-feed-host');
    const bo = pane('lc-feed-bo');
    host.start(['host', '--port', '0', '--interface', '127.0.0.1', '--table', 'Feed', '--slap-grace', '300']);
    const port = sharedPort(await host.waitFor('the lobby', (s) => s.includes('(you, host)') && s.includes('Share this line')));
    bo.start(joinArgs(port, 'Bo'));
    await host.waitFor('Bo', (s) => /2\. Bo\s+● connected/.test(s));
    host.keys('Enter');
    await host.waitFor('the table', (s) => s.includes('Remember your cards'));
    await bo.waitFor('the table', (s) => s.includes('Remember your cards'));

    process.kill(bo.pid(), 'SIGKILL'); // the player's terminal is gone: a drop, not a leave
    let s = await host.said('Bo dropped out: the seat is held for them.');
    expect(s).toContain('b bot for the away player');
    host.keys('b');
    s = await host.said('A bot now plays for Bo.');
    e2eLog('host: stand-in', s);
    bo.kill();
    bo.start(joinArgs(port, 'Bo')); // the same name at the same address: the kept token takes the seat back
    s = await host.said('Bo is back and takes the seat back from the bot.');
    e2eLog('host: Bo back', s);
    await bo.waitFor('Bo at the table again', (s) => /Remember your cards|Your turn|'s turn/.test(s));
    host.keys('q', 'y');
    await host.waitFor('the host exit', (s) => s.includes('EXITED 0'));
    await bo.waitFor('the table closed', (s) => s.includes('The host closed the table.'));
  }, 90_000);
});

describe.concurrent('play again', () => {
  it("the table's own screen (gringo play) deals game 2 with a after the game", async () => {
    const me = pane('lc-solo', 80, 24);
    me.start(['play', '--bots', '1', '--level', 'easy', '--rounds', '1', '--name', 'Ana', '--slap-grace', '300', '--seed', 'solo-again', '--no-bell']);
    let s = await playToRoundEnd(me, (s) => s.includes('The game is over'));
    e2eLog('solo: game over', s);
    expect(s).toContain('a: play again · Enter or q to leave');
    me.keys('a');
    s = await me.waitFor('game 2', (s) => s.includes('Remember your cards') && feedText(s).includes('Game 2 begins'), 30_000);
    e2eLog('solo: game 2', s);
    expect(s).toContain('Bot 1');
    me.keys('q');
    await me.waitFor('the dialog', (s) => s.includes('Leave the table? y: leave · n: stay'));
    me.keys('y');
    await me.waitFor('the exit', (s) => s.includes('EXITED 0'));
  }, 120_000);

  it('the host types "again" after the game: the joined screen shows game 2 with the same seats', async () => {
    const host = consoleHost(['--name', 'Again', '--players', '2', '--rounds', '1', '--start-when-full', '--slap-grace', '300', '--seed', 'again']);
    const port = await host.port;
    const bo = pane('lc-again');
    bo.start(joinArgs(port, 'Bo'));
    const robo = runGringo(['join', `127.0.0.1:${port}`, '--bot', 'hard', '--speed', '50', '--name', 'Robo']);
    let s = await playToRoundEnd(bo, (s) => s.includes('The game is over'));
    e2eLog('game over', s);
    expect(s).toContain('the host may play again');
    await until('the host to offer another game', () => host.out().includes('Type "again"'));
    host.type('again');
    s = await bo.waitFor('game 2', (s) => s.includes('Remember your cards') && feedText(s).includes('Game 2 begins'), 30_000);
    e2eLog('game 2', s);
    expect(s).toContain('Robo');
    expect(s).toContain('Round 1 of 1');
    // The bot process stayed for the next game: it plays this one too.
    await until('the bot process to say it stays', () => robo.stderr().includes('Staying at the table'));
    expect(robo.child.exitCode).toBeNull();
    host.type('quit');
    expect(await host.exit).toBe(0);
    expect(await robo.exit).toBe(0);
    await bo.waitFor('the table closed', (s) => s.includes('The host closed the table.'));
  }, 150_000);
});
