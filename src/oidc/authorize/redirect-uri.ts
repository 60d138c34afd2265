/** Loopback IP literals of RFC 8252 §7.3 (not `localhost`, which §8.3 advises against). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]']);

/** A redirect URI as the WHATWG URL parser reads it: what is compared and what is redirected to (decision 0935). */
interface ParsedRedirect {
  /** The serialization the browser is sent to. */
  href: string;
  /** What two URIs must share to match: the href, without the port for an http loopback IP literal. */
  comparable: string;
  loopback: boolean;
}

function parseRedirect(uri: string): ParsedRedirect | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  const loopback = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && !url.username && !url.password && !url.hash;
  if (!loopback) return { href: url.href, comparable: url.href, loopback };
  const portless = new URL(url.href);
  portless.port = '';
  return { href: url.href, comparable: portless.href, loopback };
}

/**
 * The address to redirect to when `requested` is one of the client's registered redirect URIs, or
 * null. Compared as exact strings (OAuth 2.1 §2.3.1, no wildcards), except that for an `http`
 * loopback IP literal the port may differ (RFC 8252 §7.3: a native app listens on an ephemeral
 * port). Both sides go through one parser and the parsed form is both compared and returned, so a
 * string the parser reads differently from how it looks (`http://127.0.0.1\evil/cb`) cannot match
 * one URI and send the browser to another.
 */
export function registeredRedirect(registered: readonly string[], requested: string): string | null {
  const asked = parseRedirect(requested);
  if (!asked) return null;
  const matches = registered.some((uri) => {
    const candidate = parseRedirect(uri);
    if (!candidate || candidate.comparable !== asked.comparable) return false;
    // Outside the loopback rule the strings are equal too: no normalisation widens what was registered.
    return asked.loopback ? candidate.loopback : uri === requested;
  });
  return matches ? asked.href : null;
}

/** Whether `requested` is one of the client's registered redirect URIs (registeredRedirect's rule). */
export function matchesRedirectUri(registered: readonly string[], requested: string): boolean {
  return registeredRedirect(registered, requested) !== null;
}
