import { UAParser } from 'ua-parser-js';

/** A user agent reduced to coarse families, so a minor browser update is not a "new device". */
export interface ReducedUserAgent {
  browserFamily: string;
  osFamily: string;
}

const UNKNOWN = 'Other';
/** Longest user agent we parse; real ones are < 512 chars, anything longer is noise or an attack. */
const MAX_UA_LENGTH = 1000;

// Variants of one browser that should count as the same device family.
const BROWSER_ALIASES: Record<string, string> = {
  'Chrome Headless': 'Chrome',
  'Chrome WebView': 'Chrome',
  'Mobile Chrome': 'Chrome',
  Chromium: 'Chrome',
  'Mobile Safari': 'Safari',
  'Mobile Firefox': 'Firefox',
  'Edge Mobile': 'Edge',
};

const OS_ALIASES: Record<string, string> = {
  'Mac OS': 'macOS',
  'Chromium OS': 'Chrome OS',
};

/**
 * Reduce a User-Agent header to browser and OS family names with ua-parser-js 1.x (MIT; 2.x is AGPL).
 * Versions are dropped on purpose. Unknown or empty input gives "Other".
 */
export function reduceUserAgent(ua: string | null | undefined): ReducedUserAgent {
  if (!ua) return { browserFamily: UNKNOWN, osFamily: UNKNOWN };
  const result = new UAParser(ua.slice(0, MAX_UA_LENGTH)).getResult();
  const browser = result.browser.name ?? UNKNOWN;
  const os = result.os.name ?? UNKNOWN;
  return {
    browserFamily: BROWSER_ALIASES[browser] ?? browser,
    osFamily: OS_ALIASES[os] ?? os,
  };
}
