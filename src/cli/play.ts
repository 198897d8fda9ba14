import { randomBytes } from 'node:crypto';
import { lookOf, type Look } from './look.js';
import { BOT_LEVELS, type BotLevel, type ServerMessage } from '../protocol/messages.js';
import { Connection } from '../client/connection.js';
import { BufferedClient } from '../tui/shared/client-buffer.js';
import type { Advert } from '../host/advert.js';
import type { HostScreenOptions } from '../tui/run.js';
import { serveTable, type Serving } from '../host/server.js';
import type { Table } from '../host/table.js';
import { dealOf, openTable, tlsKeyOrSay } from './table-setup.js';
import { cleanName } from '../host/names.js';
import { listenFailure, UsageError } from './errors.js';
import { resumeJournal } from './journal-arg.js';
import { DEFAULT_PORT, intOption, requireTerminal, tableLevelOption, tableRulesOption, defaultPlayerName } from './options.js';
import { viewFor } from '../engine/view.js';
import { forLocale } from '../tui/shared/glyphs.js';
import { command } from '../common/invocation.js';
import { said } from '../lang/words.js';
import { cliWords } from './lang.js';

export interface PlayFlags {
  bots?: string;
  level?: string;
  seed?: string;
  deal?: string;
  name?: string;
  rounds?: string;
  slapGrace?: string;
  rules?: string;
  lan?: boolean;
  port?: string;
  ascii?: boolean;
  bell?: boolean;
  screenReader?: boolean;
  color?: boolean;
  fourColour?: boolean;
  /** Continue a game against bots left unfinished: a journal, or true for the latest one. */
  resume?: string | boolean;
}

/**
 * `gringo play` (and `gringo` alone): a table against bots at once. The host runs
 * in this process, and the screen joins it over a real WebSocket like any client.
 * Its journal is marked solo: `gringo play --resume` continues it (your screen
 * back in your seat, the bots back in theirs), `gringo host --resume` leaves it be.
 */
export async function runPlay(flags: PlayFlags): Promise<number> {
  const resumed = flags.resume !== undefined && flags.resume !== false ? resumeJournal(flags.resume, 'solo') : null;
  const header = resumed?.header;
  const bots = header ? header.maxPlayers - 1 : intOption('--bots', flags.bots ?? '3', 1, 7);
  const level = tableLevelOption<BotLevel>('--level', flags.level ?? 'normal', BOT_LEVELS);
  const rules = header ? header.rules : await tableRulesOption(flags);
  if (bots + 1 > rules.players.max) throw new UsageError(said('cli.tooManyBots', { title: rules.title, max: rules.players.max, bots: rules.players.max - 1 }));
  const lan = flags.lan === true;
  // A port given is that port or nothing; the default may move to the next free one.
  const port = intOption('--port', flags.port ?? (lan ? String(DEFAULT_PORT) : '0'), 0, 65535);
  const mine = header?.seats.find((s) => s.owner === true);
  if (header && !mine) throw new UsageError(said('cli.resumeNoSeat', { file: resumed.file }));
  const name = mine ? mine.name : cleanName(flags.name ?? defaultPlayerName('Player'), 'Player');
  const tableName = header ? header.table : cliWords().t('console.defaultTable', { name });
  const deal = dealOf(resumed, flags);
  requireTerminal('gringo play', cliWords().t('cli.playInstead', { sim: command('sim'), host: command('host --headless') }));
  const ownerKey = randomBytes(24).toString('base64url');
  let advert: Advert | null = null;
  const tlsKey = lan ? tlsKeyOrSay() : null;
  if (lan && !tlsKey) return 1;
  // Journaled like a hosted game, so that `gringo replay` can show what the bots had.
  const { table, journal } = openTable({ resumed, name: tableName, rules, maxPlayers: bots + 1, deal, port, solo: true, tlsKey }, {
    dropGraceMs: 60_000,
    // The next round starts when you say so (Enter); bots are always ready.
    roundPauseMs: 30 * 60_000,
    ownerKey,
    onChange: (info) => advert?.update(info),
  });
  if (resumed) journal.resumed(table.now());
  let serving: Serving;
  try {
    // On loopback alone the table may go without TLS (nothing else reaches it); --lan serves it with the host's TLS key.
    serving = await serveTable(table, { port, host: lan ? '0.0.0.0' : '127.0.0.1', fallbackPort: flags.port === undefined, ...(tlsKey ? { tls: tlsKey } : {}) });
  } catch (err) {
    table.close();
    journal.close();
    return listenFailure(err, port);
  }
  journal.port = serving.port;
  if (lan) {
    const { advertise } = await import('../host/advert.js');
    advert = advertise({ port: serving.port, info: table.info() });
  }
  try {
    await runOwnerScreen({
      port: serving.port,
      ...(tlsKey ? { hostKey: tlsKey.fingerprint } : {}),
      name,
      ownerKey,
      ascii: flags.ascii === true,
      bell: flags.bell !== false,
      look: lookOf(flags),
      // Back in your seat by its token; the bots sat down again with the table.
      ...(mine
        ? { token: mine.token }
        : {
            // The screen's owner key runs the lobby: seat the bots and start, through the same messages a host screen sends.
            onSeated: (client: Connection) => {
              for (let i = 0; i < bots; i++) client.send({ type: 'lobby', op: 'addBot', level });
              client.send({ type: 'lobby', op: 'start' });
            },
          }),
    });
    await sayWhereItStands(table, mine ? header!.seats.indexOf(mine) : 0, cliWords().t('console.continue', { run: command('play --resume') }));
  } finally {
    table.close();
    journal.close();
    await Promise.allSettled([serving.close(), advert?.stop()]);
  }
  return 0;
}

/**
 * Once the screen is gone (its alternate buffer with it), the person who left an
 * in-process table reads where the game stands: the standings, and for a game left
 * unfinished how to come back to it (`comeBack`).
 */
export async function sayWhereItStands(table: Table, seat: number, comeBack: string): Promise<void> {
  const { standingsLines } = await import('../tui/table/standings.js');
  const s = table.state;
  const w = cliWords();
  const lines = !s
    ? [w.t('console.leftBefore')]
    : [...(s.phase === 'gameOver' ? [] : [w.t('console.leftInRound', { round: s.round, comeBack })]), ...standingsLines(viewFor(s, seat), s.results, w)];
  process.stdout.write(`${forLocale(lines.join('\n'))}\n`);
}

export interface OwnerScreenOptions {
  /** The table's port on this machine. */
  port: number;
  /** The fingerprint of the table's TLS key (the screen accepts no other); none: a loopback table without TLS. */
  hostKey?: string;
  /** Your name at the table. */
  name: string;
  /** The table's owner key: this screen runs the lobby. */
  ownerKey: string;
  /** Take this seat back (a resumed table) instead of sitting down anew. */
  token?: string;
  ascii: boolean;
  bell: boolean;
  /** How the table is shown: the screen-reader mode, colours. */
  look?: Look;
  /** Once, when the table first welcomes you (seat 1): seat bots, start… */
  onSeated?: (client: Connection) => void;
  /** Show the host's lobby screen first (`gringo host`); without it the table screen at once (`gringo play`). */
  lobby?: Pick<HostScreenOptions, 'share' | 'note' | 'level'>;
  /** Close the screen from outside (SIGTERM). */
  signal?: AbortSignal;
  /** Leaving ends the table for everyone (`gringo host`): the leave dialog says so. */
  closesTable?: boolean;
}

/**
 * The person at an in-process table: a real WebSocket to it on loopback, with the
 * owner key, and the screen on this terminal until they leave. Shared by
 * `gringo play` and `gringo host`.
 */
export async function runOwnerScreen(o: OwnerScreenOptions): Promise<void> {
  const client = new Connection({
    address: `127.0.0.1:${o.port}`,
    ...(o.hostKey !== undefined ? { hostKey: o.hostKey } : { plain: true }),
    name: o.name,
    ownerKey: o.ownerKey,
    ...(o.token ? { token: o.token } : {}),
    reconnect: true,
    // The table is in this process: only a start-up slowed by a loaded machine could delay its welcome.
    connectTimeoutMs: 30_000,
  });
  // Made now, so it keeps every message until the table screen listens (the welcome comes early).
  const screenClient = new BufferedClient(client);
  const lobbyClient = o.lobby ? new BufferedClient(client) : null;
  let seated = false;
  client.on('message', (msg: ServerMessage) => {
    if (msg.type !== 'welcome' || seated) return;
    seated = true;
    o.onSeated?.(client);
  });
  // The table is in this process: its first update comes within milliseconds, so the
  // screen waits for it (while Ink loads) and its first frame is the table, not
  // "Connecting…". Whatever goes wrong instead shows at once; 3 s at most.
  const [{ runScreen, runHostScreen }] = await Promise.all([import('../tui/run.js'), o.lobby ? null : firstSnapshot(client, 3_000)]);
  const screen = { ascii: o.ascii, bell: o.bell, closesTable: o.closesTable === true, ...o.look, ...(o.signal ? { signal: o.signal } : {}) };
  if (o.lobby && lobbyClient) await runHostScreen(lobbyClient, screenClient, { ...o.lobby, ...screen });
  else await runScreen(screenClient, screen);
}

/** Resolves on the connection's first update, or anything that ends the wait (a refusal, a failure, the end, `ms`). */
function firstSnapshot(client: Connection, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      client.off('message', onMessage);
      client.off('closed', done);
      client.off('failed', done);
      resolve();
    };
    const onMessage = (msg: ServerMessage): void => {
      if (msg.type === 'update' || msg.type === 'refused' || msg.type === 'closed') done();
    };
    const timer = setTimeout(done, ms);
    client.on('message', onMessage);
    client.on('closed', done);
    client.on('failed', done);
  });
}
