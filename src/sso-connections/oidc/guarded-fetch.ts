import type * as client from 'openid-client';
import { unsafeTargetReason } from '../../common/safe-http';

const MAX_BYTES = 256 * 1024;
const TIMEOUT_MS = 5_000;

/**
 * The fetch openid-client uses for a connection (discovery, token endpoint, JWKS): the same SSRF
 * guard as the authorization server's JWKS fetches (decision 0903): https only and public
 * addresses only unless OAUTH_JWKS_ALLOW_PRIVATE_TARGETS, no redirects, 5 s, 256 KiB at most.
 */
export function guardedFetch(allowPrivate: boolean): client.CustomFetch {
  return async (url, options) => {
    const reason = await unsafeTargetReason(url, allowPrivate);
    if (reason) throw new UnsafeUpstreamUrl(`upstream URL refused: ${reason}`);
    const res = await fetch(url, { ...(options as RequestInit), redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
    const body = await readLimited(res);
    return new Response(new Uint8Array(body) as unknown as BodyInit, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}

export class UnsafeUpstreamUrl extends Error {}

async function readLimited(res: Response): Promise<Buffer> {
  const reader = res.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BYTES) {
      await reader.cancel();
      throw new Error('upstream response too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
