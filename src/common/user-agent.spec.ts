import { reduceUserAgent } from './user-agent';

const CHROME_MAC_120 =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const CHROME_MAC_121 = CHROME_MAC_120.replace('Chrome/120.0.0.0', 'Chrome/121.0.6167.85');
const FIREFOX_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0';
const SAFARI_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
const HEADLESS_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36';

describe('reduceUserAgent', () => {
  it('reduces a desktop Chrome on macOS to its families', () => {
    expect(reduceUserAgent(CHROME_MAC_120)).toEqual({ browserFamily: 'Chrome', osFamily: 'macOS' });
  });

  it('ignores minor version changes', () => {
    expect(reduceUserAgent(CHROME_MAC_121)).toEqual(reduceUserAgent(CHROME_MAC_120));
  });

  it('tells Firefox on Windows apart from Safari on iOS', () => {
    expect(reduceUserAgent(FIREFOX_WIN)).toEqual({ browserFamily: 'Firefox', osFamily: 'Windows' });
    expect(reduceUserAgent(SAFARI_IOS)).toEqual({ browserFamily: 'Safari', osFamily: 'iOS' });
  });

  it('counts headless Chrome as Chrome', () => {
    expect(reduceUserAgent(HEADLESS_LINUX)).toEqual({ browserFamily: 'Chrome', osFamily: 'Linux' });
  });

  it('answers Other for missing, empty or unparseable agents', () => {
    expect(reduceUserAgent(undefined)).toEqual({ browserFamily: 'Other', osFamily: 'Other' });
    expect(reduceUserAgent('')).toEqual({ browserFamily: 'Other', osFamily: 'Other' });
    expect(reduceUserAgent('curl/8.4.0')).toEqual({ browserFamily: 'Other', osFamily: 'Other' });
  });

  it('does not choke on a huge header', () => {
    expect(reduceUserAgent('x'.repeat(100_000)).browserFamily).toBe('Other');
  });
});
