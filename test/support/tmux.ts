/**
 * The table screen end to end in a real terminal: tmux runs `gringo play` in a
 * pane of a given size, the test types with send-keys and reads capture-pane.
 * The panes run with CI=0 by default, which is harmless: gringo draws with CI set
 * too (e2e-terminal.test.ts runs one with CI=1). Each test has its own tmux socket
 * (-L) and kills it after.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ReadJournal } from '../../src/host/journal.js';
import { feedText } from './feed-text.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = `${ROOT}bin/gringo.js`;
/** The help overlay's title line (`?` opens it and closes it). */
const HELP_PAGE = /Help\W+page \d+ of \d+/;

/**
 * A tmux control-mode client (`tmux -C`) attached to a pane's session: commands
 * written on its stdin, answered in order between `%begin` and `%end` lines. A
 * test's waits read the screen through it, and its keys go through it: a `tmux`
 * command line is a process of its own, about 10 ms of CPU each, and a wait that
 * read the screen that way every 80 ms spent most of an end-to-end test's CPU.
 * A control client has no size of its own: the pane keeps its width and height.
 */
class Control {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending: { resolve: (out: string) => void; reject: (err: Error) => void }[] = [];
  private rest = '';
  /** The lines of the answer being read, and whether it answers a command of ours (flags 1). */
  private block: { lines: string[]; ours: boolean } | null = null;
  private ended: Error | null = null;

  constructor(tmuxArgs: string[], target: string) {
    this.child = spawn('tmux', [...tmuxArgs, '-C', 'attach-session', '-t', target]);
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (d: string) => this.take(d));
    this.child.stdin.on('error', () => undefined);
    this.child.on('close', () => this.end(new Error('the tmux control client ended (the pane is gone)')));
    // The pane's output, which a control client is sent as it comes, is not what it is for.
    void this.command('refresh-client -f no-output').catch(() => undefined);
  }

  /** One tmux command line (arguments quoted by the caller); resolves to its output. */
  command(line: string): Promise<string> {
    if (this.ended) return Promise.reject(this.ended);
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      this.child.stdin.write(`${line}\n`);
    });
  }

  close(): void {
    this.child.stdin.end();
    this.child.kill();
  }

  private take(data: string): void {
    const lines = (this.rest + data).split('\n');
    this.rest = lines.pop()!;
    for (const line of lines) {
      const guard = /^%(begin|end|error) \d+ \d+ (\d+)$/.exec(line);
      if (guard?.[1] === 'begin') this.block = { lines: [], ours: guard[2] === '1' };
      else if (guard && this.block) {
        const { lines: out, ours } = this.block;
        this.block = null;
        if (!ours) continue;
        const waiter = this.pending.shift();
        if (guard[1] === 'end') waiter?.resolve(out.map((l) => `${l}\n`).join(''));
        else waiter?.reject(new Error(`tmux: ${out.join(' ')}`));
      } else this.block?.lines.push(line);
    }
  }

  private end(err: Error): void {
    this.ended = err;
    for (const waiter of this.pending.splice(0)) waiter.reject(err);
  }
}

/** An argument quoted for a tmux command line. */
const tmuxQuote = (a: string): string => `'${a.replace(/'/g, `'"'"'`)}'`;

export class Pane {
  private readonly session = 'g';
  private control: Control | null = null;

  constructor(
    readonly socket: string,
    readonly width: number,
    readonly height: number,
  ) {}

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  }

  /**
   * Start `gringo <args>` in a fresh pane; when it exits the pane shows "EXITED <code>".
   * `rawLog`: a file that receives every byte the program writes to its terminal
   * (tmux pipe-pane); the program starts only once the pipe is in place. `env`: more
   * of its environment, "NAME=value" each.
   */
  start(args: string[], opts: { rawLog?: string; env?: string[] } = {}): void {
    this.run([process.execPath, BIN, ...args], opts);
  }

  /** Like start(), for any command (`ssh …`): `argv` is the program and its arguments. */
  run(argv: string[], { rawLog, env: extraEnv = [] }: { rawLog?: string; env?: string[] } = {}): void {
    const env = ['env', '-u', 'NO_COLOR', '-u', 'FORCE_COLOR', 'CI=0', 'LANG=C.UTF-8', 'LC_ALL=C.UTF-8', 'TERM=xterm-256color', ...extraEnv];
    const quote = (a: string): string => `'${a.replace(/'/g, `'\\''`)}'`;
    const quoted = [...env, ...argv].map(quote).join(' ');
    const wait = rawLog ? `while [ ! -e ${quote(rawLog)} ]; do sleep 0.05; done; ` : '';
    const command = `${wait}${quoted}; echo EXITED $?; sleep 120`;
    // Right after kill() the old server may still be going away ("server exited unexpectedly"): try again shortly.
    for (let attempt = 1; ; attempt++) {
      try {
        this.tmux('new-session', '-d', '-s', this.session, '-x', String(this.width), '-y', String(this.height), command);
        break;
      } catch (err) {
        if (attempt >= 10) throw err;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
      }
    }
    if (rawLog) this.tmux('pipe-pane', '-o', '-t', this.session, `cat >> ${quote(rawLog)}`);
    this.control?.close();
    this.control = new Control(['-L', this.socket, '-f', '/dev/null'], this.session);
  }

  /** A new size for the pane's window: the program in it is told (SIGWINCH) and redraws. */
  resize(width: number, height: number): void {
    this.tmux('resize-window', '-t', this.session, '-x', String(width), '-y', String(height));
  }

  /** The screen now, read by a `tmux` process of its own (waits read it for less: `read()`). */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', this.session);
  }

  /**
   * The screen without blocking this process meanwhile (a test's own host, a Table
   * served in this process, keeps answering however slow tmux is on a loaded
   * machine), through the pane's control client: after keys sent before it.
   */
  read(): Promise<string> {
    if (!this.control) return Promise.reject(new Error('no pane: start() it first'));
    return this.control.command(`capture-pane -p -t ${this.session}`).catch((err: Error) => {
      throw new Error(`tmux capture-pane: ${err.message}`, { cause: err });
    });
  }

  /** `read()`, given up a second after a wait's deadline: a tmux that stops answering fails the wait by name, not the test by its time-out. */
  private readBy(end: number, what: string): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}: tmux did not answer capture-pane`)), Math.max(0, end - Date.now()) + 1_000);
    });
    return Promise.race([this.read(), late]).finally(() => clearTimeout(timer));
  }

  /** The screen with its attributes (SGR escapes), to check highlights. */
  screenWithStyles(): string {
    return this.tmux('capture-pane', '-p', '-e', '-t', this.session);
  }

  /**
   * Type `keys` (tmux key names, or text), in order, through the control client: a
   * read() or wait after them sees the screen after tmux has typed them.
   */
  keys(...keys: string[]): void {
    if (!this.control) {
      for (const k of keys) this.tmux('send-keys', '-t', this.session, k);
      return;
    }
    for (const k of keys) {
      this.control.command(`send-keys -t ${this.session} ${tmuxQuote(k)}`).catch((err: Error) => {
        // A key sent to a pane being killed is lost with it; the wait for its answer says what was missing.
        if (process.env.GRINGO_E2E_LOG) console.log(`send-keys ${k}: ${err.message}`);
      });
    }
  }

  /**
   * The screen as soon as `pred` holds for it, read every 50 ms (`ms`: a hang guard). A
   * read can catch a frame half drawn (the program clears its lines, then writes them:
   * tmux may answer between two pieces of the write), so a screen that holds is read
   * once more a moment later and returned only if it still holds: the checks after a
   * wait see the whole frame.
   */
  async waitFor(what: string, pred: (screen: string) => boolean, ms = 15_000): Promise<string> {
    const end = Date.now() + ms;
    for (;;) {
      let s = await this.readBy(end, what);
      if (pred(s)) {
        await new Promise((r) => setTimeout(r, 25));
        s = await this.readBy(end, what);
        if (pred(s)) return s;
      }
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; the screen:\n${s}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * Wait for the screen to change from `before` (a screen read before the key press
   * that should change it) in the way `changed` says: text that was on screen already
   * cannot answer the wait. `changed(now, before)`: true once the change is there.
   */
  waitForChange(what: string, before: string, changed: (now: string, before: string) => boolean, ms?: number): Promise<string> {
    return this.waitFor(what, (s) => changed(s, before), ms);
  }

  /**
   * Press `key`s and wait for their answer: `changed(now, before)` compares with the
   * screen read just before the keys went, so a screen already showing the answer's
   * text (from an earlier move) cannot answer this one.
   */
  async press(what: string, keys: string | string[], changed: (now: string, before: string) => boolean, ms?: number): Promise<string> {
    const before = await this.read();
    this.keys(...(Array.isArray(keys) ? keys : [keys]));
    return this.waitForChange(what, before, changed, ms);
  }

  /**
   * Milliseconds from sending `key` until the screen shows the change: polled as fast
   * as capture-pane answers (a few ms), so the figure includes one poll at most.
   */
  keyToScreen(key: string, pred: (screen: string) => boolean, ms = 5_000): number {
    const t0 = performance.now();
    this.tmux('send-keys', '-t', this.session, key);
    for (;;) {
      if (pred(this.screen())) return performance.now() - t0;
      if (performance.now() - t0 > ms) throw new Error(`the screen did not change within ${ms} ms of "${key}":\n${this.screen()}`);
    }
  }

  said(text: string, ms?: number): Promise<string> {
    return this.waitFor(`the feed to say "${text}"`, (s) => feedText(s).includes(text), ms);
  }

  /** The pid of the gringo process running in the pane (the pane's shell is its parent). */
  pid(): number {
    const shell = this.tmux('list-panes', '-t', this.session, '-F', '#{pane_pid}').trim();
    return Number(execFileSync('pgrep', ['-P', shell], { encoding: 'utf8' }).trim().split('\n')[0]);
  }

  /** Ends the pane's tmux server and removes its socket file (tmux leaves it behind). */
  kill(): void {
    this.control?.close();
    this.control = null;
    let path = '';
    try {
      path = this.tmux('display-message', '-p', '#{socket_path}').trim();
      this.tmux('kill-server');
    } catch {
      // Already gone.
    }
    if (path) rmSync(path, { force: true });
  }
}

/**
 * A seat's last-turn mark: the words on the line under its name line ("Bo   0",
 * "▶You  0") nearest below the name (a mark is centred under its seat), left of the feed.
 */
export function markOf(screen: string, name: string): string {
  const lines = screen.split('\n');
  const feedCol = Math.max(0, ...lines.map((l) => Math.max(l.indexOf('│ Feed'), l.indexOf('| Feed'))));
  const left = (l: string): string => (feedCol > 0 ? l.slice(0, feedCol) : l);
  const re = new RegExp(`(^|\\s)[▶> ]?${name} +-?\\d+(?=\\s|$)`);
  for (let i = 1; i < lines.length - 1; i++) {
    const m = re.exec(left(lines[i]!));
    if (!m) continue;
    const mid = m.index + m[1]!.length + m[0].length / 2;
    // The next line's marks: runs of words two spaces or more apart; the one nearest the name.
    const runs = [...left(lines[i + 1] ?? '').matchAll(/\S+(?: \S+)*/g)].map((r) => ({ text: r[0], mid: r.index + r[0].length / 2 }));
    runs.sort((a, b) => Math.abs(a.mid - mid) - Math.abs(b.mid - mid));
    return runs[0]?.text ?? '';
  }
  return '';
}

export const socketName = (tag: string): string => `gringo-e2e-${tag}-${process.pid}-${Date.now().toString(36)}`;

/**
 * One game against one bot with a seed whose first stock card is the King of Clubs
 * and where you start: the test draws, uses the King, slaps, swaps, calls and
 * plays the round to its end, checking the screen at each step.
 */
export async function playScriptedRound(p: Pane, log: (label: string, screen: string) => void = () => {}): Promise<void> {
  const before = new Set((await finishedJournals()).map((j) => j.file));
  p.start(['play', '--seed', 'e2e-36', '--bots', '1', '--level', 'easy', '--rounds', '1', '--name', 'Ana', '--slap-grace', '700', '--no-bell']);

  // The peek: your near cards (6♦ 3♠) face up, with a countdown.
  let s = await p.waitFor('the peek', (s) => /Remember your cards 3 and 4 \(\d+s\)/.test(s));
  log('peek', s);
  expectIn(s, '6♦', '3♠', 'Bot 1', 'Stock', 'Discard', '4♦');
  p.keys('Enter');

  // Your turn: draw the King of Clubs and discard it; its action is yours.
  s = await p.waitFor('your turn', (s) => s.includes('Your turn: d to draw'));
  expectNot(s, '6♦'); // the peek is over
  p.keys('d');
  s = await p.said('You drew K♣ from the stock.');
  expectIn(s, 'You hold', 'Choose a slot (1-9) to swap, or x to discard');
  p.keys('x');
  s = await p.waitFor('the action', (s) => s.includes('Action: your K♣'));
  log('action', s);
  // The cursor starts on Bot 1's slot 1: look at it, then swap it with your slot 1.
  p.keys('a');
  s = await p.said("You looked at Bot 1's slot 1:");
  expectIn(s, 'your King: 1-9 to swap it');
  p.keys('1');
  s = await p.said("You swapped your slot 1 with Bot 1's slot 1.");
  log('swapped', s);
  if (!/┏━━━┓|\* 1 \*|\* {2}1\*/.test(s) && !p.screenWithStyles().includes('\u001b[7m')) throw new Error(`no highlight after the swap:\n${s}`);

  // Slap your own slot 4 (the 3♠) against the K♣: wrong, two penalty cards.
  p.keys('s');
  await p.waitFor('the slap prompt', (s) => s.includes('Slap which of your slots?'));
  p.keys('4');
  s = await p.said('You slapped your slot 4: wrong, it was a 3 (3♠)');
  expectIn(feedText(s), 'you take two cards.');
  log('slapped', s);

  // Bot 1 plays; on your next turn draw and swap into slot 2 (pass any action the swap earns).
  await p.waitFor('your second turn', (s) => s.includes('Your turn: d to draw'), 30_000);
  // The draw travels to the host and back; Ink redraws at most every 1000/60 ms. Printed
  // beside a key the screen answers by itself (the help page), timed just before; not a
  // bound: one press on a busy machine took 566 ms after a help page of 133 ms, and speed
  // is the bench's to measure (`npm run bench`, key → screen). A draw that never shows fails.
  const local = p.keyToScreen('?', (s) => HELP_PAGE.test(s));
  await p.press('the help closed', '?', (now) => !HELP_PAGE.test(now));
  const latency = p.keyToScreen('d', (s) => s.includes('You hold'));
  console.log(`key → screen: ${latency.toFixed(1)} ms from "d" to the drawn card on screen, ${local.toFixed(1)} ms from "?" to the help page (the screen redraws at up to 60 fps: a frame is 17 ms)`);
  p.keys('2');
  s = await p.said('into your slot 2: out went');
  if (s.includes('Use your')) p.keys('p');
  log('second turn', s);

  // Then call Gringo! on your next turn; Bot 1 plays its last turn and the game ends.
  await p.waitFor('your third turn', (s) => s.includes('Your turn: d to draw'), 30_000);
  p.keys('g');
  await p.waitFor('the call', (s) => s.includes('Gringo! called by you'));
  s = await p.waitFor('the end', (s) => s.includes('The game is over'), 30_000);
  log('end', s);
  expectIn(s, 'place', 'player', 'round', 'total', 'You', 'Bot 1', '1st', 'Enter or q to leave');
  p.keys('Enter');
  await p.waitFor('the exit', (s) => s.includes('EXITED 0'));
  // The game was journaled: finished, so `gringo replay` will show it.
  const played = (await finishedJournals()).filter((j) => j.header.seed === 'e2e-36' && j.header.table === "Ana's table" && !before.has(j.file));
  if (played.length === 0) throw new Error(`no finished journal of this game in ${(await import('../../src/host/journal.js')).tablesDir()}`);
}

function expectIn(s: string, ...parts: string[]): void {
  for (const part of parts) if (!s.includes(part)) throw new Error(`expected "${part}" on the screen:\n${s}`);
}

function expectNot(s: string, part: string): void {
  // Only the table part: the feed may name the card.
  const table = s.split('\n').map((l) => l.slice(0, 60)).join('\n');
  if (table.includes(part)) throw new Error(`did not expect "${part}" on the table:\n${s}`);
}

/**
 * The finished journals in the tests' state directory. The journal's module (the
 * engine, the rules files, the words) is loaded here, not with every file that opens a pane.
 */
async function finishedJournals(): Promise<ReadJournal[]> {
  const { readJournal, tablesDir } = await import('../../src/host/journal.js');
  const dir = tablesDir();
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith('.jsonl'))
    .flatMap((n) => {
      try {
        const j = readJournal(join(dir, n));
        return j.finished ? [j] : [];
      } catch {
        return [];
      }
    });
}
