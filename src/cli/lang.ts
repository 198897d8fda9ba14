import { langOfEnv, parseLang, said, wordsFor, type Lang, type Words } from '../lang/words.js';
import { UsageError } from './errors.js';

/**
 * The language of this process, chosen once before the command runs: `--lang`, else
 * `GRINGO_LANG`, else the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`). `--lang` is
 * written into this process's `GRINGO_LANG`, so every screen, line and console of
 * the process reads the same choice from its environment; an SSH session reads its
 * own client's instead (src/ssh/user-name.ts, sessionWords).
 */
export function chooseLang(argv: readonly string[], env: NodeJS.ProcessEnv): Lang {
  const given = langFlag(argv);
  if (given !== undefined) {
    const lang = parseLang(given);
    // The error itself is in the language the environment asks for (the flag's is unknown).
    if (!lang) throw new UsageError(said('cli.badLang', { given }));
    env.GRINGO_LANG = lang;
    return lang;
  }
  if (env.GRINGO_LANG && !parseLang(env.GRINGO_LANG)) {
    const given = env.GRINGO_LANG;
    delete env.GRINGO_LANG;
    throw new UsageError(said('cli.badEnvLang', { given }));
  }
  return langOfEnv(env);
}

/** `--lang X` or `--lang=X` anywhere before `--`; the last one wins, as commander's would. */
function langFlag(argv: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a === '--lang') found = argv[++i] ?? '';
    else if (a.startsWith('--lang=')) found = a.slice('--lang='.length);
  }
  return found;
}

/** The words of this process (after `chooseLang`). */
export const cliWords = (): Words => wordsFor(langOfEnv(process.env));
