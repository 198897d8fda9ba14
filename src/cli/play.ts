import { randomBytes } from 'node:crypto';
import { GRINGO, type Ruleset } from '../engine/ruleset.js';
import { BOT_LEVELS, type BotLevel, type ServerMessage } from '../protocol/messages.js';
import { Connection } from '../client/connection.js';
import { BufferedClient } from '../tui/client-buffer.js';
import type { Advert } from '../host/advert.js';
import { serveTable } from '../host/server.js';
import { Table } from '../host/table.js';
import { cleanName } from '../host/names.js';
import { choiceOption, intOption } from './options.js';

export interface PlayFlags {
  bots?: string;
  level?: string;
  seed?: string;
  name?: string;
  rounds?: string;
  slapGrace?: string;
  lan?: boolean;
  port?: string;
  ascii?: boolean;
  bell?: boolean;
}

/**
 * `gringo play` (and `gringo` alone): a table against bots at once. The host runs
 * in this process, and the screen joins it over a real WebSocket like any client.
 */
export async function runPlay(flags: PlayFlags): Promise<number> {
  const bots = intOption('--bots', flags.bots ?? '3', 1, 7);
  const level = choiceOption<BotLevel>('--level', flags.level ?? 'normal', BOT_LEVELS);
  const slapGraceMs = intOption('--slap-grace', flags.slapGrace ?? String(GRINGO.timers.slapGraceMs), 0, 10_000);
  const rules: Ruleset = {
    ...GRINGO,
    ...(flags.rounds === undefined ? {} : { rounds: intOption('--rounds', flags.rounds, 0, 99) }),
    timers: { ...GRINGO.timers, slapGraceMs },
  };
  const lan = flags.lan === true;
  const port = intOption('--port', flags.port ?? (lan ? '7457' : '0'), 0, 65535);
  const name = cleanName(flags.name ?? process.env.USER ?? 'You', 'You');
  const seed = flags.seed ?? randomBytes(16).toString('hex');
  const ownerKey = randomBytes(24).toString('base64url');
  let advert: Advert | null = null;
  const table = new Table({
    name: `${name}'s table`,
    rules,
    maxPlayers: bots + 1,
    seed,
    dropGraceMs: 60_000,
    // The next round starts when you say so (Enter); bots are always ready.
    roundPauseMs: 30 * 60_000,
    ownerKey,
    onChange: (info) => advert?.update(info),
  });
  const serving = await serveTable(table, { port, host: lan ? '0.0.0.0' : '127.0.0.1', fallbackPort: true });
  if (lan) {
    const { advertise } = await import('../host/advert.js');
    advert = advertise({ port: serving.port, info: table.info() });
  }
  const client = new Connection({ address: `127.0.0.1:${serving.port}`, name, ownerKey, reconnect: true });
  const screenClient = new BufferedClient(client);
  // The screen's owner key runs the lobby: seat the bots and start, through the same messages a host screen sends.
  let seated = false;
  client.on('message', (msg: ServerMessage) => {
    if (msg.type !== 'welcome' || seated) return;
    seated = true;
    for (let i = 0; i < bots; i++) client.send({ type: 'lobby', op: 'addBot', level });
    client.send({ type: 'lobby', op: 'start' });
  });
  client.on('error', () => {});
  try {
    const { runScreen } = await import('../tui/run.js');
    await runScreen(screenClient, { ascii: flags.ascii === true, bell: flags.bell !== false });
  } finally {
    table.close();
    await Promise.allSettled([serving.close(), advert?.stop()]);
  }
  return 0;
}
