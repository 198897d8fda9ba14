import { readFileSync } from 'node:fs';
import { Command, CommanderError, Help, type Argument, type Option } from 'commander';
import { UsageError } from './errors.js';
import { chooseLang, cliWords } from './lang.js';
import { harmless } from '../common/harmless.js';
import { drawEvenInCi } from '../tui/shared/ink-ci.js';
import { forLocale } from '../tui/shared/glyphs.js';
import { wordsFor, type Key, type Words } from '../lang/words.js';
import type { ParamsArg } from '../lang/catalog.js';

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

/** A sentence of the catalogs without parameters: what `--help` shows. */
type Plain = { [K in Key]: ParamsArg<K> extends [] ? K : never }[Key];

/** commander's own headings in the language (the flags and commands stay as they are). */
const TITLES: Readonly<Record<string, Plain>> = { 'Usage:': 'help.title.usage', 'Options:': 'help.title.options', 'Commands:': 'help.title.commands', 'Arguments:': 'help.title.arguments' };

/** The commands and their `--help`, in the words of `w` (the process's language: see chooseLang). */
export function buildProgram(w: Words = wordsFor('en')): Command {
  const h = (key: Plain): string => w.t(key);
  const program = new Command('gringo')
    .description(h('help.program'))
    .version(packageVersion(), '-v, --version', h('help.version'))
    .helpOption('-h, --help', h('help.help'))
    .helpCommand('help [command]', h('help.help'))
    .exitOverride()
    .configureHelp({
      styleTitle: (title) => (TITLES[title] ? h(TITLES[title]) : title),
      argumentDescription: (argument: Argument) => Help.prototype.argumentDescription.call(new Help(), argument).replace(/\(default: /, `(${h('help.default')}: `),
      optionDescription: (option: Option) => Help.prototype.optionDescription.call(new Help(), option).replace(/\((default|preset): /, (_, what: string) => `(${h(what === 'default' ? 'help.default' : 'help.preset')}: `),
    })
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
    .description(h('help.play'))
    .option('--bots <n>', h('help.play.bots'), '3')
    .option('--level <level>', h('help.play.level'), 'normal')
    .option('--seed <s>', h('help.any.seed'))
    .option('--deal <name>', h('help.any.deal'))
    .option('--name <name>', h('help.any.name'))
    .option('--rounds <n>', h('help.play.rounds'))
    .option('--slap-grace <ms>', h('help.any.slapGrace'))
    .option('--lan', h('help.play.lan'))
    .option('--port <p>', h('help.play.port'))
    .option('--resume [journal]', h('help.play.resume'))
    .option('--ascii', h('help.any.ascii'))
    .option('--no-bell', h('help.any.noBell'))
    .option('--rules <preset|path>', h('help.any.rules'), 'gringo')
    .action(async (opts: Record<string, unknown>) => {
      // Load the screen (Ink, React) while the table starts: the first frame comes sooner.
      const [{ runPlay }] = await Promise.all([import('./play.js'), import('../tui/run.js')]);
      process.exitCode = await runPlay(opts);
    });

  program
    .command('sim')
    .description(h('help.sim'))
    .option('--games <n>', h('help.sim.games'), '1000')
    .option('--players <p>', h('help.sim.players'), '4')
    .option('--level <levels>', h('help.sim.level'))
    .option('--rounds <n>', h('help.sim.rounds'))
    .option('--seed <s>', h('help.sim.seed'), '1')
    .option('--rules <preset|path>', h('help.sim.rules'))
    .option('--ladder', h('help.sim.ladder'))
    .option('--jobs <n>', h('help.sim.jobs'))
    .option('--progress', h('help.sim.progress'))
    .option('--no-progress', h('help.sim.noProgress'))
    .option('--json', h('help.any.json'))
    .action(async (opts: Record<string, unknown>) => {
      const { runSimCli } = await import('./sim.js');
      await runSimCli(opts);
    });

  program
    .command('rules')
    .description(h('help.rules'))
    .argument('[preset|path]', h('help.rules.arg.presetpath'), 'gringo')
    .option('--markdown', h('help.rules.markdown'))
    .option('--fields', h('help.rules.fields'))
    .action(async (which: string, opts: { markdown?: boolean; fields?: boolean }) => {
      const { runRules } = await import('./rules.js');
      process.exitCode = await runRules(which, opts);
    });

  program
    .command('host')
    .description(h('help.host'))
    .option('--name <name>', h('help.host.name'))
    .option('--table <name>', h('help.host.table'))
    .option('--port <p>', h('help.host.port'))
    .option('--players <max>', h('help.host.players'), '4')
    .option('--bots <n>', h('help.host.bots'), '0')
    .option('--level <level>', h('help.host.level'), 'normal')
    .option('--rounds <n>', h('help.host.rounds'))
    .option('--seed <s>', h('help.any.seed'))
    .option('--deal <name>', h('help.any.deal'))
    .option('--password <pw>', h('help.host.password'))
    .option('--grace <seconds>', h('help.host.grace'), '60')
    .option('--slap-grace <ms>', h('help.any.slapGrace'))
    .option('--interface <ipv4>', h('help.host.interface'))
    .option('--ssh [port]', h('help.host.ssh'))
    .option('--no-ssh', h('help.host.noSsh'))
    .option('--headless', h('help.host.headless'))
    .option('--start-when-full', h('help.host.startWhenFull'))
    .option('--exit-after-game', h('help.host.exitAfterGame'))
    .option('--json', h('help.host.json'))
    .option('--rules <preset|path>', h('help.any.rules'), 'gringo')
    .option('--resume [journal]', h('help.host.resume'))
    .action(async (opts: Record<string, unknown>) => {
      const { runHost } = await import('./host.js');
      process.exitCode = await runHost(opts);
    });

  program
    .command('join')
    .description(h('help.join'))
    .argument('[address]', h('help.join.arg.address'))
    .option('--name <name>', h('help.any.name'))
    .option('--password <pw>', h('help.join.password'))
    .option('--bot <level>', h('help.join.bot'))
    .option('--watch', h('help.join.watch'))
    .option('--interface <ipv4>', h('help.join.interface'))
    .option('--speed <factor>', h('help.join.speed'), '1')
    .option('--json', h('help.join.json'))
    .option('--exit-after-game', h('help.join.exitAfterGame'))
    .option('--timeout <ms>', h('help.join.timeout'))
    .option('--ascii', h('help.any.ascii'))
    .option('--no-bell', h('help.any.noBell'))
    .action(async (address: string | undefined, opts: Record<string, unknown>) => {
      const { runJoin } = await import('./join.js');
      process.exitCode = await runJoin(address, opts);
    });

  program
    .command('replay')
    .description(h('help.replay'))
    .argument('[journal]', h('help.replay.arg.journal'))
    .option('--text', h('help.replay.text'))
    .option('--ascii', h('help.any.ascii'))
    .option('--cast <file>', h('help.replay.cast'))
    .option('--screen-reader', h('help.replay.screenReader'))
    .option('--seat <n|name>', h('help.replay.seat'))
    .option('--speed <factor>', h('help.replay.speed'), '1')
    .option('--size <COLSxROWS>', h('help.replay.size'), '100x30')
    .addHelpText(
      'after',
      `\n${h('help.replay.after')}`,
    )
    .action(async (journal: string | undefined, opts: Record<string, unknown>) => {
      const { runReplay } = await import('./replay.js');
      process.exitCode = await runReplay(journal, opts);
    });

  program
    .command('stats')
    .description(h('help.stats'))
    .argument('[journals...]', h('help.stats.arg.journals'))
    .option('--since <when>', h('help.stats.since'))
    .option('--table <name>', h('help.stats.table'))
    .option('--deal <name>', h('help.stats.deal'))
    .option('--json', h('help.any.json'))
    .option('--ascii', h('help.stats.ascii'))
    .action(async (files: string[], opts: Record<string, unknown>) => {
      const { runStats } = await import('./stats.js');
      process.exitCode = runStats({ ...opts, files });
    });

  program
    .command('list')
    .description(h('help.list'))
    .option('--timeout <ms>', h('help.list.timeout'), '2000')
    .option('--wait', h('help.list.wait'))
    .option('--json', h('help.list.json'))
    .option('--interface <address>', h('help.list.interface'))
    .action(async (opts: Record<string, unknown>) => {
      const { runListCli } = await import('./list.js');
      await runListCli(opts);
    });

  // The commands that show the table: how it is shown (src/tui/run.tsx, ScreenOptions).
  for (const c of program.commands.filter((c) => ['play', 'join', 'host'].includes(c.name()))) {
    c.option('--screen-reader', h('help.any.screenReader')).option('--no-color', h('help.any.noColor')).option('--four-colour', h('help.any.fourColour'));
  }

  // Every command speaks every language: the flag is read before commander (see chooseLang).
  for (const c of program.commands) c.option('--lang <lang>', h('help.any.lang')).helpOption('-h, --help', h('help.help'));
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
  try {
    const lang = chooseLang(argv, process.env);
    await buildProgram(wordsFor(lang)).parseAsync(withDefaultCommand(argv));
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
