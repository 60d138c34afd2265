/**
 * Why an inbound SAML response was refused. The first six are the connections contract's shared
 * reasons; the rest are the SAML half's own (docs/sso-connections.md lists them all, decision 0420).
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

/** What the person reads on the error page, one sentence per reason. */
export const SAML_REFUSAL_WORDS: Readonly<Record<SamlRefusalReason, string>> = {
  signature_invalid: "Your company's sign-in answer was not signed with the key this connection trusts.",
  audience_mismatch: "Your company's sign-in answer was meant for another application.",
  response_expired: "Your company's sign-in answer is outside its validity window. Please sign in again.",
  response_replayed: 'This sign-in answer was already used. Please sign in again.',
  state_mismatch: 'This sign-in answer belongs to a sign-in started in another browser or tab. Please sign in again.',
  upstream_error: "Your company's identity provider did not sign you in.",
  destination_mismatch: "Your company's sign-in answer was addressed to another endpoint.",
  issuer_mismatch: "The sign-in answer did not come from this connection's identity provider.",
  unsolicited_response: 'This connection only accepts sign-ins started here. Please start the sign-in again.',
  malformed_response: "Your company's sign-in answer could not be read.",
  subject_missing: "Your company's sign-in answer did not say who you are in a way this connection can use.",
};

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
