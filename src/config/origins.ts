/** One origin: scheme, host, optional port; no path, no wildcard. */
const ORIGIN = String.raw`https?://[a-z0-9.-]+(?::\d{1,5})?`;

/** CORS_ORIGINS: one or more origins separated by commas (spaces allowed around them). */
export const ORIGIN_LIST = new RegExp(String.raw`^\s*${ORIGIN}\s*(,\s*${ORIGIN}\s*)*$`, 'i');

/** The origins of a list ORIGIN_LIST accepted, lower-cased and without a trailing slash. */
export function parseOrigins(list: string | undefined): string[] {
  if (!list) return [];
  return list
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, '').toLowerCase())
    .filter((origin) => origin.length > 0);
}
