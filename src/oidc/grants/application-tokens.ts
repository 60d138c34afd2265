import { Injectable } from '@nestjs/common';
import { type Tx, UnitOfWork } from '../../database/unit-of-work';
import type { StatementRider } from '../../events/domain-events';
import type { AuthenticatedClient } from '../../oauth/clients/registered-client';
import type { GrantRequest, IssuedTokens } from '../../oauth/token/grants';
import { tokenIssueEvent } from '../../oauth/token/token-issue-event';
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

/** The access token an application's grant issues with its refresh token: its id and lifetime (its scope is the grant's). */
export interface ApplicationAccess {
  jti: string;
  issuedAt: Date;
  expiresAt: Date;
}

/**
 * The one statement that makes an application grant's tokens real (spend the code and open the
 * session; spend the refresh token and extend it), with the riders of the unit of work on it:
 * true when it wrote, false when the credential was spent meanwhile and nothing was written.
 */
export type GrantWrite = (on: Tx | null, riders: readonly StatementRider[]) => Promise<boolean>;

/**
 * The access token's claims and the facts of the oauth_token_issue row of an application grant: the
 * token is the application's, issued under the credential its client authenticated with, beside a
 * refresh token and an ID token of the user's session.
 */
function applicationIssue(
  client: AuthenticatedClient,
  grant: ApplicationGrant,
  access: ApplicationAccess,
): Required<Pick<IssuedTokens, 'claims' | 'audit'>> {
  const { app } = grant;
  const claims: AccessTokenClaims = {
    ...access,
    scope: grant.scope,
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
 * What the code exchange and the refresh share once their checks pass: the write with its
 * oauth_token_issue row riding on it, then the response with the ID token beside the end-user
 * access and refresh tokens (so /user/security/... accepts them as it accepts any); both grants
 * hold its facts from their one read.
 */
@Injectable()
export class ApplicationTokens {
  constructor(
    private readonly idTokens: IdTokensService,
    private readonly uow: UnitOfWork,
  ) {}

  /** The grant's token response, or null when `write` found its credential spent meanwhile (nothing was written). */
  async issue(
    { client, request }: Pick<GrantRequest, 'client' | 'request'>,
    grantType: string,
    grant: ApplicationGrant,
    access: ApplicationAccess,
    write: GrantWrite,
  ): Promise<IssuedTokens | null> {
    const issued = applicationIssue(client, grant, access);
    const wrote = await this.uow.runAsOneStatement(
      (events) => events.emit('oauth_token_issue', tokenIssueEvent(client, grantType, issued, request)),
      write,
      (written) => written,
    );
    return wrote ? this.response(grant, issued) : null;
  }

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

  private async response(grant: ApplicationGrant, issued: Required<Pick<IssuedTokens, 'claims' | 'audit'>>): Promise<IssuedTokens> {
    const idToken = await this.idToken(grant);
    return {
      accessToken: grant.pair.access_token,
      ...issued,
      extra: { refresh_token: grant.pair.refresh_token, id_token: idToken },
      recorded: true,
    };
  }
}
