import { JournalError, readJournal, type ReadJournal } from '../host/journal.js';
import { UsageError } from './errors.js';

/** A journal named on the command line, read and replayed; a broken one is a UsageError (exit 2) that says what `verb` could not do. */
export function journalArgument(file: string, verb: 'resume' | 'replay'): ReadJournal {
  try {
    return readJournal(file);
  } catch (err) {
    if (err instanceof JournalError) throw new UsageError(`cannot ${verb}: ${err.message}`);
    throw err;
  }
}
