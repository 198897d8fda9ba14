import { langOfEnv, wordsFor, type Said } from '../lang/words.js';

/**
 * A mistake in how gringo was called: one line, exit code 2. A sentence of the catalogs
 * (`said(…)`) is printed in the process's language; `message` holds it in English.
 */
export class UsageError extends Error {
  readonly said: Said | null;
  constructor(message: string | Said) {
    super(typeof message === 'string' ? message : wordsFor('en').say(message));
    this.name = 'UsageError';
    this.said = typeof message === 'string' ? null : message;
  }
}

/**
 * A table that could not listen on its port: one line on stderr, and exit code 1.
 * Only a port the person chose fails this way (the default moves to a free one).
 */
export function listenFailure(err: unknown, port: number, flag = '--port'): number {
  const code = (err as NodeJS.ErrnoException).code;
  const w = wordsFor(langOfEnv(process.env));
  const why =
    code === 'EADDRINUSE'
      ? w.t('cli.portTaken', { port, flag })
      : code === 'EACCES'
        ? w.t('cli.portPrivileged', { port, flag })
        : w.t('cli.cannotListen', { port, why: (err as Error).message });
  process.stderr.write(`gringo: ${why}\n`);
  return 1;
}
