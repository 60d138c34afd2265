import { BlockList, isIP } from 'node:net';

/*
 * Addresses that never go to the geolocation provider: they say nothing about where a person is,
 * and sending internal addresses to a third party leaks network layout. Ranges from the IANA
 * special-purpose registries (RFC 6890 and successors). Documentation ranges (TEST-NET, 2001:db8::/32)
 * are left lookup-able: providers answer them harmlessly ("bogon") and tests use them.
 */
const NOT_LOOKED_UP = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // private
  ['192.168.0.0', 16], // private
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  NOT_LOOKED_UP.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local (ULA)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  NOT_LOOKED_UP.addSubnet(net, bits, 'ipv6');
}

const V4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** True when `ip` is a syntactically valid, globally routable address worth geolocating. */
export function isGeolocatable(ip: string | null | undefined): ip is string {
  if (!ip) return false;
  const candidate = unwrapV4Mapped(stripZone(ip.trim()));
  const family = isIP(candidate);
  if (family === 0) return false;
  return !NOT_LOOKED_UP.check(candidate, family === 4 ? 'ipv4' : 'ipv6');
}

/** `::ffff:10.0.0.1` (how Node reports IPv4 on a dual-stack socket) is the IPv4 address inside. */
export function unwrapV4Mapped(ip: string): string {
  const m = V4_MAPPED.exec(ip);
  return m ? m[1] : ip;
}

// fe80::1%eth0: the zone only makes sense on this host.
const stripZone = (ip: string) => ip.split('%')[0];
