import { isFetchableAddress } from './public-address.js';

describe('isFetchableAddress', () => {
  it('accepts public unicast addresses, IPv4 and IPv6', () => {
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect(isFetchableAddress(address, false)).toBe(true);
  });

  it('refuses loopback, private, link-local, unique-local, multicast, unspecified and mapped forms of them', () => {
    const refused = [
      '127.0.0.1',
      '127.9.9.9',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fe80::1',
      'fd00::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '::ffff:10.0.0.1',
      '::127.0.0.1',
      'not-an-address',
    ];
    for (const address of refused) expect([address, isFetchableAddress(address, false)]).toEqual([address, false]);
  });

  it('accepts loopback only when allowed, and nothing else non-public then', () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect(isFetchableAddress(address, true)).toBe(true);
    for (const address of ['10.0.0.1', '169.254.169.254', 'fd00::1']) expect(isFetchableAddress(address, true)).toBe(false);
  });
});
