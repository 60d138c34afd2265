import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { sha256Hex } from '../../common/crypto/tokens';
import { DomainError } from '../../common/errors';
import { SessionsService, type TokenPair } from '../../sessions/sessions.service';
import { OAuthError } from '../../oauth/oauth.errors';
import { GrantHandler, GrantRegistry, GrantRequest, IssuedTokens } from '../../oauth/token/grants';
import { ApplicationClientStore } from '../application-client.store';
import { OidcRepository } from '../oidc.repository';
import { REFRESH_TOKEN } from '../scopes';
import { ApplicationTokens } from './application-tokens';

const MAX_REFRESH_CHARS = 256;

/**
 * RFC 6749 §6 on the end-user sessions' rotation (decision 0301): a refresh token works once, for
 * the client it was issued to; a spent one presented again revokes its session. A new ID token
 * comes with the new pair (OpenID Connect Core §12.2: same sub and auth_time, no nonce).
 */
@Injectable()
export class RefreshTokenGrant implements GrantHandler, OnModuleInit {
  readonly grantType = REFRESH_TOKEN;
  readonly clientAuthentication = 'required';

  constructor(
    private readonly registry: GrantRegistry,
    private readonly store: ApplicationClientStore,
    private readonly repository: OidcRepository,
    private readonly sessions: SessionsService,
    private readonly tokens: ApplicationTokens,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async handle({ params, client, request }: GrantRequest): Promise<IssuedTokens> {
    const refreshToken = params.refresh_token;
    if (!refreshToken) throw new OAuthError('invalid_request', 'refresh_token is required');
    const app = await this.store.applicationOf(client.client);
    if (!app) throw new OAuthError('invalid_client', 'client authentication failed');
    const invalid = () => new OAuthError('invalid_grant', 'the refresh token is invalid, expired or revoked');
    if (refreshToken.length > MAX_REFRESH_CHARS) throw invalid();
    const grant = await this.repository.appSessionByRefreshHash(sha256Hex(refreshToken), this.clock.now());
    // Another client's refresh token is neither used nor spent.
    if (!grant || grant.clientId !== app.id) throw invalid();
    if (params.scope !== undefined) {
      const granted = grant.scope.split(' ');
      if (
        !params.scope
          .split(' ')
          .filter(Boolean)
          .every((s) => granted.includes(s))
      ) {
        throw new OAuthError('invalid_scope', 'a refresh cannot widen the scope of the original grant');
      }
    }
    let pair: TokenPair;
    try {
      pair = await this.sessions.refresh(refreshToken, request);
    } catch (err) {
      if (err instanceof DomainError && err.code === 'invalid_token') throw invalid();
      throw err;
    }
    const user = await this.repository.claimsUser(grant.workspaceId, grant.userId);
    if (!user) throw invalid();
    return this.tokens.respond({
      client,
      app,
      user,
      pair,
      scope: grant.scope,
      authTime: grant.authTime,
      nonce: null,
      grantType: this.grantType,
    });
  }
}
