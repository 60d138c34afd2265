import type * as client from 'openid-client';
import { fetchOutboundBuffered } from '../../common/guarded-fetch';

const MAX_BYTES = 256 * 1024;
const TIMEOUT_MS = 5_000;

/**
 * The fetch openid-client uses for a connection (discovery, token endpoint, JWKS): the same SSRF
 * guard as the authorization server's JWKS fetches (decision 0903): https only and public
 * addresses only unless OAUTH_JWKS_ALLOW_PRIVATE_TARGETS, no redirects, 5 s, 256 KiB at most.
 */
export function guardedFetch(allowPrivate: boolean): client.CustomFetch {
  return (url, options) =>
    fetchOutboundBuffered(
      url,
      options as RequestInit,
      { allowPrivate, timeoutMs: TIMEOUT_MS, maxBytes: MAX_BYTES },
      {
        refused: (reason) => new UnsafeUpstreamUrl(`upstream URL refused: ${reason}`),
        tooLarge: () => new Error('upstream response too large'),
      },
    );
}

export class UnsafeUpstreamUrl extends Error {}
