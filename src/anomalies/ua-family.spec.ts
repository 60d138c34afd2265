import fc from 'fast-check';
import { describeDevice, reduceUserAgent, UNKNOWN_FAMILY } from './ua-family';

const chrome = (v: string) =>
  `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v} Safari/537.36`;

describe('reduceUserAgent', () => {
  it('treats Chrome 120.0.1, 120.0.2 and 121 as the same family', () => {
    const a = reduceUserAgent(chrome('120.0.1.0'));
    expect(a).toEqual({ browserFamily: 'Chrome', osFamily: 'macOS' });
    expect(reduceUserAgent(chrome('120.0.2.0'))).toEqual(a);
    expect(reduceUserAgent(chrome('121.0.6167.85'))).toEqual(a);
  });

  it('tells Firefox on Windows apart from Chrome on macOS', () => {
    const ff = reduceUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0');
    expect(ff).toEqual({ browserFamily: 'Firefox', osFamily: 'Windows' });
  });

  it('tells the same browser on another OS apart', () => {
    const android = reduceUserAgent(
      'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
    );
    expect(android.osFamily).toBe('Android');
    expect(android).not.toEqual(reduceUserAgent(chrome('120.0.0.0')));
  });

  it('reduces empty, missing and unknown agents to Other', () => {
    const other = { browserFamily: UNKNOWN_FAMILY, osFamily: UNKNOWN_FAMILY };
    expect(reduceUserAgent('')).toEqual(other);
    expect(reduceUserAgent(null)).toEqual(other);
    expect(reduceUserAgent(undefined)).toEqual(other);
    expect(reduceUserAgent('curl/8.0.1')).toEqual(other);
  });

  it('never throws and always returns non-empty families', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000 }), (ua) => {
        const d = reduceUserAgent(ua);
        expect(d.browserFamily.length).toBeGreaterThan(0);
        expect(d.osFamily.length).toBeGreaterThan(0);
      }),
    );
  });

  it('ignores the version whatever it is', () => {
    fc.assert(
      fc.property(fc.nat(200), fc.nat(9999), fc.nat(999), (major, minor, patch) => {
        expect(reduceUserAgent(chrome(`${major + 1}.${minor}.${patch}.0`))).toEqual(reduceUserAgent(chrome('120.0.1.0')));
      }),
    );
  });
});

describe('describeDevice', () => {
  it('reads as plain language', () => {
    expect(describeDevice({ browserFamily: 'Firefox', osFamily: 'Windows' })).toBe('Firefox on Windows');
    expect(describeDevice({ browserFamily: UNKNOWN_FAMILY, osFamily: UNKNOWN_FAMILY })).toBe('an unknown browser on an unknown system');
  });
});
