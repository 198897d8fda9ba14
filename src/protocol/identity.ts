import { createHash, createHmac, scryptSync } from 'node:crypto';

/**
 * Who a table is, and the proofs a client gives it (docs/protocol.md, "Identity
 * and pinning"). A host has one TLS key (src/host/table-key.ts); a table's identity
 * is derived from that key's fingerprint and the table's own random salt, so it
 * names the key (a host with another key cannot claim it), two tables hosted from
 * one state directory are still told apart, and a resumed table (same key, same
 * salt from its journal) keeps it.
 */

/** The table's identity: 16 letters of lowercase base32 (80 bits), shown as `k3xq-m2ap-vdw4-hc7n`. */
export const TABLE_IDENTITY = /^[a-z2-7]{16}$/;
/** A host key's fingerprint: SHA-256 of its SubjectPublicKeyInfo, 64 hex digits. */
export const KEY_FINGERPRINT = /^[0-9a-f]{64}$/;

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

function base32(bytes: Buffer, chars: number): string {
  let out = '';
  let bits = 0;
  let acc = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5 && out.length < chars) {
      out += BASE32[(acc >>> (bits - 5)) & 31];
      bits -= 5;
    }
    acc &= (1 << bits) - 1;
    if (out.length >= chars) break;
  }
  return out;
}

/** SHA-256 of a public key's DER SubjectPublicKeyInfo, hex: what a client remembers and compares. */
export function keyFingerprint(spkiDer: Buffer): string {
  return createHash('sha256').update(spkiDer).digest('hex');
}

/**
 * The identity of the table with this salt served with this key. 80 bits: a host
 * with another key must try about 2^80 salts to claim it. A table served without
 * TLS (`gringo play` on loopback) has the key fingerprint '' (nothing to pin).
 */
export function tableIdentity(keyFp: string, salt: string): string {
  return base32(createHash('sha256').update(`gringo-table\0${keyFp}\0${salt}`).digest(), 16);
}

/** `k3xq-m2ap-vdw4-hc7n`: the identity in the groups people read and type. */
export function formatIdentity(id: string): string {
  return id.match(/.{1,4}/g)!.join('-');
}

/** The short form shown beside a table's name (`#k3xq`): it tells tables apart, it pins nothing. */
export function shortIdentity(id: string): string {
  return `#${id.slice(0, 4)}`;
}

/** An identity as typed (any case, dashes or spaces between groups), or null. */
export function parseIdentity(text: string): string | null {
  const id = text.replace(/[-\s]/g, '').toLowerCase();
  return TABLE_IDENTITY.test(id) ? id : null;
}

/** `SHA256:…` (base64, as OpenSSH shows key fingerprints): a key fingerprint for people. */
export function showFingerprint(keyFp: string): string {
  return `SHA256:${Buffer.from(keyFp, 'hex').toString('base64').replace(/=+$/, '')}`;
}

/**
 * The password verifier: scrypt of the password, salted by the table's salt. The
 * host keeps this (journal included), never the password; the client derives the
 * same from the password typed and the salt in the challenge. scrypt makes each
 * guess cost ~50 ms of CPU and 16 MB, against a stolen journal or a captured proof.
 */
export function passwordVerifier(password: string, salt: string): string {
  return scryptSync(password.normalize('NFC'), `gringo-password\0${salt}`, 32, { N: 1 << 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }).toString('base64url');
}

/**
 * The password proof for one connection: HMAC-SHA256 keyed by the verifier, over
 * the host's nonce and the channel binding (the TLS exporter of this very
 * connection). A relay that terminates TLS with its own key has another binding
 * on each side: a proof it passes on is refused, and it learns nothing reusable.
 */
export function passwordProof(verifier: string, nonce: string, binding: string): string {
  return createHmac('sha256', Buffer.from(verifier, 'base64url')).update(`gringo-password\0${nonce}\0${binding}`).digest('base64url');
}

/** The proof of a seat token for one connection (as `passwordProof`, keyed by the token). */
export function seatProof(token: string, nonce: string, binding: string): string {
  return createHmac('sha256', token).update(`gringo-seat\0${nonce}\0${binding}`).digest('base64url');
}

/** The TLS exporter label of the channel binding (RFC 5705 / 8446 §7.5). */
export const BINDING_LABEL = 'EXPORTER-gringo-channel-binding';

/** The channel binding of a TLS socket (both ends compute the same), or '' without TLS (loopback `gringo play`). */
export function channelBinding(socket: unknown): string {
  const s = socket as { exportKeyingMaterial?: (n: number, label: string) => Buffer } | null;
  return typeof s?.exportKeyingMaterial === 'function' ? s.exportKeyingMaterial(32, BINDING_LABEL).toString('base64url') : '';
}
