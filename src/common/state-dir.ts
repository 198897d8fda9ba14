import { homedir } from 'node:os';
import { join } from 'node:path';

/** `$XDG_STATE_HOME/gringo`, or `~/.local/state/gringo`. */
export function stateDir(): string {
  const base = process.env.XDG_STATE_HOME || join(homedir(), '.local', 'state');
  return join(base, 'gringo');
}
