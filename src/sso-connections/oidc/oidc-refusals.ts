import { UpstreamRefusal, type UpstreamRefusalReason } from '../upstream-refusals';

/**
 * The typed reason of what openid-client (oauth4webapi underneath) refused, by its error code and
 * what it names: a claim that did not compare (nonce, iss, aud), a signature or an algorithm, a
 * timestamp; the provider's own error; anything else is the upstream's failure (never a 5xx).
 */
export function refusalOf(err: unknown): UpstreamRefusal {
  const e = err as { code?: string; message?: string; error?: string; cause?: unknown };
  // openid-client wraps oauth4webapi's error in a generic one ("invalid response encountered"): what
  // was refused is in the wrapped error's message and, for a claim, its cause.
  const inner = e.cause instanceof Error ? (e.cause as Error & { cause?: { claim?: string } }) : undefined;
  const detail = (inner?.message ?? e.message ?? String(err)).slice(0, 300);
  const claim = inner?.cause?.claim ?? (e.cause as { claim?: string } | undefined)?.claim;
  const reason = ((): UpstreamRefusalReason => {
    switch (e.code) {
      case 'OAUTH_AUTHORIZATION_RESPONSE_ERROR':
        return e.error === 'access_denied' || e.error === 'login_required' || e.error === 'consent_required'
          ? 'upstream_denied'
          : 'upstream_error';
      case 'OAUTH_JWT_CLAIM_COMPARISON_FAILED':
      case 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED':
        return claimReason(claim, detail);
      case 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED':
        return 'response_expired';
      case 'OAUTH_KEY_SELECTION_FAILED':
        return 'signature_invalid';
      case 'OAUTH_INVALID_RESPONSE':
        if (/signature|"alg"/i.test(detail)) return 'signature_invalid';
        if (/"iss"|issuer/i.test(detail)) return 'issuer_mismatch';
        if (/"state"/i.test(detail)) return 'state_mismatch';
        if (/"nonce"/i.test(detail)) return 'nonce_mismatch';
        return 'response_invalid';
      case 'OAUTH_PARSE_ERROR':
      case 'OAUTH_RESPONSE_IS_NOT_CONFORM':
        return 'response_invalid';
      default:
        return 'upstream_error';
    }
  })();
  return new UpstreamRefusal(reason, detail);
}

function claimReason(claim: string | undefined, detail: string): UpstreamRefusalReason {
  const named = claim ?? /"(\w+)"/.exec(detail)?.[1];
  if (named === 'nonce') return 'nonce_mismatch';
  if (named === 'iss') return 'issuer_mismatch';
  if (named === 'aud' || named === 'azp') return 'audience_mismatch';
  return 'response_invalid';
}
