import type { JWK } from 'jose';

/** RFC 7591 §2 names of the ways a client proves who it is at the token endpoint. */
export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';

/** Where a client's (or a trusted issuer's) public keys are: inline, or behind a JWKS URL. */
export type KeySource = { keys: JWK[] } | { uri: string };

/** An external issuer whose JWTs a client may exchange for an access token (RFC 7523 §2.1). */
export interface FederationTrust {
  issuer: string;
  keys: KeySource;
  subject: string;
  /** The `aud` the issuer puts in its JWTs; null: this server's issuer or token endpoint URL. */
  audience: string | null;
}

/** One secret of a client, as the authenticator compares it (SHA-256 hex, constant time). */
export interface ClientSecretHash {
  id: string;
  hash: string;
}

/**
 * A client of the authorization server as the token endpoint sees it, whatever kind it is
 * (SCIM client today; the applications of src/oauth-clients of the OpenID provider, decision 0913). Data, no behaviour:
 * the kind's store builds it from its own tables, the core decides with it.
 */
export interface RegisteredClient {
  /** The store that owns it ('scim', 'application'). */
  kind: string;
  /** Row id (uuid) of the client in its store. */
  id: string;
  /** The public `client_id`. */
  clientId: string;
  workspaceId: string;
  /** The methods it may authenticate with (private_key_jwt only with keys registered). */
  authMethods: readonly ClientAuthMethod[];
  /** Grant types it may use. */
  grantTypes: readonly string[];
  /** Scopes it may ask for; the first is granted when it asks for none. */
  scopes: readonly string[];
  /** `aud` of the access tokens it gets: the resource they are for. */
  audience: string;
  /** Live (unrevoked, unexpired) secrets. */
  secrets: readonly ClientSecretHash[];
  /** Keys of its private_key_jwt assertions. */
  keys: KeySource | null;
  federation: FederationTrust | null;
}

/** How the client authenticated, and with which of its credentials: the access token names it for revocation. */
export interface AuthenticatedClient {
  client: RegisteredClient;
  method: ClientAuthMethod;
  /** `secret:<id>` for a secret, `key` for private_key_jwt, `none` for no authentication. */
  credential: string;
}

/** A kind of client: it recognises its client ids and loads one. Registered with the OAuthClientDirectory. */
export interface OAuthClientStore {
  readonly kind: string;
  /** Scopes its clients can have (published in the server metadata). */
  readonly scopes: readonly string[];
  owns(clientId: string): boolean;
  /**
   * The client, or undefined. `params` are the token request's parameters when the lookup is the
   * token endpoint's: a store may read what its grant will need in the same round trip (the
   * applications read the authorization code with the client, decision 0917).
   */
  find(clientId: string, params?: Readonly<Record<string, string>>): Promise<RegisteredClient | undefined>;
}
