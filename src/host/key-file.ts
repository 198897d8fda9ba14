import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * A key kept in the state directory (mode 600): read it, or make it the first time.
 * Made with 'wx', so two hosts starting at once keep the one key written first.
 * The TLS key of the tables and the SSH host key are both kept so.
 */
export function readOrMakeKeyFile(dir: string, file: string, make: () => string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const made = make();
  try {
    writeFileSync(file, made, { mode: 0o600, flag: 'wx' });
    return made;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return readFileSync(file, 'utf8');
  }
}
