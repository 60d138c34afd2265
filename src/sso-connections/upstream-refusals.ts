/**
 * Why an upstream sign-in was refused (docs/sso-connections.md, "Failure reasons"). Each reason is
 * the `metadata.reason` of its `login_failure` audit row, the `reason` of its attempt, and a
 * sentence on the error page; never a 5xx, even when the upstream itself failed.
 */
export const UPSTREAM_REFUSALS = {
  user_not_provisioned: {
    status: 403,
    words: 'Your account has not been set up for this application. Ask your administrator to give you access.',
  },
  user_deactivated: { status: 403, words: 'Your account has been deactivated. Ask your administrator if you think this is a mistake.' },
  email_unverified: {
    status: 403,
    words: 'Your identity provider did not confirm your email address, so it cannot be matched to an account.',
  },
  identity_conflict: {
    status: 409,
    words: 'This account is already linked to another identity at your identity provider. Ask your administrator.',
  },
  sign_in_blocked: { status: 403, words: 'This sign-in was blocked by the security policy of the application.' },
  mfa_required: {
    status: 403,
    words: 'This application requires multi-factor authentication, and your identity provider did not report that you used it.',
  },
  signature_invalid: { status: 400, words: 'The answer from your identity provider was not signed by a key we trust.' },
  audience_mismatch: { status: 400, words: 'The answer from your identity provider was meant for another application.' },
  issuer_mismatch: { status: 400, words: 'The answer did not come from the identity provider this connection trusts.' },
  destination_mismatch: { status: 400, words: 'The answer from your identity provider was sent to another address.' },
  nonce_mismatch: { status: 400, words: 'The answer from your identity provider does not belong to this sign-in.' },
  state_mismatch: {
    status: 400,
    words: 'This sign-in was started in another browser or tab, or it expired. Start again from the application.',
  },
  response_expired: { status: 400, words: 'The answer from your identity provider has expired. Start again from the application.' },
  response_replayed: { status: 400, words: 'This answer from your identity provider was already used. Start again from the application.' },
  response_invalid: { status: 400, words: 'The answer from your identity provider could not be read.' },
  subject_missing: {
    status: 400,
    words: 'Your identity provider did not say who you are in a way this connection can use. Ask your administrator to check its settings.',
  },
  unsolicited_response: {
    status: 400,
    words: 'Sign-ins started at your identity provider are not accepted here. Start from the application.',
  },
  upstream_denied: { status: 403, words: 'Your identity provider did not let you sign in.' },
  upstream_error: { status: 400, words: 'Your identity provider could not be reached or answered with an error. Try again later.' },
} as const satisfies Record<string, { status: number; words: string }>;

export type UpstreamRefusalReason = keyof typeof UPSTREAM_REFUSALS;

export const UPSTREAM_REFUSAL_REASONS = Object.keys(UPSTREAM_REFUSALS) as UpstreamRefusalReason[];

/**
 * A refusal a protocol half throws while reading the upstream's answer; the controller hands it to
 * UpstreamSignInService.refuse, which audits it and answers its page. `detail` is for the logs and
 * the audit row, never for the page.
 */
export class UpstreamRefusal extends Error {
  constructor(
    readonly reason: UpstreamRefusalReason,
    readonly detail?: string,
    readonly facts: { subject?: string; email?: string } = {},
  ) {
    super(`${reason}${detail ? `: ${detail}` : ''}`);
  }
}
