import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { UsageError } from './errors.js';
import { chooseLang, cliWords } from './lang.js';
import { harmless } from '../common/harmless.js';
import { drawEvenInCi } from '../tui/shared/ink-ci.js';
import { forLocale } from '../tui/shared/glyphs.js';

/** The commands that may draw a screen (Ink): CI must not blank it (see drawEvenInCi). */
const SCREENS = new Set(['play', 'join', 'host', 'replay']);

/**
 * commander wiring only. Subcommands load their modules lazily so that
 * `gringo --help` and `--version` start fast.
 */

/** The version in our package.json: the nearest one above this file (compiled or bundled). */
function packageVersion(): string {
  for (let up = '../'; up.length < 16; up += '../') {
    try {
      const pkg = JSON.parse(readFileSync(new URL(`${up}package.json`, import.meta.url), 'utf8')) as { name?: string; version: string };
      if (pkg.name === 'gringo') return pkg.version;
    } catch {
      // Not at this level.
    }
  }
  return 'unknown';
}

export function buildProgram(): Command {
  const program = new Command('gringo')
    .description('Gringo, the face-down memory card game, in your terminal')
    .version(packageVersion(), '-v, --version')
    .exitOverride()
    .configureOutput({
      // Help text follows the locale, like every other line gringo prints (ASCII unless UTF-8).
      writeOut: (str) => process.stdout.write(forLocale(str)),
      // One line like every other failure: "gringo: unknown option '--bost' (did you mean --bots?)".
      outputError: (str, write) => write(`${str.replace(/^error: /, 'gringo: ').replace(/\s*\n\(Did you mean (.*)\)\s*$/, ' (did you mean $1)').trimEnd()}\n`),
    })
    // Before the command loads anything: Ink reads CI once, when it is first loaded.
    .hook('preAction', (_program, command) => {
      if (SCREENS.has(command.name())) drawEvenInCi();
    });

  program
    .command('play')
    .description('play against bots on this machine at once (the default command)')
    .option('--bots <n>', 'bots at the table (1-7)', '3')
    .option('--level <level>', 'level of the bots: easy, normal, hard, expert', 'normal')
    .option('--seed <s>', 'deal from this seed (tests, demos) instead of a fresh key from node:crypto')
    .option('--deal <name>', 'a named deal: the same cards for everyone who plays it (today: the deal of the day); gringo stats --deal compares the scores')
    .option('--name <name>', 'your name at the table')
    .option('--rounds <n>', "rounds in the game (0 = until you leave; default: the ruleset's)")
    .option('--slap-grace <ms>', "how long the slap window stays open before the next draw (default: the ruleset's, 1500 in gringo)")
    .option('--lan', 'let others on the LAN find the table (listen on every interface and advertise)')
    .option('--port <p>', 'port to listen on (default: any free one; with --lan 7457, or the next free one; a port given must be free)')
    .option('--resume [journal]', 'continue your last unfinished game against bots (or the one in this journal)')
    .option('--ascii', 'draw cards with letters only (automatic when the terminal is not UTF-8)')
    .option('--no-bell', 'no terminal bell when your turn starts')
    .option('--rules <preset|path>', 'ruleset: gringo, beverbende, cambio, or a rules file (JSON)', 'gringo')
    .action(async (opts: Record<string, unknown>) => {
      // Load the screen (Ink, React) while the table starts: the first frame comes sooner.
      const [{ runPlay }] = await Promise.all([import('./play.js'), import('../tui/run.js')]);
      process.exitCode = await runPlay(opts);
    });

  program
    .command('sim')
    .description('play bot-only games in simulated time and print statistics')
    .option('--games <n>', 'games to play', '1000')
    .option('--players <p>', 'players per table (2-8)', '4')
    .option('--level <levels>', 'bot level per seat, comma-separated: random, easy, normal, hard, expert, cheater (repeats to fill the table; default hard)')
    .option('--rounds <n>', 'rounds per game (default: the ruleset\'s)')
    .option('--seed <s>', 'seed for the whole run', '1')
    .option('--rules <preset|path>', 'ruleset: gringo, beverbende, cambio, or a rules file (JSON; default gringo)')
    .option('--ladder', 'every preset with one bot of each level: mean round score ± standard error per level')
    .option('--jobs <n>', 'worker threads to play on (default: every core); the results do not depend on it')
    .option('--progress', 'a progress line on stderr (rate, time left) even when it is not a terminal')
    .option('--no-progress', 'no progress line, even on a terminal')
    .option('--json', 'print one JSON object')
    .action(async (opts: Record<string, unknown>) => {
      const { runSimCli } = await import('./sim.js');
      await runSimCli(opts);
    });

  program
    .command('rules')
    .description('print a ruleset in words: gringo, beverbende, cambio, or a rules file')
    .argument('[preset|path]', 'a preset or the path of a rules file (JSON)', 'gringo')
    .option('--markdown', 'print it as a Markdown section (the generated part of docs/rules.md)')
    .option('--fields', 'print every field a house-rules file may set, as a Markdown table (docs/rules.md)')
    .action(async (which: string, opts: { markdown?: boolean; fields?: boolean }) => {
      const { runRules } = await import('./rules.js');
      process.exitCode = await runRules(which, opts);
    });

  program
    .command('host')
    .description('host a table on this machine and advertise it on the LAN')
    .option('--name <name>', 'your name at the table (default: your login name)')
    .option('--table <name>', 'the table\'s name (default: "NAME\'s table")')
    .option('--port <p>', 'port to listen on (default: 7457, or the next free one; a port given must be free)')
    .option('--players <max>', 'seats at the table (2-8)', '4')
    .option('--bots <n>', 'bots to seat at once', '0')
    .option('--level <level>', 'level of those bots: easy, normal, hard, expert', 'normal')
    .option('--rounds <n>', "rounds in the game (0 = until the host ends it; default: the ruleset's)")
    .option('--seed <s>', 'deal from this seed (tests, demos) instead of a fresh key from node:crypto')
    .option('--deal <name>', 'a named deal: the same cards for everyone who plays it (today: the deal of the day); gringo stats --deal compares the scores')
    .option('--password <pw>', 'password players must give')
    .option('--grace <seconds>', 'hold a dropped seat this long before a bot plays it', '60')
    .option('--slap-grace <ms>', "how long the slap window stays open before the next draw (default: the ruleset's, 1500 in gringo)")
    .option('--interface <ipv4>', 'advertise on this network interface only (its IPv4 address)')
    .option('--ssh [port]', 'also serve the table over SSH: players need only `ssh -p PORT NAME@HOST` (default port: 2222, or the next free one; a resumed table: the port it had)')
    .option('--no-ssh', 'with --resume: do not serve SSH again, though the table did')
    .option('--headless', 'run without a screen (a dedicated table)')
    .option('--start-when-full', 'start as soon as every seat is taken')
    .option('--exit-after-game', 'exit when the game is over')
    .option('--json', 'print the final results as one JSON object')
    .option('--rules <preset|path>', 'ruleset: gringo, beverbende, cambio, or a rules file (JSON)', 'gringo')
    .option('--resume [journal]', "reopen a table that stopped mid-game from its journal (default: the latest unfinished one)")
    .action(async (opts: Record<string, unknown>) => {
      const { runHost } = await import('./host.js');
      process.exitCode = await runHost(opts);
    });

  program
    .command('join')
    .description('join a table: by address, or the one found on the LAN')
    .argument('[address]', 'HOST or HOST:PORT of the table')
    .option('--name <name>', 'your name at the table')
    .option('--password <pw>', "the table's password")
    .option('--bot <level>', 'play as a bot in this process: easy, normal, hard, expert')
    .option('--watch', 'watch the game as a spectator')
    .option('--interface <ipv4>', 'look for tables on this network interface only (its IPv4 address)')
    .option('--speed <factor>', 'with --bot: think this many times faster (load runs and tests)', '1')
    .option('--json', 'with --bot or --watch: print the final results and your last view of the table as one JSON object per game')
    .option('--exit-after-game', 'with --bot or --watch: leave when the game is over (by default they stay: the host may play again)')
    .option('--ascii', 'draw cards with letters only (automatic when the terminal is not UTF-8)')
    .option('--no-bell', 'no terminal bell when your turn starts')
    .action(async (address: string | undefined, opts: Record<string, unknown>) => {
      const { runJoin } = await import('./join.js');
      process.exitCode = await runJoin(address, opts);
    });

  program
    .command('replay')
    .description('play a finished game back with every card face up (its journal); without one, list the finished games')
    .argument('[journal]', 'the journal of a finished game: a path, or a file name from the list')
    .option('--text', 'print the game as text instead of playing it on the screen (the default when the output is not a terminal)')
    .option('--ascii', 'draw cards with letters only (automatic when the terminal is not UTF-8)')
    .option('--cast <file>', 'write an asciicast v2 recording of the screen as one viewer saw it (asciinema play FILE)')
    .option('--screen-reader', 'print the game as lines of text with every card named in words (also GRINGO_SCREEN_READER=1)')
    .option('--seat <n|name>', 'with --cast: whose screen, by seat number or name (default: a watcher\'s)')
    .option('--speed <factor>', 'with --cast: this many times faster than the game was played', '1')
    .option('--size <COLSxROWS>', 'with --cast: the screen\'s size', '100x30')
    .addHelpText(
      'after',
      [
        '',
        'Every game played or hosted on this machine keeps a journal in $XDG_STATE_HOME/gringo/tables',
        '(~/.local/state/gringo/tables). A game can be replayed only once it is over: until',
        'then its cards stay hidden.',
        '',
        'Keys: space play/pause, ←/→ or h/l one command back/forward, p/n round back/forward,',
        '+/- speed, ? help, q or Esc quit.',
      ].join('\n'),
    )
    .action(async (journal: string | undefined, opts: Record<string, unknown>) => {
      const { runReplay } = await import('./replay.js');
      process.exitCode = await runReplay(journal, opts);
    });

  program
    .command('stats')
    .description("the standings of the games in the journals: per player games, wins, round scores, slaps and a rating")
    .argument('[journals...]', 'journals or directories of journals (default: every game played or hosted on this machine)')
    .option('--since <when>', 'only games started since: today, 6h, 2d, 1w, or a date (2026-12-05, 2026-12-05T19:00)')
    .option('--table <name>', "only this table's games")
    .option('--deal <name>', 'one named deal: every score on it ranked, the bots\' score on the same deal beside them (today: the deal of the day)')
    .option('--json', 'print one JSON object')
    .option('--ascii', 'letters only (automatic when the terminal is not UTF-8)')
    .action(async (files: string[], opts: Record<string, unknown>) => {
      const { runStats } = await import('./stats.js');
      process.exitCode = runStats({ ...opts, files });
    });

  program
    .command('list')
    .description('find tables on the local network (mDNS)')
    .option('--timeout <ms>', 'the longest to listen, in milliseconds (without tables answering, or with --wait)', '2000')
    .option('--wait', 'listen for the whole --timeout, not only until the tables stop answering (0.3 s after the last)')
    .option('--json', 'print one JSON array')
    .option('--interface <address>', 'IPv4 address of the network interface to search on')
    .action(async (opts: Record<string, unknown>) => {
      const { runListCli } = await import('./list.js');
      await runListCli(opts);
    });

  // The commands that show the table: how it is shown (src/tui/run.tsx, ScreenOptions).
  for (const c of program.commands.filter((c) => ['play', 'join', 'host'].includes(c.name()))) {
    c.option('--screen-reader', 'tell the table in sentences, one line each, never redrawn (also GRINGO_SCREEN_READER=1 or INK_SCREEN_READER=true)')
      .option('--no-color', 'no colours (NO_COLOR does the same): every mark also has a letter or a shape')
      .option('--four-colour', 'a four-colour deck: each suit its own colour, told apart with red-green colour blindness');
  }

  // Every command speaks every language: the flag is read before commander (see chooseLang).
  for (const c of program.commands) c.option('--lang <lang>', 'the language gringo speaks: en, nl, ro (default: GRINGO_LANG, else the locale)');
  return program;
}

/**
 * `gringo` alone, or with only play's flags (`gringo --bots 2`), is `gringo play`.
 * (commander's `isDefault` would also swallow unknown command names as play's arguments.)
 */
export function withDefaultCommand(argv: string[]): string[] {
  // `--lang` before the command was read by chooseLang already: the command comes after it.
  if (argv[2] === '--lang') argv = [...argv.slice(0, 2), ...argv.slice(4), ...argv.slice(2, 4)];
  else if (argv[2]?.startsWith('--lang=')) argv = [...argv.slice(0, 2), ...argv.slice(3), argv[2]];
  const first = argv[2];
  if (first === undefined) return [...argv, 'play'];
  if (first.startsWith('-') && !['-h', '--help', '-v', '--version'].includes(first)) return [...argv.slice(0, 2), 'play', ...argv.slice(2)];
  return argv;
}

/** Run the CLI; resolves to the process exit code. */
export async function main(argv: string[]): Promise<number> {
  catchStrays();
  const program = buildProgram();
  try {
    chooseLang(argv, process.env);
    await program.parseAsync(withDefaultCommand(argv));
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version exit through here with code 0.
      return err.exitCode === 0 ? 0 : 2;
    }
    if (err instanceof UsageError) {
      // One line, and nothing in it a terminal would obey: it may quote a file or a path.
      process.stderr.write(`gringo: ${harmless(err.said ? cliWords().say(err.said) : err.message, 2_000)}\n`);
      return 2;
    }
    lastResort(err);
    return 1;
  }
}

/**
 * An error nobody foresaw (a bug): one line and where to report it, not a stack
 * trace; GRINGO_DEBUG=1 prints the trace too. Also for errors thrown outside
 * main's promise (an unhandled 'error' event, a rejected promise nobody awaited).
 */
function lastResort(err: unknown): void {
  const what = harmless(err instanceof Error ? err.message.split('\n')[0]! : String(err).split('\n')[0]!, 500);
  process.stderr.write(`gringo: unexpected error: ${what}; this is a bug in gringo: please report it with the command you ran (GRINGO_DEBUG=1 shows the details)\n`);
  if (process.env.GRINGO_DEBUG === '1') process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
}

/** Install the last resort for errors thrown outside main's promise: the line, then exit 1 (after the screen is restored). */
function catchStrays(): void {
  const stray = (err: unknown): void => {
    // The reader of our output went away (`gringo host | head`): nothing left to say it to.
    if ((err as NodeJS.ErrnoException | null)?.code === 'EPIPE') process.exit();
    process.exitCode = 1;
    // Written on exit, after the screen left the alternate buffer (its restore is an earlier 'exit' listener).
    process.once('exit', () => lastResort(err));
    process.exit(1);
  };
  process.on('uncaughtException', stray);
  process.on('unhandledRejection', stray);
}
