import { Injectable } from '@nestjs/common';
import type { JWK } from 'jose';
import { ClientStore } from '../oauth/clients/oauth-client-directory';
import type { ClientAuthMethod, OAuthClientStore, RegisteredClient } from '../oauth/clients/registered-client';
import { sha256Hex } from '../common/crypto/tokens';
import { isStorableText } from '../common/body-guard';
import { Clock } from '../common/clock';
import { AppClient, CodeWithUser, OidcRepository, RefreshGrant } from './oidc.repository';
import { APPLICATION_SCOPES, AUTHORIZATION_CODE, REFRESH_TOKEN } from './scopes';

/** Longer codes are never issued (32 random bytes): they are not looked up. */
export const MAX_CODE_CHARS = 128;
/** Longer refresh tokens are never issued: they are not looked up. */
export const MAX_REFRESH_CHARS = 256;

/** Public client ids of applications (src/oauth-clients: `cli_` + 24 hex). */
export const APPLICATION_CLIENT_ID_PREFIX = 'cli_';
/** `aud` of an end-user access token (src/sessions/tokens/access-token.codec.ts). */
const END_USER_AUDIENCE = 'end-user';

/** The authorization code read with a client for the token endpoint (decision 0917): null when it was none of the client's. */
interface CodeRead {
  codeHash: string;
  found: CodeWithUser | null;
}

/** The refresh token read with a client for the token endpoint (decision 0960): null when it was none of the client's. */
interface RefreshRead {
  tokenHash: string;
  found: RefreshGrant | null;
}

/**
 * An application as a RegisteredClient, carrying what find() read with it: the application row (so a
 * grant does not read it twice) and the code of the token request. It travels to the grant with the
 * authenticated client, in the grant's parameters; the store keeps nothing per request.
 */
interface ApplicationClient extends RegisteredClient {
  readonly application: AppClient;
  readonly codeRead: CodeRead | null;
  readonly refreshRead: RefreshRead | null;
}

function isApplicationClient(client: RegisteredClient): client is ApplicationClient {
  return 'application' in client;
}

/**
 * The applications of src/oauth-clients as the authorization server sees them (decision 0900): a
 * confidential client authenticates with its secret (Basic or form) or, with keys registered, with
 * private_key_jwt; a public client (native, single-page) with none: PKCE is its proof.
 */
@Injectable()
@ClientStore()
export class ApplicationClientStore implements OAuthClientStore {
  readonly kind = 'application';
  readonly scopes = APPLICATION_SCOPES;
  constructor(
    private readonly repository: OidcRepository,
    private readonly clock: Clock,
  ) {}

  owns(clientId: string): boolean {
    return clientId.startsWith(APPLICATION_CLIENT_ID_PREFIX);
  }

  /** The application itself, with what the authorization endpoint needs beyond authentication. */
  application(clientId: string): Promise<AppClient | null> {
    if (!this.owns(clientId) || clientId.length > 200 || !isStorableText(clientId)) return Promise.resolve(null);
    return this.repository.clientByPublicId(clientId);
  }

  /**
   * The application as a RegisteredClient. For an authorization_code token request the code (with
   * its person) is read in the same statement and kept for the grant (codeReadWith); for a
   * refresh_token request, the refresh token with its grant (refreshReadWith).
   */
  async find(clientId: string, params?: Readonly<Record<string, string>>): Promise<RegisteredClient | undefined> {
    const readable = this.owns(clientId) && clientId.length <= 200 && isStorableText(clientId);
    const code = params?.grant_type === AUTHORIZATION_CODE ? params.code : undefined;
    if (readable && code !== undefined && code.length <= MAX_CODE_CHARS) {
      const codeHash = sha256Hex(code);
      const read = await this.repository.clientWithCode(clientId, codeHash);
      return this.build(read?.app ?? null, { codeHash, found: read?.code ?? null });
    }
    const refresh = params?.grant_type === REFRESH_TOKEN ? params.refresh_token : undefined;
    if (readable && refresh !== undefined && refresh.length > 0 && refresh.length <= MAX_REFRESH_CHARS) {
      const tokenHash = sha256Hex(refresh);
      const read = await this.repository.clientWithRefreshToken(clientId, tokenHash, this.clock.now());
      return this.build(read?.app ?? null, null, { tokenHash, found: read?.refresh ?? null });
    }
    return this.build(await this.application(clientId));
  }

  /** The code read with this client by find(), if it was (undefined: not read, ask the repository). */
  codeReadWith(client: RegisteredClient, codeHash: string): CodeWithUser | null | undefined {
    const read = isApplicationClient(client) ? client.codeRead : null;
    return read?.codeHash === codeHash ? read.found : undefined;
  }

  /** The refresh token read with this client by find(), if it was (undefined: not read, ask the repository). */
  refreshReadWith(client: RegisteredClient, tokenHash: string): RefreshGrant | null | undefined {
    const read = isApplicationClient(client) ? client.refreshRead : null;
    return read?.tokenHash === tokenHash ? read.found : undefined;
  }

  private build(
    app: AppClient | null,
    codeRead: CodeRead | null = null,
    refreshRead: RefreshRead | null = null,
  ): ApplicationClient | undefined {
    return app ? { ...registered(app), application: app, codeRead, refreshRead } : undefined;
  }

  /** The application behind a client the token endpoint authenticated (read in the same request), or null for another kind. */
  async applicationOf(client: RegisteredClient): Promise<AppClient | null> {
    if (client.kind !== this.kind) return null;
    return isApplicationClient(client) ? client.application : this.application(client.clientId);
  }
}

export function registered(app: AppClient): RegisteredClient {
  const keys = app.jwks ? { keys: app.jwks.keys.map((k): JWK => ({ ...k })) } : null;
  const confidential = app.clientType === 'confidential';
  const authMethods: ClientAuthMethod[] = confidential ? ['client_secret_basic', 'client_secret_post'] : ['none'];
  if (confidential && keys) authMethods.push('private_key_jwt');
  return {
    kind: 'application',
    id: app.id,
    clientId: app.clientId,
    workspaceId: app.workspaceId,
    authMethods,
    grantTypes: [AUTHORIZATION_CODE, REFRESH_TOKEN],
    scopes: APPLICATION_SCOPES,
    audience: END_USER_AUDIENCE,
    secrets: confidential ? [{ id: 'client', hash: app.secretHash }] : [],
    keys,
    federation: null,
  };
}
