import { Injectable } from '@nestjs/common';
import { decodeJwt } from 'jose';
import type { AuthenticatedClient } from '../../oauth/clients/registered-client';
import type { IssuedTokens } from '../../oauth/token/grants';
import type { TokenPair } from '../../sessions/sessions.service';
import { IdTokensService } from '../id-tokens.service';
import type { AppClient, ClaimsUser } from '../oidc.repository';

export interface ApplicationGrant {
  client: AuthenticatedClient;
  app: AppClient;
  user: ClaimsUser;
  pair: TokenPair;
  scope: string;
  authTime: Date;
  nonce: string | null;
  grantType: string;
}

/**
 * The token response of an application's grant: today's end-user access and refresh tokens (so
 * /user/security/... accepts them as it accepts any), and an ID token.
 */
@Injectable()
export class ApplicationTokens {
  constructor(private readonly idTokens: IdTokensService) {}

  /** The ID token of a grant whose facts the caller already holds (the code exchange: its code carries the amr). */
  idToken(grant: Pick<ApplicationGrant, 'app' | 'user' | 'pair' | 'scope' | 'authTime' | 'nonce'> & { amr: string[] }): Promise<string> {
    return this.idTokens.sign({
      client: grant.app,
      user: grant.user,
      scope: grant.scope,
      authTime: grant.authTime,
      amr: grant.amr,
      nonce: grant.nonce,
      sessionId: grant.pair.session_id,
    });
  }

  async respond(grant: ApplicationGrant): Promise<IssuedTokens> {
    const { pair } = grant;
    // Our own token, signed a moment ago: its claims are read, not verified again.
    const access = decodeJwt(pair.access_token);
    const amr = Array.isArray(access.amr) ? access.amr.filter((v): v is string => typeof v === 'string') : ['pwd'];
    const idToken = await this.idTokens.sign({
      client: grant.app,
      user: grant.user,
      scope: grant.scope,
      authTime: grant.authTime,
      amr,
      nonce: grant.nonce,
      sessionId: pair.session_id,
    });
    return {
      accessToken: pair.access_token,
      claims: {
        jti: String(access.jti),
        clientId: grant.app.clientId,
        clientRowId: grant.app.id,
        clientKind: grant.client.client.kind,
        workspaceId: grant.app.workspaceId,
        scope: grant.scope,
        credential: grant.client.credential,
        issuedAt: new Date(Number(access.iat) * 1000),
        expiresAt: new Date(Number(access.exp) * 1000),
      },
      extra: { refresh_token: pair.refresh_token, id_token: idToken },
      audit: { user_id: grant.user.id, session_id: pair.session_id, refresh_token_issued: true, id_token_issued: true },
    };
  }
}
