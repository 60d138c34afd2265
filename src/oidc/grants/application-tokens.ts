import { Injectable } from '@nestjs/common';
import type { AuthenticatedClient } from '../../oauth/clients/registered-client';
import type { IssuedTokens } from '../../oauth/token/grants';
import type { AccessTokenClaims } from '../../oauth/tokens/access-tokens.service';
import type { TokenPair } from '../../sessions/sessions.service';
import { IdTokensService } from '../id-tokens.service';
import type { AppClient, ClaimsUser } from '../oidc.repository';

/** What an application's grant (code exchange, refresh) knows when it signs the ID token of its response. */
export interface ApplicationGrant {
  app: AppClient;
  user: ClaimsUser;
  pair: TokenPair;
  scope: string;
  authTime: Date;
  nonce: string | null;
  /** RFC 8176 methods of the sign-in behind the session (decision 0313). */
  amr: string[];
}

/** The access token an application's grant issues with its refresh token: its id, lifetime and scope. */
export interface ApplicationAccess {
  jti: string;
  scope: string;
  issuedAt: Date;
  expiresAt: Date;
}

/**
 * The access token's claims and the facts of the oauth_token_issue row of an application grant: the
 * token is the application's, issued under the credential its client authenticated with, beside a
 * refresh token and an ID token of the user's session.
 */
export function applicationIssue(
  client: AuthenticatedClient,
  app: AppClient,
  grant: { user: ClaimsUser; pair: TokenPair },
  access: ApplicationAccess,
): Required<Pick<IssuedTokens, 'claims' | 'audit'>> {
  const claims: AccessTokenClaims = {
    ...access,
    clientId: app.clientId,
    clientRowId: app.id,
    clientKind: client.client.kind,
    workspaceId: app.workspaceId,
    credential: client.credential,
  };
  const audit = { user_id: grant.user.id, session_id: grant.pair.session_id, refresh_token_issued: true, id_token_issued: true };
  return { claims, audit };
}

/**
 * The ID token beside an application grant's end-user access and refresh tokens (so
 * /user/security/... accepts them as it accepts any): both grants hold its facts from their one read.
 */
@Injectable()
export class ApplicationTokens {
  constructor(private readonly idTokens: IdTokensService) {}

  private idToken(grant: ApplicationGrant): Promise<string> {
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

  /** The token response of an application grant whose oauth_token_issue row was written with its tokens. */
  async response(grant: ApplicationGrant, issued: Required<Pick<IssuedTokens, 'claims' | 'audit'>>): Promise<IssuedTokens> {
    const idToken = await this.idToken(grant);
    return {
      accessToken: grant.pair.access_token,
      ...issued,
      extra: { refresh_token: grant.pair.refresh_token, id_token: idToken },
      recorded: true,
    };
  }
}
