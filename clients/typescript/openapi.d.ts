// Generated from openapi.json by scripts/openapi-check.mjs (openapi-typescript). Do not edit: run `npm run openapi:write`.
export interface paths {
  '/developer/audit/verify/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Verify the audit chain
     * @description Recomputes the workspace's hash chain from its events as they are now, over the links sealed between from and to (from the first link when from is not given, so a removed first event is found too), and checks every signed checkpoint in that span. Answers how many links and checkpoints check out and the first break: an edited, missing or back-dated (inserted) event, a checkpoint whose signature does not verify, or one whose head differs from the recomputed chain. A workspace with nothing sealed in the span answers zeros. Members of the workspace only.
     */
    get: operations['AuditController_verify'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/audit/checkpoints/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List signed checkpoints
     * @description The workspace's signed chain heads (Ed25519, at most one a minute while its chain moves) signed between from and to, oldest first. Page with `cursor` = next_cursor of the previous page (a seq). Check them offline against GET /developer/audit/keys/ and an export. Members of the workspace only.
     */
    get: operations['AuditController_checkpoints'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/audit/keys/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the checkpoint signing keys
     * @description The Ed25519 public keys (PEM) that sign audit checkpoints: the active one, which signs new checkpoints, and those retired by rotation, kept so older checkpoints still verify. The same for every workspace; any signed-in developer may read them. Keep a copy outside the service: a proof is only as good as the key it is checked with.
     */
    get: operations['AuditController_keys'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/audit/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read the audit log
     * @description Events of one workspace, newest first, filtered by type, severity, actor, target, IP and time. Page with `cursor` = next_cursor of the previous page (stable under concurrent writes). Members of the workspace only.
     */
    get: operations['AuditController_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/audit/export/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Export the audit log
     * @description Every event of one workspace between from and to, oldest first, streamed as NDJSON (one AuditEvent per line).
     */
    get: operations['AuditController_export'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/health/live': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Liveness probe
     * @description Answers while the process serves HTTP; checks no dependency, so a database outage never restarts healthy instances.
     */
    get: operations['HealthController_live'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/health/ready': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Readiness probe
     * @description Ready when the database answers within 2 s and no migration is pending. Redis, when configured, is reported (degraded) but never fails readiness.
     */
    get: operations['HealthController_ready'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/auth/signup/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create a developer account
     * @description Signs up a developer (the person who manages workspaces, SCIM tokens, OAuth clients and SAML apps). The email is stored lower-cased and must be unused. Refused with 403 when DEVELOPER_SIGNUP_ENABLED=false. Then sign in with POST /developer/auth/login/.
     */
    post: operations['DeveloperAuthController_signup'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/auth/login/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign in to the dashboard
     * @description Checks email and password and starts a developer session: sets the HttpOnly `sid` cookie and a readable `csrftoken` cookie (both SameSite=Lax, Secure when COOKIE_SECURE, Domain=COOKIE_DOMAIN when set) and returns the CSRF token. Cookie-authenticated writes must echo it in X-CSRF-Token. For scripts, mint a bearer token with POST /developer/tokens/ instead.
     */
    post: operations['DeveloperAuthController_login'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/auth/logout/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign out of the dashboard
     * @description Ends the session of the `sid` cookie, if any, and clears both cookies. Always 204, also without a session.
     */
    post: operations['DeveloperAuthController_logout'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/me/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show the signed-in developer
     * @description The developer behind the session cookie or bearer token: a cheap way for a dashboard to check it is signed in.
     */
    get: operations['DeveloperAuthController_me'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/tokens/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List developer access tokens
     * @description The caller's tokens that are not revoked, without their secret value.
     */
    get: operations['DeveloperTokensController_list'];
    put?: never;
    /**
     * Mint a developer access token
     * @description Creates a bearer token (`dat_…`, opaque) for scripts and CI: send it as `Authorization: Bearer dat_…` to any dashboard route, no CSRF header needed. The token is shown once and stored only as a hash. Without expires_at it lasts until revoked.
     */
    post: operations['DeveloperTokensController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/tokens/{id}/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Revoke a developer access token
     * @description The token stops working at once on every instance.
     */
    delete: operations['DeveloperTokensController_revoke'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/developer/workspaces/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List my workspaces
     * @description Every workspace the caller is a member of (a bare array).
     */
    get: operations['WorkspacesController_list'];
    put?: never;
    /**
     * Create a workspace
     * @description A workspace holds end users, SCIM tokens, OAuth clients, SAML apps and databases. The caller becomes its owner.
     */
    post: operations['WorkspacesController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/developer/workspaces/{id}/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show a workspace
     * @description Visible to its members only; anyone else gets 404.
     */
    get: operations['WorkspacesController_get'];
    put?: never;
    post?: never;
    /**
     * Delete a workspace
     * @description Owners only. Deletes the workspace and everything in it.
     */
    delete: operations['WorkspacesController_remove'];
    options?: never;
    head?: never;
    /**
     * Rename or describe a workspace
     * @description Any member may change name and description; fields not sent are kept.
     */
    patch: operations['WorkspacesController_update'];
    trace?: never;
  };
  '/e/v1/developer/workspaces/{id}/members/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List workspace members
     * @description Developers of the workspace with their role.
     */
    get: operations['WorkspacesController_members'];
    put?: never;
    /**
     * Add a member
     * @description Owners only. The developer must already have signed up (400 otherwise). Role owner or member.
     */
    post: operations['WorkspacesController_addMember'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/developer/workspaces/{id}/members/{developerId}/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Remove a member
     * @description Owners only. The last owner cannot be removed.
     */
    delete: operations['WorkspacesController_removeMember'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/oauth/clients/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List applications of a workspace
     * @description Without secrets.
     */
    get: operations['OAuthClientsController_list'];
    put?: never;
    /**
     * Register an application (OAuth client)
     * @description End users belong to an application: they register and sign in with its client_id. The client_secret is shown once and stored hashed; rotate it with POST …/secret/.
     */
    post: operations['OAuthClientsController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/oauth/clients/{id}/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show an application
     * @description Without its secret.
     */
    get: operations['OAuthClientsController_get'];
    /**
     * Update an application
     * @description Changes name and redirect URIs.
     */
    put: operations['OAuthClientsController_update'];
    post?: never;
    /**
     * Delete an application
     * @description Its end users can no longer sign in through it.
     */
    delete: operations['OAuthClientsController_remove'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/oauth/clients/{id}/secret/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Rotate the client secret
     * @description Issues a new secret (shown once); the old one stops working at once.
     */
    post: operations['OAuthClientsController_rotate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/oauth/token': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Get an access token
     * @description RFC 6749 token endpoint. `grant_type=client_credentials` (§4.4) with client authentication `client_secret_basic` (HTTP Basic), `client_secret_post` (client_id and client_secret in the form) or `private_key_jwt` (RFC 7523 §2.2: client_assertion_type `urn:ietf:params:oauth:client-assertion-type:jwt-bearer`, a JWT with iss = sub = client_id, aud = this URL, exp at most 5 minutes ahead, a jti never used before); or `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer` (RFC 7523 §2.1) with `assertion` (a JWT of the issuer the client trusts, see PUT /developer/scim/clients/{id}/federation/) and `client_id`. Access tokens are signed JWTs (EdDSA) living OAUTH_ACCESS_TOKEN_TTL_SECONDS (default 1 h); a SCIM client's token works on /scim/v2 of its workspace like a `scim_` token. Applications (OpenID Connect, see docs/oidc.md) use `grant_type=authorization_code` (`code`, `redirect_uri`, PKCE `code_verifier`; a code works once, and presented again revokes what it issued) and `grant_type=refresh_token` (each refresh token works once; a spent one revokes its session), authenticating with `client_secret_basic`, `client_secret_post`, `private_key_jwt`, or `none` with `client_id` for a public client; they get `access_token` (the end-user access token), `refresh_token` and `id_token`. Errors follow RFC 6749 §5.2.
     */
    post: operations['TokenController_token'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/oauth/revoke': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Revoke a token
     * @description RFC 7009. The client authenticates as at the token endpoint (a public client sends its client_id). An application's access or refresh token ends its session: both stop working on their next use. Answers 200 whether or not the token was known or already revoked; another client's token is left alone.
     */
    post: operations['TokenManagementController_revoke'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/oauth/introspect': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Introspect a token
     * @description RFC 7662, for an application's own APIs: a confidential client asks whether a token issued to it is active, and with which scope, subject and expiry. A token that is expired, revoked, unknown or issued to another client answers `{"active": false}`.
     */
    post: operations['TokenManagementController_introspect'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/.well-known/oauth-authorization-server': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Authorization server metadata
     * @description RFC 8414 metadata of the one authorization server: issuer (PUBLIC_BASE_URL), token endpoint, the grant types, client authentication methods, assertion algorithms and scopes it supports, and its JWKS.
     */
    get: operations['OAuthDiscoveryController_metadata'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/.well-known/openid-configuration': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * OpenID Provider configuration
     * @description OpenID Connect Discovery 1.0 §4: the same document as the RFC 8414 metadata, with the OpenID provider's endpoints (authorization, UserInfo, end session, revocation, introspection), response types, subject types, ID token algorithms, claims and ACR values. `issuer` is PUBLIC_BASE_URL.
     */
    get: operations['OAuthDiscoveryController_openidConfiguration'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/oauth/jwks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Signing keys of the authorization server
     * @description RFC 7517 JWK Set with the public keys its access tokens (EdDSA) and ID tokens (RS256, ES256) are signed with; a retired key stays published until the tokens it signed have expired.
     */
    get: operations['OAuthDiscoveryController_jwks'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/scim/tokens/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List SCIM tokens of a workspace
     * @description Active and revoked tokens, never their value.
     */
    get: operations['ScimTokensController_list'];
    put?: never;
    /**
     * Mint a SCIM token
     * @description Creates the bearer token (`scim_…`, opaque) an identity provider (Okta, Entra ID) uses for /scim/v2 of this workspace. Shown once, stored as a hash. Without expires_at it lasts until revoked.
     */
    post: operations['ScimTokensController_mint'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/scim/tokens/{id}/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Revoke a SCIM token
     * @description Stops the token on every instance before answering. Idempotent: revoking again returns the first revoked_at.
     */
    delete: operations['ScimTokensController_revoke'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/scim/clients/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List SCIM OAuth clients of a workspace
     * @description Live and revoked clients with their secrets' ids and expiries, never a secret value.
     */
    get: operations['ScimClientsController_list'];
    put?: never;
    /**
     * Create a SCIM OAuth client
     * @description An identity provider that authenticates to /scim/v2 with OAuth 2.0 instead of a static `scim_` token: it gets short-lived access tokens from POST /oauth/token (client credentials, private_key_jwt, or the JWT-bearer grant). Answers the client_id and a first secret (`value`, shown once, stored hashed; expires_at default one year).
     */
    post: operations['ScimClientsController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/scim/clients/{id}/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show a SCIM OAuth client
     * @description With its secrets (ids, expiries, revocations), keys and trusted issuer.
     */
    get: operations['ScimClientsController_get'];
    put?: never;
    post?: never;
    /**
     * Revoke a SCIM OAuth client
     * @description The client can no longer get tokens, and every access token it holds is refused on its next use, on every instance. Idempotent.
     */
    delete: operations['ScimClientsController_revoke'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/scim/clients/{id}/secrets/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Add a client secret
     * @description Another live secret (rotation without downtime: configure the new one, then revoke the old). Shown once; expires_at default one year, at most five. At most 5 live secrets.
     */
    post: operations['ScimClientsController_createSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/scim/clients/{id}/secrets/{secretId}/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Revoke a client secret
     * @description It can no longer get tokens, and the access tokens issued under it are refused on their next use. Idempotent.
     */
    delete: operations['ScimClientsController_revokeSecret'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/scim/clients/{id}/keys/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Register keys for private_key_jwt
     * @description Either `jwks_uri` (fetched over https, cached) or `jwks` (a JWK Set of 1 to 10 public keys). The client then authenticates with a JWT it signs (RFC 7523 §2.2). Replaces earlier keys.
     */
    put: operations['ScimClientsController_setKeys'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/scim/clients/{id}/federation/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Trust an external issuer (JWT-bearer grant)
     * @description The client may exchange a JWT of this issuer (signed by a key of `jwks_uri`, `sub` = `subject`, `aud` = `audience` or this server's issuer or token endpoint) for an access token (RFC 7523 §2.1): Entra ID workload identity federation, with no secret at all. Replaces an earlier trust.
     */
    put: operations['ScimClientsController_setFederation'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/scim/v2/Users': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List users
     * @description Pages through the users of the token's workspace in creation order, optionally filtered (RFC 7644 §3.4.2).
     */
    get: operations['ScimUsersController_list'];
    put?: never;
    /**
     * Create a user
     * @description Creates a user in the token's workspace; Location names it. Unknown attributes are ignored. When the userName (or primary email) belongs to a deactivated user of the workspace, that user is reactivated instead: the same id, 201, its attributes replaced as by PUT (how Okta and Entra re-provision a person they removed).
     */
    post: operations['ScimUsersController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/scim/v2/Users/.search': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Search users (POST)
     * @description RFC 7644 §3.4.3: the same as GET /scim/v2/Users with the parameters in a SearchRequest body (useful when a filter is too long for a URL).
     */
    post: operations['ScimUsersController_search'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/scim/v2/Users/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a user
     * @description One user of the token's workspace; attributes / excludedAttributes shape the answer.
     */
    get: operations['ScimUsersController_get'];
    /**
     * Replace a user
     * @description Sets the attributes sent; attributes not sent keep their value (decision 0102).
     */
    put: operations['ScimUsersController_replace'];
    post?: never;
    /**
     * Delete a user
     * @description Deactivates the user (active=false) and signs them out everywhere; the user stays readable, as Okta and Entra expect.
     */
    delete: operations['ScimUsersController_deactivate'];
    options?: never;
    head?: never;
    /**
     * Patch a user
     * @description Applies RFC 7644 §3.5.2 operations in order, all or nothing.
     */
    patch: operations['ScimUsersController_patch'];
    trace?: never;
  };
  '/scim/v2/Groups': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List groups
     * @description Pages through the groups of the token's workspace in creation order, optionally filtered (RFC 7644 §3.4.2).
     */
    get: operations['ScimGroupsController_list'];
    put?: never;
    /**
     * Create a group
     * @description Creates a group in the token's workspace; Location names it. Unknown attributes are ignored.
     */
    post: operations['ScimGroupsController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/scim/v2/Groups/.search': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Search groups (POST)
     * @description RFC 7644 §3.4.3: the same as GET /scim/v2/Groups with the parameters in a SearchRequest body (useful when a filter is too long for a URL).
     */
    post: operations['ScimGroupsController_search'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/scim/v2/Groups/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a group
     * @description One group of the token's workspace; attributes / excludedAttributes shape the answer.
     */
    get: operations['ScimGroupsController_get'];
    /**
     * Replace a group
     * @description Sets the attributes sent; attributes not sent keep their value (decision 0102).
     */
    put: operations['ScimGroupsController_replace'];
    post?: never;
    /**
     * Delete a group
     * @description Deletes the group; its members stay.
     */
    delete: operations['ScimGroupsController_remove'];
    options?: never;
    head?: never;
    /**
     * Patch a group
     * @description Applies RFC 7644 §3.5.2 operations in order, all or nothing. Answers 204 No Content, or 200 with the group when the query has attributes or excludedAttributes (decision 0133).
     */
    patch: operations['ScimGroupsController_patch'];
    trace?: never;
  };
  '/scim/v2/ServiceProviderConfig': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Service provider configuration
     * @description What this SCIM server supports (RFC 7643 §5): PATCH and filter yes; bulk, sort, ETags and changePassword no.
     */
    get: operations['ScimDiscoveryController_serviceProviderConfig'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/scim/v2/ResourceTypes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Resource types
     * @description User and Group (RFC 7643 §6).
     */
    get: operations['ScimDiscoveryController_resourceTypes'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/scim/v2/ResourceTypes/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One resource type
     * @description User or Group (case-insensitive).
     */
    get: operations['ScimDiscoveryController_resourceType'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/scim/v2/Schemas': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Schemas
     * @description The core User and Group schemas with the attributes this server supports (RFC 7643 §7).
     */
    get: operations['ScimDiscoveryController_schemas'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/scim/v2/Schemas/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One schema
     * @description By its URN, e.g. urn:ietf:params:scim:schemas:core:2.0:User.
     */
    get: operations['ScimDiscoveryController_schema'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/scim/v2/.search': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Search users and groups
     * @description RFC 7644 §3.4.3 search from the root: users and groups of the token's workspace matching the filter, users first. A type is searched when the filter names only attributes it has (a userName filter finds no groups); a filter neither understands is invalidFilter.
     */
    post: operations['ScimSearchController_search'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/user/security/sessions/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List my sessions
     * @description The calling end user's active sessions (API and browser), with device and place; `current` marks the caller's own.
     */
    get: operations['SessionsController_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/user/security/sessions/{id}/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Sign a session out
     * @description Revokes one of the caller's sessions and its refresh token; its access token stops working.
     */
    delete: operations['SessionsController_revoke'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/auth/register/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Register an end user
     * @description Creates an end user of an application (client_id) and mails a 6-digit verification code (POST /e/v1/email/verify/). The email must be unused in that application. Rate limited per IP and per account.
     */
    post: operations['AuthController_register'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/auth/login/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign an end user in
     * @description Checks email and password for an application and returns an opaque access token (Bearer, `expires_in` seconds) and a refresh token. For an account with a second factor the answer is instead `{mfa_required: true, mfa_token, methods}` and no tokens: finish with POST /e/v1/auth/login/mfa/. Each sign-in is checked for anomalies afterwards (new device, new country, …) and may mail the user. Rate limited.
     */
    post: operations['AuthController_login'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/auth/login/mfa/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Finish a sign-in with the second factor
     * @description Trades the `mfa_token` of POST /e/v1/auth/login/ and a current authenticator code (`code`), one recovery code (`recovery_code`) or a passkey assertion (`passkey`, for the options of POST /e/v1/auth/login/mfa/passkey/options/) for the usual token body. The access token carries `amr` (RFC 8176) and `acr`. The token works once and for 5 minutes; five wrong codes void it. Rate limited per IP and per account.
     */
    post: operations['AuthController_loginSecondStep'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/auth/login/mfa/passkey/options/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Passkey options for the second step
     * @description WebAuthn request options for finishing a sign-in whose `methods` include `passkey`: the account's passkeys are allowed, the challenge is bound to the account, works once and lives 5 minutes. Hand them to `startAuthentication` of @simplewebauthn/browser and send the result as `passkey` to POST /e/v1/auth/login/mfa/. Rate limited like the second step.
     */
    post: operations['AuthController_passkeyOptions'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/auth/token/refresh/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Refresh the access token
     * @description Trades a refresh token for a new pair. Refresh tokens rotate: each works once, and replaying a used one revokes the whole session.
     */
    post: operations['AuthController_refresh'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/auth/logout/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign the end user out
     * @description Ends the session of the access token: the access and refresh tokens stop working.
     */
    post: operations['AuthController_logout'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/auth/password/reset/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Ask for a password-reset code
     * @description Mails a reset code to the account of this email in the application (client_id) or the workspace directory (workspace_id). Always answers success, whether or not the account exists, and sends at most one mail a minute.
     */
    post: operations['AuthController_requestReset'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/auth/password/reset/confirm/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Set a new password with a reset code
     * @description Checks the mailed code and sets the new password; every session of the user is signed out.
     */
    post: operations['AuthController_confirmReset'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/auth/password/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Change my password
     * @description Needs the current password; every other session of the user is signed out.
     */
    post: operations['AuthController_change'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/auth/mfa/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List my second factors
     * @description Whether an authenticator app is set up, the passkeys, and how many recovery codes are left.
     */
    get: operations['MfaController_status'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/auth/mfa/totp/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Start setting up an authenticator app
     * @description Draws a new TOTP secret (RFC 6238: SHA-1, 6 digits, 30 s) and returns it with its `otpauth://` URI for a QR code. It stays pending until confirmed with a first code; a second call replaces a pending secret. The secret is stored encrypted.
     */
    post: operations['MfaController_startTotp'];
    /**
     * Remove the authenticator app
     * @description Needs a current code (`code`) or one recovery code (`recovery_code`). When no factor is left the recovery codes are voided too. Audited as mfa_remove.
     */
    delete: operations['MfaController_disableTotp'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/auth/mfa/totp/confirm/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Confirm the authenticator app
     * @description Turns the pending secret on with a current code. On the first factor of the account the answer carries ten single-use recovery codes, shown this once; otherwise `recovery_codes` is null. Audited as mfa_enroll.
     */
    post: operations['MfaController_confirmTotp'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/auth/mfa/recovery-codes/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Issue new recovery codes
     * @description Ten new single-use codes, shown this once; every code of the previous set stops working. Audited as recovery_codes_regenerate.
     */
    post: operations['MfaController_regenerate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/auth/mfa/passkeys/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List my passkeys
     * @description The passkeys registered to the account, oldest first.
     */
    get: operations['PasskeysController_list'];
    put?: never;
    /**
     * Register a passkey
     * @description Verifies the credential against the challenge of POST …/passkeys/options/ (spent by this call, right or wrong) and stores its public key. On the first factor of the account the answer carries ten single-use recovery codes, shown this once. Audited as mfa_enroll.
     */
    post: operations['PasskeysController_register'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/auth/mfa/passkeys/options/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Start registering a passkey
     * @description WebAuthn creation options for this account (relying party id and origin from PUBLIC_BASE_URL; discoverable credential; the passkeys already registered are excluded). The challenge works once and for 5 minutes. Hand the options to `startRegistration` of @simplewebauthn/browser, then POST the result to /e/v1/auth/mfa/passkeys/.
     */
    post: operations['PasskeysController_options'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/auth/mfa/passkeys/{id}/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Remove a passkey
     * @description The passkey stops working at once. When no factor is left the recovery codes are voided too. Audited as mfa_remove.
     */
    delete: operations['PasskeysController_remove'];
    options?: never;
    head?: never;
    /**
     * Rename a passkey
     * @description Changes the name shown in the list.
     */
    patch: operations['PasskeysController_rename'];
    trace?: never;
  };
  '/e/v1/developer/workspaces/{id}/sign-in-policy/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read the workspace's sign-in policy
     * @description The action per anomaly kind (`new_device`, `new_ip`, `new_country`, `impossible_travel`), judged before a session exists: `allow` (default: sign in, alert afterwards), `challenge` (no tokens until a second factor, or a mailed code for users without one) or `block` (403 `sign_in_blocked`, every session of the user ended, the user mailed). The geo kinds need geolocation (GEO_TOKEN); a sign-in whose address cannot be located is not judged by them. Members only.
     */
    get: operations['SignInPolicyController_get'];
    /**
     * Set the workspace's sign-in policy
     * @description Sets the action of one or more kinds; kinds left out keep theirs. Audited as workspace_update. Members only.
     */
    put: operations['SignInPolicyController_set'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/user/security/anomalies/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List my sign-in anomalies
     * @description Unusual sign-ins of the calling end user (new device, new IP, new country, impossible travel), newest first.
     */
    get: operations['AnomaliesController_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/user/security/anomalies/{id}/ack/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Acknowledge an anomaly
     * @description Marks it as seen by the user. Idempotent.
     */
    post: operations['AnomaliesController_acknowledge'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/email-templates/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List email templates
     * @description The mails the service sends for a workspace (registration code, password reset, new-device alert), with the built-in text where nothing was saved, and the placeholders each accepts.
     */
    get: operations['EmailTemplatesController_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/email-templates/{name}/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Customise an email template
     * @description Saves subject, sender name and body for one template of a workspace. Only the placeholders listed for the template may be used ({{code}}, {{first_name}}, …).
     */
    put: operations['EmailTemplatesController_save'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/email/verify/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Verify an email address
     * @description Checks the 6-digit code mailed at registration. Five wrong codes void it. Rate limited.
     */
    post: operations['EmailVerificationController_verify'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/email/verify/resend/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a new verification code
     * @description Mails a fresh code (the previous one stops working); at most one a minute.
     */
    post: operations['EmailVerificationController_resend'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/oauth/authorize': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Authorization endpoint (OpenID Connect)
     * @description Starts the authorization-code flow of an application (RFC 6749 §4.1, OpenID Connect Core §3.1.2): `response_type=code`, `client_id`, an exactly registered `redirect_uri` (loopback IP literals may use any port, RFC 8252 §7.3), `scope` with `openid` (and `profile`, `email`, `offline_access`), PKCE `code_challenge` with `code_challenge_method=S256` (required unless a confidential application set require_pkce false; its requests without PKCE then need `nonce`), `state`, `nonce`, `prompt` (`none`, `login`, `consent`), `max_age`, `login_hint`, `id_token_hint`, `acr_values`; unknown scopes are ignored. A browser without a fresh session for the application's workspace goes through the hosted login and comes back; a third-party application asks the person's consent once. The answer is a redirect to `redirect_uri` with `code`, `state` and `iss` (RFC 9207), or with `error` (RFC 6749 §4.1.2.1); without a known client and registered redirect URI, an HTML error page.
     */
    get: operations['AuthorizeController_authorizeGet'];
    put?: never;
    /**
     * Authorization endpoint (form post)
     * @description The same request as GET /oauth/authorize, as an application/x-www-form-urlencoded body.
     */
    post: operations['AuthorizeController_authorizePost'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/oauth/authorize/consent': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Answer the consent screen
     * @description The consent form of a third-party application posts here (`decision=allow` or `deny`, with the authorization request and the form token). Allow remembers the consent and continues the flow; deny answers the application `access_denied`.
     */
    post: operations['AuthorizeController_consent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/oauth/userinfo': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * UserInfo
     * @description OpenID Connect Core §5.3. `Authorization: Bearer <access token>` of the authorization-code flow. Answers `sub` (the same as the ID token's) and, by the grant's scope, `email`, `email_verified` (scope email), `name`, `given_name`, `family_name` (scope profile). A token that is expired, revoked, or not issued to an application answers 401 with `WWW-Authenticate: Bearer error="invalid_token"` (RFC 6750 §3).
     */
    get: operations['UserInfoController_get'];
    put?: never;
    /**
     * UserInfo (POST)
     * @description OpenID Connect Core §5.3. `Authorization: Bearer <access token>` of the authorization-code flow. Answers `sub` (the same as the ID token's) and, by the grant's scope, `email`, `email_verified` (scope email), `name`, `given_name`, `family_name` (scope profile). A token that is expired, revoked, or not issued to an application answers 401 with `WWW-Authenticate: Bearer error="invalid_token"` (RFC 6750 §3). The token may instead be sent as the `access_token` form parameter (RFC 6750 §2.2), not both.
     */
    post: operations['UserInfoController_post'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/oauth/logout': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * End session (RP-initiated logout)
     * @description OpenID Connect RP-Initiated Logout 1.0 (`end_session_endpoint`): `id_token_hint`, `client_id`, `post_logout_redirect_uri` (registered exactly on the application), `state`. Ends the browser session of the hosted login and the application sessions it led to, then redirects to `post_logout_redirect_uri` with `state` (or shows a signed-out page). Without an `id_token_hint` naming the signed-in person, the person confirms first.
     */
    get: operations['LogoutController_get'];
    put?: never;
    /**
     * End session (form post)
     * @description OpenID Connect RP-Initiated Logout 1.0 (`end_session_endpoint`): `id_token_hint`, `client_id`, `post_logout_redirect_uri` (registered exactly on the application), `state`. Ends the browser session of the hosted login and the application sessions it led to, then redirects to `post_logout_redirect_uri` with `state` (or shows a signed-out page). Without an `id_token_hint` naming the signed-in person, the person confirms first.
     */
    post: operations['LogoutController_post'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/developer/workspaces/{workspaceId}/databases/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List databases of a workspace
     * @description Managed databases (postgres, redis, mongodb) with their status.
     */
    get: operations['DatabasesController_list'];
    put?: never;
    /**
     * Create a managed database
     * @description Starts provisioning on the chosen engine and answers at once with status creating; poll GET /e/v1/developer/databases/{id}/ until available. 422 when the engine is not offered by this instance.
     */
    post: operations['DatabasesController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/developer/databases/{id}/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show a database
     * @description Status, engine, plan and timestamps.
     */
    get: operations['DatabasesController_get'];
    put?: never;
    post?: never;
    /**
     * Delete a database
     * @description Starts deprovisioning (status deleting) and answers at once; the engine-side database and its user are dropped by a job.
     */
    delete: operations['DatabasesController_remove'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/developer/databases/{id}/connection/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get connection details
     * @description Host, port, user, password and a connection URL for the database. Reading them is audited.
     */
    get: operations['DatabasesController_connection'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/developer/databases/{id}/metrics/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read database metrics
     * @description Size and usage figures read from the engine now.
     */
    get: operations['DatabasesController_metrics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/developer/databases/{id}/health/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Check database health
     * @description Connects to the engine as the tenant and reports healthy, unhealthy or unknown with the latency.
     */
    get: operations['DatabasesController_health'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/developer/databases/{id}/keys/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List keys of a redis database
     * @description SCAN-style paging: pass next_cursor as cursor. Redis databases only.
     */
    get: operations['DatabasesController_keys'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/developer/databases/{id}/backups/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List backups of a database
     * @description Newest first.
     */
    get: operations['BackupsController_list'];
    put?: never;
    /**
     * Back up a database
     * @description Queues a backup (status pending → running → completed or failed) and answers at once; poll GET /e/v1/developer/backups/{id}/.
     */
    post: operations['BackupsController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/developer/backups/{id}/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show a backup
     * @description Status, size and timestamps.
     */
    get: operations['BackupsController_get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/developer/backups/{id}/restore/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Restore a backup
     * @description Queues a restore of a completed backup into its database; poll GET /e/v1/developer/restores/{id}/.
     */
    post: operations['BackupsController_restore'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/e/v1/developer/restores/{id}/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show a restore
     * @description Status and timestamps of a restore.
     */
    get: operations['BackupsController_getRestore'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/saml/metadata/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Identity provider metadata
     * @description The SAML 2.0 EntityDescriptor to give a service provider: entity id, SSO URL (HTTP-Redirect and HTTP-POST bindings) and signing certificate(s). 503 until the SAML_IDP_* variables are set.
     */
    get: operations['SamlMetadataController_metadata'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/saml/sps/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List SAML service providers
     * @description The SAML apps of one workspace.
     */
    get: operations['SamlSpsController_list'];
    put?: never;
    /**
     * Register a SAML service provider
     * @description Adds an application that signs users in through this identity provider (SP-initiated SSO). Give sp_entity_id and acs_url, or the SP metadata XML to read them from. The entity id is unique across the service.
     */
    post: operations['SamlSpsController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/saml/sps/{id}/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show a SAML service provider
     * @description Visible to members of its workspace only.
     */
    get: operations['SamlSpsController_get'];
    /**
     * Update a SAML service provider
     * @description Fields not sent are kept. Set is_active=false to refuse its sign-ins without deleting it.
     */
    put: operations['SamlSpsController_update'];
    post?: never;
    /**
     * Delete a SAML service provider
     * @description Its sign-in requests are refused from now on.
     */
    delete: operations['SamlSpsController_remove'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/saml/sso/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Start SSO (HTTP-Redirect binding)
     * @description Browser endpoint of SP-initiated sign-in. Query: SAMLRequest (deflate + base64), optional RelayState; SigAlg and Signature are ignored. With an end-user browser session, answers the page that posts the signed SAML Response to the SP; without one, parks the request and redirects to the hosted login.
     */
    get: operations['SamlSsoController_start'];
    put?: never;
    /**
     * Start SSO (HTTP-POST binding)
     * @description Form fields SAMLRequest (base64, not deflated) and optional RelayState, as the metadata advertises. Re-sent as a Redirect-binding GET so one path handles both.
     */
    post: operations['SamlSsoController_startPost'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/saml/sso/finish/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Resume SSO after the hosted login
     * @description Where the hosted login sends the browser back: the parked request is found by its cookie (saml_sso) and answered as GET /saml/sso/ would.
     */
    get: operations['SamlSsoController_finish'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/webhooks/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List webhook endpoints
     * @description The webhook endpoints of one workspace, without their secrets. Members of the workspace only.
     */
    get: operations['WebhooksController_list'];
    put?: never;
    /**
     * Create a webhook endpoint
     * @description Subscribes an endpoint of yours to a workspace's audit events (catalog event types, or "*" for all): each event sealed from now on is POSTed to it, signed the Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature), retried with backoff for WEBHOOK_RETRY_WINDOW_MS. The url must be https: and resolve to public addresses only. The answer carries the signing secret (whsec_…), shown this once. Audited as webhook_create. Members of the workspace only.
     */
    post: operations['WebhooksController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/webhooks/{id}/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show a webhook endpoint
     * @description Without its secret. Visible to members of its workspace only (404 to anyone else).
     */
    get: operations['WebhooksController_get'];
    put?: never;
    post?: never;
    /**
     * Delete a webhook endpoint
     * @description The endpoint and its deliveries are removed: nothing more is sent to it, pending deliveries included. Audited as webhook_delete.
     */
    delete: operations['WebhooksController_remove'];
    options?: never;
    head?: never;
    /**
     * Update a webhook endpoint
     * @description Fields not sent are kept. is_active=false pauses deliveries; is_active=true turns an endpoint back on, including one the service disabled after it failed for the whole retry window (clears disabled_reason). A new url is checked like on creation. Audited as webhook_update.
     */
    patch: operations['WebhooksController_update'];
    trace?: never;
  };
  '/developer/webhooks/{id}/rotate-secret/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Rotate a webhook secret
     * @description Replaces the signing secret: the old one stops signing at once, and the next attempt of every delivery is signed with the new one. The answer carries the new secret, shown this once. Audited as webhook_secret_rotate.
     */
    post: operations['WebhooksController_rotateSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/webhooks/{id}/test/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a test message
     * @description Queues a synthetic webhook_test message (not an audit event) to the endpoint, signed and retried like any other delivery, even when the endpoint is inactive. The request does not wait for it: follow the delivery in the deliveries list. Its failures do not count toward disabling the endpoint.
     */
    post: operations['WebhooksController_test'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/webhooks/{id}/deliveries/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List deliveries of a webhook endpoint
     * @description The latest deliveries to the endpoint, newest first (limit, default 50, up to 100): status, attempts, the last answer or error, and when a pending one is tried next. Members of its workspace only.
     */
    get: operations['WebhooksController_deliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/webhook-deliveries/{id}/retry/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Retry a webhook delivery
     * @description Sends a delivery again now, whatever its status (a failed one included): it goes back to pending for one more attempt, retried within the retry window, with the same webhook-id so the receiver can drop a duplicate. The request does not wait for it. Members of its workspace only.
     */
    post: operations['WebhookDeliveriesController_retry'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/events/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read the directory event feed
     * @description The workspace's directory events after `after`, oldest first, by seq: a per-workspace sequence given in commit order, so a consumer that has read up to N never later finds an event numbered N or below. Events are readable within a second of the change's commit. Keep next_after and pass it as `after`. Events are kept DIRECTORY_EVENTS_RETENTION_DAYS (30 days); a position older than that is a 410 (start again from GET /developer/directory/). Members of the workspace only.
     */
    get: operations['DirectoryEventsController_feed'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/directory/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read the whole directory
     * @description Every SCIM user, group and membership of the workspace, read in one snapshot, with the feed position (seq) it reflects: every event up to seq is in it. Start a consumer here, then read GET /developer/events/?after=seq. Members of the workspace only.
     */
    get: operations['DirectoryEventsController_directory'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/ssf/receivers/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the Shared Signals receivers of a workspace
     * @description With each one's stream (status, delivery, events) and its SETs counted by state.
     */
    get: operations['SsfReceiversController_list'];
    put?: never;
    /**
     * Register a Shared Signals receiver
     * @description A receiver of the workspace's security events (SSF 1.0, CAEP, RISC). Answers its OAuth client credentials, the secret shown once: it gets an access token from POST /oauth/token with grant_type=client_credentials&scope=ssf and manages its stream at the endpoints /.well-known/ssf-configuration names.
     */
    post: operations['SsfReceiversController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/ssf/receivers/{id}/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show a Shared Signals receiver
     * @description With its stream (status, delivery, events) and its SETs counted by state.
     */
    get: operations['SsfReceiversController_get'];
    put?: never;
    post?: never;
    /**
     * Delete a Shared Signals receiver
     * @description Its stream and undelivered SETs go with it; its access tokens are refused on their next use.
     */
    delete: operations['SsfReceiversController_delete'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/.well-known/ssf-configuration': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Shared Signals transmitter configuration
     * @description SSF 1.0 §7.1: issuer, the JWKS the SETs are signed with (the authorization server's), push and poll delivery, and the stream management endpoints. Receivers authenticate with OAuth 2.0 (an access token of scope ssf from POST /oauth/token).
     */
    get: operations['SsfConfigurationController_configuration'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ssf/streams': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read the stream configuration
     * @description SSF 1.0 §8.1.1.2: with stream_id, that stream; without, an array of the receiver's streams (zero or one).
     */
    get: operations['SsfStreamsController_read'];
    /**
     * Replace the stream configuration
     * @description SSF 1.0 §8.1.1.4: every receiver-supplied member is replaced (absent ones take their defaults).
     */
    put: operations['SsfStreamsController_replace'];
    /**
     * Create the stream
     * @description SSF 1.0 §8.1.1.1. Push needs delivery.endpoint_url; poll gets the transmitter's poll URL back. The stream starts at the present: it carries what happens from now on.
     */
    post: operations['SsfStreamsController_create'];
    /**
     * Delete the stream
     * @description SSF 1.0 §8.1.1.5: its subjects and undelivered SETs go with it.
     */
    delete: operations['SsfStreamsController_delete'];
    options?: never;
    head?: never;
    /**
     * Update the stream configuration
     * @description SSF 1.0 §8.1.1.3: the receiver-supplied members sent replace theirs; the others stay.
     */
    patch: operations['SsfStreamsController_update'];
    trace?: never;
  };
  '/ssf/status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read the stream status
     * @description SSF 1.0 §8.1.2.1.
     */
    get: operations['SsfStreamsController_status'];
    put?: never;
    /**
     * Update the stream status
     * @description SSF 1.0 §8.1.2.2: paused holds events and delivers them on resume; disabled drops them.
     */
    post: operations['SsfStreamsController_setStatus'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ssf/subjects/add': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Add a subject
     * @description SSF 1.0 §8.1.3.2: an RFC 9493 subject (email, iss_sub with our issuer and the SCIM user id, or opaque with the SCIM user id).
     */
    post: operations['SsfStreamsController_addSubject'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ssf/subjects/remove': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Remove a subject
     * @description SSF 1.0 §8.1.3.3: no more events about it.
     */
    post: operations['SsfStreamsController_removeSubject'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ssf/verify': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Request a verification event
     * @description SSF 1.0 §8.1.4.2: a verification SET, echoing state, is delivered on the stream (pushed, or returned by the next poll).
     */
    post: operations['SsfStreamsController_verify'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ssf/poll/{streamId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Poll for SETs
     * @description RFC 8936: acknowledge (ack) or reject (setErrs) SETs of earlier polls and receive the pending ones, oldest first, by jti. A SET not acknowledged comes again. Without returnImmediately an empty poll waits up to 10 s.
     */
    post: operations['SsfStreamsController_poll'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/external-providers/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List SSO connections
     * @description The connections of one workspace, oldest first, without secrets. Members of the workspace only.
     */
    get: operations['SsoConnectionsController_list'];
    put?: never;
    /**
     * Create an SSO connection
     * @description Connects a workspace to its company's identity provider: OpenID Connect (we are the relying party: issuer, client_id, client_secret or private_key_jwt) or SAML 2.0 (we are the service provider). The answer carries the values to paste into the provider (redirect_uri, or sp_entity_id, acs_url and sp_metadata_url) and, per email domain, the DNS TXT record that verifies it. The client secret is stored encrypted and never shown. Audited as external_provider_create. Members of the workspace only.
     */
    post: operations['SsoConnectionsController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/external-providers/{id}/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show an SSO connection
     * @description Without secrets. Visible to members of its workspace only (404 to anyone else).
     */
    get: operations['SsoConnectionsController_get'];
    put?: never;
    post?: never;
    /**
     * Delete an SSO connection
     * @description The connection, its domains, bindings and attempts are removed; the people it signed in stay in the directory (with their sessions). Audited as external_provider_delete.
     */
    delete: operations['SsoConnectionsController_remove'];
    options?: never;
    head?: never;
    /**
     * Update an SSO connection
     * @description Fields not sent are kept; the protocol cannot change. Sending domains replaces the list: kept domains keep their verification, new ones start unverified. A new client_secret replaces the stored one. Audited as external_provider_update.
     */
    patch: operations['SsoConnectionsController_update'];
    trace?: never;
  };
  '/developer/external-providers/{id}/domains/{domain}/verify/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Verify an email domain of an SSO connection
     * @description Looks up the domain's DNS TXT record (`txt_record_name` in the connection's `domain_verifications`, holding `txt_record_value`) and, when it is published, marks the domain verified: the hosted login then sends people whose email is at this domain to the connection instead of asking for a password. A domain stays verified until it is removed from the connection; a verified domain answers at once, without a lookup. A domain is verified for one workspace at most. Audited as external_provider_update (metadata.domain_verified). Members of the workspace only.
     */
    post: operations['SsoConnectionsController_verifyDomain'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/external-providers/{id}/attempts/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List sign-in attempts of an SSO connection
     * @description The latest upstream answers to the connection, newest first (limit, default 50, up to 100): accepted, or refused with its reason (docs/sso-connections.md lists the reasons), with the upstream subject and email when the answer named them.
     */
    get: operations['SsoConnectionsController_attempts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/sso/{id}/saml/acs/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * SAML assertion consumer service (HTTP-POST binding)
     * @description The connection's acs_url, where the IdP's page posts its Response. The signature over the assertion or the response, the Issuer, Destination and Recipient, the Audience, the validity window (two minutes of skew), InResponseTo (a request this browser started, from its sso_saml cookie) and the assertion ID (accepted once) are checked; the person is then matched and signed in to the hosted login. A refusal is a 4xx HTML page naming the reason in words, audited as login_failure with metadata.reason and listed in the connection's attempts.
     */
    post: operations['SsoSamlController_acs'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/sso/{id}/saml/metadata/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * SAML service provider metadata of a connection
     * @description The connection's sp_metadata_url (also its SP entity id): the EntityDescriptor to import at the IdP, with the ACS (HTTP-POST), WantAssertionsSigned and the NameID formats accepted (persistent, emailAddress).
     */
    get: operations['SsoSamlController_metadata'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/directory/users/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the people of a workspace
     * @description Every end user of the workspace: its directory (provisioned by SCIM or added by a developer, application null) and the accounts of its applications, ordered by email. `search` matches part of an email or a name, case-insensitively. Page with `cursor` = next_cursor of the previous page. Members of the workspace only.
     */
    get: operations['DirectoryController_users'];
    put?: never;
    /**
     * Add a person to the directory
     * @description For developers who do not use SCIM: a directory account with an email and a name, without a password. The person sets one on the hosted login ("Set or reset your password", a code mailed to the address), which also verifies the address; then SAML sign-ins to the workspace's service providers work. Audited as user_create.
     */
    post: operations['DirectoryController_addUser'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/directory/users/{id}/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show a person
     * @description One end user of the workspace with their groups, live sessions and second factors (never a secret). Their audit trail: GET /developer/audit/?subject_id={id}. Members of the workspace only.
     */
    get: operations['DirectoryController_person'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/developer/directory/groups/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the groups of a workspace
     * @description The SCIM groups of the workspace by name, each with its member count and first 100 members. `search` matches part of the name. Page with `cursor` = next_cursor of the previous page. Members of the workspace only.
     */
    get: operations['DirectoryController_groups'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    /**
     * @example {
     *       "email": "grace@example.com",
     *       "password": "correct horse battery",
     *       "name": "Grace Hopper"
     *     }
     */
    SignupDto: {
      /** Format: email */
      email: string;
      password: string;
      name: string;
    };
    /**
     * @example {
     *       "email": "grace@example.com",
     *       "password": "correct horse battery"
     *     }
     */
    DeveloperLoginDto: {
      email: string;
      password: string;
    };
    /**
     * @example {
     *       "label": "CI pipeline",
     *       "expires_at": "2027-01-01T00:00:00Z"
     *     }
     */
    CreateDeveloperTokenDto: {
      label: string;
      /**
       * Format: date-time
       * @description null or left out: the token lasts until revoked
       */
      expires_at?: string | null;
    };
    /**
     * @example {
     *       "name": "Acme production",
     *       "description": "Directory sync for Acme"
     *     }
     */
    CreateWorkspaceDto: {
      name: string;
      description?: string;
    };
    /**
     * @example {
     *       "description": "Acme staff directory"
     *     }
     */
    UpdateWorkspaceDto: {
      name?: string;
      description?: string;
    };
    /**
     * @example {
     *       "email": "ada@example.com",
     *       "role": "member"
     *     }
     */
    AddMemberDto: {
      /** Format: email */
      email: string;
      /** @enum {string} */
      role: 'owner' | 'member';
    };
    /**
     * @example {
     *       "workspace_id": "0b6f2d4e-5a7c-4c1e-9f3a-2d8e6b1c7a90",
     *       "name": "Acme web app",
     *       "redirect_uris": [
     *         "https://app.example.com/callback"
     *       ]
     *     }
     */
    CreateOAuthClientDto: {
      /** @description Exact redirect URIs of the authorization-code flow (no wildcards; an http loopback IP literal may be used with any port, RFC 8252 §7.3; a public client may also use a private-use URI scheme named after a domain in reverse order, e.g. com.example.app:/callback, RFC 8252 §7.1). */
      redirect_uris?: string[];
      /** @description Where RP-initiated logout may return to (exact match). */
      post_logout_redirect_uris?: string[];
      /**
       * @description public: a native or single-page app with no secret (token endpoint authentication none, PKCE as its proof). Fixed at creation.
       * @enum {string}
       */
      client_type?: 'confidential' | 'public';
      /** @description First-party apps skip the consent screen; third-party ones ask each person once (default true). */
      first_party?: boolean;
      /** @description The hosted login offers "Create an account" (email, password, then the emailed 6-digit code) to people without an account of this application (default false). */
      allow_signup?: boolean;
      /** @description Whether authorization requests must carry PKCE (code_challenge, S256; default true). Only a confidential client may set false: its requests may then omit PKCE and must carry a nonce instead. A public client always uses PKCE (400 if false). */
      require_pkce?: boolean;
      /**
       * @description pairwise: `sub` differs per application (OpenID Connect Core §8.1).
       * @enum {string}
       */
      subject_type?: 'public' | 'pairwise';
      /**
       * @description Algorithm of its ID tokens (default RS256).
       * @enum {string}
       */
      id_token_signed_response_alg?: 'RS256' | 'ES256';
      /** @description An RFC 7517 JWK Set of 1 to 10 public keys: the client may then authenticate with private_key_jwt (RFC 7523 §2.2). */
      jwks?: {
        [key: string]: unknown;
      };
      /** Format: uuid */
      workspace_id: string;
      name: string;
    };
    /**
     * @example {
     *       "name": "Acme web app",
     *       "redirect_uris": [
     *         "https://app.example.com/callback",
     *         "http://localhost:5173/callback"
     *       ]
     *     }
     */
    UpdateOAuthClientDto: {
      /** @description Exact redirect URIs of the authorization-code flow (no wildcards; an http loopback IP literal may be used with any port, RFC 8252 §7.3; a public client may also use a private-use URI scheme named after a domain in reverse order, e.g. com.example.app:/callback, RFC 8252 §7.1). */
      redirect_uris?: string[];
      /** @description Where RP-initiated logout may return to (exact match). */
      post_logout_redirect_uris?: string[];
      /**
       * @description public: a native or single-page app with no secret (token endpoint authentication none, PKCE as its proof). Fixed at creation.
       * @enum {string}
       */
      client_type?: 'confidential' | 'public';
      /** @description First-party apps skip the consent screen; third-party ones ask each person once (default true). */
      first_party?: boolean;
      /** @description The hosted login offers "Create an account" (email, password, then the emailed 6-digit code) to people without an account of this application (default false). */
      allow_signup?: boolean;
      /** @description Whether authorization requests must carry PKCE (code_challenge, S256; default true). Only a confidential client may set false: its requests may then omit PKCE and must carry a nonce instead. A public client always uses PKCE (400 if false). */
      require_pkce?: boolean;
      /**
       * @description pairwise: `sub` differs per application (OpenID Connect Core §8.1).
       * @enum {string}
       */
      subject_type?: 'public' | 'pairwise';
      /**
       * @description Algorithm of its ID tokens (default RS256).
       * @enum {string}
       */
      id_token_signed_response_alg?: 'RS256' | 'ES256';
      /** @description An RFC 7517 JWK Set of 1 to 10 public keys: the client may then authenticate with private_key_jwt (RFC 7523 §2.2). */
      jwks?: {
        [key: string]: unknown;
      };
      name?: string;
    };
    /**
     * @example {
     *       "workspace_id": "0b6f2d4e-5a7c-4c1e-9f3a-2d8e6b1c7a90",
     *       "label": "Okta"
     *     }
     */
    CreateScimTokenDto: {
      /** Format: uuid */
      workspace_id: string;
      label: string;
      /**
       * Format: date-time
       * @description null or left out: the token lasts until revoked
       */
      expires_at?: string | null;
    };
    /**
     * @example {
     *       "workspace_id": "0b6f2d4e-5a7c-4c1e-9f3a-2d8e6b1c7a90",
     *       "label": "Entra ID provisioning",
     *       "expires_at": "2027-06-01T00:00:00Z"
     *     }
     */
    CreateScimClientDto: {
      /** Format: uuid */
      workspace_id: string;
      /** @example Entra ID provisioning */
      label: string;
      /**
       * Format: date-time
       * @description Expiry of the first secret; default one year from now.
       */
      expires_at?: string;
    };
    /**
     * @example {
     *       "expires_at": "2027-06-01T00:00:00Z"
     *     }
     */
    CreateScimClientSecretDto: {
      /**
       * Format: date-time
       * @description Default one year from now.
       */
      expires_at?: string;
    };
    /**
     * @example {
     *       "jwks_uri": "https://idp.example.com/.well-known/jwks.json"
     *     }
     */
    ScimClientKeysDto: {
      /**
       * Format: uri
       * @description A JWKS URL the server fetches the keys from (https).
       */
      jwks_uri?: string;
      /** @description An RFC 7517 JWK Set of public keys (1 to 10). */
      jwks?: {
        [key: string]: unknown;
      };
    };
    /**
     * @example {
     *       "issuer": "https://login.microsoftonline.com/7d3b2c1a-0000-4000-8000-000000000000/v2.0",
     *       "jwks_uri": "https://login.microsoftonline.com/7d3b2c1a-0000-4000-8000-000000000000/discovery/v2.0/keys",
     *       "subject": "5a8d0c0e-0000-4000-8000-000000000000",
     *       "audience": "api://AzureADTokenExchange"
     *     }
     */
    ScimClientFederationDto: {
      /** @example https://login.microsoftonline.com/7d3b2c1a-0000-4000-8000-000000000000/v2.0 */
      issuer: string;
      /**
       * Format: uri
       * @example https://login.microsoftonline.com/7d3b2c1a-0000-4000-8000-000000000000/discovery/v2.0/keys
       */
      jwks_uri: string;
      /**
       * @description The `sub` the issuer puts in its JWTs for this client.
       * @example 5a8d0c0e-0000-4000-8000-000000000000
       */
      subject: string;
      /** @description The `aud` of its JWTs; default this server's issuer or token endpoint URL. */
      audience?: string;
    };
    /**
     * @example {
     *       "client_id": "cli_5f2b9c0e7a4d1e3f6a8b0c2d",
     *       "email": "ada@example.com",
     *       "password": "analytical engine",
     *       "first_name": "Ada",
     *       "last_name": "Lovelace"
     *     }
     */
    RegisterDto: {
      client_id: string;
      /**
       * Format: email
       * @example ada@example.com
       */
      email: string;
      password: string;
      first_name?: string;
      last_name?: string;
    };
    /**
     * @example {
     *       "id": "8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13",
     *       "email": "ada@example.com",
     *       "email_verified": false,
     *       "first_name": "Ada",
     *       "last_name": "Lovelace",
     *       "created_at": "2026-11-24T12:00:00.000Z"
     *     }
     */
    EndUserResponse: {
      id: string;
      email: string;
      email_verified: boolean;
      first_name: string;
      last_name: string;
      created_at: string;
    };
    /**
     * @example {
     *       "client_id": "cli_5f2b9c0e7a4d1e3f6a8b0c2d",
     *       "email": "ada@example.com",
     *       "password": "analytical engine"
     *     }
     */
    LoginDto: {
      client_id: string;
      email: string;
      password: string;
    };
    /**
     * @example {
     *       "mfa_token": "mfa_Vb2xQ9kT4mZ7pL1cR8nW5hY3jF6gD0sAe2Uo7IiKx",
     *       "code": "492039"
     *     }
     */
    LoginSecondStepDto: {
      /** @description From the answer of POST /e/v1/auth/login/; single use, 5 minutes */
      mfa_token: string;
      /**
       * @description A TOTP code (or, under a step-up policy, the mailed code)
       * @example 492039
       */
      code?: string;
      /** @example K7QH2-M9XTR */
      recovery_code?: string;
      /**
       * @description The AuthenticationResponseJSON of `startAuthentication` (@simplewebauthn/browser), for options from POST /e/v1/auth/login/mfa/passkey/options/
       * @example {
       *       "id": "AVx9dK1m3Qw7Lr2ZbT4nUw",
       *       "rawId": "AVx9dK1m3Qw7Lr2ZbT4nUw",
       *       "type": "public-key",
       *       "response": {
       *         "clientDataJSON": "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0Ii…",
       *         "authenticatorData": "SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ",
       *         "signature": "MEUCIQ…"
       *       },
       *       "clientExtensionResults": {}
       *     }
       */
      passkey?: {
        [key: string]: unknown;
      };
    };
    /**
     * @example {
     *       "access_token": "kR4pZ2xW9mT7vL1cQ8nB5hY3jF6gD0sAe2Uo7Ii",
     *       "refresh_token": "rt_q8Zt1mXv3Lp7Rk2Wn5Bc9Hd4Fs6Gj0Ya",
     *       "token_type": "Bearer",
     *       "expires_in": 900,
     *       "session_id": "2d4f6a8c-0e1b-4c3d-9e5f-7a9b1c3d5e7f"
     *     }
     */
    TokenResponse: {
      /** @description Opaque bearer token for the end-user routes: send it as it is, never parse it */
      access_token: string;
      /** @description Opaque, single use: trade it at POST /e/v1/auth/token/refresh/ for a new pair */
      refresh_token: string;
      /** @example Bearer */
      token_type: string;
      /**
       * @description Seconds until the access token expires
       * @example 900
       */
      expires_in: number;
      session_id: string;
    };
    /**
     * @example {
     *       "mfa_token": "mfa_Vb2xQ9kT4mZ7pL1cR8nW5hY3jF6gD0sAe2Uo7IiKx"
     *     }
     */
    MfaTokenDto: {
      /** @description From the answer of POST /e/v1/auth/login/ */
      mfa_token: string;
    };
    /**
     * @example {
     *       "refresh_token": "rt_q8Zt1mXv3Lp7Rk2Wn5Bc9Hd4Fs6Gj0Ya"
     *     }
     */
    RefreshDto: {
      refresh_token: string;
    };
    /**
     * @example {
     *       "client_id": "cli_5f2b9c0e7a4d1e3f6a8b0c2d",
     *       "email": "ada@example.com"
     *     }
     */
    PasswordResetRequestDto: {
      client_id?: string;
      /** Format: uuid */
      workspace_id?: string;
      /** Format: email */
      email: string;
    };
    /**
     * @example {
     *       "client_id": "cli_5f2b9c0e7a4d1e3f6a8b0c2d",
     *       "email": "ada@example.com",
     *       "code": "042917",
     *       "new_password": "difference engine"
     *     }
     */
    PasswordResetConfirmDto: {
      client_id?: string;
      /** Format: uuid */
      workspace_id?: string;
      /** Format: email */
      email: string;
      /** @example 042917 */
      code: string;
      new_password: string;
    };
    /**
     * @example {
     *       "current_password": "analytical engine",
     *       "new_password": "difference engine"
     *     }
     */
    PasswordChangeDto: {
      current_password: string;
      new_password: string;
    };
    /**
     * @example {
     *       "code": "492039"
     *     }
     */
    TotpCodeDto: {
      /**
       * @description The 6-digit code the authenticator app shows now
       * @example 492039
       */
      code: string;
    };
    /**
     * @example {
     *       "recovery_code": "K7QH2-M9XTR"
     *     }
     */
    FactorProofDto: {
      /** @example 492039 */
      code?: string;
      /** @example K7QH2-M9XTR */
      recovery_code?: string;
    };
    RegisterPasskeyDto: {
      /**
       * @description Shown in the list; a dated default when absent
       * @example MacBook Touch ID
       */
      name?: string;
      /**
       * @description The RegistrationResponseJSON that `startRegistration` of @simplewebauthn/browser returns (WebAuthn `toJSON()`)
       * @example {
       *       "id": "AVx9dK1m3Qw7Lr2ZbT4nUw",
       *       "rawId": "AVx9dK1m3Qw7Lr2ZbT4nUw",
       *       "type": "public-key",
       *       "response": {
       *         "clientDataJSON": "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIi…",
       *         "attestationObject": "o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVi…"
       *       },
       *       "clientExtensionResults": {}
       *     }
       */
      credential: {
        [key: string]: unknown;
      };
    };
    RenamePasskeyDto: {
      /** @example Work YubiKey */
      name: string;
    };
    /**
     * @example {
     *       "new_device": "challenge",
     *       "new_ip": "allow"
     *     }
     */
    SignInPolicyDto: {
      /**
       * @description A sign-in from a device (browser and OS) the user never used
       * @example challenge
       * @enum {string}
       */
      new_device?: 'allow' | 'challenge' | 'block';
      /**
       * @description A known device from an address it never used
       * @example allow
       * @enum {string}
       */
      new_ip?: 'allow' | 'challenge' | 'block';
      /**
       * @description A sign-in from a country none of the user’s geolocated sessions came from (needs GEO_TOKEN)
       * @example challenge
       * @enum {string}
       */
      new_country?: 'allow' | 'challenge' | 'block';
      /**
       * @description A sign-in too far from the user’s last place within 24 h to have travelled (needs GEO_TOKEN)
       * @example block
       * @enum {string}
       */
      impossible_travel?: 'allow' | 'challenge' | 'block';
    };
    /**
     * @example {
     *       "id": "5e7a9c1b-3d5f-4a7c-9e1b-3d5f7a9c1b3d",
     *       "kind": "new_device",
     *       "severity": "warn",
     *       "ip_address": "203.0.113.7",
     *       "country": "FR",
     *       "city": "Paris",
     *       "user_agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0",
     *       "message": "Sign-in from a new device: Chrome on Linux",
     *       "metadata": {
     *         "browser_family": "Chrome",
     *         "os_family": "Linux"
     *       },
     *       "session_id": "2d4f6a8c-0e1b-4c3d-9e5f-7a9b1c3d5e7f",
     *       "notified_at": "2026-11-24T12:00:00.000Z",
     *       "acknowledged_at": null,
     *       "created_at": "2026-11-24T12:00:00.000Z"
     *     }
     */
    AnomalyResponse: {
      /** Format: uuid */
      id: string;
      /** @enum {string} */
      kind: 'new_device' | 'new_ip' | 'new_country' | 'impossible_travel';
      /** @enum {string} */
      severity: 'info' | 'warn' | 'critical';
      ip_address: string | null;
      /** @description ISO 3166-1 alpha-2 */
      country: string | null;
      city: string | null;
      user_agent: string | null;
      /** @description Plain-language summary */
      message: string;
      /** @description impossible_travel: from_country, to_country, distance_km, delta_hours, speed_kmh, prior_session_id; new_device/new_ip: browser_family, os_family; new_country: country, known_countries */
      metadata: {
        [key: string]: unknown;
      };
      /**
       * Format: uuid
       * @description The session that triggered it
       */
      session_id: string;
      /** Format: date-time */
      notified_at: string | null;
      /** Format: date-time */
      acknowledged_at: string | null;
      /** Format: date-time */
      created_at: string;
    };
    AnomalyListResponse: {
      results: components['schemas']['AnomalyResponse'][];
    };
    /**
     * @example {
     *       "workspace_id": "0b6f2d4e-5a7c-4c1e-9f3a-2d8e6b1c7a90",
     *       "subject": "{{code}} is your verification code",
     *       "from_name": "Acme",
     *       "body": "<p>Hello {{first_name}},</p><p>Your code is <b>{{code}}</b>.</p>"
     *     }
     */
    SaveEmailTemplateDto: {
      /** Format: uuid */
      workspace_id: string;
      /** @example {{code}} is your verification code */
      subject: string;
      /** @example Acme */
      from_name: string;
      /** @description HTML or plain text with {{placeholders}} */
      body: string;
    };
    /**
     * @example {
     *       "email": "ada@example.com",
     *       "code": "042917"
     *     }
     */
    VerifyEmailDto: {
      /**
       * Format: email
       * @example ada@example.com
       */
      email: string;
      /**
       * @description 6 digits
       * @example 042917
       */
      code: string;
    };
    /**
     * @example {
     *       "success": true,
     *       "message": "Email verified"
     *     }
     */
    VerificationResponse: {
      success: boolean;
      message: string;
    };
    /**
     * @example {
     *       "email": "ada@example.com"
     *     }
     */
    ResendVerificationDto: {
      /**
       * Format: email
       * @example ada@example.com
       */
      email: string;
    };
    /**
     * @example {
     *       "id": "6c1d9e2a-3b4f-4a5c-8d7e-9f0a1b2c3d4e",
     *       "workspace_id": "0b6f2d4e-5a7c-4c1e-9f3a-2d8e6b1c7a90",
     *       "display_name": "Orders",
     *       "db_name": "orders_k3x9q2m7a1",
     *       "engine": "postgres",
     *       "host": "db.example.com",
     *       "port": 6432,
     *       "status": "available",
     *       "error": null,
     *       "max_storage_mb": 1024,
     *       "max_connections": 20,
     *       "created_at": "2026-11-24T12:00:00.000Z"
     *     }
     */
    DatabaseResponse: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      workspace_id: string;
      display_name: string;
      /** @example orders_k3x9q2m7a1 */
      db_name: string;
      /** @enum {string} */
      engine: 'postgres' | 'redis' | 'mongodb';
      host: string;
      port: number;
      /** @enum {string} */
      status: 'creating' | 'available' | 'failed' | 'deleting';
      /** @description Why provisioning failed */
      error: string | null;
      max_storage_mb: number;
      max_connections: number;
      /** Format: date-time */
      created_at: string;
    };
    DatabaseListResponse: {
      results: components['schemas']['DatabaseResponse'][];
    };
    /**
     * @example {
     *       "display_name": "Orders",
     *       "engine": "postgres",
     *       "max_connections": 20,
     *       "max_storage_mb": 1024
     *     }
     */
    CreateDatabaseDto: {
      /** @example Orders */
      display_name: string;
      /** @enum {string} */
      engine: 'postgres' | 'redis' | 'mongodb';
      /** @description Defaults to 20 */
      max_connections?: number;
      /** @description Defaults to 1024 (Redis: 256) */
      max_storage_mb?: number;
    };
    /**
     * @example {
     *       "host": "db.example.com",
     *       "port": 6432,
     *       "database": "orders_k3x9q2m7a1",
     *       "username": "u_orders_k3x9q2m7a1",
     *       "password": "p9Lk2Xw7Qr4Tz1Vb",
     *       "connection_string": "postgresql://u_orders_k3x9q2m7a1:p9Lk2Xw7Qr4Tz1Vb@db.example.com:6432/orders_k3x9q2m7a1?sslmode=require",
     *       "ssl_mode": "require"
     *     }
     */
    ConnectionDetailsResponse: {
      host: string;
      port: number;
      database: string;
      username: string;
      /** @description URL-safe; shown on every read (audited) */
      password: string;
      /** @example postgresql://u_orders_k3x9q2m7a1:...@db.example.com:6432/orders_k3x9q2m7a1?sslmode=require */
      connection_string: string;
      /** @example require */
      ssl_mode: string;
      /** @description Redis only: every key and channel must start with it */
      key_prefix?: string;
    };
    /**
     * @example {
     *       "database_id": "6c1d9e2a-3b4f-4a5c-8d7e-9f0a1b2c3d4e",
     *       "engine": "postgres",
     *       "collected_at": "2026-11-24T12:00:00.000Z",
     *       "storage_bytes": 8388608,
     *       "max_storage_bytes": 1073741824,
     *       "connections": 3,
     *       "max_connections": 20
     *     }
     */
    MetricsResponse: {
      /** Format: uuid */
      database_id: string;
      /** @enum {string} */
      engine: 'postgres' | 'redis' | 'mongodb';
      /** Format: date-time */
      collected_at: string;
      storage_bytes: number;
      max_storage_bytes: number;
      connections: number;
      max_connections: number;
      /** @description Redis: keys under the prefix */
      keys?: number;
    };
    HealthCheckResponse: {
      /** @example connect */
      name: string;
      ok: boolean;
      latency_ms: number;
      error?: string;
    };
    /**
     * @example {
     *       "database_id": "6c1d9e2a-3b4f-4a5c-8d7e-9f0a1b2c3d4e",
     *       "status": "healthy",
     *       "checked_at": "2026-11-24T12:00:00.000Z",
     *       "latency_ms": 4,
     *       "checks": [
     *         {
     *           "name": "connect",
     *           "ok": true,
     *           "latency_ms": 4
     *         }
     *       ]
     *     }
     */
    HealthResponse: {
      /** Format: uuid */
      database_id: string;
      /** @enum {string} */
      status: 'healthy' | 'unhealthy' | 'unknown';
      /** Format: date-time */
      checked_at: string;
      latency_ms: number;
      checks: components['schemas']['HealthCheckResponse'][];
    };
    /**
     * @example {
     *       "keys": [
     *         "cart:42",
     *         "session:9f1c"
     *       ],
     *       "next_cursor": "17"
     *     }
     */
    KeysPageResponse: {
      keys: string[];
      /** @description Pass back as cursor; null at the end */
      next_cursor: string | null;
    };
    /**
     * @example {
     *       "name": "before-migration"
     *     }
     */
    CreateBackupDto: {
      /** @example before-migration */
      name: string;
    };
    /**
     * @example {
     *       "id": "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b",
     *       "database_id": "6c1d9e2a-3b4f-4a5c-8d7e-9f0a1b2c3d4e",
     *       "name": "before-migration",
     *       "status": "completed",
     *       "size_bytes": 524288,
     *       "checksum_sha256": "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9",
     *       "created_at": "2026-11-24T12:00:00.000Z",
     *       "started_at": "2026-11-24T12:00:00.000Z",
     *       "completed_at": "2026-11-24T12:00:00.000Z",
     *       "error": null
     *     }
     */
    BackupResponse: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      database_id: string;
      name: string;
      /** @enum {string} */
      status: 'pending' | 'running' | 'completed' | 'failed';
      size_bytes: number | null;
      checksum_sha256: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      started_at: string | null;
      /** Format: date-time */
      completed_at: string | null;
      error: string | null;
    };
    BackupListResponse: {
      results: components['schemas']['BackupResponse'][];
    };
    /**
     * @example {
     *       "id": "1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9",
     *       "database_id": "6c1d9e2a-3b4f-4a5c-8d7e-9f0a1b2c3d4e",
     *       "backup_id": "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b",
     *       "status": "pending",
     *       "created_at": "2026-11-24T12:00:00.000Z",
     *       "started_at": null,
     *       "completed_at": null,
     *       "error": null
     *     }
     */
    RestoreResponse: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      database_id: string;
      /** Format: uuid */
      backup_id: string;
      /** @enum {string} */
      status: 'pending' | 'running' | 'completed' | 'failed';
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      started_at: string | null;
      /** Format: date-time */
      completed_at: string | null;
      error: string | null;
    };
    /**
     * @example {
     *       "workspace_id": "0b6f2d4e-5a7c-4c1e-9f3a-2d8e6b1c7a90",
     *       "name": "Acme wiki",
     *       "sp_entity_id": "https://wiki.example.com/saml/metadata",
     *       "acs_url": "https://wiki.example.com/saml/acs"
     *     }
     */
    CreateSamlSpDto: {
      /** @description Human label; defaults to sp_entity_id */
      name?: string;
      /** @description The SP's entity id (the Issuer of its AuthnRequests); unique across the service */
      sp_entity_id?: string;
      /** @description Assertion consumer service URL: absolute https (http only for localhost) */
      acs_url?: string;
      /**
       * @default urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress
       * @enum {string}
       */
      name_id_format:
        | 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'
        | 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified'
        | 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent'
        | 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
      /**
       * @description User field of the NameID. emailAddress: email; persistent and transient: id (their default; the value is generated, see docs/saml.md); unspecified: email or id. first_name, last_name and display_name are refused (not unique).
       * @default email
       * @enum {string}
       */
      name_id_attribute: 'email' | 'first_name' | 'last_name' | 'display_name' | 'id';
      /**
       * @description false: the Response is signed instead of the Assertion
       * @default true
       */
      sign_assertions: boolean;
      /**
       * @example {
       *       "email": "email",
       *       "firstName": "first_name"
       *     }
       */
      attribute_mapping?: {
        [key: string]: 'email' | 'first_name' | 'last_name' | 'display_name' | 'id';
      };
      /** @description SP certificate (PEM); stored, not used to verify requests; null removes it */
      sp_cert_pem?: string | null;
      /** @description Landing URL after sign-in when the request carries no RelayState; null removes it */
      default_relay_state?: string | null;
      /** @default true */
      is_active: boolean;
      /** @description The SP's metadata XML: fills sp_entity_id, acs_url and sp_cert_pem (explicit fields win) */
      metadata_xml?: string;
      /** Format: uuid */
      workspace_id: string;
    };
    /**
     * @example {
     *       "is_active": false
     *     }
     */
    UpdateSamlSpDto: {
      /** @description Human label; defaults to sp_entity_id */
      name?: string;
      /** @description The SP's entity id (the Issuer of its AuthnRequests); unique across the service */
      sp_entity_id?: string;
      /** @description Assertion consumer service URL: absolute https (http only for localhost) */
      acs_url?: string;
      /**
       * @default urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress
       * @enum {string}
       */
      name_id_format:
        | 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'
        | 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified'
        | 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent'
        | 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
      /**
       * @description User field of the NameID. emailAddress: email; persistent and transient: id (their default; the value is generated, see docs/saml.md); unspecified: email or id. first_name, last_name and display_name are refused (not unique).
       * @default email
       * @enum {string}
       */
      name_id_attribute: 'email' | 'first_name' | 'last_name' | 'display_name' | 'id';
      /**
       * @description false: the Response is signed instead of the Assertion
       * @default true
       */
      sign_assertions: boolean;
      /**
       * @example {
       *       "email": "email",
       *       "firstName": "first_name"
       *     }
       */
      attribute_mapping?: {
        [key: string]: 'email' | 'first_name' | 'last_name' | 'display_name' | 'id';
      };
      /** @description SP certificate (PEM); stored, not used to verify requests; null removes it */
      sp_cert_pem?: string | null;
      /** @description Landing URL after sign-in when the request carries no RelayState; null removes it */
      default_relay_state?: string | null;
      /** @default true */
      is_active: boolean;
      /** @description The SP's metadata XML: fills sp_entity_id, acs_url and sp_cert_pem (explicit fields win) */
      metadata_xml?: string;
      /**
       * Format: uuid
       * @description Accepted only if unchanged; an SP cannot move between workspaces
       */
      workspace_id?: string;
    };
    /**
     * @example {
     *       "workspace_id": "0b6f2d4e-5a7c-4c1e-9f3a-2d8e6b1c7a90",
     *       "url": "https://hooks.example.com/idsvc",
     *       "event_types": [
     *         "scim_user_create",
     *         "scim_user_delete"
     *       ],
     *       "description": "Provisioning sync"
     *     }
     */
    CreateWebhookDto: {
      /** Format: uuid */
      workspace_id: string;
      /** @description https: URL (http: and local or private addresses in development, or with WEBHOOK_ALLOW_PRIVATE_TARGETS=true) */
      url: string;
      /**
       * @description Audit catalog event types, "*" for every audit type, and directory event types (directory.user.created…), each delivered as the feed shows the event; "*" does not include the directory types.
       * @example [
       *       "scim_user_create",
       *       "directory.user.deactivated"
       *     ]
       */
      event_types: (
        | 'login_success'
        | 'login_failure'
        | 'logout'
        | 'register'
        | 'email_verify_send'
        | 'email_verify_confirm'
        | 'password_reset_request'
        | 'password_reset_confirm'
        | 'password_update'
        | 'oauth_client_create'
        | 'oauth_client_update'
        | 'oauth_client_delete'
        | 'oauth_client_secret_reset'
        | 'oauth_token_issue'
        | 'oauth_token_revoke'
        | 'oauth_consent_grant'
        | 'workspace_create'
        | 'workspace_update'
        | 'workspace_delete'
        | 'workspace_member_add'
        | 'workspace_member_remove'
        | 'workspace_invite_send'
        | 'workspace_invite_accept'
        | 'api_token_create'
        | 'api_token_revoke'
        | 'dev_token_create'
        | 'dev_token_revoke'
        | 'user_create'
        | 'user_update'
        | 'user_delete'
        | 'user_group_assign'
        | 'user_group_unassign'
        | 'external_provider_create'
        | 'external_provider_update'
        | 'external_provider_delete'
        | 'custom_db_connect'
        | 'custom_db_disconnect'
        | 'custom_db_sync_fail'
        | 'scim_token_create'
        | 'scim_token_revoke'
        | 'scim_user_create'
        | 'scim_user_update'
        | 'scim_user_delete'
        | 'scim_group_create'
        | 'scim_group_update'
        | 'scim_group_delete'
        | 'saml_sp_create'
        | 'saml_sp_update'
        | 'saml_sp_delete'
        | 'saml_sso_success'
        | 'saml_sso_failure'
        | 'anomaly_detected'
        | 'anomaly_notified'
        | 'managed_database_create'
        | 'managed_database_delete'
        | 'managed_database_provision_fail'
        | 'managed_database_backup_create'
        | 'managed_database_restore'
        | 'managed_database_credentials_read'
        | 'webhook_create'
        | 'webhook_update'
        | 'webhook_delete'
        | 'webhook_secret_rotate'
        | 'webhook_disable'
        | 'scim_client_create'
        | 'scim_client_secret_create'
        | 'scim_client_revoke'
        | 'scim_client_update'
        | 'mfa_enroll'
        | 'mfa_remove'
        | 'mfa_challenge_success'
        | 'mfa_challenge_failure'
        | 'recovery_codes_regenerate'
        | 'step_up_required'
        | 'sign_in_blocked'
        | 'ssf_receiver_create'
        | 'ssf_receiver_delete'
        | 'directory.user.created'
        | 'directory.user.updated'
        | 'directory.user.deactivated'
        | 'directory.user.reactivated'
        | 'directory.group.created'
        | 'directory.group.updated'
        | 'directory.group.deleted'
        | 'directory.group.user_added'
        | 'directory.group.user_removed'
        | '*'
      )[];
      description?: string;
    };
    /**
     * @example {
     *       "is_active": true
     *     }
     */
    UpdateWebhookDto: {
      url?: string;
      /** @description Audit catalog event types, "*" for every audit type, and directory event types (directory.user.created…), each delivered as the feed shows the event; "*" does not include the directory types. */
      event_types?: (
        | 'login_success'
        | 'login_failure'
        | 'logout'
        | 'register'
        | 'email_verify_send'
        | 'email_verify_confirm'
        | 'password_reset_request'
        | 'password_reset_confirm'
        | 'password_update'
        | 'oauth_client_create'
        | 'oauth_client_update'
        | 'oauth_client_delete'
        | 'oauth_client_secret_reset'
        | 'oauth_token_issue'
        | 'oauth_token_revoke'
        | 'oauth_consent_grant'
        | 'workspace_create'
        | 'workspace_update'
        | 'workspace_delete'
        | 'workspace_member_add'
        | 'workspace_member_remove'
        | 'workspace_invite_send'
        | 'workspace_invite_accept'
        | 'api_token_create'
        | 'api_token_revoke'
        | 'dev_token_create'
        | 'dev_token_revoke'
        | 'user_create'
        | 'user_update'
        | 'user_delete'
        | 'user_group_assign'
        | 'user_group_unassign'
        | 'external_provider_create'
        | 'external_provider_update'
        | 'external_provider_delete'
        | 'custom_db_connect'
        | 'custom_db_disconnect'
        | 'custom_db_sync_fail'
        | 'scim_token_create'
        | 'scim_token_revoke'
        | 'scim_user_create'
        | 'scim_user_update'
        | 'scim_user_delete'
        | 'scim_group_create'
        | 'scim_group_update'
        | 'scim_group_delete'
        | 'saml_sp_create'
        | 'saml_sp_update'
        | 'saml_sp_delete'
        | 'saml_sso_success'
        | 'saml_sso_failure'
        | 'anomaly_detected'
        | 'anomaly_notified'
        | 'managed_database_create'
        | 'managed_database_delete'
        | 'managed_database_provision_fail'
        | 'managed_database_backup_create'
        | 'managed_database_restore'
        | 'managed_database_credentials_read'
        | 'webhook_create'
        | 'webhook_update'
        | 'webhook_delete'
        | 'webhook_secret_rotate'
        | 'webhook_disable'
        | 'scim_client_create'
        | 'scim_client_secret_create'
        | 'scim_client_revoke'
        | 'scim_client_update'
        | 'mfa_enroll'
        | 'mfa_remove'
        | 'mfa_challenge_success'
        | 'mfa_challenge_failure'
        | 'recovery_codes_regenerate'
        | 'step_up_required'
        | 'sign_in_blocked'
        | 'ssf_receiver_create'
        | 'ssf_receiver_delete'
        | 'directory.user.created'
        | 'directory.user.updated'
        | 'directory.user.deactivated'
        | 'directory.user.reactivated'
        | 'directory.group.created'
        | 'directory.group.updated'
        | 'directory.group.deleted'
        | 'directory.group.user_added'
        | 'directory.group.user_removed'
        | '*'
      )[];
      description?: string;
      /** @description false pauses deliveries; true re-enables a disabled endpoint */
      is_active?: boolean;
    };
    /**
     * @example {
     *       "workspace_id": "0b6f2d4e-5a7c-4c1e-9f3a-2d8e6b1c7a90",
     *       "name": "Slack access revocation",
     *       "default_subjects": "NONE"
     *     }
     */
    CreateSsfReceiverDto: {
      /** Format: uuid */
      workspace_id: string;
      /**
       * @description What the receiver is, for the people of the workspace
       * @example Slack access revocation
       */
      name: string;
      /**
       * @description NONE: its stream carries only the subjects the receiver adds. ALL: every person of the workspace, except the subjects it removes (SSF 1.0 §7.1 default_subjects); the workspace's members decide, not the receiver.
       * @default NONE
       * @enum {string}
       */
      default_subjects: 'NONE' | 'ALL';
    };
    SsfDeliveryDto: {
      /**
       * @description urn:ietf:rfc:8935 (push to endpoint_url) or urn:ietf:rfc:8936 (poll)
       * @example urn:ietf:rfc:8935
       * @enum {string}
       */
      method: 'urn:ietf:rfc:8935' | 'urn:ietf:rfc:8936';
      /**
       * @description Push: where SETs are POSTed (https; checked like webhook URLs). Poll: set by the transmitter; a value sent is ignored.
       * @example https://receiver.example.com/ssf/events
       */
      endpoint_url?: string;
      /**
       * @description Push: the Authorization header every push carries (stored encrypted, never shown again).
       * @example Bearer 6f1d0c…
       */
      authorization_header?: string;
    };
    /**
     * @example {
     *       "delivery": {
     *         "method": "urn:ietf:rfc:8935",
     *         "endpoint_url": "https://receiver.example.com/ssf/events",
     *         "authorization_header": "Bearer 6f1d0c9a"
     *       },
     *       "events_requested": [
     *         "https://schemas.openid.net/secevent/risc/event-type/account-disabled",
     *         "https://schemas.openid.net/secevent/caep/event-type/session-revoked"
     *       ],
     *       "description": "Revoke Slack access"
     *     }
     */
    SsfStreamConfigDto: {
      delivery?: components['schemas']['SsfDeliveryDto'];
      /**
       * @example [
       *       "https://schemas.openid.net/secevent/risc/event-type/account-disabled",
       *       "https://schemas.openid.net/secevent/caep/event-type/session-revoked"
       *     ]
       */
      events_requested?: string[];
      /** @example Revoke Slack access */
      description?: string;
      readonly iss?: string;
      readonly aud?: string | string[];
      readonly events_supported?: string[];
      readonly events_delivered?: string[];
      readonly min_verification_interval?: number;
      readonly inactivity_timeout?: number;
    };
    /**
     * @example {
     *       "stream_id": "f67e39a0-0d0f-4b8e-9b3c-2a7b0e7d6c11",
     *       "events_requested": [
     *         "https://schemas.openid.net/secevent/risc/event-type/account-disabled"
     *       ]
     *     }
     */
    SsfStreamChangeDto: {
      delivery?: components['schemas']['SsfDeliveryDto'];
      /**
       * @example [
       *       "https://schemas.openid.net/secevent/risc/event-type/account-disabled",
       *       "https://schemas.openid.net/secevent/caep/event-type/session-revoked"
       *     ]
       */
      events_requested?: string[];
      /** @example Revoke Slack access */
      description?: string;
      readonly iss?: string;
      readonly aud?: string | string[];
      readonly events_supported?: string[];
      readonly events_delivered?: string[];
      readonly min_verification_interval?: number;
      readonly inactivity_timeout?: number;
      /** @example f67e39a0-0d0f-4b8e-9b3c-2a7b0e7d6c11 */
      stream_id: string;
    };
    SsfStatusDto: {
      /** @example f67e39a0-0d0f-4b8e-9b3c-2a7b0e7d6c11 */
      stream_id: string;
      /**
       * @example paused
       * @enum {string}
       */
      status: 'enabled' | 'paused' | 'disabled';
      /** @example Maintenance window */
      reason?: string;
    };
    SsfSubjectDto: {
      /** @example f67e39a0-0d0f-4b8e-9b3c-2a7b0e7d6c11 */
      stream_id: string;
      /**
       * @description An RFC 9493 subject identifier: format email {email}, iss_sub {iss, sub} or opaque {id}
       * @example {
       *       "format": "email",
       *       "email": "ada@example.com"
       *     }
       */
      subject: {
        [key: string]: string;
      };
      /**
       * @description SSF 1.0 §8.1.3.2: whether the receiver verified the subject (recorded nowhere: every subject is treated alike)
       * @example true
       */
      verified?: boolean;
    };
    SsfVerificationDto: {
      /** @example f67e39a0-0d0f-4b8e-9b3c-2a7b0e7d6c11 */
      stream_id: string;
      /**
       * @description Echoed in the verification SET
       * @example VGhpcyBpcyBhbiBleGFtcGxlIHN0YXRlIHZhbHVlLgo=
       */
      state?: string;
    };
    SsfPollDto: {
      /**
       * @description At most this many SETs (0: only acknowledge); default 100, at most 1000
       * @example 10
       */
      maxEvents?: number;
      /**
       * @description false (the default): wait up to 10 s for a SET when none is pending
       * @example true
       */
      returnImmediately?: boolean;
      /**
       * @description jti of SETs received and processed
       * @example [
       *       "4d3559ec67504aaba65d40b0363faad8"
       *     ]
       */
      ack?: string[];
      /**
       * @description jti → {err, description} of SETs the receiver could not process (not sent again)
       * @example {
       *       "3d0c3cf797584bd193bd0fb1bd4e7d30": {
       *         "err": "jwtAud",
       *         "description": "The audience value was incorrect."
       *       }
       *     }
       */
      setErrs?: {
        [key: string]: {
          err?: string;
          description?: string;
        };
      };
    };
    ProfileMappingDto: {
      /** @example email */
      email?: string;
      /** @example given_name */
      given_name?: string;
      /** @example family_name */
      family_name?: string;
      /** @example groups */
      groups?: string;
    };
    OidcSettingsDto: {
      /**
       * Format: uri
       * @description The issuer; discovery reads {issuer}/.well-known/openid-configuration
       * @example https://login.example.com
       */
      issuer: string;
      /** @example 0oa1b2c3d4 */
      client_id: string;
      /** @description Required with client_secret_basic / client_secret_post; stored encrypted, never shown again */
      client_secret?: string;
      /**
       * @default client_secret_basic
       * @enum {string}
       */
      token_endpoint_auth_method: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
      /**
       * @description Requested besides openid
       * @example [
       *       "email",
       *       "profile"
       *     ]
       */
      scopes?: string[];
      /** @description Claim names for our profile fields (defaults: the standard claims) */
      claim_mapping?: components['schemas']['ProfileMappingDto'];
    };
    SamlMappingDto: {
      /** @example email */
      email?: string;
      /** @example given_name */
      given_name?: string;
      /** @example family_name */
      family_name?: string;
      /** @example groups */
      groups?: string;
      /**
       * @description An immutable attribute used as the subject instead of the NameID
       * @example objectGUID
       */
      subject?: string;
    };
    SamlSettingsDto: {
      /**
       * @description The IdP's metadata (an EntityDescriptor, 256 KiB at most): its entity id, HTTP-Redirect SSO URL and signing certificates fill idp_entity_id, idp_sso_url and idp_certificates, which are then not sent
       * @example <EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="http://www.okta.com/exk1a2b3c4">…</EntityDescriptor>
       */
      metadata_xml?: string;
      /**
       * Format: uri
       * @description The IdP's metadata URL, read once now (https and public only, as the JWKS fetches); instead of metadata_xml
       * @example https://example.okta.com/app/exk1a2b3c4/sso/saml/metadata
       */
      metadata_url?: string;
      /** @example http://www.okta.com/exk1a2b3c4 */
      idp_entity_id?: string;
      /**
       * Format: uri
       * @example https://example.okta.com/app/exk1a2b3c4/sso/saml
       */
      idp_sso_url?: string;
      /** @description PEM signing certificates, up to two (rollover) */
      idp_certificates?: string[];
      /**
       * @description Accept IdP-initiated responses (no AuthnRequest of ours)
       * @default false
       */
      allow_unsolicited: boolean;
      attribute_mapping?: components['schemas']['SamlMappingDto'];
    };
    CreateSsoConnectionDto: {
      /**
       * @description Email domains this connection serves (verified by DNS TXT before routing)
       * @example [
       *       "example.com"
       *     ]
       */
      domains?: string[];
      /**
       * @description Create a person on the first sign-in of an unknown verified email
       * @default false
       * @example false
       */
      jit: boolean;
      /**
       * @description Count the upstream's MFA claim (OIDC amr/acr, SAML AuthnContext) as our mfa
       * @default false
       * @example false
       */
      trust_upstream_mfa: boolean;
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      workspace_id: string;
      /** @example Acme Okta */
      name: string;
      /** @enum {string} */
      protocol: 'oidc' | 'saml';
      /** @description Required when protocol is oidc */
      oidc?: components['schemas']['OidcSettingsDto'];
      /** @description Required when protocol is saml */
      saml?: components['schemas']['SamlSettingsDto'];
    };
    UpdateSsoConnectionDto: {
      /**
       * @description Email domains this connection serves (verified by DNS TXT before routing)
       * @example [
       *       "example.com"
       *     ]
       */
      domains?: string[];
      /**
       * @description Create a person on the first sign-in of an unknown verified email
       * @default false
       * @example false
       */
      jit: boolean;
      /**
       * @description Count the upstream's MFA claim (OIDC amr/acr, SAML AuthnContext) as our mfa
       * @default false
       * @example false
       */
      trust_upstream_mfa: boolean;
      /** @example Acme Entra ID */
      name?: string;
      oidc?: components['schemas']['OidcSettingsDto'];
      saml?: components['schemas']['SamlSettingsDto'];
    };
    AddDirectoryUserDto: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      workspace_id: string;
      /**
       * Format: email
       * @example ada@acme.test
       */
      email: string;
      /** @example Ada */
      first_name?: string;
      /** @example Lovelace */
      last_name?: string;
    };
    /** @description A signed chain head: an Ed25519 signature over its workspace_id, seq, event_id, hash and signed_at (docs/audit.md). */
    AuditCheckpoint: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      workspace_id: string;
      /**
       * @description Chain position of the head it signs.
       * @example 1234
       */
      seq: number;
      /**
       * Format: uuid
       * @description The event sealed at that position.
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      event_id: string;
      /**
       * @description The chain hash at seq (hex SHA-256).
       * @example 9f2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c0b2d4f6e8a0c2e4f6a8b0d2f4e6a8c0b
       */
      hash: string;
      /**
       * @description Which key of GET /developer/audit/keys/ signed it.
       * @example audit-2026-11
       */
      key_id: string;
      /**
       * @description Base64 Ed25519 signature.
       * @example m0x3mQ1mB3Zr8c2k9Vq4W7tY5uN6pA1sD8fG2hJ4kL0zX9cV7bN3mQ5wE2rT6yU1iO4pA8sD0fG3hJ5kL7zX9cVw==
       */
      signature: string;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      signed_at: string;
    };
    AuditCheckpointPage: {
      results: components['schemas']['AuditCheckpoint'][];
      /**
       * @description A seq: pass it as `cursor` for the next page; null at the end.
       * @example 1234
       */
      next_cursor: number | null;
    };
    AuditEvent: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      workspace_id: string | null;
      /** @example scim_user_create */
      event_type: string;
      /**
       * @example info
       * @enum {string}
       */
      severity: 'info' | 'warn' | 'error';
      /** @example scim_token */
      actor_type: string;
      /** @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11 */
      actor_id: string | null;
      /** @example null */
      actor_email: string | null;
      /** @example User */
      target_type: string | null;
      /** @example 8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13 */
      target_id: string | null;
      /** @example null */
      oauth_client_id: string | null;
      /** @example 203.0.113.7 */
      ip_address: string | null;
      /** @example Okta SCIM Client 1.0.0 */
      user_agent: string | null;
      /** @example 5b1d0e2e-8c53-4d1c-a3a9-2d8f0b1c9e77 */
      request_id: string | null;
      /** @example SCIM user ada@example.com created */
      message: string;
      /**
       * @example {
       *       "email": "ada@example.com"
       *     }
       */
      metadata: {
        [key: string]: unknown;
      };
      /**
       * Format: date-time
       * @description With microseconds: the value to pass as `cursor` for the next page.
       * @example 2026-11-24T12:00:00.123456Z
       */
      created_at: string;
    };
    AuditPage: {
      results: components['schemas']['AuditEvent'][];
      /**
       * @description Pass as `cursor` to read older events; null at the end.
       * @example 2026-11-24T12:00:00.123456Z
       */
      next_cursor: string | null;
      /** @example 50 */
      limit: number;
    };
    AuditPublicKey: {
      /** @example audit-2026-11 */
      key_id: string;
      /**
       * @example Ed25519
       * @enum {string}
       */
      algorithm: 'Ed25519';
      /**
       * @description PEM (SPKI).
       * @example -----BEGIN PUBLIC KEY-----
       *     MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=
       *     -----END PUBLIC KEY-----
       */
      public_key: string;
      /**
       * @description active signs new checkpoints; retired keys stay published so older checkpoints still verify.
       * @example active
       * @enum {string}
       */
      status: 'active' | 'retired';
    };
    AuditPublicKeys: {
      keys: components['schemas']['AuditPublicKey'][];
    };
    /** @description What GET /developer/audit/verify/ found: the links and checkpoints that check out, and the first break, if any. */
    AuditVerifyResult: {
      /**
       * @description Links recomputed and found intact, in seq order, before any break.
       * @example 1234
       */
      verified: number;
      /**
       * @description Signed checkpoints in the span whose signature and head matched.
       * @example 20
       */
      checkpoints: number;
      /**
       * @description null: the chain is intact over the span. Otherwise the first problem; the walk stops there.
       * @example null
       */
      first_break: {
        /**
         * Format: uuid
         * @description The event (or checkpoint head) at fault; null when a link is missing from the sequence.
         * @example 8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13
         */
        event_id: string | null;
        /**
         * @description Position in the chain where the break is.
         * @example 57
         */
        seq: number;
        /**
         * @example edited_event
         * @enum {string}
         */
        reason: 'edited_event' | 'missing_event' | 'inserted_event' | 'bad_checkpoint_signature' | 'checkpoint_mismatch';
      } | null;
    };
    Developer: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /**
       * Format: email
       * @example dev@example.com
       */
      email: string;
      /** @example Grace Hopper */
      name: string;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      created_at: string;
    };
    DeveloperLogin: {
      developer: components['schemas']['Developer'];
      /**
       * @description Send it as X-CSRF-Token on every cookie-authenticated POST/PUT/PATCH/DELETE (also readable from the csrftoken cookie).
       * @example q5Xo1b9v0mQ2Yk3Zr8w7tA
       */
      csrf_token: string;
    };
    DeveloperToken: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /** @example CI pipeline */
      label: string;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      expires_at: string | null;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      created_at: string;
    };
    DeveloperTokenCreated: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /** @example CI pipeline */
      label: string;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      expires_at: string | null;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      created_at: string;
      /**
       * @description Shown once; send as `Authorization: Bearer …`.
       * @example dat_R2x0bE9uZVRpbWVTZWNyZXRUb2tlbkV4YW1wbGU
       */
      token: string;
    };
    /** @description One directory change (docs/events.md). data is the object as it was at that moment. */
    DirectoryEvent: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /**
       * Format: int64
       * @description Position in the workspace's feed: strictly increasing, never filled in below a value already returned.
       * @example 42
       */
      seq: number;
      /**
       * @example directory.user.updated
       * @enum {string}
       */
      type:
        | 'directory.user.created'
        | 'directory.user.updated'
        | 'directory.user.deactivated'
        | 'directory.user.reactivated'
        | 'directory.group.created'
        | 'directory.group.updated'
        | 'directory.group.deleted'
        | 'directory.group.user_added'
        | 'directory.group.user_removed';
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      workspace_id: string;
      /**
       * Format: date-time
       * @description When the change was made (its transaction began).
       * @example 2026-12-07T05:30:00.123456Z
       */
      occurred_at: string;
      /**
       * @description User events: the user as GET /scim/v2/Users/{id} showed it then. Group events: the group as GET /scim/v2/Groups/{id} showed it, without members. Membership events: {group: {id, displayName}, user: {id, userName}}.
       * @example {
       *       "schemas": [
       *         "urn:ietf:params:scim:schemas:core:2.0:User"
       *       ],
       *       "id": "8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13",
       *       "userName": "ada@example.com",
       *       "active": true
       *     }
       */
      data: {
        [key: string]: unknown;
      };
      /**
       * @description Updated, deactivated, reactivated and group-updated events only: the SCIM attributes the change set.
       * @example [
       *       "name.familyName"
       *     ]
       */
      changed?: string[];
    };
    DirectoryEventPage: {
      results: components['schemas']['DirectoryEvent'][];
      /**
       * Format: int64
       * @description Pass as `after` to read on: the seq of the last event of this page, or `after` itself when the page is empty.
       * @example 42
       */
      next_after: number;
    };
    DirectoryGroup: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /** @example Engineering */
      display_name: string;
      /** @example 00g1emaKYZTWRYYRRTSK */
      external_id: string | null;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      created_at: string;
    };
    DirectoryGroupPage: {
      results: components['schemas']['DirectoryGroupWithMembers'][];
      /**
       * @description Pass as `cursor` for the next page; null on the last page.
       * @example null
       */
      next_cursor: string | null;
    };
    DirectoryGroupWithMembers: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /** @example Engineering */
      display_name: string;
      /** @example 00g1emaKYZTWRYYRRTSK */
      external_id: string | null;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      created_at: string;
      /** @example 2 */
      member_count: number;
      /** @description The first 100 members, in the order they joined; member_count counts them all. */
      members: {
        /**
         * Format: uuid
         * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
         */
        id: string;
        /** @example ada@acme.test */
        email: string;
        /** @example Ada Lovelace */
        name: string;
      }[];
    };
    DirectoryPerson: {
      user: components['schemas']['DirectoryUser'];
      /** @description The SCIM groups the person is a member of, by name. */
      groups: components['schemas']['DirectoryGroup'][];
      /** @description Live sessions, most recently used first. */
      sessions: components['schemas']['DirectorySession'][];
      factors: components['schemas']['MfaStatus'];
    };
    DirectorySession: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /**
       * @example browser
       * @enum {string}
       */
      kind: 'api' | 'browser';
      /** @example 203.0.113.7 */
      ip_address: string | null;
      /** @example FR */
      country: string | null;
      /** @example Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0 */
      user_agent: string | null;
      /** @example Firefox */
      browser_family: string;
      /** @example Linux */
      os_family: string;
      /**
       * @example [
       *       "pwd"
       *     ]
       */
      amr: string[];
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      created_at: string;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      last_seen_at: string;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      expires_at: string;
    };
    /**
     * @description The whole directory, read in one snapshot, and the feed position it reflects: every event up to seq is in it. Continue with GET /developer/events/?after=seq (an event after seq may repeat a change the snapshot already shows; apply events as upserts).
     * @example {
     *       "seq": 42,
     *       "users": [
     *         {
     *           "schemas": [
     *             "urn:ietf:params:scim:schemas:core:2.0:User"
     *           ],
     *           "id": "8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13",
     *           "externalId": "8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13",
     *           "userName": "ada@example.com",
     *           "emails": [
     *             {
     *               "value": "ada@example.com",
     *               "type": "work",
     *               "primary": true
     *             }
     *           ],
     *           "active": true,
     *           "meta": {
     *             "resourceType": "User",
     *             "created": "2026-12-07T05:29:58.001Z",
     *             "lastModified": "2026-12-07T05:30:00.123Z",
     *             "location": "https://id.example.com/scim/v2/Users/8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13"
     *           }
     *         }
     *       ],
     *       "groups": [
     *         {
     *           "schemas": [
     *             "urn:ietf:params:scim:schemas:core:2.0:Group"
     *           ],
     *           "id": "c1d2e3f4-0000-4000-8000-000000000001",
     *           "displayName": "Engineering",
     *           "meta": {
     *             "resourceType": "Group",
     *             "created": "2026-12-07T05:29:59.000Z",
     *             "lastModified": "2026-12-07T05:30:01.000Z",
     *             "location": "https://id.example.com/scim/v2/Groups/c1d2e3f4-0000-4000-8000-000000000001"
     *           }
     *         }
     *       ],
     *       "memberships": [
     *         {
     *           "group_id": "c1d2e3f4-0000-4000-8000-000000000001",
     *           "user_id": "8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13"
     *         }
     *       ]
     *     }
     */
    DirectorySnapshot: {
      /**
       * Format: int64
       * @example 42
       */
      seq: number;
      /** @description As GET /scim/v2/Users/{id} shows them. */
      users: {
        [key: string]: unknown;
      }[];
      /** @description As GET /scim/v2/Groups/{id} shows them, without members. */
      groups: {
        [key: string]: unknown;
      }[];
      memberships: {
        /**
         * Format: uuid
         * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
         */
        group_id: string;
        /**
         * Format: uuid
         * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
         */
        user_id: string;
      }[];
    };
    DirectoryUser: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /** @example ada@acme.test */
      email: string;
      /** @example Ada */
      first_name: string;
      /** @example Lovelace */
      last_name: string;
      /**
       * @description false once deactivated (SCIM active=false or DELETE): sign-ins are refused.
       * @example true
       */
      active: boolean;
      /** @example true */
      email_verified: boolean;
      /**
       * @description Whether the person has set a password (directory users start without one).
       * @example false
       */
      has_password: boolean;
      /** @description The application whose account this is; null for the workspace's directory (provisioned by SCIM or added by a developer). */
      application: {
        /**
         * Format: uuid
         * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
         */
        id: string;
        /** @example Acme Notes */
        name: string;
      } | null;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      created_at: string;
    };
    DirectoryUserPage: {
      results: components['schemas']['DirectoryUser'][];
      /**
       * @description Pass as `cursor` for the next page; null on the last page.
       * @example null
       */
      next_cursor: string | null;
    };
    EmailTemplate: {
      /**
       * @example registration_confirmation
       * @enum {string}
       */
      name: 'registration_confirmation' | 'password_reset' | 'new_device_alert' | 'sign_in_code' | 'sign_in_blocked';
      /** @example Registration confirmation */
      display_name: string;
      /** @example Your {{app_name}} code */
      subject: string;
      /** @example Acme */
      from_name: string;
      /** @example Hello {{first_name}}, your code is {{code}}. */
      body: string;
      /**
       * @example [
       *       "first_name",
       *       "code",
       *       "app_name"
       *     ]
       */
      placeholders: string[];
      /**
       * @description true: the built-in text (nothing saved for this workspace).
       * @example false
       */
      is_default: boolean;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      updated_at: string | null;
    };
    EndUserSession: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /** @example 203.0.113.7 */
      ip_address: string | null;
      /** @example FR */
      country: string | null;
      /** @example Paris */
      city: string | null;
      /** @example Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Firefox/130.0 */
      user_agent: string | null;
      /** @example Firefox */
      browser_family: string;
      /** @example Mac OS */
      os_family: string;
      /**
       * @example api
       * @enum {string}
       */
      kind: 'api' | 'browser';
      /**
       * @description How the session was authenticated (RFC 8176): `pwd` password, `otp` one-time code, `hwk`/`swk` passkey, `mfa` two factors.
       * @example [
       *       "pwd",
       *       "otp",
       *       "mfa"
       *     ]
       */
      amr: string[];
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      created_at: string;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      last_seen_at: string;
      /**
       * @description The session of the token making this call.
       * @example true
       */
      current: boolean;
    };
    /** @description Error body of every route outside /scim/v2 (HTML pages aside). */
    Error: {
      /**
       * @description Stable snake_case code: branch on this, not on the message.
       * @example validation_failed
       */
      error: string;
      /** @example Invalid request: check password */
      message: string;
      /**
       * @description For validation_failed: field name → list of problems.
       * @example {
       *       "password": [
       *         "password must be longer than or equal to 8 characters"
       *       ]
       *     }
       */
      details?: {
        [key: string]: unknown;
      };
      /**
       * @description On 5xx answers: quote it when reporting a problem.
       * @example 5b1d0e2e-8c53-4d1c-a3a9-2d8f0b1c9e77
       */
      request_id?: string;
    };
    /**
     * @description RFC 7517 JWK Set.
     * @example {
     *       "keys": [
     *         {
     *           "kty": "OKP",
     *           "crv": "Ed25519",
     *           "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
     *           "kid": "eddsa-1",
     *           "alg": "EdDSA",
     *           "use": "sig"
     *         }
     *       ]
     *     }
     */
    Jwks: {
      keys: {
        [key: string]: unknown;
      }[];
    };
    Liveness: {
      /**
       * @example ok
       * @enum {string}
       */
      status: 'ok';
    };
    MfaRequired: {
      /**
       * @example true
       * @enum {boolean}
       */
      mfa_required: true;
      /**
       * @description Single use, 5 minutes, void after 5 wrong codes
       * @example mfa_Vb2xQ9kT4mZ7pL1cR8nW5hY3jF6gD0sAe2Uo7IiKx
       */
      mfa_token: string;
      /**
       * @example [
       *       "totp",
       *       "recovery_code"
       *     ]
       */
      methods: ('totp' | 'passkey' | 'recovery_code' | 'email_code')[];
    };
    MfaStatus: {
      /**
       * @description An authenticator app is set up (confirmed).
       * @example true
       */
      totp: boolean;
      passkeys: {
        /**
         * Format: uuid
         * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
         */
        id: string;
        /** @example YubiKey 5C */
        name: string;
        /**
         * Format: date-time
         * @example 2026-11-24T12:00:00.000Z
         */
        created_at: string;
        /**
         * Format: date-time
         * @example 2026-11-24T12:00:00.000Z
         */
        last_used_at: string | null;
      }[];
      /**
       * @description Unused recovery codes.
       * @example 9
       */
      recovery_codes_left: number;
    };
    OAuthClient: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /**
       * @description Public identifier end users register and sign in with; the OpenID client_id.
       * @example cli_5f2b9c0e7a4d1e3f6a8b0c2d
       */
      client_id: string;
      /** @example Acme web app */
      name: string;
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      workspace_id: string;
      /**
       * @description Exact redirect URIs of the OpenID Connect authorization-code flow (no wildcards; an http loopback IP literal matches any port, RFC 8252 §7.3; a public client may also use a private-use URI scheme named after a domain in reverse order, such as com.example.app:/oauth2redirect, RFC 8252 §7.1).
       * @example [
       *       "https://app.example.com/callback"
       *     ]
       */
      redirect_uris: string[];
      /**
       * @example [
       *       "https://app.example.com/"
       *     ]
       */
      post_logout_redirect_uris: string[];
      /**
       * @example confidential
       * @enum {string}
       */
      client_type: 'confidential' | 'public';
      /**
       * @description First-party applications skip the consent screen.
       * @example true
       */
      first_party: boolean;
      /**
       * @description Its hosted login offers "Create an account" to people who have no account yet.
       * @example false
       */
      allow_signup: boolean;
      /**
       * @example public
       * @enum {string}
       */
      subject_type: 'public' | 'pairwise';
      /**
       * @example RS256
       * @enum {string}
       */
      id_token_signed_response_alg: 'RS256' | 'ES256';
      /**
       * @description Authorization requests must carry PKCE (S256). Always true for a public client; a confidential client with false may omit PKCE and then must send a nonce.
       * @example true
       */
      require_pkce: boolean;
      /**
       * @description The preferred method; a confidential client may also use client_secret_post.
       * @example client_secret_basic
       * @enum {string}
       */
      token_endpoint_auth_method: 'client_secret_basic' | 'private_key_jwt' | 'none';
      /**
       * @description Public keys of its private_key_jwt assertions.
       * @example null
       */
      jwks: {
        [key: string]: unknown;
      } | null;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      created_at: string;
    };
    OAuthClientWithSecret: components['schemas']['OAuthClient'] & {
      /**
       * @description Shown once; stored hashed. Null for a public client.
       * @example cs_3qT8vYw1Zp0LmKx5Rb7nHs2Df6Gj9Ac4
       */
      client_secret: string | null;
    };
    /** @description RFC 6749 §5.2 error body. */
    OAuthError: {
      /** @example invalid_client */
      error: string;
      /** @example client authentication failed */
      error_description: string;
    };
    /** @description RFC 7662 §2.2. An inactive token is only {"active": false}. */
    OAuthIntrospection: {
      /** @example true */
      active: boolean;
      /** @example openid email */
      scope?: string;
      /** @example cli_5f2b9c0e7a4d1e3f6a8b0c2d */
      client_id?: string;
      /**
       * @example Bearer
       * @enum {string}
       */
      token_type?: 'Bearer' | 'refresh_token';
      /** @example 0f8fad5b-d9cb-469f-a165-70867728950e */
      sub?: string;
      /** @example 1795701234 */
      exp?: number;
      /** @example 1795700334 */
      iat?: number;
      /** @example https://id.example.com */
      iss?: string;
      /** @example cli_5f2b9c0e7a4d1e3f6a8b0c2d */
      aud?: string;
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      sid?: string;
    };
    /**
     * @description RFC 7009 §2.2: the token is revoked or was never valid; the body is empty and clients ignore it.
     * @example {}
     */
    OAuthRevocation: Record<string, never>;
    /** @description RFC 8414 authorization server metadata, which is also the OpenID Provider configuration (OpenID Connect Discovery 1.0 §3). */
    OAuthServerMetadata: {
      /** @example https://id.example.com */
      issuer: string;
      /** @example https://id.example.com/oauth/token */
      token_endpoint: string;
      /** @example https://id.example.com/oauth/jwks */
      jwks_uri?: string;
      /**
       * @example [
       *       "client_credentials",
       *       "urn:ietf:params:oauth:grant-type:jwt-bearer"
       *     ]
       */
      grant_types_supported: string[];
      /** @example https://id.example.com/oauth/authorize */
      authorization_endpoint?: string;
      /** @example https://id.example.com/oauth/userinfo */
      userinfo_endpoint?: string;
      /** @example https://id.example.com/oauth/logout */
      end_session_endpoint?: string;
      /** @example https://id.example.com/oauth/revoke */
      revocation_endpoint?: string;
      /** @example https://id.example.com/oauth/introspect */
      introspection_endpoint?: string;
      /**
       * @example [
       *       "code"
       *     ]
       */
      response_types_supported?: string[];
      /**
       * @example [
       *       "public",
       *       "pairwise"
       *     ]
       */
      subject_types_supported?: string[];
      /**
       * @example [
       *       "RS256",
       *       "ES256"
       *     ]
       */
      id_token_signing_alg_values_supported?: string[];
      /**
       * @example [
       *       "S256"
       *     ]
       */
      code_challenge_methods_supported?: string[];
      /**
       * @example [
       *       "client_secret_basic",
       *       "client_secret_post",
       *       "private_key_jwt"
       *     ]
       */
      token_endpoint_auth_methods_supported: string[];
      /**
       * @example [
       *       "RS256",
       *       "ES256",
       *       "EdDSA"
       *     ]
       */
      token_endpoint_auth_signing_alg_values_supported?: string[];
      /**
       * @example [
       *       "scim"
       *     ]
       */
      scopes_supported?: string[];
    } & {
      [key: string]: unknown;
    };
    OAuthTokenResponse: {
      /**
       * @description A signed JWT (RFC 9068); use it as the Bearer token of /scim/v2.
       * @example eyJhbGciOiJFZERTQSIsImtpZCI6ImVkZHNhLTEiLCJ0eXAiOiJhdCtqd3QifQ.e30.c2lnbmF0dXJl
       */
      access_token: string;
      /**
       * @example Bearer
       * @enum {string}
       */
      token_type: 'Bearer';
      /** @example 3600 */
      expires_in: number;
      /** @example scim */
      scope: string;
      /**
       * @description authorization_code and refresh_token grants: the next refresh token (each works once).
       * @example rt_R2d9…
       */
      refresh_token?: string;
      /**
       * @description authorization_code and refresh_token grants: the OpenID Connect ID token (RS256 or ES256).
       * @example eyJhbGciOiJSUzI1NiIsImtpZCI6InJzMjU2LTEifQ.e30.c2ln
       */
      id_token?: string;
    };
    /** @description OpenID Connect Core §5.3 claims, by the grant's scope. */
    OidcUserInfo: {
      /** @example 0f8fad5b-d9cb-469f-a165-70867728950e */
      sub: string;
      /** @example ada@example.com */
      email?: string;
      /** @example true */
      email_verified?: boolean;
      /** @example Ada Lovelace */
      name?: string;
      /** @example Ada */
      given_name?: string;
      /** @example Lovelace */
      family_name?: string;
    };
    Passkey: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /** @example MacBook Touch ID */
      name: string;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      created_at: string;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      last_used_at: string | null;
    };
    /** @description WebAuthn PublicKeyCredentialCreationOptionsJSON: pass it to `startRegistration({optionsJSON})` of @simplewebauthn/browser (or `PublicKeyCredential.parseCreationOptionsFromJSON`). The challenge works once, for 5 minutes. */
    PasskeyCreationOptions: {
      /**
       * @example {
       *       "name": "Acme Notes",
       *       "id": "id.example.com"
       *     }
       */
      rp: Record<string, never>;
      /**
       * @example {
       *       "id": "q1Ai7Vd8Qk2l9Jm0Xb3Ykw",
       *       "name": "ada@example.com",
       *       "displayName": "ada@example.com"
       *     }
       */
      user: Record<string, never>;
      /** @example Xc3mQ0Lr7VYq9h2ZbT4nUw8Jk1sPdFg6 */
      challenge: string;
      /**
       * @example [
       *       {
       *         "alg": -8,
       *         "type": "public-key"
       *       },
       *       {
       *         "alg": -7,
       *         "type": "public-key"
       *       }
       *     ]
       */
      pubKeyCredParams: Record<string, never>[];
      /** @example 300000 */
      timeout?: number;
      /** @example [] */
      excludeCredentials?: Record<string, never>[];
      /**
       * @example {
       *       "residentKey": "required",
       *       "requireResidentKey": true,
       *       "userVerification": "preferred"
       *     }
       */
      authenticatorSelection?: Record<string, never>;
      /** @example none */
      attestation?: string;
    } & {
      [key: string]: unknown;
    };
    PasskeyRegistered: {
      passkey: components['schemas']['Passkey'];
      /**
       * @description Ten single-use codes when this passkey is the first factor of the account (shown this once), else null.
       * @example null
       */
      recovery_codes: string[] | null;
    };
    /** @description WebAuthn PublicKeyCredentialRequestOptionsJSON: pass it to `startAuthentication({optionsJSON})` of @simplewebauthn/browser. The challenge works once, for 5 minutes. */
    PasskeyRequestOptions: {
      /** @example Lr7VYq9h2ZbT4nUw8Jk1sPdFg6Xc3mQ0 */
      challenge: string;
      /** @example id.example.com */
      rpId: string;
      /** @example 300000 */
      timeout?: number;
      /** @example preferred */
      userVerification?: string;
      /**
       * @example [
       *       {
       *         "id": "AVx9dK1m3Qw7Lr2ZbT4nUw",
       *         "type": "public-key",
       *         "transports": [
       *           "internal"
       *         ]
       *       }
       *     ]
       */
      allowCredentials?: Record<string, never>[];
    } & {
      [key: string]: unknown;
    };
    RecoveryCodes: {
      /**
       * @description Ten single-use codes, shown this once; null when this was not the first factor.
       * @example [
       *       "K7QH2-M9XTR",
       *       "B4WPN-2ZKQC",
       *       "H8RT3-VXN6M",
       *       "Q2MZ7-KJ4PW",
       *       "T9XBC-3RHN8",
       *       "W6KDP-Q7M2Z",
       *       "Z3NVR-8BXK4",
       *       "C5HTM-W2QJ9",
       *       "P7ZKX-N4BR3",
       *       "R2QWM-6TCH8"
       *     ]
       */
      recovery_codes: string[] | null;
    };
    SamlServiceProvider: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      workspace_id: string;
      /** @example Acme wiki */
      name: string;
      /** @example https://wiki.example.com/saml/metadata */
      sp_entity_id: string;
      /**
       * Format: uri
       * @example https://wiki.example.com/saml/acs
       */
      acs_url: string;
      /** @example urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress */
      name_id_format: string;
      /** @example email */
      name_id_attribute: string;
      /** @example true */
      sign_assertions: boolean;
      /**
       * @example {
       *       "email": "email",
       *       "firstName": "first_name"
       *     }
       */
      attribute_mapping: {
        [key: string]: string;
      };
      /** @example null */
      sp_cert_pem: string | null;
      /** @example null */
      default_relay_state: string | null;
      /** @example true */
      is_active: boolean;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      created_at: string;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      updated_at: string;
    };
    ScimClient: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /** @example scimc_4f0d1e2a9b8c7d6e5f4a3b2c1d0e9f8a */
      client_id: string;
      /** @example Entra ID provisioning */
      label: string;
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      workspace_id: string;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      created_at: string;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      revoked_at: string | null;
      secrets: components['schemas']['ScimClientSecret'][];
      /** @description Keys of its private_key_jwt assertions. */
      keys: {
        /** Format: uri */
        jwks_uri: string | null;
        jwks: {
          [key: string]: unknown;
        } | null;
      } | null;
      /** @description The external issuer it trusts for the JWT-bearer grant. */
      federation: {
        /** @example https://login.microsoftonline.com/7d3b2c1a-0000-4000-8000-000000000000/v2.0 */
        issuer: string;
        /** Format: uri */
        jwks_uri: string;
        /** @example 5a8d0c0e-0000-4000-8000-000000000000 */
        subject: string;
        audience: string | null;
      } | null;
    };
    ScimClientCreated: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /** @example scimc_4f0d1e2a9b8c7d6e5f4a3b2c1d0e9f8a */
      client_id: string;
      /** @example Entra ID provisioning */
      label: string;
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      workspace_id: string;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      created_at: string;
      secret: components['schemas']['ScimClientSecretCreated'];
    };
    ScimClientSecret: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      expires_at: string;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      created_at: string;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      revoked_at: string | null;
    };
    ScimClientSecretCreated: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /**
       * @description Shown once: give it to the identity provider as its client secret.
       * @example scs_Qm9uZ1x0cmVhbGx5YXNlY3JldGJ1dGFuZXhhbXBsZQ
       */
      value: string;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      expires_at: string;
    };
    /**
     * @description A ServiceProviderConfig, ResourceType or Schema document (RFC 7643 §5–7).
     * @example {
     *       "schemas": [
     *         "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"
     *       ],
     *       "documentationUri": "https://id.example.com/docs",
     *       "patch": {
     *         "supported": true
     *       },
     *       "bulk": {
     *         "supported": false,
     *         "maxOperations": 0,
     *         "maxPayloadSize": 0
     *       },
     *       "filter": {
     *         "supported": true,
     *         "maxResults": 200
     *       },
     *       "changePassword": {
     *         "supported": false
     *       },
     *       "sort": {
     *         "supported": false
     *       },
     *       "etag": {
     *         "supported": false
     *       },
     *       "pagination": {
     *         "cursor": true,
     *         "index": true,
     *         "defaultPaginationMethod": "index",
     *         "defaultPageSize": 100,
     *         "maxPageSize": 200
     *       },
     *       "authenticationSchemes": [
     *         {
     *           "type": "oauthbearertoken",
     *           "name": "OAuth Bearer Token",
     *           "description": "Authorization: Bearer scim_… token minted for one workspace",
     *           "specUri": "https://www.rfc-editor.org/info/rfc6750",
     *           "primary": true
     *         },
     *         {
     *           "type": "oauth2",
     *           "name": "OAuth 2.0 client credentials",
     *           "description": "Access token from https://id.example.com/oauth/token (client credentials or JWT bearer) of a SCIM OAuth client of the workspace",
     *           "specUri": "https://www.rfc-editor.org/info/rfc6749",
     *           "documentationUri": "https://id.example.com/.well-known/oauth-authorization-server"
     *         }
     *       ],
     *       "meta": {
     *         "resourceType": "ServiceProviderConfig",
     *         "location": "https://id.example.com/scim/v2/ServiceProviderConfig"
     *       }
     *     }
     */
    ScimDiscoveryDocument: {
      /**
       * @example [
       *       "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"
       *     ]
       */
      schemas: string[];
      /** @example User */
      id?: string;
      meta?: {
        [key: string]: unknown;
      };
    } & {
      [key: string]: unknown;
    };
    /**
     * @description ListResponse of ResourceType or Schema documents (RFC 7644 §4).
     * @example {
     *       "schemas": [
     *         "urn:ietf:params:scim:api:messages:2.0:ListResponse"
     *       ],
     *       "totalResults": 2,
     *       "startIndex": 1,
     *       "itemsPerPage": 2,
     *       "Resources": [
     *         {
     *           "schemas": [
     *             "urn:ietf:params:scim:schemas:core:2.0:ResourceType"
     *           ],
     *           "id": "User",
     *           "name": "User",
     *           "endpoint": "/Users",
     *           "description": "User Account",
     *           "schema": "urn:ietf:params:scim:schemas:core:2.0:User",
     *           "schemaExtensions": [],
     *           "meta": {
     *             "resourceType": "ResourceType",
     *             "location": "https://id.example.com/scim/v2/ResourceTypes/User"
     *           }
     *         },
     *         {
     *           "schemas": [
     *             "urn:ietf:params:scim:schemas:core:2.0:ResourceType"
     *           ],
     *           "id": "Group",
     *           "name": "Group",
     *           "endpoint": "/Groups",
     *           "description": "Group",
     *           "schema": "urn:ietf:params:scim:schemas:core:2.0:Group",
     *           "schemaExtensions": [],
     *           "meta": {
     *             "resourceType": "ResourceType",
     *             "location": "https://id.example.com/scim/v2/ResourceTypes/Group"
     *           }
     *         }
     *       ]
     *     }
     */
    ScimDiscoveryList: {
      /**
       * @example [
       *       "urn:ietf:params:scim:api:messages:2.0:ListResponse"
       *     ]
       */
      schemas: string[];
      /** @example 2 */
      totalResults: number;
      /** @example 1 */
      startIndex?: number;
      /** @example 2 */
      itemsPerPage?: number;
      Resources: {
        [key: string]: unknown;
      }[];
    };
    /** @description RFC 7644 §3.12 error body of every /scim/v2 route. */
    ScimError: {
      /**
       * @example [
       *       "urn:ietf:params:scim:api:messages:2.0:Error"
       *     ]
       */
      schemas: string[];
      /**
       * @description The HTTP status, as a string.
       * @example 409
       */
      status: string;
      /**
       * @example uniqueness
       * @enum {string}
       */
      scimType?:
        | 'invalidFilter'
        | 'tooMany'
        | 'uniqueness'
        | 'mutability'
        | 'invalidSyntax'
        | 'invalidPath'
        | 'noTarget'
        | 'invalidValue'
        | 'invalidVers'
        | 'sensitive'
        | 'tooLarge'
        | 'invalidCursor';
      /** @example userName ada@example.com is already taken */
      detail: string;
    };
    ScimGroup: {
      /**
       * @example [
       *       "urn:ietf:params:scim:schemas:core:2.0:Group"
       *     ]
       */
      schemas: string[];
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      readonly id: string;
      /** @example Engineering */
      displayName: string;
      /** @description Left out with excludedAttributes=members. */
      members?: components['schemas']['ScimGroupMember'][];
      readonly meta: {
        /** @example Group */
        resourceType?: string;
        /**
         * Format: date-time
         * @example 2026-11-24T12:00:00.000Z
         */
        created?: string;
        /**
         * Format: date-time
         * @example 2026-11-24T12:00:00.000Z
         */
        lastModified?: string;
        /**
         * Format: uri
         * @example https://id.example.com/scim/v2/Groups/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
         */
        location?: string;
      };
    };
    /** @description displayName is unique in the workspace (409 `uniqueness`). Members are ids of users of the same workspace; a well-formed id of no user of the workspace is not added; an entry that is not `{"value": "<user id>"}` (or a bare id string) is 400 `invalidValue` and nothing changes. */
    ScimGroupInput: {
      /**
       * @description Optional (absent is accepted). When sent: an array of schema URNs that includes the core Group schema (any case); extension URNs are accepted. Otherwise 400 `invalidSyntax`.
       * @example [
       *       "urn:ietf:params:scim:schemas:core:2.0:Group"
       *     ]
       */
      schemas?: string[];
      /** @example Engineering */
      displayName: string;
      members?: {
        /**
         * Format: uuid
         * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
         */
        value: string;
      }[];
    };
    ScimGroupList: {
      /**
       * @example [
       *       "urn:ietf:params:scim:api:messages:2.0:ListResponse"
       *     ]
       */
      schemas: string[];
      /** @example 1 */
      totalResults: number;
      /**
       * @description Index paging only.
       * @example 1
       */
      startIndex?: number;
      /**
       * @description Cursor paging (RFC 9865): the cursor of the next page; absent on the last page and with index paging.
       * @example dToxNzk1Njg2NDY2MjIzMDAwLjNmMGM2YTUyLTJmNTktNGY4ZS05YTUxLTViMGY3ZDBjMmUxMQ
       */
      nextCursor?: string;
      /** @example 1 */
      itemsPerPage: number;
      Resources: (components['schemas']['ScimGroup'] | components['schemas']['ScimGroupPartial'])[];
    };
    ScimGroupMember: {
      /**
       * Format: uuid
       * @description Id of a user of the same workspace.
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      value: string;
      /** @example Ada Lovelace */
      readonly display?: string;
      /** @example User */
      readonly type?: string;
      /**
       * Format: uri
       * @example https://id.example.com/scim/v2/Users/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      readonly $ref?: string;
    };
    /** @description A Group as returned with attributes or excludedAttributes: schemas and id always, any other attribute only when asked for (or not excluded). */
    ScimGroupPartial: {
      /**
       * @example [
       *       "urn:ietf:params:scim:schemas:core:2.0:Group"
       *     ]
       */
      schemas: string[];
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      readonly id: string;
      /** @example Engineering */
      displayName?: string;
      /** @description Left out with excludedAttributes=members. */
      members?: components['schemas']['ScimGroupMember'][];
      readonly meta?: {
        /** @example Group */
        resourceType?: string;
        /**
         * Format: date-time
         * @example 2026-11-24T12:00:00.000Z
         */
        created?: string;
        /**
         * Format: date-time
         * @example 2026-11-24T12:00:00.000Z
         */
        lastModified?: string;
        /**
         * Format: uri
         * @example https://id.example.com/scim/v2/Groups/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
         */
        location?: string;
      };
    };
    /** @description RFC 7644 §3.5.2. Operation names are case-insensitive (Okta and Entra send "Replace", "Add"). */
    ScimPatchRequest: {
      /**
       * @description Optional (absent is accepted). When sent: an array of schema URNs that includes the PatchOp message URN (any case); extension URNs are accepted. Otherwise 400 `invalidSyntax`.
       * @example [
       *       "urn:ietf:params:scim:api:messages:2.0:PatchOp"
       *     ]
       */
      schemas?: string[];
      Operations: {
        /**
         * @example replace
         * @enum {string}
         */
        op: 'add' | 'remove' | 'replace' | 'Add' | 'Remove' | 'Replace';
        /**
         * @description Attribute path, optionally with a filter: members[value eq "…"]. A path the server cannot read is 400 `invalidPath`.
         * @example active
         */
        path?: string;
        /**
         * @description New value; without path, an object of attributes.
         * @example false
         */
        value?: unknown;
      }[];
    };
    /** @description ListResponse of a search across Users and Groups: each resource says its kind in meta.resourceType. */
    ScimResourceList: {
      /**
       * @example [
       *       "urn:ietf:params:scim:api:messages:2.0:ListResponse"
       *     ]
       */
      schemas: string[];
      /** @example 1 */
      totalResults: number;
      /**
       * @description Index paging only.
       * @example 1
       */
      startIndex?: number;
      /**
       * @description Cursor paging (RFC 9865): the cursor of the next page; absent on the last page and with index paging.
       * @example dToxNzk1Njg2NDY2MjIzMDAwLjNmMGM2YTUyLTJmNTktNGY4ZS05YTUxLTViMGY3ZDBjMmUxMQ
       */
      nextCursor?: string;
      /** @example 1 */
      itemsPerPage: number;
      /**
       * @example [
       *       {
       *         "schemas": [
       *           "urn:ietf:params:scim:schemas:core:2.0:User"
       *         ],
       *         "id": "8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13",
       *         "externalId": "8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13",
       *         "userName": "ada@example.com",
       *         "name": {
       *           "givenName": "Ada",
       *           "familyName": "Lovelace",
       *           "formatted": "Ada Lovelace"
       *         },
       *         "displayName": "Ada Lovelace",
       *         "emails": [
       *           {
       *             "value": "ada@example.com",
       *             "type": "work",
       *             "primary": true
       *           }
       *         ],
       *         "active": true,
       *         "meta": {
       *           "resourceType": "User",
       *           "created": "2026-11-24T12:00:00.000Z",
       *           "lastModified": "2026-11-24T12:00:00.000Z",
       *           "location": "https://id.example.com/scim/v2/Users/8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13"
       *         }
       *       }
       *     ]
       */
      Resources: (
        | components['schemas']['ScimUser']
        | components['schemas']['ScimGroup']
        | components['schemas']['ScimUserPartial']
        | components['schemas']['ScimGroupPartial']
      )[];
    };
    /** @description RFC 7644 §3.4.3 SearchRequest: the list parameters of GET, in a body. Names are case-insensitive; all optional. */
    ScimSearchRequest: {
      /**
       * @description Optional (absent is accepted). When sent: an array of schema URNs that includes the SearchRequest message URN (any case); extension URNs are accepted. Otherwise 400 `invalidSyntax`.
       * @example [
       *       "urn:ietf:params:scim:api:messages:2.0:SearchRequest"
       *     ]
       */
      schemas?: string[];
      /** @example userName sw "ada" */
      filter?: string;
      /** @example 1 */
      startIndex?: number;
      /**
       * @description RFC 9865 cursor paging instead of startIndex: empty for the first page.
       * @example
       */
      cursor?: string;
      /**
       * @description Default 100, clamped to 0..200.
       * @example 10
       */
      count?: number;
      /**
       * @example [
       *       "userName",
       *       "active"
       *     ]
       */
      attributes?: string[];
      /**
       * @example [
       *       "members"
       *     ]
       */
      excludedAttributes?: string[];
    };
    ScimToken: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      workspace_id: string;
      /** @example Okta */
      label: string;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      expires_at: string | null;
      /** @example true */
      is_active: boolean;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      revoked_at: string | null;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      created_at: string;
    };
    ScimTokenCreated: components['schemas']['ScimToken'] & {
      /**
       * @description Shown once: give it to the identity provider as its bearer token.
       * @example scim_pV3xQ9rT2mW8kL5nB1cZ7yH4dF6gJ0aS
       */
      token: string;
    };
    ScimTokenRevoked: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /**
       * @example false
       * @enum {boolean}
       */
      is_active: false;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      revoked_at: string;
    };
    /**
     * @example {
     *       "schemas": [
     *         "urn:ietf:params:scim:schemas:core:2.0:User"
     *       ],
     *       "id": "8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13",
     *       "externalId": "8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13",
     *       "userName": "ada@example.com",
     *       "name": {
     *         "givenName": "Ada",
     *         "familyName": "Lovelace",
     *         "formatted": "Ada Lovelace"
     *       },
     *       "displayName": "Ada Lovelace",
     *       "emails": [
     *         {
     *           "value": "ada@example.com",
     *           "type": "work",
     *           "primary": true
     *         }
     *       ],
     *       "active": true,
     *       "meta": {
     *         "resourceType": "User",
     *         "created": "2026-11-24T12:00:00.000Z",
     *         "lastModified": "2026-11-24T12:00:00.000Z",
     *         "location": "https://id.example.com/scim/v2/Users/8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13"
     *       }
     *     }
     */
    ScimUser: {
      /**
       * @description Optional (absent is accepted). When sent: an array of schema URNs that includes the core User schema (any case); extension URNs are accepted. Otherwise 400 `invalidSyntax`.
       * @example [
       *       "urn:ietf:params:scim:schemas:core:2.0:User"
       *     ]
       */
      schemas: string[];
      /**
       * @description The email address; unique in the workspace, case-insensitive (409 `uniqueness` when taken).
       * @example ada@example.com
       */
      userName: string;
      name?: {
        /** @example Ada */
        givenName?: string;
        /** @example Lovelace */
        familyName?: string;
        /** @example Ada Lovelace */
        readonly formatted?: string;
      };
      /** @description The entry marked primary overrides userName as the stored email. */
      emails?: {
        /**
         * Format: email
         * @example ada@example.com
         */
        value: string;
        /** @example work */
        type?: string;
        /** @example true */
        primary?: boolean;
      }[];
      /**
       * @description false deactivates the user and ends their sessions.
       * @example true
       */
      active: boolean;
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      readonly id: string;
      /**
       * Format: uuid
       * @description Echoes id: a client-sent externalId is not stored.
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      readonly externalId?: string;
      /** @example Ada Lovelace */
      readonly displayName?: string;
      readonly meta: {
        /** @example User */
        resourceType?: string;
        /**
         * Format: date-time
         * @example 2026-11-24T12:00:00.000Z
         */
        created?: string;
        /**
         * Format: date-time
         * @example 2026-11-24T12:00:00.000Z
         */
        lastModified?: string;
        /**
         * Format: uri
         * @example https://id.example.com/scim/v2/Users/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
         */
        location?: string;
      };
    };
    /** @description POST creates, PUT replaces (attributes not sent keep their value). Attribute names are case-insensitive; password, externalId and unknown or extension attributes are accepted and ignored. */
    ScimUserInput: {
      /**
       * @description Optional (absent is accepted). When sent: an array of schema URNs that includes the core User schema (any case); extension URNs are accepted. Otherwise 400 `invalidSyntax`.
       * @example [
       *       "urn:ietf:params:scim:schemas:core:2.0:User"
       *     ]
       */
      schemas?: string[];
      /**
       * @description The email address; unique in the workspace, case-insensitive (409 `uniqueness` when taken).
       * @example ada@example.com
       */
      userName: string;
      name?: {
        /** @example Ada */
        givenName?: string;
        /** @example Lovelace */
        familyName?: string;
        /** @example Ada Lovelace */
        readonly formatted?: string;
      };
      /** @description The entry marked primary overrides userName as the stored email. */
      emails?: {
        /**
         * Format: email
         * @example ada@example.com
         */
        value: string;
        /** @example work */
        type?: string;
        /** @example true */
        primary?: boolean;
      }[];
      /**
       * @description false deactivates the user and ends their sessions.
       * @example true
       */
      active?: boolean;
    };
    ScimUserList: {
      /**
       * @example [
       *       "urn:ietf:params:scim:api:messages:2.0:ListResponse"
       *     ]
       */
      schemas: string[];
      /** @example 1 */
      totalResults: number;
      /**
       * @description Index paging only.
       * @example 1
       */
      startIndex?: number;
      /**
       * @description Cursor paging (RFC 9865): the cursor of the next page; absent on the last page and with index paging.
       * @example dToxNzk1Njg2NDY2MjIzMDAwLjNmMGM2YTUyLTJmNTktNGY4ZS05YTUxLTViMGY3ZDBjMmUxMQ
       */
      nextCursor?: string;
      /** @example 1 */
      itemsPerPage: number;
      Resources: (components['schemas']['ScimUser'] | components['schemas']['ScimUserPartial'])[];
    };
    /**
     * @description A User as returned with attributes or excludedAttributes: schemas and id always, any other attribute only when asked for (or not excluded).
     * @example {
     *       "schemas": [
     *         "urn:ietf:params:scim:schemas:core:2.0:User"
     *       ],
     *       "id": "8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13",
     *       "externalId": "8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13",
     *       "userName": "ada@example.com",
     *       "name": {
     *         "givenName": "Ada",
     *         "familyName": "Lovelace",
     *         "formatted": "Ada Lovelace"
     *       },
     *       "displayName": "Ada Lovelace",
     *       "emails": [
     *         {
     *           "value": "ada@example.com",
     *           "type": "work",
     *           "primary": true
     *         }
     *       ],
     *       "active": true,
     *       "meta": {
     *         "resourceType": "User",
     *         "created": "2026-11-24T12:00:00.000Z",
     *         "lastModified": "2026-11-24T12:00:00.000Z",
     *         "location": "https://id.example.com/scim/v2/Users/8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13"
     *       }
     *     }
     */
    ScimUserPartial: {
      /**
       * @description Optional (absent is accepted). When sent: an array of schema URNs that includes the core User schema (any case); extension URNs are accepted. Otherwise 400 `invalidSyntax`.
       * @example [
       *       "urn:ietf:params:scim:schemas:core:2.0:User"
       *     ]
       */
      schemas: string[];
      /**
       * @description The email address; unique in the workspace, case-insensitive (409 `uniqueness` when taken).
       * @example ada@example.com
       */
      userName?: string;
      name?: {
        /** @example Ada */
        givenName?: string;
        /** @example Lovelace */
        familyName?: string;
        /** @example Ada Lovelace */
        readonly formatted?: string;
      };
      /** @description The entry marked primary overrides userName as the stored email. */
      emails?: {
        /**
         * Format: email
         * @example ada@example.com
         */
        value: string;
        /** @example work */
        type?: string;
        /** @example true */
        primary?: boolean;
      }[];
      /**
       * @description false deactivates the user and ends their sessions.
       * @example true
       */
      active?: boolean;
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      readonly id: string;
      /**
       * Format: uuid
       * @description Echoes id: a client-sent externalId is not stored.
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      readonly externalId?: string;
      /** @example Ada Lovelace */
      readonly displayName?: string;
      readonly meta?: {
        /** @example User */
        resourceType?: string;
        /**
         * Format: date-time
         * @example 2026-11-24T12:00:00.000Z
         */
        created?: string;
        /**
         * Format: date-time
         * @example 2026-11-24T12:00:00.000Z
         */
        lastModified?: string;
        /**
         * Format: uri
         * @example https://id.example.com/scim/v2/Users/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
         */
        location?: string;
      };
    };
    SignInPolicy: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      workspace_id: string;
      /**
       * @example challenge
       * @enum {string}
       */
      new_device: 'allow' | 'challenge' | 'block';
      /**
       * @example allow
       * @enum {string}
       */
      new_ip: 'allow' | 'challenge' | 'block';
      /**
       * @example challenge
       * @enum {string}
       */
      new_country: 'allow' | 'challenge' | 'block';
      /**
       * @example block
       * @enum {string}
       */
      impossible_travel: 'allow' | 'challenge' | 'block';
      /**
       * Format: date-time
       * @description Null while the workspace never set a policy (all allow).
       * @example 2026-11-24T12:00:00.000Z
       */
      updated_at: string | null;
    };
    /** @description Transmitter configuration metadata (SSF 1.0 §7.1). */
    SsfConfiguration: {
      /** @example 1_0 */
      spec_version: string;
      /**
       * Format: uri
       * @example https://id.example.com
       */
      issuer: string;
      /**
       * Format: uri
       * @example https://id.example.com/oauth/jwks
       */
      jwks_uri: string;
      /**
       * @example [
       *       "urn:ietf:rfc:8935",
       *       "urn:ietf:rfc:8936"
       *     ]
       */
      delivery_methods_supported: string[];
      /**
       * Format: uri
       * @example https://id.example.com/ssf/streams
       */
      configuration_endpoint: string;
      /**
       * Format: uri
       * @example https://id.example.com/ssf/status
       */
      status_endpoint?: string;
      /**
       * Format: uri
       * @example https://id.example.com/ssf/subjects/add
       */
      add_subject_endpoint?: string;
      /**
       * Format: uri
       * @example https://id.example.com/ssf/subjects/remove
       */
      remove_subject_endpoint?: string;
      /**
       * Format: uri
       * @example https://id.example.com/ssf/verify
       */
      verification_endpoint?: string;
      /**
       * @example [
       *       {
       *         "spec_urn": "urn:ietf:rfc:6749"
       *       }
       *     ]
       */
      authorization_schemes?: {
        spec_urn?: string;
      }[];
      /**
       * @example NONE
       * @enum {string}
       */
      default_subjects?: 'ALL' | 'NONE';
    };
    /** @description RFC 8936 §2.5: the SETs by jti, and whether more are waiting. */
    SsfPollResponse: {
      /**
       * @example {
       *       "4d3559ec67504aaba65d40b0363faad8": "eyJhbGciOiJSUzI1NiIsImtpZCI6IjEiLCJ0eXAiOiJzZWNldmVudCtqd3QifQ.eyJpc3MiOi4uLn0.c2ln"
       *     }
       */
      sets: {
        [key: string]: string;
      };
      /** @example false */
      moreAvailable: boolean;
    };
    /** @description A Shared Signals receiver of a workspace: an OAuth client (scope ssf) that manages one event stream. */
    SsfReceiver: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      workspace_id: string;
      /** @example Slack access revocation */
      name: string;
      /** @example ssfr_5f0b6c1d2e3f4a5b6c7d8e9f0a1b2c3d */
      client_id: string;
      /**
       * @example NONE
       * @enum {string}
       */
      default_subjects: 'NONE' | 'ALL';
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      created_at: string;
      /** @description The receiver's stream, once it created one (SSF 1.0 §8.1.1); null before. */
      stream: {
        /**
         * Format: uuid
         * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
         */
        stream_id: string;
        /**
         * @example enabled
         * @enum {string}
         */
        status: 'enabled' | 'paused' | 'disabled';
        /** @example null */
        status_reason?: string | null;
        /** @example urn:ietf:rfc:8935 */
        delivery_method: string;
        /** @example https://receiver.example.com/ssf/events */
        endpoint_url?: string | null;
        /**
         * @example [
         *       "https://schemas.openid.net/secevent/risc/event-type/account-disabled"
         *     ]
         */
        events_requested: string[];
        /**
         * @description How many SETs the stream holds by state: pending (not delivered or not acknowledged yet), delivered, acknowledged, failed
         * @example {
         *       "pending": 0,
         *       "delivered": 12
         *     }
         */
        sets: {
          [key: string]: number;
        };
        /**
         * Format: date-time
         * @description When a SET of the stream was last delivered (a push answered 2xx, or a poll acknowledging it); null before the first
         * @example 2026-11-24T12:00:00.000Z
         */
        last_delivered_at: string | null;
        /**
         * @description The error of the newest SET still pending after a failed push (the receiver down or refusing now), e.g. "HTTP 503: …"; null when none waits
         * @example null
         */
        last_error: string | null;
      } | null;
    };
    /** @description The receiver and its client secret, shown this once (stored as SHA-256). */
    SsfReceiverCreated: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      workspace_id: string;
      /** @example Slack access revocation */
      name: string;
      /** @example ssfr_5f0b6c1d2e3f4a5b6c7d8e9f0a1b2c3d */
      client_id: string;
      /**
       * @description For POST /oauth/token (client_secret_basic or client_secret_post), grant_type=client_credentials&scope=ssf
       * @example ssfs_Qm9yZWFsaXMgc2VjcmV0IHNob3duIG9uY2UgYW5kIG5ldmVyIGFnYWluLg
       */
      client_secret: string;
      /**
       * @example NONE
       * @enum {string}
       */
      default_subjects: 'NONE' | 'ALL';
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      created_at: string;
    };
    /** @description A stream configuration (SSF 1.0 §8.1.1). The authorization header of a push delivery is never shown back. */
    SsfStreamConfiguration: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      stream_id: string;
      /**
       * Format: uri
       * @example https://id.example.com
       */
      iss: string;
      /**
       * @description The receiver's client_id
       * @example ssfr_5f0b6c1d2e3f4a5b6c7d8e9f0a1b2c3d
       */
      aud: string;
      delivery: {
        /**
         * @example urn:ietf:rfc:8935
         * @enum {string}
         */
        method: 'urn:ietf:rfc:8935' | 'urn:ietf:rfc:8936';
        /**
         * @description Push: the receiver's endpoint. Poll: the transmitter's poll URL for this stream.
         * @example https://receiver.example.com/ssf/events
         */
        endpoint_url?: string;
      };
      /**
       * @example [
       *       "https://schemas.openid.net/secevent/risc/event-type/account-disabled",
       *       "https://schemas.openid.net/secevent/risc/event-type/account-enabled",
       *       "https://schemas.openid.net/secevent/risc/event-type/identifier-changed",
       *       "https://schemas.openid.net/secevent/caep/event-type/session-revoked",
       *       "https://schemas.openid.net/secevent/caep/event-type/credential-change"
       *     ]
       */
      events_supported: string[];
      /**
       * @example [
       *       "https://schemas.openid.net/secevent/risc/event-type/account-disabled",
       *       "https://schemas.openid.net/secevent/caep/event-type/session-revoked"
       *     ]
       */
      events_requested: string[];
      /**
       * @example [
       *       "https://schemas.openid.net/secevent/risc/event-type/account-disabled",
       *       "https://schemas.openid.net/secevent/caep/event-type/session-revoked"
       *     ]
       */
      events_delivered: string[];
      /** @example Revoke Slack access */
      description?: string;
      /** @example 0 */
      min_verification_interval?: number;
    };
    SsfStreamConfigurationRead: components['schemas']['SsfStreamConfiguration'] | components['schemas']['SsfStreamConfiguration'][];
    /** @description SSF 1.0 §8.1.2: enabled (delivering), paused (events held, delivered on resume), disabled (events not held). */
    SsfStreamStatus: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      stream_id: string;
      /**
       * @example enabled
       * @enum {string}
       */
      status: 'enabled' | 'paused' | 'disabled';
      /** @example Maintenance window */
      reason?: string;
    };
    /** @description One upstream answer to the connection: accepted, or refused with its reason. */
    SsoAttempt: {
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      at: string;
      /**
       * @example failure
       * @enum {string}
       */
      outcome: 'success' | 'failure';
      /**
       * @description Failures only.
       * @example user_not_provisioned
       * @enum {string}
       */
      reason?:
        | 'user_not_provisioned'
        | 'user_deactivated'
        | 'email_unverified'
        | 'identity_conflict'
        | 'sign_in_blocked'
        | 'mfa_required'
        | 'signature_invalid'
        | 'audience_mismatch'
        | 'issuer_mismatch'
        | 'destination_mismatch'
        | 'nonce_mismatch'
        | 'state_mismatch'
        | 'response_expired'
        | 'response_replayed'
        | 'response_invalid'
        | 'subject_missing'
        | 'unsolicited_response'
        | 'upstream_denied'
        | 'upstream_error';
      /**
       * @description The upstream subject, when the answer got far enough to name one.
       * @example 00u1a2b3c4d5
       */
      subject?: string;
      /**
       * @description The upstream email, when the answer got far enough to name one.
       * @example ada@acme.com
       */
      email?: string;
    };
    /** @description A workspace's enterprise SSO connection (external provider). Secrets are never shown. The URLs are the values to paste into the identity provider. */
    SsoConnection: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      workspace_id: string;
      /** @example Acme Okta */
      name: string;
      /**
       * @example oidc
       * @enum {string}
       */
      protocol: 'oidc' | 'saml';
      /**
       * @example [
       *       "acme.com"
       *     ]
       */
      domains: string[];
      /**
       * @description Per domain: the DNS TXT record that proves the workspace holds it, and whether it was found (POST …/domains/{domain}/verify looks it up). Only verified domains route sign-ins to the connection.
       * @example [
       *       {
       *         "domain": "acme.com",
       *         "status": "pending",
       *         "verified": false,
       *         "verified_at": null,
       *         "checked_at": null,
       *         "txt_record_name": "_idsvc-verification.acme.com",
       *         "txt_record_value": "idsvc-domain-verification=3q2-7Jb0u4y9pYlQk1m8rA"
       *       }
       *     ]
       */
      domain_verifications: {
        /** @example acme.com */
        domain: string;
        /**
         * @example pending
         * @enum {string}
         */
        status: 'pending' | 'verified';
        /**
         * @description status is verified
         * @example false
         */
        verified: boolean;
        /**
         * Format: date-time
         * @example null
         */
        verified_at: string | null;
        /**
         * Format: date-time
         * @description The last lookup of the TXT record, found or not
         * @example null
         */
        checked_at: string | null;
        /** @example _idsvc-verification.acme.com */
        txt_record_name: string;
        /** @example idsvc-domain-verification=3q2-7Jb0u4y9pYlQk1m8rA */
        txt_record_value: string;
      }[];
      /**
       * @description Create a person on the first sign-in of an unknown verified email.
       * @example false
       */
      jit: boolean;
      /**
       * @description The upstream's MFA claim counts as our mfa.
       * @example false
       */
      trust_upstream_mfa: boolean;
      /**
       * @description Starts a sign-in through this connection ("Test sign-in"); add ?next=<relative path>.
       * @example https://id.example.com/auth/sso/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11/
       */
      sign_in_url: string;
      /**
       * @description OIDC: the redirect URI to register at the provider.
       * @example https://id.example.com/auth/sso/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11/callback
       */
      redirect_uri?: string;
      /**
       * @description OIDC with private_key_jwt: our public key set to register at the provider.
       * @example https://id.example.com/auth/sso/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11/jwks
       */
      jwks_uri?: string;
      /**
       * @description SAML: our service provider entity id.
       * @example https://id.example.com/auth/sso/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11/saml/metadata
       */
      sp_entity_id?: string;
      /**
       * @description SAML: the Assertion Consumer Service URL (HTTP-POST).
       * @example https://id.example.com/auth/sso/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11/saml/acs
       */
      acs_url?: string;
      /**
       * @description SAML: our service provider metadata.
       * @example https://id.example.com/auth/sso/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11/saml/metadata
       */
      sp_metadata_url?: string;
      oidc?: {
        /** @example https://login.acme.com */
        issuer: string;
        /** @example 0oa1b2c3d4 */
        client_id: string;
        /** @example true */
        has_client_secret: boolean;
        /**
         * @example client_secret_basic
         * @enum {string}
         */
        token_endpoint_auth_method: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
        /**
         * @example [
         *       "openid",
         *       "email",
         *       "profile"
         *     ]
         */
        scopes: string[];
        /** @description Upstream claim (OIDC) or attribute (SAML) name per profile field; absent fields use the defaults. */
        claim_mapping: {
          email?: string;
          given_name?: string;
          family_name?: string;
          groups?: string;
          subject?: string;
        };
      };
      saml?: {
        /** @example http://www.okta.com/exk1a2b3c4 */
        idp_entity_id: string | null;
        /** @example https://acme.okta.com/app/exk1a2b3c4/sso/saml */
        idp_sso_url: string | null;
        /** @description PEM, up to two. */
        idp_certificates: string[];
        /** @example false */
        allow_unsolicited: boolean;
        /** @description Upstream claim (OIDC) or attribute (SAML) name per profile field; absent fields use the defaults. */
        attribute_mapping: {
          email?: string;
          given_name?: string;
          family_name?: string;
          groups?: string;
          subject?: string;
        };
      };
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      created_at: string;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      updated_at: string;
    };
    Success: {
      /**
       * @example true
       * @enum {boolean}
       */
      success: true;
    };
    TotpEnrolment: {
      /**
       * @description Base32 secret, for typing into an app by hand
       * @example JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP
       */
      secret: string;
      /**
       * @description Key URI for a QR code
       * @example otpauth://totp/Acme%20Notes:ada%40example.com?issuer=Acme%20Notes&secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30
       */
      otpauth_uri: string;
    };
    /** @description A webhook endpoint of a workspace (Standard Webhooks). Its secret is never shown again after creation or rotation. */
    Webhook: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      workspace_id: string;
      /**
       * Format: uri
       * @example https://hooks.example.com/idsvc
       */
      url: string;
      /**
       * @description Audit catalog event types delivered ("*": every audit type), and directory event types, delivered as the event feed shows them.
       * @example [
       *       "scim_user_create",
       *       "directory.user.deactivated"
       *     ]
       */
      event_types: string[];
      /** @example Provisioning sync */
      description: string;
      /**
       * @description false: paused by PATCH, or disabled after failing for the whole retry window.
       * @example true
       */
      is_active: boolean;
      /**
       * @description Why the service disabled it (set with is_active=false after failing for WEBHOOK_RETRY_WINDOW_MS); null otherwise.
       * @example null
       */
      disabled_reason: string | null;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      created_at: string;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      updated_at: string;
    };
    WebhookDelivery: {
      /**
       * Format: uuid
       * @description Also sent as the webhook-id header, the same on every attempt.
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      webhook_id: string;
      /**
       * Format: uuid
       * @description The audit event or directory event delivered; null for a webhook_test message.
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      event_id: string | null;
      /** @example scim_user_create */
      event_type: string;
      /**
       * @description pending: waiting for its (next) attempt; failed: the retry window ran out (retry it by hand).
       * @example pending
       * @enum {string}
       */
      status: 'pending' | 'succeeded' | 'failed';
      /** @example 0 */
      attempts: number;
      /**
       * @description HTTP status of the last attempt; null if none answered.
       * @example null
       */
      last_response_code: number | null;
      /**
       * @description Why the last attempt failed (status and start of the body, or the network error).
       * @example null
       */
      last_error: string | null;
      /**
       * Format: date-time
       * @description When a pending delivery is next tried; null otherwise.
       * @example 2026-11-24T12:00:00.000Z
       */
      next_attempt_at: string | null;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      created_at: string;
      /**
       * Format: date-time
       * @example null
       */
      delivered_at: string | null;
    };
    WebhookWithSecret: components['schemas']['Webhook'] & {
      /**
       * @description Shown in this answer only: verify each delivery's webhook-signature with it (stored encrypted).
       * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
       */
      secret: string;
    };
    Workspace: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      id: string;
      /** @example Acme production */
      name: string;
      /** @example Directory sync for Acme */
      description: string;
      /** @example 2 */
      database_count: number;
      /** @example 3 */
      member_count: number;
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      created_at: string;
    };
    WorkspaceMember: {
      /**
       * Format: uuid
       * @example 3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11
       */
      developer_id: string;
      /**
       * Format: email
       * @example dev@example.com
       */
      email: string;
      /** @example Grace Hopper */
      name: string;
      /**
       * @example member
       * @enum {string}
       */
      role: 'owner' | 'member';
      /**
       * Format: date-time
       * @example 2026-11-24T12:00:00.000Z
       */
      created_at: string;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  AuditController_verify: {
    parameters: {
      query: {
        workspace_id: string;
        /** @description Check the links sealed at or after this instant (ISO 8601); default: from the first link */
        from?: string;
        /** @description Check the links sealed at or before this instant (ISO 8601); default: to the head */
        to?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The result of the check (first_break null: intact) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "verified": 1234,
           *       "checkpoints": 20,
           *       "first_break": {
           *         "event_id": "8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13",
           *         "seq": 57,
           *         "reason": "edited_event"
           *       }
           *     }
           */
          'application/json': components['schemas']['AuditVerifyResult'];
        };
      };
      /** @description `validation_failed`: A query parameter breaks its rule (details names it); `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  AuditController_checkpoints: {
    parameters: {
      query: {
        workspace_id: string;
        /** @description Signed at or after (ISO 8601) */
        from?: string;
        /** @description Signed at or before (ISO 8601) */
        to?: string;
        limit?: number;
        /** @description next_cursor of the previous page (a seq) */
        cursor?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of checkpoints */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AuditCheckpointPage'];
        };
      };
      /** @description `validation_failed`: A query parameter breaks its rule (details names it); `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  AuditController_keys: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The public keys, active first */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AuditPublicKeys'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  AuditController_list: {
    parameters: {
      query: {
        workspace_id: string;
        event_type?: string;
        severity?: 'info' | 'warn' | 'error';
        actor_id?: string;
        actor_type?: 'developer' | 'end_user' | 'api_token' | 'oauth_client' | 'system' | 'anonymous';
        target_id?: string;
        /** @description Events whose actor or target is this id: a person's trail (what they did and what was done to them) */
        subject_id?: string;
        ip_address?: string;
        /** @description Lower bound on created_at (ISO 8601, inclusive) */
        from?: string;
        /** @description Upper bound on created_at (ISO 8601, inclusive) */
        to?: string;
        limit?: number;
        /** @description next_cursor of the previous page */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of events */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AuditPage'];
        };
      };
      /** @description `validation_failed`: A query parameter breaks its rule (details names it); `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  AuditController_export: {
    parameters: {
      query: {
        workspace_id: string;
        from?: string;
        to?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One JSON AuditEvent per line */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /** @example {"id":"3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11","event_type":"scim_user_create","severity":"info"} */
          'application/x-ndjson': string;
        };
      };
      /** @description `validation_failed`: A query parameter breaks its rule (details names it); `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  HealthController_live: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The process is up */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Liveness'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  HealthController_ready: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The Health Check is successful */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example ok */
            status?: string;
            /**
             * @example {
             *       "database": {
             *         "status": "up"
             *       }
             *     }
             */
            info?: {
              [key: string]: {
                status: string;
              } & {
                [key: string]: unknown;
              };
            } | null;
            /** @example {} */
            error?: {
              [key: string]: {
                status: string;
              } & {
                [key: string]: unknown;
              };
            } | null;
            /**
             * @example {
             *       "database": {
             *         "status": "up"
             *       }
             *     }
             */
            details?: {
              [key: string]: {
                status: string;
              } & {
                [key: string]: unknown;
              };
            };
          };
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The Health Check is not successful */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example error */
            status?: string;
            /**
             * @example {
             *       "database": {
             *         "status": "up"
             *       }
             *     }
             */
            info?: {
              [key: string]: {
                status: string;
              } & {
                [key: string]: unknown;
              };
            } | null;
            /**
             * @example {
             *       "redis": {
             *         "status": "down",
             *         "message": "Could not connect"
             *       }
             *     }
             */
            error?: {
              [key: string]: {
                status: string;
              } & {
                [key: string]: unknown;
              };
            } | null;
            /**
             * @example {
             *       "database": {
             *         "status": "up"
             *       },
             *       "redis": {
             *         "status": "down",
             *         "message": "Could not connect"
             *       }
             *     }
             */
            details?: {
              [key: string]: {
                status: string;
              } & {
                [key: string]: unknown;
              };
            };
          };
        };
      };
    };
  };
  DeveloperAuthController_signup: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SignupDto'];
      };
    };
    responses: {
      /** @description The new developer (never the password) */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Developer'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: Sign-up is turned off on this instance */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `email_taken`: A developer already has this email (in any letter case) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  DeveloperAuthController_login: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['DeveloperLoginDto'];
      };
    };
    responses: {
      /** @description Signed in; Set-Cookie carries sid and csrftoken */
      200: {
        headers: {
          /** @description sid=…; HttpOnly; SameSite=Lax and csrftoken=…; SameSite=Lax */
          'Set-Cookie'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DeveloperLogin'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_credentials`: Unknown email or wrong password (the same answer for both) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  DeveloperAuthController_logout: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Signed out; the cookies are cleared */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  DeveloperAuthController_me: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The caller */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Developer'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  DeveloperTokensController_list: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Unrevoked tokens */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['DeveloperToken'][];
          };
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  DeveloperTokensController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateDeveloperTokenDto'];
      };
    };
    responses: {
      /** @description The token, shown this once */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DeveloperTokenCreated'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  DeveloperTokensController_revoke: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Revoked */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such token among the caller's */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  WorkspacesController_list: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The workspaces */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Workspace'][];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  WorkspacesController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateWorkspaceDto'];
      };
    };
    responses: {
      /** @description The new workspace */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Workspace'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  WorkspacesController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The workspace */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Workspace'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  WorkspacesController_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: The caller is a member but not an owner; `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  WorkspacesController_update: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateWorkspaceDto'];
      };
    };
    responses: {
      /** @description The updated workspace */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Workspace'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  WorkspacesController_members: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The members */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['WorkspaceMember'][];
          };
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  WorkspacesController_addMember: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AddMemberDto'];
      };
    };
    responses: {
      /** @description The new member */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WorkspaceMember'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: The caller is a member but not an owner; `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `conflict`: This developer is already a member */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  WorkspacesController_removeMember: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        developerId: string;
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: The caller is a member but not an owner; `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it; `not_found`: The developer is not a member */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `conflict`: The last owner of a workspace cannot be removed */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  OAuthClientsController_list: {
    parameters: {
      query: {
        workspace_id: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The clients */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['OAuthClient'][];
          };
        };
      };
      /** @description `validation_failed`: A query parameter breaks its rule (details names it); `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  OAuthClientsController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateOAuthClientDto'];
      };
    };
    responses: {
      /** @description The client and its secret, shown this once */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthClientWithSecret'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  OAuthClientsController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The client */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthClient'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such OAuth client in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  OAuthClientsController_update: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateOAuthClientDto'];
      };
    };
    responses: {
      /** @description The updated client */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthClient'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such OAuth client in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  OAuthClientsController_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such OAuth client in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  OAuthClientsController_rotate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The client with its new secret */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthClientWithSecret'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such OAuth client in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  TokenController_token: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': {
          /** @enum {string} */
          grant_type: 'client_credentials' | 'urn:ietf:params:oauth:grant-type:jwt-bearer' | 'authorization_code' | 'refresh_token';
          /** @description authorization_code: the code of the authorization response */
          code?: string;
          /** @description authorization_code: the redirect_uri of the authorization request */
          redirect_uri?: string;
          /** @description authorization_code: the PKCE verifier (RFC 7636) */
          code_verifier?: string;
          /** @description refresh_token: the refresh token to rotate */
          refresh_token?: string;
          /** @example scim */
          scope?: string;
          /** @example scimc_4f0d1e2a9b8c7d6e5f4a3b2c */
          client_id?: string;
          /** @description client_secret_post only */
          client_secret?: string;
          /** @enum {string} */
          client_assertion_type?: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
          /** @description private_key_jwt: the signed client assertion */
          client_assertion?: string;
          /** @description jwt-bearer grant: the JWT of the trusted issuer */
          assertion?: string;
        };
      };
    };
    responses: {
      /** @description The access token (Cache-Control: no-store) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthTokenResponse'];
        };
      };
      /** @description `invalid_request`: A parameter is missing, repeated or malformed, or the body is not a form; `invalid_grant`: The JWT-bearer assertion is expired, replayed, wrongly signed or not for this client; the code or refresh token is invalid, expired, spent or another client's; the PKCE verifier or redirect_uri does not match; `unauthorized_client`: The client may not use this grant type (e.g. no trusted issuer configured); `unsupported_grant_type`: The grant type is not one this server supports; `invalid_scope`: A requested scope is not available to the client; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'] | components['schemas']['Error'];
        };
      };
      /** @description `invalid_client`: Unknown client, wrong or revoked secret, refused client assertion (with WWW-Authenticate after Basic) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
      /** @description `invalid_request`: The form is larger than 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
    };
  };
  TokenManagementController_revoke: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': {
          /** @description The access or refresh token to revoke */
          token: string;
          /** @enum {string} */
          token_type_hint?: 'access_token' | 'refresh_token';
          /** @example cli_4f0d1e2a9b8c7d6e5f4a3b2c */
          client_id?: string;
          /** @description client_secret_post only */
          client_secret?: string;
          /** @enum {string} */
          client_assertion_type?: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
          /** @description private_key_jwt: the signed client assertion */
          client_assertion?: string;
        };
      };
    };
    responses: {
      /** @description Revoked, or nothing to revoke */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthRevocation'];
        };
      };
      /** @description `invalid_request`: token is missing, a parameter is repeated, or the body is not a form; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'] | components['schemas']['Error'];
        };
      };
      /** @description `invalid_client`: Unknown client, wrong secret or refused client assertion */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
      /** @description `invalid_request`: The form is larger than 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
    };
  };
  TokenManagementController_introspect: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': {
          /** @description The access or refresh token to look up */
          token: string;
          /** @enum {string} */
          token_type_hint?: 'access_token' | 'refresh_token';
          /** @example cli_4f0d1e2a9b8c7d6e5f4a3b2c */
          client_id?: string;
          /** @description client_secret_post only */
          client_secret?: string;
          /** @enum {string} */
          client_assertion_type?: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
          /** @description private_key_jwt: the signed client assertion */
          client_assertion?: string;
        };
      };
    };
    responses: {
      /** @description Whether the token is active, and its facts when it is */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthIntrospection'];
        };
      };
      /** @description `invalid_request`: token is missing, a parameter is repeated, or the body is not a form; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'] | components['schemas']['Error'];
        };
      };
      /** @description `invalid_client`: Unknown client, wrong secret or refused client assertion */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
      /** @description `invalid_request`: The form is larger than 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
    };
  };
  OAuthDiscoveryController_metadata: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The metadata document */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthServerMetadata'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  OAuthDiscoveryController_openidConfiguration: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The configuration document */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthServerMetadata'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  OAuthDiscoveryController_jwks: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The JWK Set */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Jwks'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  ScimTokensController_list: {
    parameters: {
      query: {
        workspace_id: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The tokens */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['ScimToken'][];
          };
        };
      };
      /** @description `validation_failed`: A query parameter breaks its rule (details names it); `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  ScimTokensController_mint: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateScimTokenDto'];
      };
    };
    responses: {
      /** @description The token, shown this once */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ScimTokenCreated'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  ScimTokensController_revoke: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Revoked */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ScimTokenRevoked'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such token in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  ScimClientsController_list: {
    parameters: {
      query: {
        workspace_id: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The clients */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['ScimClient'][];
          };
        };
      };
      /** @description `validation_failed`: A query parameter breaks its rule (details names it); `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  ScimClientsController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateScimClientDto'];
      };
    };
    responses: {
      /** @description The client and its first secret, shown this once */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ScimClientCreated'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  ScimClientsController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The client */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ScimClient'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such SCIM client in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  ScimClientsController_revoke: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Revoked */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such SCIM client in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  ScimClientsController_createSecret: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateScimClientSecretDto'];
      };
    };
    responses: {
      /** @description The secret, shown this once */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ScimClientSecretCreated'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such SCIM client in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `client_revoked`: The client is revoked; `too_many_secrets`: The client already has 5 live secrets */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  ScimClientsController_revokeSecret: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        secretId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Revoked */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such client in a workspace of the caller, or no such secret of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  ScimClientsController_setKeys: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ScimClientKeysDto'];
      };
    };
    responses: {
      /** @description The client */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ScimClient'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such SCIM client in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `client_revoked`: The client is revoked */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  ScimClientsController_setFederation: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ScimClientFederationDto'];
      };
    };
    responses: {
      /** @description The client */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ScimClient'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such SCIM client in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `client_revoked`: The client is revoked */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  ScimUsersController_list: {
    parameters: {
      query?: {
        /** @description RFC 7644 filter: eq, ne, co, sw, ew, gt, ge, lt, le, pr, and, or, not, parentheses. Attribute names are case-insensitive. A filter the server cannot read is 400 `invalidFilter`. */
        filter?: string;
        /** @description 1-based index of the first result; below 1 reads as 1. */
        startIndex?: number;
        /** @description Page size: default 100, clamped to 0..200; 0 returns only totalResults. */
        count?: number;
        /** @description RFC 9865 cursor paging instead of startIndex: empty for the first page, then the nextCursor of the previous answer (absent on the last page). With startIndex: 400 `invalidValue`; a cursor the server did not issue: 400 `invalidCursor`. */
        cursor?: string;
        /** @description Comma-separated attributes to return (id and schemas always are). */
        attributes?: string;
        /** @description Comma-separated attributes to leave out. */
        excludedAttributes?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A ListResponse */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimUserList'];
        };
      };
      /** @description `invalidFilter`: The filter cannot be parsed or names an unsupported attribute; `invalidValue`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The bearer SCIM token is missing, unknown, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The workspace is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description `headers_too_large`: The request line and headers exceed 16 KiB (a very long filter or attribute list in the URL); send the query as POST …/.search */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  ScimUsersController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description The user */
    requestBody: {
      content: {
        'application/scim+json': components['schemas']['ScimUserInput'];
        'application/json': components['schemas']['ScimUserInput'];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          /** @description meta.location of the new user */
          Location?: string;
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimUser'];
        };
      };
      /** @description `invalidValue`: userName missing, an email not valid, or a value of the wrong type; `invalidSyntax`: The body is not a JSON object */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The bearer SCIM token is missing, unknown, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description `uniqueness`: userName (email) is already taken by an active user of the workspace */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description `tooLarge`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The workspace is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
    };
  };
  ScimUsersController_search: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description SearchRequest */
    requestBody: {
      content: {
        'application/scim+json': components['schemas']['ScimSearchRequest'];
        'application/json': components['schemas']['ScimSearchRequest'];
      };
    };
    responses: {
      /** @description A ListResponse */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimUserList'];
        };
      };
      /** @description `invalidFilter`: The filter cannot be parsed or names an unsupported attribute; `invalidValue`: startIndex/count not integers, or attributes not attribute names; `invalidSyntax`: The body is not a JSON object */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The bearer SCIM token is missing, unknown, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description `tooLarge`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The workspace is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
    };
  };
  ScimUsersController_get: {
    parameters: {
      query?: {
        /** @description Comma-separated attributes to return (id and schemas always are). */
        attributes?: string;
        /** @description Comma-separated attributes to leave out. */
        excludedAttributes?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The user */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimUser'] | components['schemas']['ScimUserPartial'];
        };
      };
      /** @description `invalidValue`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The bearer SCIM token is missing, unknown, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description No user with this id in the token's workspace */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The workspace is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
    };
  };
  ScimUsersController_replace: {
    parameters: {
      query?: {
        /** @description Comma-separated attributes to return (id and schemas always are). */
        attributes?: string;
        /** @description Comma-separated attributes to leave out. */
        excludedAttributes?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    /** @description The user */
    requestBody: {
      content: {
        'application/scim+json': components['schemas']['ScimUserInput'];
        'application/json': components['schemas']['ScimUserInput'];
      };
    };
    responses: {
      /** @description The replaced user */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimUser'] | components['schemas']['ScimUserPartial'];
        };
      };
      /** @description `invalidValue`: userName missing, an email not valid, or a value of the wrong type; `invalidSyntax`: The body is not a JSON object */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The bearer SCIM token is missing, unknown, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description No user with this id in the token's workspace */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description `uniqueness`: userName (email) is already taken in the workspace */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description `tooLarge`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The workspace is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
    };
  };
  ScimUsersController_deactivate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalidValue`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The bearer SCIM token is missing, unknown, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description No user with this id in the token's workspace */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The workspace is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
    };
  };
  ScimUsersController_patch: {
    parameters: {
      query?: {
        /** @description Comma-separated attributes to return (id and schemas always are). */
        attributes?: string;
        /** @description Comma-separated attributes to leave out. */
        excludedAttributes?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    /** @description PatchOp */
    requestBody: {
      content: {
        'application/scim+json': components['schemas']['ScimPatchRequest'];
        'application/json': components['schemas']['ScimPatchRequest'];
      };
    };
    responses: {
      /** @description The patched user */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimUser'] | components['schemas']['ScimUserPartial'];
        };
      };
      /** @description `invalidValue`: userName missing, an email not valid, or a value of the wrong type; `invalidPath`: The path cannot be read or names an unknown attribute; `invalidSyntax`: No Operations array, or an op other than add, replace or remove; `noTarget`: A remove without a path; `mutability`: The operation removes a required attribute (userName, displayName) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The bearer SCIM token is missing, unknown, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description No user with this id in the token's workspace */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description `uniqueness`: userName (email) is already taken in the workspace */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description `tooLarge`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The workspace is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
    };
  };
  ScimGroupsController_list: {
    parameters: {
      query?: {
        /** @description RFC 7644 filter: eq, ne, co, sw, ew, gt, ge, lt, le, pr, and, or, not, parentheses. Attribute names are case-insensitive. A filter the server cannot read is 400 `invalidFilter`. */
        filter?: string;
        /** @description 1-based index of the first result; below 1 reads as 1. */
        startIndex?: number;
        /** @description Page size: default 100, clamped to 0..200; 0 returns only totalResults. */
        count?: number;
        /** @description RFC 9865 cursor paging instead of startIndex: empty for the first page, then the nextCursor of the previous answer (absent on the last page). With startIndex: 400 `invalidValue`; a cursor the server did not issue: 400 `invalidCursor`. */
        cursor?: string;
        /** @description Comma-separated attributes to return (id and schemas always are). */
        attributes?: string;
        /** @description Comma-separated attributes to leave out. */
        excludedAttributes?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A ListResponse */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimGroupList'];
        };
      };
      /** @description `invalidFilter`: The filter cannot be parsed or names an unsupported attribute; `invalidValue`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The bearer SCIM token is missing, unknown, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The workspace is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description `headers_too_large`: The request line and headers exceed 16 KiB (a very long filter or attribute list in the URL); send the query as POST …/.search */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  ScimGroupsController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description The group */
    requestBody: {
      content: {
        'application/scim+json': components['schemas']['ScimGroupInput'];
        'application/json': components['schemas']['ScimGroupInput'];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          /** @description meta.location of the new group */
          Location?: string;
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimGroup'];
        };
      };
      /** @description `invalidValue`: displayName missing or empty, or members not an array; `invalidSyntax`: The body is not a JSON object */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The bearer SCIM token is missing, unknown, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description `uniqueness`: displayName is already taken in the workspace */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description `tooLarge`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The workspace is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
    };
  };
  ScimGroupsController_search: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description SearchRequest */
    requestBody: {
      content: {
        'application/scim+json': components['schemas']['ScimSearchRequest'];
        'application/json': components['schemas']['ScimSearchRequest'];
      };
    };
    responses: {
      /** @description A ListResponse */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimGroupList'];
        };
      };
      /** @description `invalidFilter`: The filter cannot be parsed or names an unsupported attribute; `invalidValue`: startIndex/count not integers, or attributes not attribute names; `invalidSyntax`: The body is not a JSON object */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The bearer SCIM token is missing, unknown, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description `tooLarge`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The workspace is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
    };
  };
  ScimGroupsController_get: {
    parameters: {
      query?: {
        /** @description Comma-separated attributes to return (id and schemas always are). */
        attributes?: string;
        /** @description Comma-separated attributes to leave out. */
        excludedAttributes?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The group */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimGroup'] | components['schemas']['ScimGroupPartial'];
        };
      };
      /** @description `invalidValue`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The bearer SCIM token is missing, unknown, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description No group with this id in the token's workspace */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The workspace is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
    };
  };
  ScimGroupsController_replace: {
    parameters: {
      query?: {
        /** @description Comma-separated attributes to return (id and schemas always are). */
        attributes?: string;
        /** @description Comma-separated attributes to leave out. */
        excludedAttributes?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    /** @description The group */
    requestBody: {
      content: {
        'application/scim+json': components['schemas']['ScimGroupInput'];
        'application/json': components['schemas']['ScimGroupInput'];
      };
    };
    responses: {
      /** @description The replaced group */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimGroup'] | components['schemas']['ScimGroupPartial'];
        };
      };
      /** @description `invalidValue`: displayName missing or empty, or members not an array; `invalidSyntax`: The body is not a JSON object */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The bearer SCIM token is missing, unknown, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description No group with this id in the token's workspace */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description `uniqueness`: displayName is already taken in the workspace */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description `tooLarge`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The workspace is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
    };
  };
  ScimGroupsController_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalidValue`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The bearer SCIM token is missing, unknown, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description No group with this id in the token's workspace */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The workspace is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
    };
  };
  ScimGroupsController_patch: {
    parameters: {
      query?: {
        /** @description Comma-separated attributes to return (id and schemas always are). */
        attributes?: string;
        /** @description Comma-separated attributes to leave out. */
        excludedAttributes?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    /** @description PatchOp */
    requestBody: {
      content: {
        'application/scim+json': components['schemas']['ScimPatchRequest'];
        'application/json': components['schemas']['ScimPatchRequest'];
      };
    };
    responses: {
      /** @description The patched group, shaped by attributes / excludedAttributes (only when either is given) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimGroup'] | components['schemas']['ScimGroupPartial'];
        };
      };
      /** @description Done: the answer without attributes or excludedAttributes (no body; read the group with GET) */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalidValue`: displayName missing or empty, or members not an array; `invalidPath`: The path cannot be read or names an unknown attribute; `invalidSyntax`: No Operations array, or an op other than add, replace or remove; `noTarget`: A remove without a path; `mutability`: The operation removes a required attribute (userName, displayName) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The bearer SCIM token is missing, unknown, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description No group with this id in the token's workspace */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description `uniqueness`: displayName is already taken in the workspace */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description `tooLarge`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The workspace is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
    };
  };
  ScimDiscoveryController_serviceProviderConfig: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The ServiceProviderConfig */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimDiscoveryDocument'];
        };
      };
      /** @description `invalidValue`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The bearer SCIM token is missing, unknown, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The workspace is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
    };
  };
  ScimDiscoveryController_resourceTypes: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A ListResponse of ResourceType documents */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimDiscoveryList'];
        };
      };
      /** @description `invalidValue`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The bearer SCIM token is missing, unknown, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The workspace is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
    };
  };
  ScimDiscoveryController_resourceType: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The ResourceType */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimDiscoveryDocument'];
        };
      };
      /** @description `invalidValue`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The bearer SCIM token is missing, unknown, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description No resource type of this name */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The workspace is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
    };
  };
  ScimDiscoveryController_schemas: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A ListResponse of Schema documents */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimDiscoveryList'];
        };
      };
      /** @description `invalidValue`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The bearer SCIM token is missing, unknown, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The workspace is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
    };
  };
  ScimDiscoveryController_schema: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The Schema */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimDiscoveryDocument'];
        };
      };
      /** @description `invalidValue`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The bearer SCIM token is missing, unknown, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description No schema with this id */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The workspace is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
    };
  };
  ScimSearchController_search: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description SearchRequest */
    requestBody: {
      content: {
        'application/scim+json': components['schemas']['ScimSearchRequest'];
        'application/json': components['schemas']['ScimSearchRequest'];
      };
    };
    responses: {
      /** @description A ListResponse of users and groups */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimResourceList'];
        };
      };
      /** @description `invalidFilter`: The filter cannot be parsed or names an unsupported attribute; `invalidValue`: startIndex/count not integers, or attributes not attribute names; `invalidSyntax`: The body is not a JSON object */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The bearer SCIM token is missing, unknown, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description `tooLarge`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
      /** @description The workspace is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/scim+json': components['schemas']['ScimError'];
        };
      };
    };
  };
  SessionsController_list: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Active sessions */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['EndUserSession'][];
          };
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The bearer access token is missing, invalid, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SessionsController_revoke: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Signed out */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The bearer access token is missing, invalid, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such session among the caller's */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  AuthController_register: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RegisterDto'];
      };
    };
    responses: {
      /** @description The new end user, its email not yet verified */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EndUserResponse'];
        };
      };
      /** @description `invalid_client`: Unknown client_id; `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `email_taken`: An account with this email already exists for this application */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: Too many attempts from this IP or for this account; retry after Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before retrying */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  AuthController_login: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['LoginDto'];
      };
    };
    responses: {
      /** @description Signed in (tokens), or a second step is owed (`mfa_required`) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TokenResponse'] | components['schemas']['MfaRequired'];
        };
      };
      /** @description `invalid_client`: Unknown client_id; `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_credentials`: Unknown email, wrong password, or inactive account (one answer for all) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: Too many attempts from this IP or for this account; retry after Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before retrying */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  AuthController_loginSecondStep: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['LoginSecondStepDto'];
      };
    };
    responses: {
      /** @description Signed in: the tokens */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TokenResponse'];
        };
      };
      /** @description `invalid_passkey_response`: The passkey field is not WebAuthn authentication JSON; `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_code`: The code is not correct (or was already used), or the passkey was not accepted; `mfa_token_invalid`: The mfa_token is unknown, expired, used, or void after 5 wrong codes: sign in with the password again */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: Too many attempts from this IP or for this account; retry after Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before retrying */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  AuthController_passkeyOptions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['MfaTokenDto'];
      };
    };
    responses: {
      /** @description The request options */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PasskeyRequestOptions'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `mfa_token_invalid`: The mfa_token is unknown, expired, used, or void after 5 wrong codes */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `passkey_not_offered`: The account has no passkey (the methods do not include passkey) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: Too many attempts from this IP; retry after Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before retrying */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  AuthController_refresh: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RefreshDto'];
      };
    };
    responses: {
      /** @description The new tokens */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TokenResponse'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_token`: The refresh token is invalid, expired, used or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  AuthController_logout: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Signed out */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The bearer access token is missing, invalid, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  AuthController_requestReset: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PasswordResetRequestDto'];
      };
    };
    responses: {
      /** @description Accepted (the same answer when no account matches) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Success'];
        };
      };
      /** @description `invalid_client`: Unknown client_id; `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: Too many attempts from this IP or for this account; retry after Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before retrying */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  AuthController_confirmReset: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PasswordResetConfirmDto'];
      };
    };
    responses: {
      /** @description Password changed */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Success'];
        };
      };
      /** @description `invalid_client`: Unknown client_id; `invalid_code`: The code is not correct, or no code is pending; `code_expired`: The code has expired; ask for a new one; `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `too_many_attempts`: Too many wrong codes: ask for a new one; `rate_limited`: Too many attempts from this IP or for this account; retry after Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before retrying */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  AuthController_change: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PasswordChangeDto'];
      };
    };
    responses: {
      /** @description Password changed */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Success'];
        };
      };
      /** @description `invalid_password`: The current password is not correct; `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The bearer access token is missing, invalid, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  MfaController_status: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The factors */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "totp": true,
           *       "passkeys": [],
           *       "recovery_codes_left": 10
           *     }
           */
          'application/json': components['schemas']['MfaStatus'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The bearer access token is missing, invalid, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  MfaController_startTotp: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The pending secret */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TotpEnrolment'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The bearer access token is missing, invalid, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `totp_already_enabled`: An authenticator app is already set up; remove it first */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  MfaController_disableTotp: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['FactorProofDto'];
      };
    };
    responses: {
      /** @description Removed */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_code`: The code or recovery code is not correct; `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The bearer access token is missing, invalid, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No authenticator app is set up */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  MfaController_confirmTotp: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['TotpCodeDto'];
      };
    };
    responses: {
      /** @description Enabled */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RecoveryCodes'];
        };
      };
      /** @description `invalid_code`: The code is not the current one; `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The bearer access token is missing, invalid, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `no_pending_totp`: No set-up was started */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  MfaController_regenerate: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The new set */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RecoveryCodes'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The bearer access token is missing, invalid, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `no_second_factor`: The account has no second factor */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  PasskeysController_list: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The passkeys */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "results": [
           *         {
           *           "id": "5b1c7e2a-9d4f-4a8b-b6e3-2f0d9c8a7b61",
           *           "name": "MacBook Touch ID",
           *           "created_at": "2026-11-26T10:15:00.000Z",
           *           "last_used_at": null
           *         }
           *       ]
           *     }
           */
          'application/json': {
            results: components['schemas']['Passkey'][];
          };
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The bearer access token is missing, invalid, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  PasskeysController_register: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RegisterPasskeyDto'];
      };
    };
    responses: {
      /** @description Registered */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "passkey": {
           *         "id": "5b1c7e2a-9d4f-4a8b-b6e3-2f0d9c8a7b61",
           *         "name": "MacBook Touch ID",
           *         "created_at": "2026-11-26T10:15:00.000Z",
           *         "last_used_at": null
           *       },
           *       "recovery_codes": [
           *         "K7QH2-M9XTR",
           *         "B4WPN-2ZKQC",
           *         "…8 more"
           *       ]
           *     }
           */
          'application/json': components['schemas']['PasskeyRegistered'];
        };
      };
      /** @description `invalid_passkey_response`: The credential is not WebAuthn registration JSON; `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `passkey_not_accepted`: Unknown, expired or used challenge, wrong origin or relying party, or a bad attestation; `unauthorized`: The bearer access token is missing, invalid, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `passkey_exists`: This credential is already registered; `too_many_passkeys`: The account already holds 20 passkeys */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  PasskeysController_options: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The creation options */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PasskeyCreationOptions'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The bearer access token is missing, invalid, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `too_many_passkeys`: The account already holds 20 passkeys */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  PasskeysController_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The bearer access token is missing, invalid, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No passkey with this id on the account */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  PasskeysController_rename: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RenamePasskeyDto'];
      };
    };
    responses: {
      /** @description Renamed */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": "5b1c7e2a-9d4f-4a8b-b6e3-2f0d9c8a7b61",
           *       "name": "Work YubiKey",
           *       "created_at": "2026-11-26T10:15:00.000Z",
           *       "last_used_at": null
           *     }
           */
          'application/json': components['schemas']['Passkey'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The bearer access token is missing, invalid, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No passkey with this id on the account */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SignInPolicyController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The policy */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "workspace_id": "3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11",
           *       "new_device": "challenge",
           *       "new_ip": "allow",
           *       "new_country": "challenge",
           *       "impossible_travel": "block",
           *       "updated_at": "2026-11-24T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['SignInPolicy'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace among the caller’s */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SignInPolicyController_set: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SignInPolicyDto'];
      };
    };
    responses: {
      /** @description The policy now in force */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "workspace_id": "3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11",
           *       "new_device": "challenge",
           *       "new_ip": "allow",
           *       "new_country": "challenge",
           *       "impossible_travel": "block",
           *       "updated_at": "2026-11-24T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['SignInPolicy'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace among the caller’s */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  AnomaliesController_list: {
    parameters: {
      query?: {
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The caller's anomalies, newest first */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AnomalyListResponse'];
        };
      };
      /** @description `validation_failed`: A query parameter breaks its rule (details names it); `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The bearer access token is missing, invalid, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  AnomaliesController_acknowledge: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The anomaly; a second call returns the same acknowledged_at */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AnomalyResponse'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The bearer access token is missing, invalid, expired or revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: Unknown id, or another user's anomaly */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  EmailTemplatesController_list: {
    parameters: {
      query: {
        workspace_id: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The templates */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['EmailTemplate'][];
          };
        };
      };
      /** @description `validation_failed`: A query parameter breaks its rule (details names it); `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  EmailTemplatesController_save: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        name: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SaveEmailTemplateDto'];
      };
    };
    responses: {
      /** @description The saved template */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EmailTemplate'];
        };
      };
      /** @description `validation_failed`: Unknown placeholder, or a field breaks its rule; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No template of this name, or no such workspace for the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  EmailVerificationController_verify: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['VerifyEmailDto'];
      };
    };
    responses: {
      /** @description Verified */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VerificationResponse'];
        };
      };
      /** @description `invalid_code`: The code is not correct, not 6 digits, or none is pending; `code_expired`: The code has expired; ask for a new one; `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `user_not_found`: No account is registered with this email */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `already_verified`: This email address is already verified */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `too_many_attempts`: Too many wrong codes: this code no longer works; `rate_limited`: Too many attempts from this IP or for this account */
      429: {
        headers: {
          /** @description Seconds to wait before retrying */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  EmailVerificationController_resend: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ResendVerificationDto'];
      };
    };
    responses: {
      /** @description A new code is on its way */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VerificationResponse'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `user_not_found`: No account is registered with this email */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `already_verified`: This email address is already verified */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: A code was sent less than a minute ago, or too many attempts */
      429: {
        headers: {
          /** @description Seconds to wait before retrying */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  AuthorizeController_authorizeGet: {
    parameters: {
      query: {
        /** @description Only `code` (the authorization-code flow). */
        response_type: 'code';
        /** @description The application's client_id. */
        client_id: string;
        /** @description Exactly one of the registered redirect URIs (an http loopback IP literal may use any port, RFC 8252 §7.3). */
        redirect_uri: string;
        /** @description Space-separated; must include `openid`. `profile`, `email`, `offline_access` are granted; other values are ignored. */
        scope: string;
        /** @description Returned unchanged with the answer. */
        state?: string;
        /** @description Put in the ID token. Required when the request carries no PKCE (an application with require_pkce false). */
        nonce?: string;
        /** @description PKCE (RFC 7636): BASE64URL(SHA-256(code_verifier)). Required unless the application's require_pkce is false. */
        code_challenge?: string;
        /** @description Only S256. */
        code_challenge_method?: 'S256';
        /** @description Only `query` (the default). */
        response_mode?: 'query';
        /** @description Space-separated: `none` (alone), `login`, `consent`, `select_account`. */
        prompt?: string;
        /** @description Seconds since the last sign-in beyond which the person signs in again (0: always). */
        max_age?: string;
        /** @description The email to prefill on the hosted login. */
        login_hint?: string;
        /** @description An ID token this server issued to the application (it may have expired): with prompt=none, login_required unless it names the person signed in. */
        id_token_hint?: string;
        /** @description Space-separated; the MFA profile asks for a second factor. */
        acr_values?: string;
        /** @description Accepted and ignored (one page layout for every display). */
        display?: string;
        /** @description Accepted and ignored. */
        ui_locales?: string;
        /** @description Accepted and ignored. */
        claims_locales?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The consent screen of a third-party application */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /** @example <!doctype html>… */
          'text/html': string;
        };
      };
      /** @description To the redirect URI (code or error), to the hosted login, or back here */
      302: {
        headers: {
          /** @description The redirect URI with code, state and iss, or with error; or the hosted login */
          Location?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Unknown client_id or an unregistered redirect_uri: an error page, nothing is redirected */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /** @example <!doctype html>… */
          'text/html': string;
        };
      };
    };
  };
  AuthorizeController_authorizePost: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': {
          /**
           * @description Only `code` (the authorization-code flow).
           * @enum {string}
           */
          response_type: 'code';
          /**
           * @description The application's client_id.
           * @example cli_5f2b9c0e7a4d1e3f6a8b0c2d
           */
          client_id: string;
          /**
           * @description Exactly one of the registered redirect URIs (an http loopback IP literal may use any port, RFC 8252 §7.3).
           * @example https://app.example.com/callback
           */
          redirect_uri: string;
          /**
           * @description Space-separated; must include `openid`. `profile`, `email`, `offline_access` are granted; other values are ignored.
           * @example openid email profile
           */
          scope: string;
          /** @description Returned unchanged with the answer. */
          state?: string;
          /** @description Put in the ID token. Required when the request carries no PKCE (an application with require_pkce false). */
          nonce?: string;
          /** @description PKCE (RFC 7636): BASE64URL(SHA-256(code_verifier)). Required unless the application's require_pkce is false. */
          code_challenge?: string;
          /**
           * @description Only S256.
           * @enum {string}
           */
          code_challenge_method?: 'S256';
          /**
           * @description Only `query` (the default).
           * @enum {string}
           */
          response_mode?: 'query';
          /**
           * @description Space-separated: `none` (alone), `login`, `consent`, `select_account`.
           * @example login
           */
          prompt?: string;
          /**
           * @description Seconds since the last sign-in beyond which the person signs in again (0: always).
           * @example 3600
           */
          max_age?: string;
          /** @description The email to prefill on the hosted login. */
          login_hint?: string;
          /** @description An ID token this server issued to the application (it may have expired): with prompt=none, login_required unless it names the person signed in. */
          id_token_hint?: string;
          /**
           * @description Space-separated; the MFA profile asks for a second factor.
           * @example https://refeds.org/profile/mfa
           */
          acr_values?: string;
          /** @description Accepted and ignored (one page layout for every display). */
          display?: string;
          /** @description Accepted and ignored. */
          ui_locales?: string;
          /** @description Accepted and ignored. */
          claims_locales?: string;
        };
      };
    };
    responses: {
      /** @description The consent screen of a third-party application */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /** @example <!doctype html>… */
          'text/html': string;
        };
      };
      /** @description To the redirect URI (code or error), to the hosted login, or back here */
      302: {
        headers: {
          /** @description The redirect URI with code, state and iss, or with error; or the hosted login */
          Location?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Unknown client_id or an unregistered redirect_uri: an error page, nothing is redirected */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /** @example <!doctype html>… */
          'text/html': string;
        };
      };
      /** @description HTML error page: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
    };
  };
  AuthorizeController_consent: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': {
          /**
           * @description Only `code` (the authorization-code flow).
           * @enum {string}
           */
          response_type: 'code';
          /**
           * @description The application's client_id.
           * @example cli_5f2b9c0e7a4d1e3f6a8b0c2d
           */
          client_id: string;
          /**
           * @description Exactly one of the registered redirect URIs (an http loopback IP literal may use any port, RFC 8252 §7.3).
           * @example https://app.example.com/callback
           */
          redirect_uri: string;
          /**
           * @description Space-separated; must include `openid`. `profile`, `email`, `offline_access` are granted; other values are ignored.
           * @example openid email profile
           */
          scope: string;
          /** @description Returned unchanged with the answer. */
          state?: string;
          /** @description Put in the ID token. Required when the request carries no PKCE (an application with require_pkce false). */
          nonce?: string;
          /** @description PKCE (RFC 7636): BASE64URL(SHA-256(code_verifier)). Required unless the application's require_pkce is false. */
          code_challenge?: string;
          /**
           * @description Only S256.
           * @enum {string}
           */
          code_challenge_method?: 'S256';
          /**
           * @description Only `query` (the default).
           * @enum {string}
           */
          response_mode?: 'query';
          /**
           * @description Space-separated: `none` (alone), `login`, `consent`, `select_account`.
           * @example login
           */
          prompt?: string;
          /**
           * @description Seconds since the last sign-in beyond which the person signs in again (0: always).
           * @example 3600
           */
          max_age?: string;
          /** @description The email to prefill on the hosted login. */
          login_hint?: string;
          /** @description An ID token this server issued to the application (it may have expired): with prompt=none, login_required unless it names the person signed in. */
          id_token_hint?: string;
          /**
           * @description Space-separated; the MFA profile asks for a second factor.
           * @example https://refeds.org/profile/mfa
           */
          acr_values?: string;
          /** @description Accepted and ignored (one page layout for every display). */
          display?: string;
          /** @description Accepted and ignored. */
          ui_locales?: string;
          /** @description Accepted and ignored. */
          claims_locales?: string;
          /**
           * @description The person’s answer.
           * @enum {string}
           */
          decision: 'allow' | 'deny';
          /** @description The form token of the consent page. */
          csrf_token: string;
        };
      };
    };
    responses: {
      /** @description The consent screen of a third-party application */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /** @example <!doctype html>… */
          'text/html': string;
        };
      };
      /** @description To the redirect URI (code or error), to the hosted login, or back here */
      302: {
        headers: {
          /** @description The redirect URI with code, state and iss, or with error; or the hosted login */
          Location?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Unknown client_id or an unregistered redirect_uri: an error page, nothing is redirected */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /** @example <!doctype html>… */
          'text/html': string;
        };
      };
      /** @description The form token is missing or stale: an error page, nothing changes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /** @example <!doctype html>… */
          'text/html': string;
        };
      };
      /** @description HTML error page: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
    };
  };
  UserInfoController_get: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The claims about the signed-in person */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OidcUserInfo'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_token`: Missing, expired or revoked access token, or one not issued to an application */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
    };
  };
  UserInfoController_post: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/x-www-form-urlencoded': {
          /** @description The access token, when not in the Authorization header */
          access_token?: string;
        };
      };
    };
    responses: {
      /** @description The claims about the signed-in person */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OidcUserInfo'];
        };
      };
      /** @description `invalid_request`: The access token was sent both in the header and in the form; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'] | components['schemas']['Error'];
        };
      };
      /** @description `invalid_token`: Missing, expired or revoked access token, or one not issued to an application */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OAuthError'];
        };
      };
    };
  };
  LogoutController_get: {
    parameters: {
      query?: {
        /** @description An ID token this server issued (it may have expired): who is signing out, from which application. */
        id_token_hint?: string;
        /** @description The application's client_id (needed with post_logout_redirect_uri when there is no id_token_hint). */
        client_id?: string;
        /** @description Where to return after signing out; registered exactly on the application. */
        post_logout_redirect_uri?: string;
        /** @description Returned unchanged with post_logout_redirect_uri. */
        state?: string;
        /** @description Accepted and ignored. */
        ui_locales?: string;
        /** @description Accepted and ignored. */
        logout_hint?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The confirmation or signed-out page */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /** @example <!doctype html>… */
          'text/html': string;
        };
      };
      /** @description Signed out; back to post_logout_redirect_uri with state */
      302: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description HTML error page: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
    };
  };
  LogoutController_post: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/x-www-form-urlencoded': {
          /** @description An ID token this server issued (it may have expired): who is signing out, from which application. */
          id_token_hint?: string;
          /** @description The application's client_id (needed with post_logout_redirect_uri when there is no id_token_hint). */
          client_id?: string;
          /** @description Where to return after signing out; registered exactly on the application. */
          post_logout_redirect_uri?: string;
          /** @description Returned unchanged with post_logout_redirect_uri. */
          state?: string;
          /** @description Accepted and ignored. */
          ui_locales?: string;
          /** @description Accepted and ignored. */
          logout_hint?: string;
          /**
           * @description The confirmation page’s answer (with csrf_token).
           * @enum {string}
           */
          confirm?: '1';
          /** @description The form token of the confirmation page. */
          csrf_token?: string;
        };
      };
    };
    responses: {
      /** @description The confirmation or signed-out page */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /** @example <!doctype html>… */
          'text/html': string;
        };
      };
      /** @description Signed out; back to post_logout_redirect_uri with state */
      302: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description HTML error page: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description HTML error page: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
    };
  };
  DatabasesController_list: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        workspaceId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The databases of the workspace */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DatabaseListResponse'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  DatabasesController_create: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        workspaceId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateDatabaseDto'];
      };
    };
    responses: {
      /** @description The database, status creating */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DatabaseResponse'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `engine_unavailable`: The engine is not available on this service */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  DatabasesController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The database */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DatabaseResponse'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such database in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  DatabasesController_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DatabaseResponse'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such database in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `conflict`: A backup or restore of this database is running */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  DatabasesController_connection: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The connection details */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ConnectionDetailsResponse'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such database in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_ready`: The database is not available yet (still provisioning, or deleting) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  DatabasesController_metrics: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The figures */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MetricsResponse'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such database in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_ready`: The database is not available yet (still provisioning, or deleting) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `service_unavailable`: The database engine did not answer */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  DatabasesController_health: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The health and latency */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['HealthResponse'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such database in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  DatabasesController_keys: {
    parameters: {
      query?: {
        /** @description next_cursor of the previous page; omit for the first page */
        cursor?: string;
        /** @description Keys per page (a hint to SCAN) */
        count?: number;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of keys */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['KeysPageResponse'];
        };
      };
      /** @description `validation_failed`: cursor or count breaks its rule; `not_supported`: Key listing exists only for redis databases; `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such database in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_ready`: The database is not available yet (still provisioning, or deleting) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `service_unavailable`: The database engine did not answer */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  BackupsController_list: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The backups */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BackupListResponse'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such database in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  BackupsController_create: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateBackupDto'];
      };
    };
    responses: {
      /** @description The backup, status pending */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BackupResponse'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such database in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_ready`: The database is not available yet (still provisioning, or deleting); `conflict`: A backup or restore of this database is already running */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  BackupsController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The backup */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BackupResponse'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such backup in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  BackupsController_restore: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The restore, status pending */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RestoreResponse'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such backup in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_ready`: Only a completed backup can be restored; `conflict`: A backup or restore of this database is already running */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  BackupsController_getRestore: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The restore */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RestoreResponse'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such restore in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SamlMetadataController_metadata: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description EntityDescriptor of the identity provider */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /** @example <md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="http://localhost:3000/saml/metadata/">…</md:EntityDescriptor> */
          'application/samlmetadata+xml': string;
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_configured`: SAML is not configured: details.missing names the variables */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SamlSpsController_list: {
    parameters: {
      query: {
        workspace_id: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The SPs */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['SamlServiceProvider'][];
          };
        };
      };
      /** @description `validation_failed`: A query parameter breaks its rule (details names it); `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SamlSpsController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateSamlSpDto'];
      };
    };
    responses: {
      /** @description The registered SP */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SamlServiceProvider'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `sp_entity_id_taken`: Another SP already uses this entity id */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SamlSpsController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The SP */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SamlServiceProvider'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such SAML app in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SamlSpsController_update: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateSamlSpDto'];
      };
    };
    responses: {
      /** @description The updated SP */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SamlServiceProvider'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such SAML app in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `sp_entity_id_taken`: Another SP already uses this entity id */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SamlSpsController_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such SAML app in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SamlSsoController_start: {
    parameters: {
      query: {
        /** @description Returned to the SP unchanged */
        RelayState?: string;
        /** @description AuthnRequest, deflated then base64-encoded */
        SAMLRequest: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Auto-submitting form that posts SAMLResponse (and RelayState) to the SP ACS URL */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description No signed-in end user: to the hosted login, which comes back to /saml/sso/finish/ */
      302: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description HTML error page: the AuthnRequest is missing, malformed, from an unknown SP, or its ACS URL is not the registered one */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description HTML error page: the SP is inactive or the user may not use it */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description HTML error page: too many SSO requests from this IP; Retry-After says when to retry */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description HTML error page: SAML is not configured */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
    };
  };
  SamlSsoController_startPost: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': {
          SAMLRequest: string;
          RelayState?: string;
        };
      };
    };
    responses: {
      /** @description To GET /saml/sso/ with the same request */
      303: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description HTML error page: SAMLRequest is missing, not base64, or not a readable AuthnRequest */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description HTML error page: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description HTML error page: too many SSO requests from this IP; Retry-After says when to retry */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description HTML error page: SAML is not configured */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
    };
  };
  SamlSsoController_finish: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Auto-submitting form that posts SAMLResponse to the SP ACS URL */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description Still no signed-in end user: back to the hosted login */
      302: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description HTML error page: no parked request (expired or already used) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description HTML error page: the SP is inactive or the user may not use it */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description HTML error page: too many SSO requests from this IP; Retry-After says when to retry */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
    };
  };
  WebhooksController_list: {
    parameters: {
      query: {
        workspace_id: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The endpoints */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['Webhook'][];
          };
        };
      };
      /** @description `validation_failed`: A query parameter breaks its rule (details names it); `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  WebhooksController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateWebhookDto'];
      };
    };
    responses: {
      /** @description The endpoint, with its secret */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookWithSecret'];
        };
      };
      /** @description `validation_failed`: A field is missing or breaks its rule, an event type is not in the catalog, or the url is not https: or resolves to a private, loopback or reserved address (details names the field); `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  WebhooksController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The endpoint */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Webhook'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such webhook in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  WebhooksController_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such webhook in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  WebhooksController_update: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateWebhookDto'];
      };
    };
    responses: {
      /** @description The updated endpoint */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Webhook'];
        };
      };
      /** @description `validation_failed`: A field breaks its rule, an event type is not in the catalog, or the url is not https: or resolves to a private, loopback or reserved address (details names the field); `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such webhook in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  WebhooksController_rotateSecret: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The endpoint, with its new secret */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookWithSecret'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such webhook in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  WebhooksController_test: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The queued delivery */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": "4c2e6a8b-0d1f-4e3a-8c5b-7d9f1a3c5e7b",
           *       "webhook_id": "3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11",
           *       "event_id": null,
           *       "event_type": "webhook_test",
           *       "status": "pending",
           *       "attempts": 0,
           *       "last_response_code": null,
           *       "last_error": null,
           *       "next_attempt_at": "2026-11-24T12:00:00.000Z",
           *       "created_at": "2026-11-24T12:00:00.000Z",
           *       "delivered_at": null
           *     }
           */
          'application/json': components['schemas']['WebhookDelivery'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such webhook in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  WebhooksController_deliveries: {
    parameters: {
      query?: {
        limit?: number;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The deliveries */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['WebhookDelivery'][];
          };
        };
      };
      /** @description `validation_failed`: A query parameter breaks its rule (details names it); `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such webhook in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  WebhookDeliveriesController_retry: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The delivery, queued again */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookDelivery'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such webhook delivery in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  DirectoryEventsController_feed: {
    parameters: {
      query: {
        workspace_id: string;
        /** @description Return events with a seq above this one (next_after of the previous page); 0 from the start */
        after?: number;
        limit?: number;
        /** @description Only these event types (comma-separated, or the parameter repeated) */
        types?: (
          | 'directory.user.created'
          | 'directory.user.updated'
          | 'directory.user.deactivated'
          | 'directory.user.reactivated'
          | 'directory.group.created'
          | 'directory.group.updated'
          | 'directory.group.deleted'
          | 'directory.group.user_added'
          | 'directory.group.user_removed'
        )[];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of events */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DirectoryEventPage'];
        };
      };
      /** @description `validation_failed`: A query parameter breaks its rule, or a type is not a directory event type (details names it); `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `events_expired`: Events after `after` are past the retention */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  DirectoryEventsController_directory: {
    parameters: {
      query: {
        workspace_id: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The directory and its feed position */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DirectorySnapshot'];
        };
      };
      /** @description `validation_failed`: workspace_id is missing or not a UUID; `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsfReceiversController_list: {
    parameters: {
      query: {
        workspace_id: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The receivers */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['SsfReceiver'][];
          };
        };
      };
      /** @description `validation_failed`: A query parameter breaks its rule (details names it); `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsfReceiversController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateSsfReceiverDto'];
      };
    };
    responses: {
      /** @description The receiver and its client secret, shown this once */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SsfReceiverCreated'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsfReceiversController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The receiver */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SsfReceiver'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such receiver in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsfReceiversController_delete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such receiver in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsfConfigurationController_configuration: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The configuration */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SsfConfiguration'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsfStreamsController_read: {
    parameters: {
      query?: {
        stream_id?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The stream configuration (an array of them without stream_id) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SsfStreamConfigurationRead'];
        };
      };
      /** @description `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The receiver's access token is missing, invalid, expired, or its receiver was deleted */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such stream of the receiver (another receiver's stream is not found either) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsfStreamsController_replace: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SsfStreamChangeDto'];
      };
    };
    responses: {
      /** @description The stream configuration */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SsfStreamConfiguration'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The receiver's access token is missing, invalid, expired, or its receiver was deleted */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such stream of the receiver (another receiver's stream is not found either) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsfStreamsController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SsfStreamConfigDto'];
      };
    };
    responses: {
      /** @description The stream configuration */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SsfStreamConfiguration'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The receiver's access token is missing, invalid, expired, or its receiver was deleted */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `conflict`: The receiver already has its stream */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsfStreamsController_delete: {
    parameters: {
      query: {
        stream_id: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The receiver's access token is missing, invalid, expired, or its receiver was deleted */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such stream of the receiver (another receiver's stream is not found either) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsfStreamsController_update: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SsfStreamChangeDto'];
      };
    };
    responses: {
      /** @description The stream configuration */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SsfStreamConfiguration'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The receiver's access token is missing, invalid, expired, or its receiver was deleted */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such stream of the receiver (another receiver's stream is not found either) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsfStreamsController_status: {
    parameters: {
      query: {
        stream_id: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The status */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SsfStreamStatus'];
        };
      };
      /** @description `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The receiver's access token is missing, invalid, expired, or its receiver was deleted */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such stream of the receiver (another receiver's stream is not found either) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsfStreamsController_setStatus: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SsfStatusDto'];
      };
    };
    responses: {
      /** @description The status */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SsfStreamStatus'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The receiver's access token is missing, invalid, expired, or its receiver was deleted */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such stream of the receiver (another receiver's stream is not found either) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsfStreamsController_addSubject: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SsfSubjectDto'];
      };
    };
    responses: {
      /** @description Added */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The receiver's access token is missing, invalid, expired, or its receiver was deleted */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such stream of the receiver (another receiver's stream is not found either) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsfStreamsController_removeSubject: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SsfSubjectDto'];
      };
    };
    responses: {
      /** @description Removed */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The receiver's access token is missing, invalid, expired, or its receiver was deleted */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such stream of the receiver (another receiver's stream is not found either) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsfStreamsController_verify: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SsfVerificationDto'];
      };
    };
    responses: {
      /** @description The verification SET is on its way */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The receiver's access token is missing, invalid, expired, or its receiver was deleted */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such stream of the receiver (another receiver's stream is not found either) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsfStreamsController_poll: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        streamId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SsfPollDto'];
      };
    };
    responses: {
      /** @description The SETs */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SsfPollResponse'];
        };
      };
      /** @description `validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems; `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: The receiver's access token is missing, invalid, expired, or its receiver was deleted */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such poll stream of the receiver */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsoConnectionsController_list: {
    parameters: {
      query: {
        workspace_id: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The connections */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['SsoConnection'][];
          };
        };
      };
      /** @description `validation_failed`: A query parameter breaks its rule (details names it); `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsoConnectionsController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateSsoConnectionDto'];
      };
    };
    responses: {
      /** @description The connection */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SsoConnection'];
        };
      };
      /** @description `validation_failed`: A field is missing or breaks its rule, or the other protocol's settings were sent (details names the field); `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `domain_taken`: Another connection of this workspace already serves one of the domains; `domain_claimed`: Another workspace has verified one of the domains */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsoConnectionsController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The connection */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SsoConnection'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such connection in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsoConnectionsController_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such connection in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsoConnectionsController_update: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateSsoConnectionDto'];
      };
    };
    responses: {
      /** @description The updated connection */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SsoConnection'];
        };
      };
      /** @description `validation_failed`: A field breaks its rule, or the other protocol's settings were sent (details names the field); `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such connection in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `domain_taken`: Another connection of this workspace already serves one of the domains; `domain_claimed`: Another workspace has verified one of the new domains */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsoConnectionsController_verifyDomain: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        domain: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The connection, with the domain verified */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SsoConnection'];
        };
      };
      /** @description `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such connection in a workspace of the caller, or the domain is not one of its domains */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `domain_claimed`: Another workspace has verified this domain */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `txt_record_not_found`: The TXT record is not published (yet); details shows the expected record and the values found */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `dns_lookup_failed`: The DNS did not answer the lookup (timeout, server failure); try again */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsoConnectionsController_attempts: {
    parameters: {
      query?: {
        limit?: number;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The attempts */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            results: components['schemas']['SsoAttempt'][];
          };
        };
      };
      /** @description `validation_failed`: A query parameter breaks its rule (details names it); `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such connection in a workspace of the caller */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  SsoSamlController_acs: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The SAML connection (external provider) id */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': {
          /**
           * @description The Response, base64-encoded (at most 256 KiB)
           * @example PHNhbWxwOlJlc3BvbnNlIHhtbG5zOnNhbWxwPSJ1cm46b2FzaXM6bmFtZXM6dGM6U0FNTDoyLjA6cHJvdG9jb2wiPuKApjwvc2FtbHA6UmVzcG9uc2U+
           */
          SAMLResponse: string;
          /**
           * @description For an IdP-initiated sign-in the connection allows: where to go (a relative path)
           * @example /dashboard
           */
          RelayState?: string;
        };
      };
    };
    responses: {
      /** @description Signed in: the esid session cookie is set and the browser goes to the sign-in's next (or straight on to the application) */
      303: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description HTML error page: the answer was refused (signature_invalid, audience_mismatch, response_expired, response_replayed, state_mismatch, …) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description HTML error page: the person may not sign in (user_not_provisioned, user_deactivated, …) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description HTML error page: no SAML connection has this id */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description HTML error page: the form is larger than 384 KiB (the ACS limit, decision 0948) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description HTML error page: too many sign-ins from this IP; Retry-After says when to retry */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
    };
  };
  SsoSamlController_metadata: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The SAML connection (external provider) id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description EntityDescriptor of our service provider for this connection */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /** @example <EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://id.example.com/auth/sso/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11/saml/metadata">…</EntityDescriptor> */
          'application/samlmetadata+xml': string;
        };
      };
      /** @description HTML error page: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description HTML error page: no SAML connection has this id */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
    };
  };
  DirectoryController_users: {
    parameters: {
      query: {
        workspace_id: string;
        /** @description Part of an email or a name, case-insensitive */
        search?: string;
        /** @description next_cursor of the previous page */
        cursor?: string;
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of people */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DirectoryUserPage'];
        };
      };
      /** @description `validation_failed`: A query parameter breaks its rule, or the cursor is not one this API gave; `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  DirectoryController_addUser: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AddDirectoryUserDto'];
      };
    };
    responses: {
      /** @description The new person */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DirectoryUser'];
        };
      };
      /** @description `validation_failed`: A field breaks its rule (details names it); `invalid_body`: The body is not valid JSON; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `csrf_failed`: Cookie-authenticated write without the X-CSRF-Token of the session */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `email_taken`: The directory already has a person with this email */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: The body is larger than BODY_LIMIT */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  DirectoryController_person: {
    parameters: {
      query: {
        workspace_id: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The person */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DirectoryPerson'];
        };
      };
      /** @description `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such user in this workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  DirectoryController_groups: {
    parameters: {
      query: {
        workspace_id: string;
        /** @description Part of an email or a name, case-insensitive */
        search?: string;
        /** @description next_cursor of the previous page */
        cursor?: string;
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of groups */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DirectoryGroupPage'];
        };
      };
      /** @description `validation_failed`: A query parameter breaks its rule, or the cursor is not one this API gave; `validation_failed`: a query parameter is missing, malformed or out of range; details names each one; `invalid_body`: The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `unauthorized`: No developer session cookie or access token, or it expired or was revoked */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: No such workspace, or the caller is not a member of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: The developer account is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
}
