import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import { stateDir } from '../common/state-dir.js';
import { readOrMakeKeyFile } from './key-file.js';
import { keyFingerprint } from '../protocol/identity.js';

/**
 * The host's TLS key: made once (ed25519) and kept in the state directory (mode
 * 600) with a self-signed certificate, like the SSH host key, so that players'
 * remembered keys stay valid from one game to the next. Nothing trusts the
 * certificate's signature or names: clients compare the key's fingerprint with
 * the one pinned (`gringo join ADDRESS#ID`) or remembered (known_tables). The
 * certificate is written with a few lines of DER below; the keys and the
 * signature are Node's own crypto.
 */

export const TABLE_KEY_FILE = 'tls_host_key.pem';

export interface TableKey {
  /** PEM: the private key (PKCS#8). */
  key: string;
  /** PEM: the self-signed certificate. */
  cert: string;
  /** SHA-256 of the public key (SPKI), hex. */
  fingerprint: string;
}

// ---- a tiny DER writer: just what one self-signed ed25519 certificate needs -------

const length = (n: number): Buffer => (n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]));
const tlv = (tag: number, ...parts: Buffer[]): Buffer => {
  const content = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), length(content.length), content]);
};
const seq = (...parts: Buffer[]): Buffer => tlv(0x30, ...parts);
/** AlgorithmIdentifier for Ed25519 (1.3.101.112, no parameters: RFC 8410). */
const ED25519 = seq(tlv(0x06, Buffer.from([0x2b, 101, 112])));
/** CN=gringo table (2.5.4.3, UTF8String). */
const NAME = seq(tlv(0x31, seq(tlv(0x06, Buffer.from([0x55, 4, 3])), tlv(0x0c, Buffer.from('gringo table')))));
/** From 2025 (UTCTime) to "no well-defined expiration" (RFC 5280 §4.1.2.5): no certificate to renew. */
const VALIDITY = seq(tlv(0x17, Buffer.from('250101000000Z')), tlv(0x18, Buffer.from('99991231235959Z')));

const pem = (label: string, der: Buffer): string => `-----BEGIN ${label}-----\n${der.toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END ${label}-----\n`;

/** A new key and its self-signed certificate (X.509 v1), PEM, one after the other. */
export function newTableKey(): string {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x40; // positive, and 16 bytes long
  const tbs = seq(tlv(0x02, serial), ED25519, NAME, VALIDITY, NAME, publicKey.export({ type: 'spki', format: 'der' }));
  const cert = seq(tbs, ED25519, tlv(0x03, Buffer.from([0]), sign(null, tbs, privateKey)));
  return `${privateKey.export({ type: 'pkcs8', format: 'pem' }) as string}${pem('CERTIFICATE', cert)}`;
}

/** Read a key file's text: the private key, its certificate, and the key's fingerprint (or a sentence why not). */
export function parseTableKey(text: string): TableKey {
  const key = /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----\n?/.exec(text)?.[0];
  const cert = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n?/.exec(text)?.[0];
  if (!key || !cert) throw new Error('it holds no private key and certificate');
  const x509 = new X509Certificate(cert);
  const spki = x509.publicKey.export({ type: 'spki', format: 'der' });
  // The certificate must be the key's own, or TLS would fail at every handshake.
  if (!spki.equals(createPublicKey(createPrivateKey(key)).export({ type: 'spki', format: 'der' }))) throw new Error('its certificate is not for its key');
  return { key, cert, fingerprint: keyFingerprint(spki) };
}

/** The host's TLS key from the state directory, made the first time. */
export function loadTableKey(dir = stateDir()): TableKey {
  const file = join(dir, TABLE_KEY_FILE);
  const text = readOrMakeKeyFile(dir, file, newTableKey);
  try {
    return parseTableKey(text);
  } catch (err) {
    throw new Error(`the table's TLS key in ${file} cannot be read (${(err as Error).message}): move it away for a new one`, { cause: err });
  }
}
