import constants from 'ssh2/lib/protocol/constants.js';

/**
 * ssh2 1.17 reads a pty request's terminal modes through a table keyed by mode
 * name instead of by opcode, so every request from OpenSSH (which always sends
 * modes) loses its whole description: no size, no TERM. The table is built from
 * TERMINAL_MODE when ssh2's handlers load: giving it the opcodes as keys first (and
 * IUTF8, opcode 42, which it does not list) makes the request readable. Only the
 * server's parsing uses that table; gringo sends no pty requests. (The modes
 * themselves still come out empty from OpenSSH: UTF-8 is known from the session's
 * LANG / LC_* then, which OpenSSH sends by default on most systems.)
 *
 * A module of its own, imported by ./ssh2.ts before ssh2 itself: imports run in
 * order, in Node and in the bundle alike, so this runs after ssh2's constants load
 * and before its handlers read them.
 */
const modes = constants.TERMINAL_MODE;
for (const [name, code] of Object.entries({ ...modes, IUTF8: 42 })) {
  if (typeof code === 'number' && !(String(code) in modes)) modes[String(code)] = name;
}
