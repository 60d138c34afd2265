import { unsafeTargetReason } from './safe-http';

/** How far an outbound fetch may reach (decision 0903). */
export interface OutboundLimits {
  /** Lifts the https-and-public-addresses rule (development and tests). */
  allowPrivate: boolean;
  /** Aborts the request after this long; without it, the caller's own signal (if any) is kept. */
  timeoutMs?: number;
}

/** The caller's own errors (type and wording) for what the guard refuses. */
export interface OutboundRefusals {
  /** The URL may not be fetched (why, as unsafeTargetReason says it). */
  refused(reason: string): Error;
  /** The body is longer than the caller reads. */
  tooLarge(): Error;
}

/**
 * Fetches a URL outside the service behind the outbound guard that the authorization server's
 * JWKS fetches, SSO connections' upstream calls and IdP metadata imports share (decision 0903):
 * the URL checked first (https only and public addresses only unless `allowPrivate`), no redirects
 * followed, and a timeout. The body is not read: see readBodyAtMost.
 */
export async function fetchOutbound(
  url: string,
  init: RequestInit,
  limits: OutboundLimits,
  refused: OutboundRefusals['refused'],
): Promise<Response> {
  const reason = await unsafeTargetReason(url, limits.allowPrivate);
  if (reason) throw refused(reason);
  const signal = limits.timeoutMs !== undefined ? AbortSignal.timeout(limits.timeoutMs) : init.signal;
  return fetch(url, { ...init, redirect: 'error', signal });
}

/** Reads the body, refusing (and cancelling) one longer than maxBytes. */
export async function readBodyAtMost(res: Response, maxBytes: number, tooLarge: OutboundRefusals['tooLarge']): Promise<Buffer> {
  const reader = res.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * fetchOutbound with the body read (at most maxBytes) before answering: the `fetch` handed to a
 * library (jose's JWKS cache, openid-client) that would otherwise read any length.
 */
export async function fetchOutboundBuffered(
  url: string,
  init: RequestInit,
  limits: OutboundLimits & { maxBytes: number },
  refusals: OutboundRefusals,
): Promise<Response> {
  const res = await fetchOutbound(url, init, limits, refusals.refused);
  const body = await readBodyAtMost(res, limits.maxBytes, refusals.tooLarge);
  return new Response(new Uint8Array(body), { status: res.status, statusText: res.statusText, headers: res.headers });
}
