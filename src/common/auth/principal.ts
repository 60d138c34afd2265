export interface DeveloperPrincipal {
  kind: 'developer';
  developerId: string;
  email: string;
  via: 'session' | 'token';
  tokenId?: string;
}

export interface ScimPrincipal {
  kind: 'scim';
  /** The `scim_` token's id, or the OAuth access token's jti. */
  tokenId: string;
  workspaceId: string;
  /** A SCIM OAuth client's access token: the client's id (audited as actor_type oauth_client); null for a `scim_` token. */
  oauthClientId: string | null;
  /** A `scim_` token's label, which the audit log names beside its id. */
  label?: string;
}

export interface EndUserPrincipal {
  kind: 'end-user';
  userId: string;
  sessionId: string;
  workspaceId: string;
  oauthClientId: string | null;
  jti: string;
}

/** A Shared Signals receiver, by the access token its OAuth client credentials got (scope ssf). */
export interface SsfReceiverPrincipal {
  kind: 'ssf';
  receiverId: string;
  workspaceId: string;
  clientId: string;
}

export type Principal = DeveloperPrincipal | ScimPrincipal | EndUserPrincipal | SsfReceiverPrincipal;

/** Implemented by the developers module: authenticates the dashboard session cookie. */
export interface DeveloperSessionAuthenticator {
  authenticateSession(sessionToken: string, csrfHeader: string | undefined, unsafeMethod: boolean): Promise<DeveloperPrincipal>;
}
export const DEVELOPER_SESSION_AUTHENTICATOR = Symbol('DEVELOPER_SESSION_AUTHENTICATOR');
