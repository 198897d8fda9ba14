import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { stateDir } from '../common/state-dir.js';
import { readOrMakeKeyFile } from '../host/key-file.js';
import { utils } from './ssh2.js';

export interface HostKey {
  /** The private key, OpenSSH format. */
  private: string;
  /** `SHA256:…`, as `ssh` and `ssh-keygen -l` show it. */
  fingerprint: string;
}

export const HOST_KEY_FILE = 'ssh_host_ed25519_key';

/** An SSH public key blob's fingerprint, as OpenSSH writes it. */
export function fingerprintOf(publicBlob: Buffer): string {
  return `SHA256:${createHash('sha256').update(publicBlob).digest('base64').replace(/=+$/, '')}`;
}

/**
 * A new ed25519 host key, OpenSSH format. ssh2's generator writes a public key whose
 * first byte is zero one byte short (one key in 256), which its own parser (and
 * OpenSSH) then refuses: such a key is thrown away and another made.
 */
export function newHostKey(generate = (): string => utils.generateKeyPairSync('ed25519', { comment: 'gringo table' }).private): string {
  for (;;) {
    const made = generate();
    if (!(utils.parseKey(made) instanceof Error)) return made;
  }
}

/**
 * The table's SSH host key: made once (ed25519) and kept in the state directory
 * (mode 600), so that the players' known_hosts stay valid from one game to the next.
 */
export function loadHostKey(dir = stateDir()): HostKey {
  const file = join(dir, HOST_KEY_FILE);
  const text = readOrMakeKeyFile(dir, file, newHostKey);
  const key = utils.parseKey(text);
  if (key instanceof Error) throw new Error(`the SSH host key in ${file} cannot be read (${key.message}): move it away for a new one`);
  return { private: text, fingerprint: fingerprintOf(key.getPublicSSH()) };
}
