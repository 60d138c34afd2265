/**
 * What the SAML half needs to know about one connection. The connection itself (its row, the
 * developer API, the bindings) belongs to the connections module; this is the narrow view the
 * service-provider code works from, so it can be tested on its own.
 */
export interface SamlConnectionSettings {
  id: string;
  workspaceId: string;
  idpEntityId: string;
  /** The IdP's SingleSignOnService for the HTTP-Redirect binding. */
  idpSsoUrl: string;
  /** One or two PEM certificates: two while the IdP rolls its signing key over. */
  idpCertificates: readonly string[];
  /** Accept IdP-initiated responses (no AuthnRequest of ours behind them). Off by default. */
  allowUnsolicited: boolean;
  /** Count the IdP's AuthnContextClassRef as multi-factor when it names a two-factor class. */
  trustUpstreamMfa: boolean;
  attributeMapping: SamlAttributeMapping;
  /**
   * An attribute whose value never changes for a person at the IdP (Entra's objectidentifier,
   * Okta's user id), used as the subject instead of a persistent NameID.
   */
  subjectAttribute?: string | null;
}

/** Attribute names (or FriendlyNames) that carry each claim; the defaults cover Okta, Entra ID and Google. */
export interface SamlAttributeMapping {
  email?: string;
  firstName?: string;
  lastName?: string;
  groups?: string;
}

export const DEFAULT_ATTRIBUTE_NAMES: Readonly<Record<keyof SamlAttributeMapping, readonly string[]>> = {
  email: ['email', 'mail', 'emailAddress', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'],
  firstName: ['firstName', 'givenName', 'given_name', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname'],
  lastName: ['lastName', 'surname', 'sn', 'family_name', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname'],
  groups: ['groups', 'memberOf', 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups'],
};

/** Our service-provider endpoints for a connection: what the developer pastes into the IdP. */
export interface SpEndpoints {
  entityId: string;
  acsUrl: string;
  metadataUrl: string;
}

export function spEndpoints(publicBaseUrl: string, connectionId: string): SpEndpoints {
  const base = `${publicBaseUrl.replace(/\/+$/, '')}/auth/sso/${encodeURIComponent(connectionId)}/saml`;
  return { entityId: `${base}/metadata`, acsUrl: `${base}/acs`, metadataUrl: `${base}/metadata` };
}
