import { Injectable } from '@nestjs/common';
import { decodeJwt } from 'jose';
import { Clock } from '../../common/clock';
import { sha256Hex } from '../../common/crypto/tokens';
import type { RequestMeta } from '../../common/request-context';
import { UnitOfWork } from '../../database/unit-of-work';
import { SessionsService } from '../../sessions/sessions.service';
import type { AuthenticatedClient } from '../../oauth/clients/registered-client';
import { OAuthServerInfo } from '../../oauth/discovery/oauth-server-info';
import { IntrospectedToken, TokenAuthority, TokenAuthoritySource } from '../../oauth/token-management/token-authorities';
import { ApplicationClientStore } from '../application-client.store';
import { subjectFor } from '../id-tokens.service';
import { AppSessionRow, OidcRepository } from '../oidc.repository';
import { ApplicationAccessTokens } from './application-access';

const REFRESH_PREFIX = 'rt_';

interface Located {
  grant: AppSessionRow;
  type: 'Bearer' | 'refresh_token';
  live: boolean;
  iat: Date;
  exp: Date;
}

/**
 * The applications' tokens for revocation and introspection: an access or refresh token belongs
 * to an application session (oauth_app_sessions); revoking either ends that session, so both
 * tokens die on their next use (the denylist of decision 0300 for the access token).
 */
@Injectable()
@TokenAuthoritySource()
export class ApplicationTokenAuthority implements TokenAuthority {
  constructor(
    private readonly store: ApplicationClientStore,
    private readonly repository: OidcRepository,
    private readonly sessions: SessionsService,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly server: OAuthServerInfo,
    private readonly access: ApplicationAccessTokens,
  ) {}

  async revoke(token: string, hint: string | undefined, client: AuthenticatedClient, request: RequestMeta): Promise<boolean> {
    const found = await this.locate(token, hint, client);
    if (!found) return false;
    const { grant } = found;
    const now = this.clock.now();
    const denied = await this.uow.run(async (tx, events) => {
      const tokens = await this.sessions.revokeIn(tx, grant.workspaceId, { sessionId: grant.sessionId }, 'revoked_by_client', now);
      if (tokens.length) {
        events.emit('oauth_token_revoke', {
          workspaceId: grant.workspaceId,
          actor: { type: 'oauth_client', id: grant.clientId },
          target: { type: 'EndUserSession', id: grant.sessionId },
          oauthClientId: grant.clientId,
          request,
          metadata: { reason: 'revoked_by_client', token_type: found.type, client_id: client.client.clientId, user_id: grant.userId },
        });
      }
      return tokens;
    });
    await this.sessions.mirrorDenied(denied);
    return true;
  }

  async introspect(token: string, hint: string | undefined, client: AuthenticatedClient): Promise<IntrospectedToken | null> {
    const found = await this.locate(token, hint, client);
    if (!found?.live) return null;
    const app = await this.store.applicationOf(client.client);
    if (!app) return null;
    return {
      active: true,
      scope: found.grant.scope,
      client_id: app.clientId,
      token_type: found.type,
      sub: subjectFor(app, found.grant.userId),
      iat: Math.floor(found.iat.getTime() / 1000),
      exp: Math.floor(found.exp.getTime() / 1000),
      iss: this.server.issuer,
      aud: app.clientId,
      sid: found.grant.sessionId,
    };
  }

  /** The application session of a token issued to this client (a refresh token by its hash, an access token by its signature). */
  private async locate(token: string, hint: string | undefined, client: AuthenticatedClient): Promise<Located | null> {
    if (client.client.kind !== this.store.kind || !token) return null;
    const asRefresh = token.startsWith(REFRESH_PREFIX);
    const found = asRefresh ? await this.refreshToken(token) : await this.accessToken(token);
    // RFC 7009 §2.1: the hint only speeds the search up; a wrong one changes nothing.
    void hint;
    return found && found.grant.clientId === client.client.id ? found : null;
  }

  private async refreshToken(token: string): Promise<Located | null> {
    const row = await this.repository.appSessionByRefreshHash(sha256Hex(token), this.clock.now());
    if (!row) return null;
    return { grant: row, type: 'refresh_token', live: row.live, iat: row.tokenIssuedAt, exp: row.tokenExpiresAt };
  }

  private async accessToken(token: string): Promise<Located | null> {
    const access = await this.access.access(token);
    if (!access) return null;
    const { grant } = access;
    const claims = decodeJwt(token);
    return { grant, type: 'Bearer', live: true, iat: new Date(Number(claims.iat) * 1000), exp: new Date(Number(claims.exp) * 1000) };
  }
}
