import { Injectable } from '@nestjs/common';
import type { EndUserPrincipal } from '../../common/auth/principal';
import { SessionsService } from '../../sessions/sessions.service';
import { AppClient, AppSessionRow, ClaimsUser, OidcRepository } from '../oidc.repository';

/** What an application's access token grants, as UserInfo and introspection read it (decision 0961). */
export interface ApplicationAccess {
  readonly kind: 'application-access';
  principal: EndUserPrincipal;
  grant: AppSessionRow;
  app: AppClient;
  user: ClaimsUser;
}

/**
 * An access token the authorization-code flow issued, with its grant, client and person: on the
 * credential cache (decision 0961), so a repeated UserInfo or introspection of a live token costs no
 * round trip; revoking its session evicts it everywhere before the revocation is answered.
 */
@Injectable()
export class ApplicationAccessTokens {
  constructor(
    private readonly sessions: SessionsService,
    private readonly repository: OidcRepository,
  ) {}

  /** The token's grant while the token is live and was issued to an application; null otherwise. */
  access(token: string): Promise<ApplicationAccess | null> {
    return this.sessions.authenticateCached<ApplicationAccess>(token, 'application-access', async (principal) => {
      const found = await this.repository.accessGrant(principal.workspaceId, principal.sessionId);
      return found ? { kind: 'application-access', principal, ...found } : null;
    });
  }
}
