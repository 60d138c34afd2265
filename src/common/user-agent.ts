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
  const text = ua.slice(0, MAX_UA_LENGTH);
  const known = recent.get(text);
  if (known) return { ...known };
  const reduced = parse(text);
  if (recent.size >= RECENT_LIMIT) recent.delete(recent.keys().next().value!);
  recent.set(text, reduced);
  return { ...reduced };
}

/**
 * The families of recently seen user agents. A sign-in reduces its user agent up to three times (the
 * policy check, the session row, the anomaly detectors) and most sign-ins come from a few browsers, while
 * ua-parser-js runs dozens of regular expressions per call. Oldest entry out first; bounded, so a flood of
 * made-up user agents costs at most this many entries.
 */
const RECENT_LIMIT = 1000;
const recent = new Map<string, ReducedUserAgent>();

function parse(ua: string): ReducedUserAgent {
  const parser = new UAParser(ua);
  const browser = parser.getBrowser().name ?? UNKNOWN;
  const os = parser.getOS().name ?? UNKNOWN;
  return {
    browserFamily: BROWSER_ALIASES[browser] ?? browser,
    osFamily: OS_ALIASES[os] ?? os,
  };
}
