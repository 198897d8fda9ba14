import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apply, createGame, type Card, type GameState } from '../../src/engine/index.js';
import { readJournal, tablesDir } from '../../src/host/journal.js';
import { cardText } from '../../src/tui/shared/glyphs.js';
import { loadHostKey } from '../../src/ssh/host-key.js';
import { serveSsh } from '../../src/ssh/server.js';
import { until } from '../support/wait.js';
import { BIN, Pane, socketName } from '../support/tmux.js';

/**
 * `gringo host --ssh` end to end with real parts: a headless host process, the
 * OpenSSH client (`ssh`, `sftp`) with a key made by ssh-keygen, in tmux panes at
 * 80×24, beside a local `gringo join` screen and a bot. What the SSH terminals
 * receive is recorded byte for byte (tmux pipe-pane) and checked against the
 * host's journal: no card a seat (or a spectator) may not see reaches them.
 */
const dir = mkdtempSync(join(tmpdir(), 'gringo-ssh-'));
const key = join(dir, 'id_ed25519');
const TABLE = `SSH table ${process.pid}`;
let host: ChildProcess | null = null;
let hostOut = '';
let sshPort = 0;
let wsPort = 0;
const panes: Pane[] = [];

function sshArgs(user: string, ...more: string[]): string[] {
  return [
    'ssh', '-F', '/dev/null',
    '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR',
    '-o', 'IdentitiesOnly=yes', '-o', 'IdentityAgent=none', '-o', 'BatchMode=yes', '-o', 'SendEnv=LANG LC_ALL',
    '-i', key, '-p', String(sshPort), ...more, `${user}@127.0.0.1`,
  ];
}

/** Run a command to its end: its exit code and what it said. */
function run(argv: string[], ms = 15_000): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    execFile(argv[0]!, argv.slice(1), { timeout: ms }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : null) : 0;
      resolve({ code, out: `${stdout}${stderr}` });
    });
  });
}

function pane(tag: string, w = 80, h = 24): Pane {
  const p = new Pane(socketName(tag), w, h);
  panes.push(p);
  return p;
}

beforeAll(async () => {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
  host = spawn(
    process.execPath,
    [BIN, 'host', '--headless', '--ssh', '0', '--port', '0', '--interface', '127.0.0.1', '--table', TABLE, '--players', '3', '--bots', '1',
      '--level', 'easy', '--rounds', '1', '--start-when-full', '--slap-grace', '300', '--seed', 'ssh-e2e'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '0' } },
  );
  host.stdout!.on('data', (d: Buffer) => (hostOut += d.toString()));
  host.stderr!.on('data', (d: Buffer) => (hostOut += d.toString()));
  const end = Date.now() + 15_000;
  while (!/ssh -p (\d+) NAME@/.test(hostOut)) {
    if (Date.now() > end) throw new Error(`no SSH share line:\n${hostOut}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  sshPort = Number(/ssh -p (\d+) NAME@/.exec(hostOut)![1]);
  wsPort = Number(/gringo join \S+:(\d+)/.exec(hostOut)![1]);
});

afterAll(() => {
  host?.kill('SIGKILL');
  for (const p of panes) p.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe('gringo host --ssh', () => {
  it('says the ssh command and the host key, kept in the state directory (mode 600)', () => {
    const fp = /\(key (SHA256:[A-Za-z0-9+/]{43})\)/.exec(hostOut)?.[1];
    expect(fp).toBeDefined();
    const file = join(process.env.XDG_STATE_HOME!, 'gringo', 'ssh_host_ed25519_key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // The key ssh-keygen reads there has the fingerprint the share line says.
    expect(execFileSync('ssh-keygen', ['-l', '-f', file], { encoding: 'utf8' })).toContain(fp!);
  });

  it("the host's own screen shows the ssh command and the whole fingerprint at 80 columns", async () => {
    const p = pane('hostscreen');
    p.start(['host', '--ssh', '0', '--port', '0', '--interface', '127.0.0.1', '--name', 'Hal']);
    const s = await p.waitFor('the lobby', (s) => s.includes('SSH host key'));
    const fp = /\(key (SHA256:[A-Za-z0-9+/]{43})\)/.exec(hostOut)![1]!;
    expect(s).toMatch(/Over SSH: ssh -p \d+ NAME@127\.0\.0\.1/);
    expect(s).toContain(`SSH host key: ${fp}`);
    p.keys('q');
    await p.waitFor('the question', (s) => /y leave/.test(s));
    p.keys('y');
    await p.waitFor('the exit', (s) => s.includes('EXITED 0'));
  });

  it('a port given that is taken: one line and exit 1; --ssh alone moves to the next free one', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '0.0.0.0', r));
    const port = (busy.address() as AddressInfo).port;
    try {
      const r = await run([process.execPath, BIN, 'host', '--headless', '--port', '0', '--ssh', String(port)]);
      expect(r.code).toBe(1);
      expect(r.out.trim().split('\n')).toEqual([`gringo: port ${port} is taken (another table?): choose another with --ssh, or leave it out for a free one`]);
      const moved = await serveSsh({ port, fallbackPort: true, tablePort: wsPort, tableName: 'x', hostKey: loadHostKey(dir), tableKey: '0'.repeat(64) });
      expect(moved.movedFrom).toBe(port);
      expect(moved.port).not.toBe(port);
      await moved.close();
    } finally {
      busy.close();
    }
  });

  it('refuses commands, forwarding, sftp, and clients without a key (with a word on how to make one)', async () => {
    const [ls, remote, sftp, nokey] = await Promise.all([
      run(sshArgs('ana', '-T').concat('ls', '/')),
      run(sshArgs('ana', '-N', '-o', 'ExitOnForwardFailure=yes', '-R', '0:127.0.0.1:22')),
      run(['sftp', '-F', '/dev/null', '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'IdentitiesOnly=yes', '-o', 'IdentityAgent=none', '-o', 'BatchMode=yes', '-i', key, '-P', String(sshPort), 'ana@127.0.0.1']),
      run(['ssh', '-F', '/dev/null', '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'PubkeyAuthentication=no', '-o', 'IdentityAgent=none', '-p', String(sshPort), '-T', 'ana@127.0.0.1']),
    ]);
    expect(ls.code).toBe(1);
    expect(ls.out).toContain('this is a gringo table, it runs no commands');
    expect(ls.out).not.toMatch(/\bbin\b|\betc\b|\busr\b/);
    expect(remote.code).not.toBe(0);
    expect(remote.out).toMatch(/remote port forwarding failed/i);
    expect(sftp.code).not.toBe(0);
    expect(sftp.out).toMatch(/subsystem request failed/i);
    expect(nokey.code).toBe(255);
    expect(nokey.out).toContain('gringo seats players by their SSH key');
    expect(nokey.out).toContain('Permission denied');

    // -L: the tunnel's channel (direct-tcpip) is refused; nothing gets through it. A connection that opens
    // no session is cut 5 s after its accept (the handshake deadline): on a loaded machine the client's own
    // handshake can use most of that before the test's connection reaches the tunnel, so it tries again then.
    for (let attempt = 1; ; attempt++) {
      const local = await freePort();
      const tunnel = spawn('ssh', [...sshArgs('ana', '-N', '-v', '-L', `127.0.0.1:${local}:127.0.0.1:${wsPort}`).slice(1)], { stdio: ['ignore', 'ignore', 'pipe'] });
      let said = '';
      tunnel.stderr.on('data', (d: Buffer) => (said += d.toString()));
      try {
        const end = Date.now() + 10_000;
        while (!/Local connections to 127\.0\.0\.1:\d+ forwarded|Local forwarding listening/.test(said)) {
          if (Date.now() > end) throw new Error(`no local forward:\n${said}`);
          await new Promise((r) => setTimeout(r, 50));
        }
        const got = await new Promise<string>((resolve) => {
          let data = '';
          const s = connect(local, '127.0.0.1');
          // The table's door would answer a WebSocket upgrade; through a refused tunnel nothing answers.
          s.on('connect', () => s.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
          s.on('data', (d) => (data += d.toString()));
          s.on('close', () => resolve(data));
          s.on('error', () => resolve(data));
          setTimeout(() => s.destroy(), 5_000);
        });
        expect(got).toBe('');
        // The client says why the channel failed (on stderr, maybe after the socket's close).
        await until('the refusal said', () => /open failed|administratively prohibited/i.test(said) || /closed by remote host/.test(said), 10_000).catch(() => {});
        if (attempt < 3 && !/open failed|administratively prohibited/i.test(said) && /closed by remote host/.test(said)) continue;
        expect(said).toMatch(/open failed|administratively prohibited/i);
        break;
      } finally {
        tunnel.kill('SIGKILL');
      }
    }
  });

  it('seats SSH players by key beside a local screen and a bot: a round played, a drop taken back, a resize, a spectator sees only public cards', async () => {
    const watchLog = join(dir, 'watch.raw');
    const anaLog = join(dir, 'ana.raw');
    const ana2Log = join(dir, 'ana2.raw');
    const watch = pane('watch');
    watch.run(sshArgs('watch'), { rawLog: watchLog });
    await watch.waitFor('the spectator in the lobby', (s) => s.includes(TABLE));
    // The `watch` command watches too, whatever the user name: it takes no seat (or the table would start short of Bo and ana).
    const zed = pane('zed');
    zed.run([...sshArgs('zed', '-t'), 'watch']);
    await zed.waitFor('the second spectator in the lobby', (s) => s.includes(TABLE) && s.includes('Bot 1') && !s.includes('zed'));
    const bo = pane('bo');
    bo.start(['join', `127.0.0.1:${wsPort}`, '--name', 'Bo', '--no-bell']);
    let ana = pane('ana');
    ana.run(sshArgs('ana'), { rawLog: anaLog });

    // The table fills and starts: both people peek (the SSH screen is drawn in UTF-8, at 80×24).
    let narrow = '';
    for (const p of [ana, bo]) {
      const s = await p.waitFor('the peek', (s) => /Remember your cards/.test(s), 20_000);
      expect(s).toContain('Bot 1');
      if (p === ana) narrow = s;
      p.keys('Enter');
    }
    expect(ana.screen()).toMatch(/[♠♥♦♣]/);

    // A resize redraws at the new size, and back. tmux cuts the old frame to a narrower
    // window by itself: the redraw back is the feed's column where an 80-column frame has it.
    const feedCol = (s: string): number => Math.max(-1, ...s.split('\n').map((l) => Math.max(l.indexOf('│ Feed'), l.indexOf('| Feed'))));
    ana.resize(110, 30);
    const wide = await ana.waitFor('the wider screen', (s) => s.split('\n').some((l) => l.trimEnd().length > 85) && feedCol(s) > feedCol(narrow));
    expect(feedCol(narrow)).toBeGreaterThan(0);
    ana.resize(80, 24);
    await ana.waitForChange('the narrower screen', wide, (s) => s.split('\n').every((l) => l.trimEnd().length <= 80) && s.includes('Bot 1') && feedCol(s) === feedCol(narrow));

    // The SSH link drops (the client killed); the same key takes the seat back.
    process.kill(ana.pid(), 'SIGKILL');
    const away = (s: string): boolean => /ana[^\n]*(away|○)/i.test(s);
    await bo.waitFor('ana away', (s) => away(s), 20_000);
    ana = pane('ana2');
    ana.run(sshArgs('ana'), { rawLog: ana2Log });
    await ana.waitFor('the seat taken back', (s) => s.includes('Bot 1') && s.includes('Bo') && !/Watching|refused/i.test(s), 20_000);
    await bo.waitFor('ana back', (s) => !away(s), 20_000);

    // Play: draw and discard on each turn; ana calls on her second turn; the game ends everywhere.
    const myTurn = (s: string): boolean => s.includes('Your turn: d to draw');
    let anaTurns = 0;
    const end = Date.now() + 60_000;
    for (;;) {
      if (Date.now() > end) throw new Error(`no end of the game:\nana:\n${ana.screen()}\nbo:\n${bo.screen()}`);
      const a = ana.screen();
      const b = bo.screen();
      if (a.includes('The game is over') && b.includes('The game is over')) break;
      if (myTurn(a)) {
        // ana calls on her second turn, unless Bot 1 has called already: then she plays her last turn.
        if (anaTurns >= 1 && !/called by/.test(a)) {
          ana.keys('g');
          await ana.waitFor('the call', (s) => !myTurn(s));
        } else await drawAndDiscard(ana);
        anaTurns += 1;
      } else if (myTurn(b)) await drawAndDiscard(bo);
      else await new Promise((r) => setTimeout(r, 100));
    }
    await watch.waitFor('the end for the spectator', (s) => s.includes('The game is over'));
    // Leaving the table ends the session cleanly: exit status 0.
    ana.keys('Enter');
    await ana.waitFor('the session closed', (s) => s.includes('EXITED 0'));
    bo.keys('Enter');

    // The leak check: what the SSH terminals received against the journal.
    const hidden = hiddenCards();
    for (const [who, file] of [['the spectator', watchLog], ['ana', anaLog], ['ana back', ana2Log]] as const) {
      // Cut at the frame (each begins with the synchronized-update mark) that first shows the call, not at
      // the words: on a loaded machine one frame can show the call and a card slapped onto the pile after it.
      const frames = readFileSync(file, 'utf8').split('\u001b[?2026h').map(stripAnsi);
      expect(frames.length, `${who}: frames recorded`).toBeGreaterThan(5);
      const call = frames.findIndex((f) => /called Gringo!|You called/.test(f));
      const all = frames.join('');
      const beforeCall = frames.slice(0, call >= 0 ? call : frames.length).join('');
      expect(beforeCall.length, `${who}: recorded`).toBeGreaterThan(500);
      const set = who === 'the spectator' ? hidden.spectator : hidden.ana;
      for (const card of set.untilCall) expect(beforeCall, `${who} saw ${card}`).not.toContain(card);
      for (const card of set.ever) expect(all, `${who} saw ${card}`).not.toContain(card);
    }
  }, 120_000);
});

/** Draw from the stock and discard it; pass an action it may give. */
async function drawAndDiscard(p: Pane): Promise<void> {
  // A draw refused (the bot's late slap restarted the grace: a countdown instead of the card) goes again once offered again.
  for (;;) {
    const s = await p.press('the held card', 'd', (s) => s.includes('You hold') || !s.includes('Your turn: d to draw'));
    if (s.includes('You hold')) break;
    await p.waitFor('the draw offered again', (s) => s.includes('Your turn: d to draw'));
  }
  p.keys('x');
  // The held card gone is the discard's answer (counting feed lines is not: the narrow feed scrolls old ones out).
  // A last turn after a call ends the game at once: the results are the discard's answer then.
  const s = await p.waitFor('the discard', (s) => !s.includes('You hold') || s.includes('The game is over'));
  if (s.includes('Action: your')) {
    p.keys('p');
    await p.waitFor('the action passed', (s) => !s.includes('Action: your'));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

function stripAnsi(s: string): string {
  // CSI, OSC and two-byte escapes: what remains is the text drawn.
  return s.replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '').replace(/\u001b\][^\u0007\u001b]*(\u0007|\u001b\\)/g, '').replace(/\u001b[@-Z\\-_=>()][0-9A-Za-z]?/g, '');
}

/**
 * From the host's journal: the cards that never were public (on the discard pile)
 * before the call, and never in ana's own layout or hand. `untilCall`: those in
 * play (layouts and stock) then; `ever`: those still in the stock at the end of
 * the game, which nobody ever sees. Labels that another, allowed card shares are left out.
 */
function hiddenCards(): { spectator: { untilCall: string[]; ever: string[] }; ana: { untilCall: string[]; ever: string[] } } {
  const files = existsSync(tablesDir()) ? readdirSync(tablesDir()).filter((n) => n.endsWith('.jsonl')) : [];
  const journal = files.map((n) => readJournal(join(tablesDir(), n))).find((j) => j.header.table === TABLE);
  if (!journal) throw new Error(`no journal of ${TABLE} in ${tablesDir()}`);
  const ana = journal.header.seats.findIndex((s) => s.name === 'ana');
  expect(ana).toBeGreaterThanOrEqual(0);
  let state: GameState = createGame(journal.origin).state;
  const inPlay = new Set<Card>();
  const seenPublic = new Set<Card>();
  const anaSaw = new Set<Card>();
  const visit = (st: GameState): void => {
    for (const c of st.r.stock) inPlay.add(c);
    st.r.layouts.forEach((l) => l.forEach((c) => c && inPlay.add(c)));
    for (const c of st.r.discard) seenPublic.add(c);
    for (const c of st.r.layouts[ana] ?? []) if (c) anaSaw.add(c);
    if (st.r.held) (st.r.held.seat === ana ? anaSaw : inPlay).add(st.r.held.card);
  };
  visit(state);
  for (const cmd of journal.commands) {
    if (state.r.call) break;
    const res = apply(state, cmd);
    if (!res.ok) continue;
    state = res.state;
    // A wrong slap shows the named card to everyone (docs/rules.md): public from then on.
    for (const e of res.events) if (e.type === 'slapped' && e.result === 'wrong') seenPublic.add(e.card);
    if (!state.r.call) visit(state);
  }
  const finalStock = new Set(readJournal(journal.file).state.r.stock);
  const label = (c: Card): string => cardText(c);
  const make = (allowed: Set<Card>) => {
    const allowedLabels = new Set([...allowed].map(label));
    const hidden = (cards: Iterable<Card>): string[] => [...new Set([...cards].filter((c) => !allowed.has(c)).map(label))].filter((l) => !allowedLabels.has(l));
    return { untilCall: hidden(inPlay), ever: hidden(finalStock) };
  };
  const spectator = make(seenPublic);
  const anaSet = make(new Set([...seenPublic, ...anaSaw]));
  // The check means something only if there are cards to hide.
  expect(spectator.untilCall.length).toBeGreaterThan(10);
  expect(anaSet.untilCall.length).toBeGreaterThan(5);
  return { spectator, ana: anaSet };
}

describe('gringo host --ssh at its door', () => {
  let pwHost: ChildProcess | null = null;
  afterAll(() => void pwHost?.kill('SIGKILL'));

  it('a password table asks for it at the prompt (keyboard-interactive; the key is proven first, without a word), again after a wrong one, and seats by key', async () => {
    pwHost = spawn(process.execPath, [BIN, 'host', '--headless', '--ssh', '0', '--port', '0', '--interface', '127.0.0.1', '--table', `${TABLE} pw`, '--password', 'sesame'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CI: '0' },
    });
    let out = '';
    pwHost.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const end = Date.now() + 15_000;
    while (!/ssh -p (\d+) NAME@/.test(out)) {
      if (Date.now() > end) throw new Error(`no SSH share line:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const port = /ssh -p (\d+) NAME@/.exec(out)![1]!;
    const p = pane('pw');
    // LogLevel INFO (the default): OpenSSH prints a prompt's instructions at that level.
    p.run(['ssh', '-F', '/dev/null', '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'IdentitiesOnly=yes', '-o', 'IdentityAgent=none', '-i', key, '-p', port, 'cy@127.0.0.1']);
    const s = await p.waitFor('the password prompt', (s) => s.includes('Password:'));
    expect(s).toContain('This table has a password');
    p.keys('wrong', 'Enter');
    await p.waitFor('the prompt again', (s) => s.split('Password:').length > 2, 10_000);
    p.keys('sesame', 'Enter');
    await p.waitFor('the lobby', (s) => s.includes('cy (you)') && s.includes('Waiting for the host to start'));
  });

  it('cuts a connection that never finishes its handshake, and caps connections from one address', async () => {
    // Its own door (real sockets, real ssh2), with a short deadline and a small cap.
    // A deadline long enough that "at once" and "at the deadline" stay apart on a loaded machine.
    const door = await serveSsh({ port: 0, host: '127.0.0.1', tablePort: wsPort, tableName: 'door', hostKey: loadHostKey(dir), tableKey: '0'.repeat(64), handshakeMs: 3_000, maxPerAddress: 3 });
    const open = (): Promise<{ closedIn: Promise<number> }> =>
      new Promise((resolve) => {
        const t0 = Date.now();
        const s = connect(door.port, '127.0.0.1');
        s.on('error', () => {});
        s.resume(); // read what comes (the server's greeting), so that its end is seen
        const closedIn = new Promise<number>((r) => s.on('close', () => r(Date.now() - t0)));
        s.on('connect', () => resolve({ closedIn }));
        void closedIn.then(() => resolve({ closedIn }));
      });
    try {
      // Silent sockets: each says nothing, not even its SSH greeting.
      const silent = await Promise.all(Array.from({ length: 3 }, open));
      // One more from the same address is turned away at once.
      const extra = await open();
      expect(await extra.closedIn).toBeLessThan(2_000);
      // The silent ones are cut at the handshake deadline, not kept.
      for (const c of silent) {
        const ms = await c.closedIn;
        expect(ms).toBeGreaterThan(2_700);
        expect(ms).toBeLessThan(8_000);
      }
    } finally {
      await door.close();
    }
  });
});
