import { UpstreamRefusal, type UpstreamRefusalReason } from '../upstream-refusals';

/**
 * Why an inbound SAML response was refused. Each is one of the connections' typed reasons
 * (upstream-refusals.ts, which holds the words the person reads) except `malformed_response`,
 * which is `response_invalid` there (docs/sso-connections.md lists them all, decision 0420).
 */
export const SAML_REFUSAL_REASONS = [
  'signature_invalid',
  'audience_mismatch',
  'response_expired',
  'response_replayed',
  'state_mismatch',
  'upstream_error',
  'destination_mismatch',
  'issuer_mismatch',
  'unsolicited_response',
  'malformed_response',
  'subject_missing',
] as const;
export type SamlRefusalReason = (typeof SAML_REFUSAL_REASONS)[number];

export class SamlRefusal extends Error {
  constructor(
    readonly reason: SamlRefusalReason,
    /** For the audit row and the developer's attempts list; never shown with secrets in it. */
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'SamlRefusal';
  }
}

export function refuse(reason: SamlRefusalReason, detail: string): never {
  throw new SamlRefusal(reason, detail);
}

/** The connections' refusal for what the verifier refused, with the subject and email when they were read. */
export function upstreamRefusalOf(err: SamlRefusal, facts: { subject?: string; email?: string } = {}): UpstreamRefusal {
  const reason: UpstreamRefusalReason = err.reason === 'malformed_response' ? 'response_invalid' : err.reason;
  return new UpstreamRefusal(reason, err.detail, facts);
}
