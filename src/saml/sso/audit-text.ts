/** Longest attacker-supplied string kept in audit metadata (decision 0205). */
export const MAX_AUDITED_CHARS = 256;

/**
 * Metadata for an audit row with every string cut to MAX_AUDITED_CHARS; each cut field is named
 * in `truncated` so a reader knows the value is a prefix. Values of an SSO request are the
 * caller's text (ACS URL, Destination, Issuer...), and anonymous callers must not be able to
 * store kilobytes per request.
 */
export function cappedMetadata(metadata: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const truncated: string[] = [];
  for (const [key, value] of Object.entries(metadata)) {
    const capped = typeof value === 'string' ? capText(value) : value;
    if (capped !== value) truncated.push(key);
    out[key] = capped;
  }
  if (truncated.length > 0) out.truncated = truncated;
  return out;
}

/** The first MAX_AUDITED_CHARS characters (whole code points) followed by an ellipsis when cut. */
export function capText(value: string, max = MAX_AUDITED_CHARS): string {
  const chars = Array.from(value);
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : value;
}
