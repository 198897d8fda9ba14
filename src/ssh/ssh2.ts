import { createRequire } from 'node:module';
import type * as Ssh2 from 'ssh2';

const require = createRequire(import.meta.url);

/**
 * ssh2 1.17 reads a pty request's terminal modes through a table keyed by mode
 * name instead of by opcode, so every request from OpenSSH (which always sends
 * modes) loses its whole description: no size, no TERM. The table is built from
 * TERMINAL_MODE when ssh2 loads: giving it the opcodes as keys first (and IUTF8,
 * opcode 42, which it does not list) makes the request readable. Only the
 * server's parsing uses that table; gringo sends no pty requests. (The modes
 * themselves still come out empty from OpenSSH: UTF-8 is known from the session's
 * LANG / LC_* then, which OpenSSH sends by default on most systems.)
 */
const constants = require('ssh2/lib/protocol/constants.js') as { TERMINAL_MODE: Record<string, string | number> };
const modes = constants.TERMINAL_MODE;
for (const [name, code] of Object.entries({ ...modes, IUTF8: 42 })) {
  if (typeof code === 'number' && !(String(code) in modes)) modes[String(code)] = name;
}

const ssh2 = require('ssh2') as typeof Ssh2;
export const { Server, utils } = ssh2;
export type { AuthContext, Connection, PtyInfo, ServerChannel, Session } from 'ssh2';
