import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, LookupFunction } from 'node:net';

/**
 * Outbound webhook HTTP, safe against server-side request forgery (decision 0712): only https:
 * (http: too when private targets are allowed, for development and tests), every address the
 * host resolves to checked against loopback, private, link-local, shared, multicast and reserved
 * ranges at connection time (the check runs inside the socket's own lookup, so a DNS answer
 * that changes between a check and the connection cannot slip through), no redirects followed,
 * an overall timeout, and at most 4 KB of the response read. In the foundation because webhooks,
 * the OAuth server (client key sets) and SSO connections (upstream metadata) all fetch through it.
 */

const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

export const MAX_RESPONSE_BYTES = 4096;

export class UnsafeTargetError extends Error {}

/** True when the address is one a webhook must never reach (IPv4-mapped IPv6 judged by its IPv4). */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address) ?? /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (mapped) {
    const v4 =
      mapped.length === 2
        ? mapped[1]
        : [parseInt(mapped[1], 16) >> 8, parseInt(mapped[1], 16) & 255, parseInt(mapped[2], 16) >> 8, parseInt(mapped[2], 16) & 255].join(
            '.',
          );
    return BLOCKED.check(v4, 'ipv4');
  }
  return BLOCKED.check(address, 'ipv6');
}

/** Why the URL may not be a webhook target, or null. Resolves the host (the check at creation; delivery checks again). */
export async function unsafeTargetReason(rawUrl: string, allowPrivate: boolean): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return 'not a URL';
  }
  if (url.username || url.password) return 'credentials in the URL are not allowed';
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return 'only https: URLs are allowed';
  if (allowPrivate) return null;
  try {
    const addresses = await resolve(hostOf(url));
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    return bad ? `resolves to a forbidden address (${bad.address})` : null;
  } catch (err) {
    return `cannot be resolved (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
}

export interface WebhookResponse {
  status: number;
  /** At most MAX_RESPONSE_BYTES of the body. */
  body: string;
}

/**
 * POSTs the body and answers the status (any status: the caller decides what counts as
 * delivered). Throws on a refused target, a network error or the timeout.
 */
export async function postWebhook(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  opts: { allowPrivate: boolean; timeoutMs: number },
): Promise<WebhookResponse> {
  const reason = urlReason(rawUrl, opts.allowPrivate);
  if (reason) throw new UnsafeTargetError(reason);
  const url = new URL(rawUrl);
  const host = hostOf(url);
  if (!opts.allowPrivate && isIP(host) && isForbiddenAddress(host)) throw new UnsafeTargetError(`forbidden address ${host}`);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<WebhookResponse>((resolvePromise, reject) => {
    const req = send(url, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers },
      lookup: opts.allowPrivate ? undefined : guardedLookup,
    });
    const timer = setTimeout(() => req.destroy(new Error(`timed out after ${opts.timeoutMs} ms`)), opts.timeoutMs);
    req.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        clearTimeout(timer);
        resolvePromise({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8').slice(0, MAX_RESPONSE_BYTES) });
      };
      res.on('data', (chunk: Buffer) => {
        if (size >= MAX_RESPONSE_BYTES) return;
        chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - size));
        size += chunk.length;
        if (size >= MAX_RESPONSE_BYTES) {
          res.destroy();
          finish();
        }
      });
      res.once('end', finish);
      res.once('error', finish);
    });
    req.end(body);
  });
}

/** A POST's outcome as a delivery log keeps it: the status (null when nothing answered) and, unless 2xx, what went wrong. */
export interface PostOutcome {
  status: number | null;
  error: string | null;
}

/**
 * postWebhook for a delivery (webhooks, Shared Signals push): never throws; a refused target, a
 * network error or the timeout is an error without a status, a non-2xx answer an error naming
 * the status and the first `excerptChars` of the body.
 */
export async function postForOutcome(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  opts: { allowPrivate: boolean; timeoutMs: number },
  excerptChars: number,
): Promise<PostOutcome> {
  try {
    const response = await postWebhook(rawUrl, body, headers, opts);
    const delivered = response.status >= 200 && response.status < 300;
    return { status: response.status, error: delivered ? null : `HTTP ${response.status}: ${response.body.slice(0, excerptChars)}` };
  } catch (err) {
    return { status: null, error: (err as Error).message.slice(0, 500) };
  }
}

function urlReason(rawUrl: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return 'only https: URLs are allowed';
  return null;
}

/** The socket's lookup: resolves, and refuses the connection if any answer is forbidden. */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 4);
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    if (bad) return callback(new UnsafeTargetError(`${hostname} resolves to a forbidden address (${bad.address})`), '', 4);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    return callback(null, addresses[0].address, addresses[0].family);
  });
};

function resolve(host: string): Promise<LookupAddress[]> {
  if (isIP(host)) return Promise.resolve([{ address: host, family: isIP(host) }]);
  return new Promise((ok, fail) => dnsLookup(host, { all: true }, (err, addresses) => (err ? fail(err) : ok(addresses))));
}

/** The URL's host without IPv6 brackets. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}
