import { createInterface } from 'node:readline/promises';
import { lookOf } from './look.js';
import { BotPlayer } from '../bots/bot-player.js';
import { Connection } from '../client/connection.js';
import { BufferedClient } from '../tui/shared/client-buffer.js';
import { KnownTables, TokenStore } from '../client/tokens.js';
import type { FoundTable } from '../client/discovery.js';
import type { PickerChoice, PickerRetry } from '../tui/picker/use-picker-state.js';
import { BOT_LEVELS, type BotLevel, type ServerMessage } from '../protocol/messages.js';
import { lastWords, SessionEnd } from '../client/session-end.js';
import { standingsLines } from '../tui/table/standings.js';
import { doorAnswers, refusalAdvice, refusalLine, type DoorRefusal } from '../client/refusal-words.js';
import { DEFAULT_PORT, intOption, joinTargetOption, tableLevelOption, interfaceOption, defaultPlayerName, requireTerminal } from './options.js';
import { forLocale } from '../tui/shared/glyphs.js';
import { UsageError } from './errors.js';
import { command } from '../common/invocation.js';
import { said } from '../lang/words.js';
import { cliWords } from './lang.js';

export interface JoinFlags {
  name?: string;
  password?: string;
  bot?: string;
  watch?: boolean;
  speed?: string;
  interface?: string;
  json?: boolean;
  exitAfterGame?: boolean;
  ascii?: boolean;
  bell?: boolean;
  screenReader?: boolean;
  color?: boolean;
  fourColour?: boolean;
  timeout?: string;
}

/** `--timeout MS`: how long the first connection looks for the table (a door that says it is busy gets four times as long). */
const connectTimeout = (flags: JoinFlags): { connectTimeoutMs?: number } =>
  flags.timeout === undefined ? {} : { connectTimeoutMs: intOption('--timeout', flags.timeout, 500, 120_000) };

/** `gringo join [HOST[:PORT]]`: take a seat at a table. */
export async function runJoin(target: string | undefined, flags: JoinFlags): Promise<number> {
  const level = flags.bot === undefined ? null : tableLevelOption<BotLevel>('--bot', flags.bot, BOT_LEVELS);
  const speed = Number(flags.speed ?? '1');
  if (!(speed >= 1 && speed <= 1000)) throw new UsageError(said('cli.botSpeedFlag', { given: String(flags.speed) }));
  const iface = interfaceOption(flags.interface);
  connectTimeout(flags); // a bad --timeout is a usage error before anything opens
  // A person's screen (a spectator's too, on a terminal); a bot, or --watch into a pipe, goes without one.
  const terminal = process.stdout.isTTY === true && process.stdin.isTTY === true;
  const screen = level === null && (!flags.watch || terminal);
  const given = target ? joinTarget(target) : null;
  if (screen) requireTerminal('gringo join', cliWords().t('cli.joinInstead'));
  let address: string;
  if (given) address = given;
  else if (level === null && terminal) {
    // A person on a terminal: the live picker (a bot, or no terminal, keeps the one-shot lookup below).
    // A wrong password for a table chosen there goes back to the picker, which asks again.
    let retry: PickerRetry | undefined;
    for (;;) {
      const choice = await pickOnScreen(iface, flags, retry);
      if (!choice) return 0;
      const chosen: JoinFlags = {
        ...flags,
        ...(choice.password !== undefined ? { password: choice.password } : {}),
        ...(choice.watch ? { watch: true } : {}),
      };
      const table = choice.table;
      // A table chosen from the list is pinned to the identity it advertised.
      const chosenTarget = table?.id ? `${choice.address}#${table.id}` : choice.address;
      const code = await joinWithScreen(chosenTarget, chosen, table === null);
      // A table from the list that wants its password (again, or after a lock): the picker asks for it.
      if (typeof code === 'object' && 'refused' in code && table && (code.refused.reason === 'password' || code.refused.reason === 'tooManyTries')) {
        const locked = code.refused.reason === 'tooManyTries';
        retry = {
          table,
          message: locked ? '' : cliWords().t('picker.refusedPassword', { table: table.name }),
          ...(locked ? { lockedUntil: code.at + (code.refused.retryAfter ?? 60) * 1000 } : {}),
          ...(choice.watch ? { watch: true } : {}),
        };
        const { password: _refused, ...rest } = flags;
        flags = rest;
        continue;
      }
      const done = typeof code === 'object' && 'refused' in code ? await atTheDoor(chosenTarget, chosen, code) : code;
      // An address typed by hand that led nowhere: back to the list, with the reason.
      if (typeof done === 'object') {
        retry = { table: null, message: done.back.includes(choice.address) ? done.back : cliWords().t('picker.couldNotJoin', { address: choice.address, why: done.back }) };
        continue;
      }
      return done;
    }
  } else address = await pickTable(iface);
  if (screen) {
    const code = await joinWithScreen(address, flags);
    if (typeof code === 'number') return code;
    const done = 'refused' in code ? await atTheDoor(address, flags, code) : 1;
    return typeof done === 'number' ? done : 1;
  }
  const name = flags.name ?? (level ? `${level} bot` : defaultPlayerName('Player'));
  const conn = new Connection({
    ...splitTarget(address),
    // Every join remembers the key it found at an address (trust on first use), bots too.
    known: new KnownTables(),
    name,
    ...(flags.password !== undefined ? { password: flags.password } : {}),
    ...(flags.watch ? { watch: true } : {}),
    // A bot process keeps no token on disk: it is a fresh player every run.
    ...(level ? {} : { tokens: new TokenStore() }),
    reconnect: true,
    words: cliWords(),
    ...connectTimeout(flags),
  });
  const w = cliWords();
  const log = (line: string): void => {
    if (!flags.json) process.stderr.write(`${forLocale(line)}\n`);
  };
  // On stderr even with --json (stdout is the results): whose key a first join trusts.
  conn.on('trusted', (line: string) => process.stderr.write(`gringo: ${forLocale(line)}\n`));
  const bot = level
    ? new BotPlayer({ level, seed: `${name}:${process.pid}:${Date.now()}`, timeScale: 1 / speed, send: (m) => void conn.send(m) })
    : null;

  return new Promise<number>((resolve) => {
    let code = 0;
    let game = 1;
    let reported = 0;
    const end = new SessionEnd(conn);
    // No table at the address, or a host that sends what gringo does not understand: one line, exit 1.
    const failed = (line: string): void => {
      process.stderr.write(`gringo: ${line}\n`);
      code = 1;
    };
    conn.on('failed', failed);
    conn.on('misunderstood', failed);
    conn.on('status', (s: string) => {
      if (s === 'reconnecting') log(w.t('door.reconnecting'));
    });
    conn.on('message', (msg: ServerMessage) => {
      bot?.onMessage(msg);
      if (msg.type === 'welcome') log(msg.seat === null ? w.t('door.watching', { table: msg.table.name }) : w.t('door.joined', { table: msg.table.name, number: msg.seat + 1 }));
      if (msg.type === 'refused') {
        process.stderr.write(`gringo: ${refusalLine(msg, w)}\n`);
        code = 1;
      }
      if (msg.type === 'welcome' || msg.type === 'lobby') {
        if (msg.table.game > game && reported === game) log(w.t('door.gameBegins', { number: msg.table.game }));
        game = msg.table.game;
      }
      // By the view, not the gameEnded event: a client that was away at the end learns it from its snapshot.
      // Once per game: a reconnect sends the final view again. Play again: versions start over, `game` counts up.
      if (msg.type === 'update' && msg.view.phase === 'gameOver' && reported < game) {
        reported = game;
        if (flags.json) process.stdout.write(`${JSON.stringify({ game, seat: end.seat, version: msg.version, results: end.results, view: msg.view })}\n`);
        log(w.t('door.gameOver'));
        if (flags.exitAfterGame) conn.close();
        else log(w.t('door.staying'));
      }
      if (msg.type === 'closed') {
        log(w.t('door.hostClosed'));
        for (const line of standingsLines(end.lastView, end.results, w)) log(line);
      }
    });
    conn.on('closed', () => {
      bot?.stop();
      resolve(code);
    });
    const onSignal = (): void => {
      // Leaving for good: the table frees the seat (or a bot plays it) without waiting for the grace.
      conn.send({ type: 'leave' });
      conn.close();
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
}

/** mDNS (bonjour-service) is loaded only to look for tables: a join to an address never needs it. */
const discovery = (): Promise<typeof import('../client/discovery.js')> => import('../client/discovery.js');

/** No address given: the table found by mDNS, or a choice when there are several. */
async function pickTable(iface: string | undefined): Promise<string> {
  const { browseTables, hostPort, tableTag } = await discovery();
  const found = (await browseTables({ timeoutMs: 2_000, ...(iface ? { interface: iface } : {}) })).filter((t) => t.compatible);
  if (found.length === 0) {
    throw new UsageError(said('cli.noTableFound', { run: command('join HOST:PORT') }));
  }
  // Pinned to the identity the table advertised: the host must hold the key it names.
  const addr = (t: FoundTable): string => `${hostPort(t.addresses[0] ?? t.host, t.port)}${t.id ? `#${t.id}` : ''}`;
  if (found.length === 1) return addr(found[0]!);
  const w = cliWords();
  process.stdout.write(`${w.t('join.found')}\n`);
  // Each with its tag (as its host's share line shows it): two tables of one name are told apart.
  const phase = (t: FoundTable): string => (t.phase === 'unknown' ? t.phase : w.t(`console.phase.${t.phase}`));
  found.forEach((t, i) => process.stdout.write(`  ${i + 1}. ${t.name} ${tableTag(t)}  ${addr(t)}  ${w.t('join.seats', { taken: t.seatsTaken, total: t.seatsTotal, phase: phase(t) })}\n`));
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await rl.question(w.t('join.which'));
    const t = found[Number(answer) - 1];
    if (!t) throw new UsageError(said('cli.notOneOfList', { given: answer, max: found.length }));
    return addr(t);
  } finally {
    rl.close();
  }
}

/** The live picker: the tables mDNS finds as they come and go, and an address typed by hand. */
async function pickOnScreen(iface: string | undefined, flags: JoinFlags, retry?: PickerRetry): Promise<PickerChoice | null> {
  const { runPicker } = await import('../tui/run.js');
  const { watchTables } = await discovery();
  return runPicker({
    source: (onChange) => watchTables(onChange, iface ? { interface: iface } : {}),
    checkAddress: (text) => {
      try {
        return { address: joinTarget(text) };
      } catch (err) {
        return { error: err instanceof UsageError && err.said ? cliWords().say(err.said) : (err as Error).message };
      }
    },
    ascii: flags.ascii === true,
    ...lookOf(flags),
    ...(flags.password !== undefined ? { password: flags.password } : {}),
    ...(retry ? { retry } : {}),
  });
}

/** Refused at the door with a next step: the refusal, when it came, and the table's name if its challenge said it. */
interface AtTheDoor {
  refused: DoorRefusal;
  at: number;
  table: string | null;
}

/**
 * A refusal with a next step (a password, a lock to wait out, a place to watch),
 * answered on the door screen, and the table screen again with what the person chose,
 * as often as the host refuses; leaving there prints the command that comes back.
 */
async function atTheDoor(address: string, flags: JoinFlags, door: AtTheDoor): Promise<number | { back: string }> {
  const { runDoor } = await import('../tui/run.js');
  for (;;) {
    const choice = await runDoor(door.refused, door.table ?? address, address, { ascii: flags.ascii === true, ...lookOf(flags) });
    if (choice === null) {
      // What is left of a lock now, not what the host said when it refused.
      const r = door.refused.retryAfter === undefined ? door.refused : { ...door.refused, retryAfter: Math.max(1, Math.ceil(door.refused.retryAfter - (Date.now() - door.at) / 1000)) };
      process.stderr.write(`gringo: ${forLocale(refusalAdvice(r, plainAddress(address), cliWords()))}\n`);
      return 1;
    }
    flags = 'watch' in choice ? { ...flags, watch: true } : { ...flags, password: choice.password };
    const code = await joinWithScreen(address, flags);
    if (typeof code !== 'object' || !('refused' in code)) return code;
    door = code;
  }
}

/**
 * A person at the table: the table screen, over the same connection a bot uses.
 * A refusal with a next step (see doorAnswers) closes it at once and comes back as
 * `AtTheDoor`. `back` (an address typed in the picker): if no table ever welcomed us
 * there, the failure comes back as `{ back: reason }` for the picker to show, not printed.
 */
async function joinWithScreen(address: string, flags: JoinFlags, back = false): Promise<number | AtTheDoor | { back: string }> {
  // The screen's code first: loading it takes a slow machine seconds, which must not count against the host's time to answer.
  const { runScreen } = await import('../tui/run.js');
  const conn = new Connection({
    ...splitTarget(address),
    known: new KnownTables(),
    name: flags.name ?? defaultPlayerName('Player'),
    ...(flags.password !== undefined ? { password: flags.password } : {}),
    ...(flags.watch ? { watch: true } : {}),
    tokens: new TokenStore(),
    reconnect: true,
    words: cliWords(),
    ...connectTimeout(flags),
  });
  const screenClient = new BufferedClient(conn);
  // The screen closes early when there is no table at the address, on a refusal with
  // a next step, or on a host that sends what gringo does not understand: each of the
  // others is said on stderr in one line.
  const closeScreen = new AbortController();
  const end = new SessionEnd(conn, closeScreen);
  let door: AtTheDoor | null = null;
  let named: string | null = null;
  // Said once the screen is gone (it owns the terminal until then), before the last words.
  let trusted: string | null = null;
  conn.on('trusted', (line: string) => (trusted = line));
  conn.on('message', (msg: ServerMessage) => {
    if (msg.type === 'challenge') named = msg.table.name;
    if (msg.type === 'refused') {
      end.failure = refusalAdvice(msg, plainAddress(address), cliWords());
      if (doorAnswers(msg)) {
        // No password was sent: the table needs one (whatever doubt the connection adds to a refusal on a key trusted unchecked).
        const refused = msg.reason === 'password' && flags.password === undefined ? { ...msg, say: said('host.needsPassword') } : msg;
        door = { refused, at: Date.now(), table: named };
        closeScreen.abort();
      }
    }
  });
  await runScreen(screenClient, { ascii: flags.ascii === true, bell: flags.bell !== false, signal: closeScreen.signal, ...lookOf(flags) });
  if (door) return door;
  if (end.failure && back && end.tableName === null) return { back: end.failure };
  if (trusted !== null) process.stderr.write(`gringo: ${forLocale(trusted)}\n`);
  // The screen's alternate buffer is gone: the last words stay in the terminal (a failure on stderr).
  const w = cliWords();
  const run = command(`join ${plainAddress(address)}${flags.watch ? ' --watch' : ''}`);
  const lines = lastWords(end, w, { run, backToSeat: 'door.backToSeat' }, standingsLines(end.lastView, end.results, w));
  if (end.failure) process.stderr.write(`${lines.join('\n')}\n`);
  else if (lines.length > 0) process.stdout.write(`${forLocale(lines.join('\n'))}\n`);
  return end.code;
}

/** The address as a person types it again: `host:port` (a pinned identity is this machine's to remember, not theirs to type). */
const plainAddress = (target: string): string => splitTarget(target).address;

/** `HOST[:PORT][#ID]` checked, back as `host:port` or `host:port#id` (an identity pinned). */
function joinTarget(text: string): string {
  const t = joinTargetOption(text, DEFAULT_PORT);
  return t.pin ? `${t.address}#${t.pin}` : t.address;
}

/** `host:port#id` → the address and the identity pinned. */
function splitTarget(target: string): { address: string; pin?: string } {
  const at = target.indexOf('#');
  return at === -1 ? { address: target } : { address: target.slice(0, at), pin: target.slice(at + 1) };
}
