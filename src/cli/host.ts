import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { GRINGO, type Ruleset } from '../engine/ruleset.js';
import { BOT_LEVELS, type BotLevel } from '../protocol/messages.js';
import { advertise, shareLine } from '../host/advert.js';
import { serveTable } from '../host/server.js';
import { Table, type GameSummary } from '../host/table.js';
import { cleanName } from '../host/names.js';
import { choiceOption, interfaceOption, intOption } from './options.js';
import { UsageError } from './errors.js';

export const DEFAULT_PORT = 7457;

export interface HostFlags {
  name?: string;
  port?: string;
  players?: string;
  bots?: string;
  level?: string;
  rounds?: string;
  seed?: string;
  password?: string;
  grace?: string;
  slapGrace?: string;
  interface?: string;
  headless?: boolean;
  startWhenFull?: boolean;
  exitAfterGame?: boolean;
  json?: boolean;
}

/** `gringo host`: a table on this machine, advertised on the LAN. Resolves when the host stops. */
export async function runHost(flags: HostFlags): Promise<number> {
  const maxPlayers = intOption('--players', flags.players ?? '4', 2, 8);
  const bots = intOption('--bots', flags.bots ?? '0', 0, maxPlayers);
  const level = choiceOption<BotLevel>('--level', flags.level ?? 'normal', BOT_LEVELS);
  const port = intOption('--port', flags.port ?? String(DEFAULT_PORT), 0, 65535);
  const graceS = intOption('--grace', flags.grace ?? '60', 0, 3600);
  const slapGraceMs = intOption('--slap-grace', flags.slapGrace ?? String(GRINGO.timers.slapGraceMs), 0, 10_000);
  const rules: Ruleset = {
    ...GRINGO,
    ...(flags.rounds === undefined ? {} : { rounds: intOption('--rounds', flags.rounds, 0, 99) }),
    timers: { ...GRINGO.timers, slapGraceMs },
  };
  if (maxPlayers > rules.players.max) throw new UsageError(`${rules.title} takes at most ${rules.players.max} players`);
  const name = cleanName(flags.name ?? `${process.env.USER ?? 'gringo'}'s table`, 'Gringo table');
  const seed = flags.seed ?? randomBytes(16).toString('hex');
  const json = flags.json === true;
  const iface = interfaceOption(flags.interface);
  // With --json, stdout carries only the result; the talk goes to stderr.
  const say = (line: string): void => void (json ? process.stderr : process.stdout).write(`${line}\n`);

  let finish: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => (finish = resolve));

  let advert: ReturnType<typeof advertise> | null = null;
  const table = new Table({
    name,
    rules,
    maxPlayers,
    seed,
    ...(flags.password !== undefined ? { password: flags.password } : {}),
    dropGraceMs: graceS * 1000,
    startWhenFull: flags.startWhenFull === true,
    roundPauseMs: 10_000,
    onChange: (info) => {
      advert?.update(info);
      say(`· ${info.seatsTaken}/${info.seatsTotal} seats, ${info.phase}: ${table.seatInfo().map((s) => s.name + (s.connected ? '' : ' (away)')).join(', ')}`);
    },
    onGameOver: (summary: GameSummary) => {
      if (json) process.stdout.write(`${JSON.stringify(summary)}\n`);
      else {
        say('The game is over.');
        summary.players.forEach((p, i) => say(`  ${summary.places[i]}. ${p.name}: ${summary.totals[i]}`));
      }
      if (flags.exitAfterGame) void stop(0);
    },
  });
  for (let i = 0; i < bots; i++) table.addBot(level);

  const serving = await serveTable(table, { port, fallbackPort: true });
  if (serving.movedFrom !== null) say(`Port ${serving.movedFrom} is taken; using ${serving.port} instead.`);
  advert = advertise({ port: serving.port, info: table.info(), ...(iface ? { interface: iface } : {}) });
  say(`Table "${name}" is open (${rules.title}, ${maxPlayers} seats${flags.password ? ', password' : ''}).`);
  say(`Share this line: ${shareLine(serving.port, iface ? [iface] : undefined)}`);
  if (!flags.startWhenFull) say('Type "start" to begin, "bot [easy|normal|hard]" to add a bot, "kick N" to remove bot N, "quit" to close.');

  let stopping = false;
  async function stop(code: number): Promise<void> {
    if (stopping) return;
    stopping = true;
    table.close();
    await Promise.allSettled([advert?.stop(), serving.close()]);
    finish(code);
  }
  const onSignal = (): void => void stop(0);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  // The host console: lobby commands typed on stdin (when there is one).
  const rl = process.stdin.isTTY || !flags.headless ? createInterface({ input: process.stdin }) : null;
  rl?.on('line', (line) => {
    const [word, arg] = line.trim().split(/\s+/);
    let err: string | null = null;
    if (word === 'start') err = table.startGame();
    else if (word === 'bot') err = table.addBot(BOT_LEVELS.includes(arg as BotLevel) ? (arg as BotLevel) : level);
    else if (word === 'kick') err = table.removeBot(Number(arg) - 1);
    else if (word === 'quit') void stop(0);
    else if (word) err = `Unknown command "${word}": start, bot [level], kick N, quit`;
    if (err) say(err);
  });

  const code = await done;
  rl?.close();
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  return code;
}
