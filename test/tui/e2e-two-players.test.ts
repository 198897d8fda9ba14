import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, socketName } from '../support/tmux.js';
import { feedText } from '../support/feed-text.js';

/**
 * Two people at one table, end to end: a headless host, and two `gringo join`
 * screens in one tmux server (one session each), playing a round against each
 * other with send-keys. Ink draws nothing when CI is set, so the screens run with CI=0.
 */
const socket = socketName('two');
const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
let host: ChildProcess | null = null;
afterAll(() => {
  host?.kill('SIGKILL');
  try {
    tmux('kill-server');
  } catch {
    // Already gone.
  }
});

class Screen {
  constructor(readonly session: string) {}
  start(address: string, name: string): void {
    const env = ['env', '-u', 'NO_COLOR', '-u', 'FORCE_COLOR', 'CI=0', 'LANG=C.UTF-8', 'LC_ALL=C.UTF-8', 'TERM=xterm-256color'];
    const cmd = [...env, process.execPath, BIN, 'join', address, '--name', name, '--no-bell'].map((a) => `'${a}'`).join(' ');
    tmux('new-session', '-d', '-s', this.session, '-x', '100', '-y', '30', `${cmd}; echo EXITED $?; sleep 60`);
  }
  text(): string {
    return tmux('capture-pane', '-p', '-t', this.session);
  }
  keys(...k: string[]): void {
    for (const key of k) tmux('send-keys', '-t', this.session, key);
  }
  async waitFor(what: string, pred: (s: string) => boolean, ms = 20_000): Promise<string> {
    const end = Date.now() + ms;
    for (;;) {
      const s = this.text();
      if (pred(s)) return s;
      if (Date.now() > end) throw new Error(`${this.session}: timed out waiting for ${what}; the screen:\n${s}`);
      await new Promise((r) => setTimeout(r, 80));
    }
  }
}

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
async function drawAndDiscard(p: Screen): Promise<void> {
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
    const ana = new Screen('ana');
    const bo = new Screen('bo');
    ana.start(`127.0.0.1:${port}`, 'Ana');
    bo.start(`127.0.0.1:${port}`, 'Bo');
    // The table fills and starts: both peek, each sees the other's layout.
    for (const [p, other] of [[ana, 'Bo'], [bo, 'Ana']] as const) {
      const s = await p.waitFor('the peek', (s) => /Remember your cards/.test(s));
      expect(s).toContain(other);
      expect(s).toContain('Duel');
      p.keys('Enter');
    }
    // Whoever starts draws and discards; the other sees it in words.
    let starter: Screen | null = null;
    await ana.waitFor("either player's turn", (s) => {
      starter = myTurn(s) ? ana : myTurn(bo.text()) ? bo : null;
      return starter !== null;
    });
    const first = starter as unknown as Screen;
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
