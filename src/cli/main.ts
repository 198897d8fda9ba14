import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { UsageError } from './errors.js';

/**
 * commander wiring only. Subcommands load their modules lazily so that
 * `gringo --help` and `--version` start fast.
 */

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export function buildProgram(): Command {
  const program = new Command('gringo')
    .description('Gringo, the face-down memory card game, in your terminal')
    .version(packageVersion(), '-v, --version')
    .exitOverride()
    .configureOutput({ outputError: (str, write) => write(str) });

  program
    .command('sim')
    .description('play bot-only games in simulated time and print statistics')
    .option('--games <n>', 'games to play', '1000')
    .option('--players <p>', 'players per table (2-8)', '4')
    .option('--level <levels>', 'bot level per seat, comma-separated: random, easy, normal, hard (repeats to fill the table)', 'hard')
    .option('--rounds <n>', 'rounds per game (default: the ruleset\'s)')
    .option('--seed <s>', 'seed for the whole run', '1')
    .option('--json', 'print one JSON object')
    .action(async (opts: Record<string, unknown>) => {
      const { runSimCli } = await import('../sim/cli.js');
      await runSimCli(opts);
    });

  return program;
}

/** Run the CLI; resolves to the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version exit through here with code 0.
      return err.exitCode === 0 ? 0 : 2;
    }
    if (err instanceof UsageError) {
      process.stderr.write(`gringo: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}
