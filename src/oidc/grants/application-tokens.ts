import { Injectable } from '@nestjs/common';
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

/**
 * The ID token beside an application grant's end-user access and refresh tokens (so
 * /user/security/... accepts them as it accepts any): both grants hold its facts from their one read.
 */
@Injectable()
export class ApplicationTokens {
  constructor(private readonly idTokens: IdTokensService) {}

  idToken(grant: ApplicationGrant): Promise<string> {
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
}
