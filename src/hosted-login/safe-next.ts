const BASE = 'http://service.invalid';

/**
 * Keep `next` only when it is a relative path on this service; anything else becomes `/`.
 * Rejects absolute and scheme-relative URLs (`//evil`, `/\evil`, which browsers treat alike),
 * control characters and anything the URL parser resolves to another origin.
 */
export function safeNext(next: unknown, fallback = '/'): string {
  if (typeof next !== 'string' || next.length === 0 || next.length > 2048) return fallback;
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  if (/[\u0000-\u001f\u007f\\]/.test(next)) return fallback;
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  return url.pathname + url.search + url.hash;
}
