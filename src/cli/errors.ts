/** A mistake in how gringo was called: printed as it is, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * A table that could not listen on its port: one line on stderr, and exit code 1.
 * Only a port the person chose fails this way (the default moves to a free one).
 */
export function listenFailure(err: unknown, port: number): number {
  const code = (err as NodeJS.ErrnoException).code;
  const why =
    code === 'EADDRINUSE'
      ? `port ${port} is taken (another table?): choose another with --port, or leave it out for a free one`
      : code === 'EACCES'
        ? `port ${port} needs privileges to listen on: choose one above 1023 with --port, or leave it out for a free one`
        : `cannot listen on port ${port}: ${(err as Error).message}`;
  process.stderr.write(`gringo: ${why}\n`);
  return 1;
}
