/**
 * Authentication context classes (saml-authn-context-2.0) and the RequestedAuthnContext
 * comparison of saml-core §3.3.2.2.1. The ordering of classes by strength is the
 * responder's to define; ours is the table below (decision 0204).
 */
const AC = 'urn:oasis:names:tc:SAML:2.0:ac:classes:';

export const AUTHN_CLASS = {
  passwordProtectedTransport: `${AC}PasswordProtectedTransport`,
  timeSyncToken: `${AC}TimeSyncToken`,
  mobileTwoFactorContract: `${AC}MobileTwoFactorContract`,
  /** REFEDS MFA profile: two distinct factors were used (https://refeds.org/profile/mfa). */
  refedsMfa: 'https://refeds.org/profile/mfa',
} as const;

/**
 * Strength rank of the classes we can compare. A class not listed cannot be ranked: it
 * satisfies only an `exact` request that names it, which we can never meet.
 */
const RANK: ReadonlyMap<string, number> = new Map([
  [`${AC}unspecified`, 0],
  [`${AC}InternetProtocol`, 1],
  [`${AC}PreviousSession`, 1],
  [`${AC}Password`, 2],
  [`${AC}InternetProtocolPassword`, 2],
  [`${AC}PasswordProtectedTransport`, 3],
  [`${AC}SecureRemotePassword`, 3],
  [`${AC}Kerberos`, 4],
  [`${AC}TimeSyncToken`, 5],
  [`${AC}MobileOneFactorContract`, 5],
  [`${AC}MobileTwoFactorUnregistered`, 6],
  [`${AC}MobileTwoFactorContract`, 6],
  [`${AC}SoftwarePKI`, 6],
  [`${AC}X509`, 6],
  [`${AC}TLSClient`, 6],
  [`${AC}Smartcard`, 6],
  [`${AC}SmartcardPKI`, 7],
  // Not a SAML class but the federations' way of asking for two factors; ranked with the two-factor classes.
  [AUTHN_CLASS.refedsMfa, 6],
]);

export const COMPARISONS = ['exact', 'minimum', 'better', 'maximum'] as const;
export type Comparison = (typeof COMPARISONS)[number];

/** <RequestedAuthnContext> as read from an AuthnRequest: class refs or declaration refs, never both. */
export interface RequestedAuthnContext {
  comparison: Comparison;
  classRefs: string[];
  /** AuthnContextDeclRef values: we issue no declarations, so these are never satisfied. */
  declRefs: string[];
}

/**
 * Whether a sign-in of class `actual` satisfies the request (saml-core §3.3.2.2.1):
 * exact - one of the listed classes; minimum - at least as strong as one of them;
 * better - stronger than one of them; maximum - not stronger than one of them.
 */
export function satisfiesRequested(actual: string, requested: RequestedAuthnContext | undefined): boolean {
  if (!requested) return true;
  if (requested.declRefs.length > 0) return false;
  const have = RANK.get(actual);
  return requested.classRefs.some((ref) => {
    if (requested.comparison === 'exact') return ref === actual;
    const want = RANK.get(ref);
    if (have === undefined || want === undefined) return false;
    switch (requested.comparison) {
      case 'minimum':
        return have >= want;
      case 'better':
        return have > want;
      case 'maximum':
        return have <= want;
    }
  });
}

/**
 * The classes a hosted-login session meets, strongest first, from its RFC 8176 methods
 * (decision 0314): a password over HTTPS is PasswordProtectedTransport; a password and a
 * one-time code (authenticator app, recovery code, mailed code) also meet TimeSyncToken,
 * MobileTwoFactorContract and the REFEDS MFA profile; a password and a passkey the last two.
 */
export function sessionClasses(amr: readonly string[]): string[] {
  if (!amr.includes('mfa')) return [AUTHN_CLASS.passwordProtectedTransport];
  const classes: string[] = [AUTHN_CLASS.refedsMfa, AUTHN_CLASS.mobileTwoFactorContract];
  if (amr.includes('otp')) classes.push(AUTHN_CLASS.timeSyncToken);
  classes.push(AUTHN_CLASS.passwordProtectedTransport);
  return classes;
}

/** The methods of a session that used a second factor, for asking "could a second factor meet this request?". */
export const TWO_FACTOR_AMR: readonly string[] = ['pwd', 'otp', 'mfa'];

/**
 * The class an assertion names for a session of these methods, or null when the session does not
 * meet the request. A requested class the session meets is named as asked; otherwise the
 * strongest class of the session that satisfies the comparison. Without a request: the
 * session's strongest class.
 */
export function assertedClass(amr: readonly string[], requested: RequestedAuthnContext | undefined): string | null {
  const have = sessionClasses(amr);
  if (!requested) return have[0];
  if (requested.declRefs.length > 0) return null;
  if (requested.comparison !== 'better') {
    const named = requested.classRefs.find((ref) => have.includes(ref));
    if (named) return named;
  }
  return have.find((c) => satisfiesRequested(c, requested)) ?? null;
}
