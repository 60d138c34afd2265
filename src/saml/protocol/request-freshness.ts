import { ASSERTION_LIFETIME_MS, CLOCK_SKEW_MS } from './login-response.builder';

/**
 * How old an AuthnRequest may be (its IssueInstant): the assertion lifetime (spec: 5 minutes),
 * with the spec's 30 s of clock skew on either side (decision 0208). A browser takes a second or
 * two from the SP to here; a request older than the assertion it asks for is a stored one.
 */
export const REQUEST_MAX_AGE_MS = ASSERTION_LIFETIME_MS;
export { CLOCK_SKEW_MS };

export type Freshness = { fresh: true } | { fresh: false; reason: 'stale_request' | 'early_request'; message: string };

/**
 * The instant of a SAML time value (an xs:dateTime the parser checked). saml-core §1.3.3: SAML time values
 * are in UTC, so a value without a zone is read as UTC (JavaScript would read it in the server's local
 * zone); "Z" and explicit offsets are read as written (decision 0215).
 */
export function samlInstant(value: string): number {
  return Date.parse(/(Z|[+-]\d{2}:\d{2})$/.test(value) ? value : `${value}Z`);
}

/** Whether IssueInstant (an xs:dateTime the parser checked) lies in [now - 5 min - 30 s, now + 30 s]. */
export function requestFreshness(issueInstant: string, now: Date): Freshness {
  const issued = samlInstant(issueInstant);
  const age = now.getTime() - issued;
  if (age > REQUEST_MAX_AGE_MS + CLOCK_SKEW_MS) {
    return {
      fresh: false,
      reason: 'stale_request',
      message: `The AuthnRequest was issued at ${issueInstant}, more than ${REQUEST_MAX_AGE_MS / 60_000} minutes ago (with ${CLOCK_SKEW_MS / 1000} s of clock skew). Start the sign-in again at the application.`,
    };
  }
  if (-age > CLOCK_SKEW_MS) {
    return {
      fresh: false,
      reason: 'early_request',
      message: `The AuthnRequest IssueInstant ${issueInstant} is in the future by more than the ${CLOCK_SKEW_MS / 1000} s of clock skew allowed: check the clock of the service provider.`,
    };
  }
  return { fresh: true };
}

/**
 * Until when a used request ID is remembered: past it, the request is stale (refused above)
 * whatever its IssueInstant was, so its ID can be forgotten. An accepted IssueInstant is at most
 * `now + skew`; it goes stale at IssueInstant + max age + skew.
 */
export function replayWindowEnd(now: Date): Date {
  return new Date(now.getTime() + REQUEST_MAX_AGE_MS + 2 * CLOCK_SKEW_MS);
}
