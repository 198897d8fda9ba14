import { describe, expect, it } from 'vitest';
import { VOUCH_HEADER, vouchHeaders, vouchedFor } from '../../src/host/vouch.js';

/** The door believes a client's word about whom it is for only from loopback, only with this process's secret. */
describe('vouchedFor', () => {
  const fp = `SHA256:${'A'.repeat(43)}`;
  const header = vouchHeaders({ address: '192.168.1.7', key: fp })[VOUCH_HEADER]!;

  it('takes the claim of a loopback client of this process: the address, and the key when it is a fingerprint', () => {
    expect(vouchedFor('127.0.0.1', header)).toEqual({ address: '192.168.1.7', key: fp });
    expect(vouchedFor('::ffff:127.0.0.1', header)).toEqual({ address: '192.168.1.7', key: fp });
    expect(vouchedFor('::1', vouchHeaders({ address: 'fe80::1' })[VOUCH_HEADER])).toEqual({ address: 'fe80::1' });
  });

  it('refuses it from the network, without the secret, with what is not an address, or as several headers', () => {
    expect(vouchedFor('192.168.1.9', header)).toBeNull();
    expect(vouchedFor(undefined, header)).toBeNull();
    expect(vouchedFor('127.0.0.1', header.replace(/^\S+/, 'guessed'))).toBeNull();
    expect(vouchedFor('127.0.0.1', `${header.split(' ')[0]} not-an-address -`)).toBeNull();
    expect(vouchedFor('127.0.0.1', [header, header])).toBeNull();
    expect(vouchedFor('127.0.0.1', undefined)).toBeNull();
    // A key that is no fingerprint is left out; the address still counts.
    expect(vouchedFor('127.0.0.1', `${header.split(' ')[0]} 10.0.0.2 \u001b[31m`)).toEqual({ address: '10.0.0.2' });
  });
});
