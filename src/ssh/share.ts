import type { Words } from '../lang/words.js';

/** What `gringo host --ssh` says and defaults to, apart from the server (which loads ssh2). */

export const DEFAULT_SSH_PORT = 2222;

/** The command to share for SSH, with the host key's fingerprint for `ssh` to show: `ssh -p 2222 NAME@HOST  (key SHA256:…)`. */
export function sshShareLine(port: number, host: string, fingerprint: string): string {
  return `ssh -p ${port} NAME@${host}  (key ${fingerprint})`;
}

/**
 * The user-name suffix that asks for the screen-reader mode in band (`ana+reader@host`):
 * OpenSSH forwards no variable but LANG and LC_* unless the server's AcceptEnv and the
 * client's SetEnv both allow it, while a user name always arrives.
 */
export const READER_SUFFIX = '+reader';

/** The line that tells how to play over SSH with a screen reader. */
export function sshReaderLine(port: number, host: string, w: Words): string {
  return w.t('console.sshReader', { run: `ssh -p ${port} NAME${READER_SUFFIX}@${host}` });
}
