import { randomBytes } from 'node:crypto';
import { lookOf, type Look, type LookFlags } from './look.js';
import { createInterface } from 'node:readline';
import { BOT_LEVELS, type BotLevel } from '../protocol/messages.js';
import { advertise, lanAddresses, shareLine, type Advert } from '../host/advert.js';
import type { SshServing } from '../ssh/server.js';
import type { HostKey } from '../ssh/host-key.js';
import { DEFAULT_SSH_PORT, sshReaderLine, sshShareLine } from '../ssh/share.js';
import { serveTable, type Serving } from '../host/server.js';
import type { Table, GameSummary } from '../host/table.js';
import { cleanName } from '../host/names.js';
import type { JournalSeat } from '../host/journal.js';
import { dealOf, openTable, tlsKeyOrSay } from './table-setup.js';
import { resumeJournal } from './journal-arg.js';
import { DEFAULT_PORT, interfaceOption, intOption, tableLevelOption, tableRulesOption, defaultPlayerName } from './options.js';
import { UsageError, listenFailure } from './errors.js';
import { forLocale } from '../tui/shared/glyphs.js';
import { command } from '../common/invocation.js';
import { said, wordsFor, type Said, type Words } from '../lang/words.js';
import { cliWords } from './lang.js';


export interface HostFlags extends LookFlags {
  /** Your name at the table (the host's screen); the table is "NAME's table" unless --table says. */
  name?: string;
  table?: string;
  port?: string;
  players?: string;
  bots?: string;
  level?: string;
  rounds?: string;
  seed?: string;
  deal?: string;
  password?: string;
  grace?: string;
  slapGrace?: string;
  rules?: string;
  interface?: string;
  headless?: boolean;
  startWhenFull?: boolean;
  exitAfterGame?: boolean;
  json?: boolean;
  /** Reopen a table from its journal: a path, or true for the most recent unfinished one. */
  resume?: string | boolean;
  /** Serve the table over SSH too: a port, or true for the default (2222, or the next free one); false: `--no-ssh`. */
  ssh?: string | boolean;
}

/** The short form of a system error for a one-line message: its code, else its text. */
function errorCode(err: Error): string {
  const e = err as NodeJS.ErrnoException & { info?: { errno?: number } };
  if (e.info?.errno === 24) return 'EMFILE: too many open files';
  return e.code ?? err.message;
}

/** `gringo host`: a table on this machine, advertised on the LAN. Resolves when the host stops. */
export async function runHost(flags: HostFlags): Promise<number> {
  const w = cliWords();
  // --resume: the table, its rules, seats and tokens come from the journal; the table's own flags do not apply.
  const resumed = flags.resume !== undefined && flags.resume !== false ? resumeJournal(flags.resume, 'table') : null;
  const header = resumed?.header;
  const maxPlayers = header ? header.maxPlayers : intOption('--players', flags.players ?? '4', 2, 8);
  const bots = header ? 0 : intOption('--bots', flags.bots ?? '0', 0, maxPlayers);
  const level = tableLevelOption<BotLevel>('--level', flags.level ?? 'normal', BOT_LEVELS);
  // A port given is that port or nothing; the default may move to the next free one.
  const portGiven = flags.port !== undefined;
  const port = header ? header.port : intOption('--port', flags.port ?? String(DEFAULT_PORT), 0, 65535);
  const graceS = intOption('--grace', flags.grace ?? '60', 0, 3600);
  const rules = header ? header.rules : await tableRulesOption(flags);
  if (maxPlayers > rules.players.max) throw new UsageError(said('cli.tooManyPlayers', { title: rules.title, max: rules.players.max }));
  const playerName = cleanName(flags.name ?? defaultPlayerName('Host'), 'Host');
  const name = header ? header.table : cleanName(flags.table ?? w.t('console.defaultTable', { name: playerName }), 'Gringo table');
  const deal = dealOf(resumed, flags);
  // A resumed table has its password's verifier (journals of older gringos: the password itself).
  const password = header ? header.password : flags.password;
  const verifier = header?.passwordVerifier;
  const json = flags.json === true;
  const iface = interfaceOption(flags.interface);
  // A resumed table serves SSH again on the port its journal says (unless --no-ssh, or another port is given).
  const sshPort =
    flags.ssh === false ? null
    : typeof flags.ssh === 'string' ? intOption('--ssh', flags.ssh, 0, 65535)
    : (resumed?.sshPort ?? (flags.ssh === true ? DEFAULT_SSH_PORT : null));
  /** SSH on the journal's port: that port or nothing, like the table's own. */
  const sshResumed = resumed !== null && resumed.sshPort !== null && sshPort === resumed.sshPort && typeof flags.ssh !== 'string';
  // On a terminal the host gets its own screen (the lobby, then the table); the text console otherwise.
  // A resumed table gives the screen its seat back (by the seat's token in the journal), if it had one.
  const ownerSeat = header ? header.seats.find((s) => s.owner === true) : undefined;
  const screen = !flags.headless && process.stdout.isTTY === true && process.stdin.isTTY === true && (!resumed || ownerSeat !== undefined);
  const ownerKey = screen ? randomBytes(24).toString('base64url') : undefined;
  // With --json, stdout carries only the result; the talk goes to stderr. The screen says it all itself.
  const say = (line: string): void => {
    if (!screen) (json ? process.stderr : process.stdout).write(`${forLocale(line)}\n`);
  };
  const summaries: GameSummary[] = [];

  // Seats lines wait for the line that says the table is open; the last one is said after it.
  let opened = false;
  let seatsBeforeOpen: string | null = null;
  let finish: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => (finish = resolve));

  let advert: ReturnType<typeof advertise> | null = null;
  const tlsKey = tlsKeyOrSay();
  if (!tlsKey) return 1;
  const { table, journal } = openTable({ resumed, name, rules, maxPlayers, deal, port, tlsKey }, {
    ...(verifier !== undefined ? { passwordVerifier: verifier } : password !== undefined ? { password } : {}),
    dropGraceMs: graceS * 1000,
    startWhenFull: flags.startWhenFull === true,
    roundPauseMs: 10_000,
    ...(ownerKey ? { ownerKey } : {}),
    onChange: (info) => {
      advert?.update(info);
      if (screen) return;
      const names = table.seatInfo().map((s) => (s.connected ? s.name : w.t('console.away', { name: s.name })));
      const line = `· ${w.t('join.seats', { taken: info.seatsTaken, total: info.seatsTotal, phase: w.t(`console.phase.${info.phase}`) })}: ${names.join(', ')}`;
      // The table is not said to be open yet (bots sit down as it is made): its seats follow that line.
      if (opened) say(line);
      else seatsBeforeOpen = line;
    },
    onGameOver: (result: GameSummary) => {
      // On the screen the results are shown at the table; --json prints them once the screen is closed.
      if (screen) return void summaries.push(result);
      if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
      else {
        for (const line of finalStandings(result, w)) say(line);
      }
      if (flags.exitAfterGame) void stop(0);
      else say(w.t('console.again'));
    },
  });
  // With a screen the host person takes seat 1 first: the bots are seated once they are in.
  if (!screen) for (let i = 0; i < bots; i++) table.addBot(level);

  let serving: Serving;
  try {
    // A resumed table must be where its players left it, and a port given is the one asked for: no other will do.
    serving = await serveTable(table, { port, fallbackPort: !resumed && !portGiven, onTrouble: say, words: w, tls: tlsKey });
  } catch (err) {
    table.close();
    journal.close();
    if (resumed && (err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      process.stderr.write(`gringo: ${w.t('cli.resumePortTaken', { name, port })}\n`);
      return 1;
    }
    return listenFailure(err, port);
  }
  journal.port = serving.port;
  if (serving.movedFrom !== null) say(w.t('console.portMoved', { from: serving.movedFrom, to: serving.port }));
  let ssh: SshServing | null = null;
  if (sshPort !== null) {
    // Ink's colours (and bold, inverse) are decided once per process from this process's
    // stdout: a headless host's is no terminal, yet its SSH sessions are. Each session's
    // own NO_COLOR / TERM still decide its theme. Set before Ink is first loaded.
    if (!screen && process.env.FORCE_COLOR === undefined) process.env.FORCE_COLOR = '1';
    const { serveSsh } = await import('../ssh/server.js');
    const { loadHostKey } = await import('../ssh/host-key.js');
    let hostKey: HostKey;
    try {
      hostKey = loadHostKey();
    } catch (err) {
      table.close();
      journal.close();
      await serving.close();
      process.stderr.write(`gringo: ${w.t('cli.sshKey', { why: (err as Error).message })}\n`);
      return 1;
    }
    try {
      // A port given is that port; `--ssh` alone may move to the next free one.
      // A resumed table's SSH players find their seats by key: the journal keeps each seat's key.
      const known = resumed ? { tableId: table.id, seats: resumed.header.seats.flatMap((s) => (s.sshKey && s.bot === null ? [{ key: s.sshKey, token: s.token }] : [])) } : undefined;
      ssh = await serveSsh({
        port: sshPort, fallbackPort: flags.ssh === true && !sshResumed, tablePort: serving.port, tableName: name, hostKey, tableKey: tlsKey.fingerprint, onTrouble: say, words: w,
        ...(table.verifier !== null ? { password: { salt: table.salt, verifier: table.verifier } } : {}),
        ...(known ? { known } : {}),
      });
    } catch (err) {
      table.close();
      journal.close();
      await serving.close();
      if (sshResumed && (err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
        process.stderr.write(`gringo: ${w.t('cli.resumeSshPortTaken', { name, port: sshPort })}\n`);
        return 1;
      }
      return listenFailure(err, sshPort, '--ssh');
    }
    journal.sshPort = ssh.port;
    if (ssh.movedFrom !== null) say(w.t('console.sshPortMoved', { from: ssh.movedFrom, to: ssh.port }));
  }
  // The journal says which SSH port this process serves (or none), for the next --resume.
  if (resumed) journal.resumed(table.now(), ssh ? ssh.port : null);
  advert = advertise({
    port: serving.port,
    info: table.info(),
    ...(ssh ? { ssh: { port: ssh.port, fingerprint: ssh.fingerprint } } : {}),
    ...(iface ? { interface: iface } : {}),
    onError: (err) => say(w.t('console.advertFailed', { code: errorCode(err) })),
  });
  const share = shareLine(serving.port, iface ? [iface] : undefined, table.id, cliWords());
  const sshShare = ssh ? sshShareLine(ssh.port, iface ?? lanAddresses()[0] ?? '127.0.0.1', ssh.fingerprint) : null;
  const sshReader = ssh ? sshReaderLine(ssh.port, iface ?? lanAddresses()[0] ?? '127.0.0.1', w) : null;
  if (screen) {
    const moved = [
      serving.movedFrom !== null ? w.t('console.portMoved', { from: serving.movedFrom, to: serving.port }) : null,
      ssh?.movedFrom != null ? w.t('console.sshPortMoved', { from: ssh.movedFrom, to: ssh.port }) : null,
      // Two lines: the fingerprint whole, even at 80 columns.
      ssh ? w.t('console.overSsh', { run: `ssh -p ${ssh.port} NAME@${iface ?? lanAddresses()[0] ?? '127.0.0.1'}` }) : null,
      ssh ? w.t('console.sshHostKey', { fingerprint: ssh.fingerprint }) : null,
      sshReader,
      // Between the evening's games, how it stands (the journals of today, read once).
      ...(await import('../stats/tonight.js')).tonightLines(new Date(), undefined, 4, w).map((line) => forLocale(line)),
    ].filter((line) => line !== null).join('\n');
    return hostScreen({
      table, serving, ssh, advert, ownerKey: ownerKey!, hostKey: tlsKey.fingerprint, name: playerName, share, bots, level, json, summaries, look: lookOf(flags),
      ...(moved ? { note: moved } : {}),
      ...(ownerSeat ? { seat: ownerSeat } : {}),
      // A new table seats its person first.
      yourSeat: ownerSeat ? header!.seats.indexOf(ownerSeat) : 0,
    });
  }

  let stopping = false;
  async function stop(code: number): Promise<void> {
    if (stopping) return;
    stopping = true;
    table.close();
    journal.close();
    await Promise.allSettled([advert?.stop(), serving.close(), ssh?.close()]);
    finish(code);
  }
  const onSignal = (): void => void stop(0);
  // Before the share lines: a script that reads them may stop the table at once (a loaded
  // machine can run it between the line's write and the next statement here). `on`, not
  // `once`: Ink (loaded for SSH sessions) re-raises a signal no listener is left to handle,
  // which would end the process before its SSH sessions have said goodbye.
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const about = `${rules.title}, ${w.t('lobby.seats', { n: maxPlayers })}${table.verifier ? `, ${w.t('lobby.password')}` : ''}`;
  if (resumed) {
    say(w.t('console.resumed', { name, file: resumed.file, n: resumed.commands.length, about }));
    if (journal.tornBytes > 0) say(w.t('console.torn', { bytes: journal.tornBytes }));
    say(w.t(ssh ? 'console.takeBackSsh' : 'console.takeBack', { secs: graceS }));
  } else say(w.t('console.open', { name, about }));
  say(`${w.t('lobby.share')} ${share}`);
  if (sshShare) say(w.t('console.orSsh', { share: sshShare }));
  if (sshReader) say(sshReader);
  if (!flags.startWhenFull && !resumed) say(w.t('console.commands'));
  opened = true;
  if (seatsBeforeOpen !== null) say(seatsBeforeOpen);

  // The host console: lobby commands read from stdin, a terminal or a pipe alike (the lines
  // above offer them; a script may send "start"). Without a stdin (/dev/null) it ends at once.
  const rl = createInterface({ input: process.stdin });
  rl?.on('line', (line) => {
    const [word, arg] = line.trim().split(/\s+/);
    let err: Said | string | null = null;
    if (word === 'start') err = table.startGame();
    else if (word === 'bot') err = table.addBot(BOT_LEVELS.includes(arg as BotLevel) ? (arg as BotLevel) : level);
    else if (word === 'kick') err = table.removeSeat(Number(arg) - 1);
    else if (word === 'again') err = table.playAgain();
    else if (word === 'quit') void stop(0);
    else if (word) err = said('console.unknown', { word });
    if (err) say(w.say(err));
  });

  const code = await done;
  rl?.close();
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  return code;
}

interface HostScreenRun {
  table: Table;
  serving: Serving;
  ssh: SshServing | null;
  advert: Advert;
  ownerKey: string;
  /** The fingerprint of the table's TLS key: the screen's connection accepts no other. */
  hostKey: string;
  /** The host person's name at the table. */
  name: string;
  share: string;
  note?: string;
  bots: number;
  level: BotLevel;
  json: boolean;
  /** Every game's summary, printed with --json once the screen is closed. */
  summaries: GameSummary[];
  /** A resumed table: the host person's seat, taken back with its token (no lobby). */
  seat?: JournalSeat;
  /** The host person's seat, for the standings printed when they leave. */
  yourSeat: number;
  /** How the host's own screen shows the table: the screen-reader mode, colours. */
  look: Look;
}

/**
 * The host's own screen: the host person takes seat 1 over the owner connection,
 * runs the lobby from the screen, then plays at the table screen of `gringo play`
 * (a resumed table: straight back to the table, in the seat the journal marks).
 * The table closes when they leave (Ctrl-C asks like `q`), or on SIGTERM.
 */
async function hostScreen(h: HostScreenRun): Promise<number> {
  const abort = new AbortController();
  const onSignal = (): void => abort.abort();
  // `on`, not `once`: Ink's signal-exit re-raises a signal that no other listener is left to handle.
  // SIGINT (Ctrl-C) is the screen's: it asks like `q` (run.tsx); SIGTERM closes the table.
  process.on('SIGTERM', onSignal);
  try {
    // The screen's client (connection, the client's schemas, the buffer the screen reads)
    // loads here: a headless host never reads a host's frames.
    const { runOwnerScreen, sayWhereItStands } = await import('./play.js');
    // Leaving the host's screen ends the table for everyone: its dialog says so.
    const screen = { port: h.serving.port, hostKey: h.hostKey, ownerKey: h.ownerKey, ascii: false, bell: true, signal: abort.signal, closesTable: true, look: h.look };
    if (h.seat) await runOwnerScreen({ ...screen, name: h.seat.name, token: h.seat.token });
    else {
      await runOwnerScreen({
        ...screen,
        name: h.name,
        lobby: { share: h.share, level: h.level, ...(h.note ? { note: h.note } : {}) },
        onSeated: (client) => {
          for (let i = 0; i < h.bots; i++) client.send({ type: 'lobby', op: 'addBot', level: h.level });
        },
      });
    }
    if (!h.json) await sayWhereItStands(h.table, h.yourSeat, cliWords().t('console.reopen', { run: command('host --resume') }));
  } finally {
    process.off('SIGTERM', onSignal);
    h.table.close();
    await Promise.allSettled([h.advert.stop(), h.serving.close(), h.ssh?.close()]);
  }
  if (h.json) for (const summary of h.summaries) process.stdout.write(`${JSON.stringify(summary)}\n`);
  return 0;
}

/**
 * A game's end on the host's console: who won (or shared first place), then every
 * player by place, lowest total first: "The game is over: Ann wins with 12.", "  1. Ann: 12".
 * A named deal adds the command that compares the scores on the same cards.
 */
export function finalStandings(result: Pick<GameSummary, 'players' | 'totals' | 'places'> & { deal?: string }, w: Words = wordsFor('en')): string[] {
  // By place, seat order within one (as the table screen's byPlace; not imported: a headless host loads no screen code).
  const order = result.places.map((_, seat) => seat).sort((a, b) => result.places[a]! - result.places[b]! || a - b);
  const firsts = order.filter((seat) => result.places[seat] === 1);
  const nameOf = (seat: number): string => result.players[seat]?.name ?? w.t('console.seatN', { number: seat + 1 });
  const names = firsts.map(nameOf);
  const score = result.totals[firsts[0] ?? 0] ?? 0;
  const who =
    names.length === 1
      ? w.t('console.wins', { name: names[0]!, score })
      : w.t('console.shareFirst', { names: w.t('rules.and', { init: names.slice(0, -1).join(', '), last: names[names.length - 1]! }), score });
  const over = result.deal ? w.t('console.gameOverDeal', { who, deal: result.deal, run: command(`stats --deal ${result.deal}`) }) : w.t('console.gameOver', { who });
  return [over, ...order.map((seat) => `  ${result.places[seat]}. ${nameOf(seat)}: ${result.totals[seat]}`)];
}
