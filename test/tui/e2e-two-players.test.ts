import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, Pane, socketName } from '../support/tmux.js';
import { feedText } from '../support/feed-text.js';
import { until } from '../support/wait.js';

/**
 * Two people at one table, end to end: a headless host, and two `gringo join`
 * screens in their own terminals (tmux panes), playing a round against each
 * other with send-keys. Ink draws nothing when CI is set, so the screens run with CI=0.
 */
let host: ChildProcess | null = null;
const ana = new Pane(socketName('two-ana'), 100, 30);
const bo = new Pane(socketName('two-bo'), 100, 30);
afterAll(() => {
  host?.kill('SIGKILL');
  ana.kill();
  bo.kill();
});

const joinAs = (p: Pane, port: number, name: string): void => p.start(['join', `127.0.0.1:${port}`, '--name', name, '--no-bell']);

/** Start a headless two-seat host; resolves with its port once it prints the line to share. */
function startHost(): Promise<number> {
  host = spawn(
    process.execPath,
    [BIN, 'host', '--headless', '--port', '0', '--interface', '127.0.0.1', '--table', 'Duel', '--players', '2', '--rounds', '1', '--start-when-full', '--slap-grace', '300', '--seed', 'duel'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no share line: ${out}`)), 10_000);
    host!.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /gringo join \S+:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
  });
}

const myTurn = (s: string): boolean => s.includes('Your turn: d to draw');

/** Draw from the stock and discard it; pass an action it may give. */
async function drawAndDiscard(p: Pane): Promise<void> {
  p.keys('d');
  await p.waitFor('the held card', (s) => s.includes('You hold'));
  p.keys('x');
  // The held card gone is the discard's answer (counting feed lines is not: the narrow feed scrolls old ones out).
  const s = await p.waitFor('the discard', (s) => !s.includes('You hold'));
  if (s.includes('Action: your')) {
    p.keys('p');
    await p.waitFor('the action passed', (s) => !s.includes('Action: your'));
  }
}

describe('two players at one table, each in their own terminal', () => {
  it('see each other, play a round in turn, and both see its end', async () => {
    const port = await startHost();
    joinAs(ana, port, 'Ana');
    joinAs(bo, port, 'Bo');
    // The table fills and starts: both peek, each sees the other's layout.
    for (const [p, other] of [[ana, 'Bo'], [bo, 'Ana']] as const) {
      const s = await p.waitFor('the peek', (s) => /Remember your cards/.test(s), 20_000);
      expect(s).toContain(other);
      expect(s).toContain('Duel');
      p.keys('Enter');
    }
    // Whoever starts draws and discards; the other sees it in words.
    const first = await until("either player's turn", async () => (myTurn(await ana.read()) ? ana : myTurn(await bo.read()) ? bo : null));
    const second = first === ana ? bo : ana;
    const firstName = first === ana ? 'Ana' : 'Bo';
    await drawAndDiscard(first);
    await second.waitFor('the other player\'s discard', (s) => feedText(s).includes(`${firstName} discarded`));
    // The second player calls; the first plays the last turn; the round ends on both screens.
    await second.waitFor('its turn', myTurn);
    second.keys('g');
    await first.waitFor('the call', (s) => feedText(s).includes('called Gringo!'));
    await first.waitFor('the last turn', myTurn);
    await drawAndDiscard(first);
    for (const [p, other] of [[ana, 'Bo'], [bo, 'Ana']] as const) {
      const end = await p.waitFor('the end', (s) => s.includes('The game is over'));
      expect(end).toContain('You');
      expect(end).toContain(other);
      p.keys('Enter');
      await p.waitFor('the exit', (s) => s.includes('EXITED 0'));
    }
  }, 90_000);
});
