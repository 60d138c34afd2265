import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors';
import { userClaims } from '../id-tokens.service';
import { ApplicationAccessTokens } from '../tokens/application-access';
import { OIDC_ERRORS } from '../oidc.errors';

const MAX_TOKEN_CHARS = 4096;

/** RFC 6750 §3: 401 with the challenge naming the error. */
const invalidToken = (why: string) =>
  new DomainError(OIDC_ERRORS.invalid_token, why, {
    headers: { 'WWW-Authenticate': `Bearer error="invalid_token", error_description="${why}"` },
  });

/**
 * The UserInfo endpoint (OpenID Connect Core §5.3): the claims the grant's scope releases, for an
 * access token the authorization-code flow issued and whose session is still live (read through the
 * credential cache, decision 0961: a person's name or email changed shows within its lifetime, 5 s).
 */
@Injectable()
export class UserInfoService {
  constructor(private readonly tokens: ApplicationAccessTokens) {}

  /**
   * `authorization`: the Authorization header; `formToken`: an `access_token` form parameter of a POST
   * (RFC 6750 §2.2, which OpenID Connect Core §5.3.1 allows). One of them, never both (RFC 6750 §2).
   */
  async claims(authorization: string | undefined, formToken?: unknown): Promise<Record<string, string | boolean>> {
    if (formToken !== undefined) {
      if (authorization !== undefined || typeof formToken !== 'string') {
        throw new DomainError(OIDC_ERRORS.invalid_request, 'send the access token once: in the Authorization header or as access_token', {
          headers: { 'WWW-Authenticate': 'Bearer error="invalid_request"' },
        });
      }
      authorization = `Bearer ${formToken}`;
    }
    const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(authorization ?? '');
    if (!match || match[1].length > MAX_TOKEN_CHARS) {
      throw new DomainError(OIDC_ERRORS.invalid_token, 'a Bearer access token is required', {
        headers: { 'WWW-Authenticate': 'Bearer' },
      });
    }
    const access = await this.tokens.access(match[1]);
    if (!access?.user.isActive) throw invalidToken('the access token is invalid, expired or revoked');
    return userClaims(access.app, access.user, access.grant.scope);
  }
}
