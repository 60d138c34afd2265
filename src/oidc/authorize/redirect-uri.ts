/** Loopback IP literals of RFC 8252 §7.3 (not `localhost`, which §8.3 advises against). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]']);

/**
 * Whether `requested` is one of the client's registered redirect URIs: compared as exact strings
 * (OAuth 2.1 §2.3.1, no wildcards and no normalisation), except that for an `http` loopback IP
 * literal the port may differ (RFC 8252 §7.3: a native app listens on an ephemeral port).
 */
export function matchesRedirectUri(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const asked = loopback(requested);
  if (!asked) return false;
  return registered.some((uri) => {
    const candidate = loopback(uri);
    return candidate !== null && candidate === asked;
  });
}

/** The URI without its port when it is an http loopback IP literal; null otherwise. */
function loopback(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname) || url.username || url.password || url.hash) return null;
  // Compare the rest as written: everything after the authority, which URL does not rewrite for these.
  const afterAuthority = uri.slice(uri.indexOf('//') + 2).replace(/^[^/?#]*/, '');
  return `http://${url.hostname}${afterAuthority}`;
}
