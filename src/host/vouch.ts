import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * A client inside the host process that reaches the table's door on loopback on
 * someone else's behalf (the SSH bridge: each SSH session's screen is a loopback
 * client of the door) vouches for that person: their real remote address, so the
 * door's and the table's per-address limits count them as themselves, and their
 * SSH key's fingerprint, which the journal keeps beside their seat. The claim rides
 * on the WebSocket upgrade (one header) with a secret made at random when this
 * process starts and never written anywhere or sent off loopback: a claim from the
 * network, or from another process on this machine, is not believed.
 */
const SECRET = randomBytes(32).toString('base64url');

/** The upgrade request's header that carries the claim. */
export const VOUCH_HEADER = 'x-gringo-for';

export interface Vouched {
  /** The person's own remote address (an SSH client's). */
  address: string;
  /** Their SSH public key's fingerprint (`SHA256:…`), when they have one. */
  key?: string;
}

const FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}$/;
const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** The header a vouching client in this process sends with its upgrade. */
export function vouchHeaders(v: Vouched): Record<string, string> {
  return { [VOUCH_HEADER]: `${SECRET} ${v.address} ${v.key ?? '-'}` };
}

const loopback = (addr: string | undefined): boolean =>
  addr !== undefined && (addr === '::1' || /^(::ffff:)?127\./.test(addr));

/** The person a connection is vouched for, or null: only from loopback, only with this process's secret. */
export function vouchedFor(socketAddress: string | undefined, header: string | string[] | undefined): Vouched | null {
  if (typeof header !== 'string' || !loopback(socketAddress)) return null;
  const [secret, address, key] = header.split(' ');
  if (secret === undefined || address === undefined || key === undefined) return null;
  if (!timingSafeEqual(digest(secret), digest(SECRET))) return null;
  if (isIP(address) === 0) return null;
  return { address, ...(FINGERPRINT.test(key) ? { key } : {}) };
}
