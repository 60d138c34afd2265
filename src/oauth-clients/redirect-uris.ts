import { isURL } from 'class-validator';

/**
 * A private-use URI scheme redirect (RFC 8252 §7.1): the scheme is a domain name the native app
 * controls, in reverse order (`com.example.app:/callback`). §8.4: a scheme without a period
 * SHOULD be refused, so one is required here (and neither `http` nor `https` can match).
 */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(?:\.[a-z0-9+-]+)+:/i;

/** Whether `uri` is a private-use URI scheme redirect: a reverse-domain scheme, something after it, no fragment (RFC 6749 §3.1.2). */
export function isPrivateUseRedirectUri(uri: string): boolean {
  const scheme = PRIVATE_USE_SCHEME.exec(uri);
  if (!scheme || uri.length === scheme[0].length || uri.includes('#')) return false;
  try {
    new URL(uri);
    return true;
  } catch {
    return false;
  }
}

/** An absolute http(s) URL (validator's isURL; without require_protocol it took a bare run of non-ASCII letters for a host, issue 28). */
export function isWebRedirectUri(uri: string): boolean {
  return isURL(uri, { require_tld: false, require_protocol: true, protocols: ['http', 'https'] });
}
