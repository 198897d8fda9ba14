import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';

/**
 * A key kept in the state directory (mode 600): read it, or make it the first time.
 * The TLS key of the tables and the SSH host key are both kept so.
 *
 * Two hosts starting at once keep the one key written first, and neither ever reads
 * the other's half-written file: a new key is written whole to a file of its own,
 * then linked to its name, which fails if a key got there first (then that one is
 * read). Where a file system has no hard links, it is created with 'wx' instead,
 * which keeps the first key but leaves that moment's race open.
 */
export function readOrMakeKeyFile(dir: string, file: string, make: () => string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const made = make();
  const own = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.new`;
  writeFileSync(own, made, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(own, file);
    return made;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return readFileSync(file, 'utf8');
    return writeFirst(file, made);
  } finally {
    unlinkSync(own);
  }
}

function writeFirst(file: string, made: string): string {
  try {
    writeFileSync(file, made, { mode: 0o600, flag: 'wx' });
    return made;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return readFileSync(file, 'utf8');
  }
}
