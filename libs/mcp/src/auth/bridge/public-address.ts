import { BlockList, isIP } from 'node:net';

/** Addresses no client document is fetched from: not the public internet (RFC 6890's special-purpose registries). */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  // IPv4-compatible (deprecated), `::` and `::1` among them.
  ['::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * Whether a client document may be fetched from `address`: a public unicast address, or loopback when `allowLoopback`
 * (tests, local development). An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) is judged as its IPv4 address.
 */
export function isFetchableAddress(address: string, allowLoopback: boolean): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (LOOPBACK.check(address, type)) return allowLoopback;
  if (type === 'ipv6' && /^::ffff:/i.test(address)) return isFetchableAddress(mappedIpv4(address), allowLoopback);
  return !NON_PUBLIC.check(address, type);
}

/** The IPv4 address inside `::ffff:a.b.c.d` or `::ffff:7f00:1`. */
function mappedIpv4(address: string): string {
  const tail = address.slice('::ffff:'.length);
  if (tail.includes('.')) return tail;
  const [high = 0, low = 0] = tail.split(':').map((group) => Number.parseInt(group, 16));
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}
