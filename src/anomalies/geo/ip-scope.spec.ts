import fc from 'fast-check';
import { isGeolocatable, unwrapV4Mapped } from './ip-scope';

describe('isGeolocatable', () => {
  it.each([
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.10',
    '127.0.0.1',
    '169.254.10.20',
    '100.64.0.1',
    '100.127.255.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fe80::1%eth0',
    'fd12:3456:789a::1',
    'fc00::1',
    'ff02::1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
  ])('never looks up the non-public address %s', (ip) => {
    expect(isGeolocatable(ip)).toBe(false);
  });

  it.each(['81.2.69.160', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2a01:e0a:1::1', '::ffff:81.2.69.160', '203.0.113.7'])(
    'looks up the public address %s',
    (ip) => {
      expect(isGeolocatable(ip)).toBe(true);
    },
  );

  it.each([null, undefined, '', 'not-an-ip', '999.1.1.1', '1.2.3', 'http://1.2.3.4'])('refuses %p', (ip) => {
    expect(isGeolocatable(ip)).toBe(false);
  });

  it('refuses every 10/8, 192.168/16 and 127/8 address (property)', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(octet, octet, octet, (a, b, c) => {
        expect(isGeolocatable(`10.${a}.${b}.${c}`)).toBe(false);
        expect(isGeolocatable(`127.${a}.${b}.${c}`)).toBe(false);
        expect(isGeolocatable(`192.168.${b}.${c}`)).toBe(false);
        expect(isGeolocatable(`::ffff:10.${a}.${b}.${c}`)).toBe(false);
      }),
    );
  });

  it('never throws on arbitrary input', () => {
    fc.assert(fc.property(fc.string(), (s) => typeof isGeolocatable(s) === 'boolean'));
  });
});

describe('unwrapV4Mapped', () => {
  it('extracts the IPv4 address from an IPv4-mapped IPv6 address', () => {
    expect(unwrapV4Mapped('::ffff:81.2.69.160')).toBe('81.2.69.160');
    expect(unwrapV4Mapped('2a01::1')).toBe('2a01::1');
  });
});
