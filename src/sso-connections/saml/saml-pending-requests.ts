import type { SecretBox } from '../../common/crypto/secret-box';

/**
 * The AuthnRequests a browser is waiting on, sealed in its `sso_saml` cookie (decision 0424): the
 * answer's signed InResponseTo must be one of them, and the entry says where the browser goes
 * next. Sealed (AES-256-GCM under SECRETS_ENCRYPTION_KEY) so the browser can neither read nor
 * forge an entry, and kept in the browser so every instance can check it.
 */
export interface PendingSamlRequest {
  /** The AuthnRequest ID. */
  id: string;
  connectionId: string;
  /** Where the browser goes after signing in (already safeNext'ed). */
  next: string;
  /** Epoch milliseconds after which the answer is no longer awaited. */
  expiresAt: number;
}

/** How long the IdP has to answer (the same ten minutes as an OIDC flow, decision 0412). */
export const SAML_REQUEST_TTL_MS = 10 * 60 * 1000;
/** A few tabs at once; the oldest is dropped beyond that. */
const MAX_PENDING = 5;
const MAX_COOKIE_CHARS = 4000;

/** The entries of the cookie still awaited; anything unreadable, forged or expired is no entry. */
export function openPending(box: SecretBox, cookie: unknown, now: number): PendingSamlRequest[] {
  if (typeof cookie !== 'string' || cookie.length === 0 || cookie.length > MAX_COOKIE_CHARS) return [];
  let entries: unknown;
  try {
    entries = JSON.parse(box.decrypt(cookie));
  } catch {
    return [];
  }
  return Array.isArray(entries) ? entries.filter((e): e is PendingSamlRequest => isEntry(e) && e.expiresAt > now) : [];
}

/** The cookie value for these entries, the newest kept when there are too many. */
export function sealPending(box: SecretBox, entries: readonly PendingSamlRequest[]): string {
  return box.encrypt(JSON.stringify(entries.slice(-MAX_PENDING)));
}

function isEntry(value: unknown): value is PendingSamlRequest {
  const e = value as Partial<PendingSamlRequest> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.id === 'string' &&
    typeof e.connectionId === 'string' &&
    typeof e.next === 'string' &&
    typeof e.expiresAt === 'number'
  );
}
