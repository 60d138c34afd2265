/** A scheme named after a domain in reverse order, with its colon as `URL.protocol` gives it (`com.example.app:`). */
const REVERSE_DOMAIN_SCHEME = /^[a-z][a-z0-9+-]*(?:\.[a-z0-9+-]+)+:$/i;

/**
 * Whether a URL's protocol is a native app's private-use scheme as RFC 8252 §7.1 names them: a domain
 * the app controls, reversed. §8.4: a scheme without a period SHOULD be refused, so one is required
 * (and neither `http:` nor `https:` can match).
 */
export function isReverseDomainScheme(protocol: string): boolean {
  return REVERSE_DOMAIN_SCHEME.test(protocol);
}
