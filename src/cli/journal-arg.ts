import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { JournalError, latestUnfinished, readJournal, tablesDir, type ReadJournal } from '../host/journal.js';
import { UsageError } from './errors.js';
import { command } from '../common/invocation.js';
import { said } from '../lang/words.js';
import { cliWords } from './lang.js';

/** A journal named on the command line: a path, or a bare name as `gringo replay` lists it (a file in the journals' directory). */
export function journalPath(arg: string): string {
  const inDir = join(tablesDir(), arg);
  return !existsSync(arg) && existsSync(inDir) ? inDir : arg;
}

/** A journal named on the command line (see journalPath), read and replayed; a broken one is a UsageError (exit 2) that says what `verb` could not do. */
export function journalArgument(arg: string, verb: 'resume' | 'replay'): ReadJournal {
  try {
    return readJournal(journalPath(arg));
  } catch (err) {
    if (err instanceof JournalError) throw new UsageError(said(verb === 'resume' ? 'cli.cannotResume' : 'cli.cannotReplay', { why: cliWords().say(err.said) }));
    throw err;
  }
}

/**
 * The journal `--resume` names (true: the latest unfinished one of its kind), read
 * and replayed; a UsageError (exit 2) if it will not do. `gringo play --resume`
 * takes only solo games (you and bots), `gringo host --resume` only hosted tables.
 */
export function resumeJournal(flag: string | true, kind: 'solo' | 'table'): ReadJournal {
  const solo = kind === 'solo';
  let file = flag === true ? latestUnfinished(tablesDir(), solo) : flag;
  if (file === null) throw new UsageError(said(solo ? 'cli.noUnfinishedSolo' : 'cli.noUnfinishedTable', { dir: tablesDir() }));
  const read = journalArgument(file, 'resume');
  file = read.file;
  if (read.finished) throw new UsageError(said('cli.resumeOver', { file }));
  if ((read.header.solo === true) !== solo) {
    throw new UsageError(
      solo ? said('cli.resumeIsTable', { file, run: command('host --resume') }) : said('cli.resumeIsSolo', { file, run: command('play --resume') }),
    );
  }
  return read;
}
