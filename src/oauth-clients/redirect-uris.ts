import { isURL } from 'class-validator';
import { isReverseDomainScheme } from '../common/uri-schemes';

/**
 * validator's isURL options for a web redirect URI: absolute http(s). Without require_protocol it took a bare run
 * of non-ASCII letters for a host (decision 0921).
 */
export const WEB_URL = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };

/**
 * Whether `uri` is a private-use URI scheme redirect (RFC 8252 §7.1): a reverse-domain scheme
 * (`com.example.app:/callback`), something after it, no fragment (RFC 6749 §3.1.2).
 */
export function isPrivateUseRedirectUri(uri: string): boolean {
  let protocol: string;
  try {
    protocol = new URL(uri).protocol;
  } catch {
    return false;
  }
  return isReverseDomainScheme(protocol) && uri.length > protocol.length && !uri.includes('#');
}

/** An absolute http(s) URL. */
export function isWebRedirectUri(uri: string): boolean {
  return isURL(uri, WEB_URL);
}
