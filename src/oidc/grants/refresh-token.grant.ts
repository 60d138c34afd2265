import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { sha256Hex } from '../../common/crypto/tokens';
import { DomainError } from '../../common/errors';
import { SessionsService } from '../../sessions/sessions.service';
import { OAuthError } from '../../oauth/oauth.errors';
import { GrantHandler, GrantRequest, IssuedTokens, TokenGrant } from '../../oauth/token/grants';
import { ApplicationClientStore, MAX_REFRESH_CHARS } from '../application-client.store';
import { OidcRepository } from '../oidc.repository';
import { REFRESH_TOKEN } from '../scopes';
import { ApplicationTokens } from './application-tokens';

/**
 * RFC 6749 §6 on the end-user sessions' rotation (decision 0301): a refresh token works once, for
 * the client it was issued to; a spent one presented again revokes its session. A new ID token
 * comes with the new pair (OpenID Connect Core §12.2: same sub and auth_time, no nonce).
 *
 * Decision 0960: the token is read with the client by the token endpoint's lookup (with its
 * session, person and grant), checked here, and rotated in one statement (spend, extend the
 * session, write the next token, the oauth_token_issue audit row riding on it) that spends only a
 * token still unspent; of two concurrent refreshes one wins and the other is answered as a reuse.
 */
@Injectable()
@GrantHandler(REFRESH_TOKEN)
export class RefreshTokenGrant implements TokenGrant {
  constructor(
    private readonly store: ApplicationClientStore,
    private readonly repository: OidcRepository,
    private readonly sessions: SessionsService,
    private readonly tokens: ApplicationTokens,
    private readonly clock: Clock,
  ) {}

  async handle({ params, client, request }: GrantRequest): Promise<IssuedTokens> {
    const refreshToken = params.refresh_token;
    if (!refreshToken) throw new OAuthError('invalid_request', 'refresh_token is required');
    const app = await this.store.applicationOf(client.client);
    if (!app) throw new OAuthError('invalid_client', 'client authentication failed');
    if (refreshToken.length > MAX_REFRESH_CHARS) throw invalidRefresh();
    const now = this.clock.now();
    const tokenHash = sha256Hex(refreshToken);
    // Read with the client by the token endpoint's lookup, as a rule (one round trip).
    const read = this.store.refreshReadWith(client.client, tokenHash);
    const grant = read === undefined ? await this.repository.refreshGrant(app.id, tokenHash, now) : read;
    // Another client's refresh token is neither used nor spent.
    if (!grant?.user) throw invalidRefresh();
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
    if (grant.usedAt) return this.refuse(tokenHash, request);
    if (!grant.live) throw invalidRefresh();

    const { user } = grant;
    const { pair, refresh } = await this.sessions.mintTokens(
      { id: grant.sessionId, workspaceId: grant.workspaceId, userId: grant.userId, oauthClientId: grant.sessionClientId, amr: grant.amr },
      now,
    );
    const spend = { workspaceId: grant.workspaceId, tokenHash, sessionId: grant.sessionId };
    const issued = await this.tokens.issue(
      { client, request },
      REFRESH_TOKEN,
      { app, user, pair, scope: grant.scope, authTime: grant.authTime, nonce: null, amr: grant.amr },
      { jti: refresh.accessJti, issuedAt: now, expiresAt: refresh.accessExpiresAt },
      (on, riders) => this.sessions.rotateRefreshToken(on, spend, refresh, now, riders),
    );
    // Spent by a concurrent refresh since it was read (or expired, or its session ended): nothing was issued.
    return issued ?? this.refuse(tokenHash, request);
  }

  /** A token that cannot be rotated; a spent one revokes its session (SessionsService.refuseRefresh). Always invalid_grant. */
  private async refuse(tokenHash: string, request: GrantRequest['request']): Promise<never> {
    try {
      return await this.sessions.refuseRefresh(tokenHash, request);
    } catch (err) {
      if (err instanceof DomainError && err.code === 'invalid_token') throw invalidRefresh();
      throw err;
    }
  }
}

const invalidRefresh = () => new OAuthError('invalid_grant', 'the refresh token is invalid, expired or revoked');
