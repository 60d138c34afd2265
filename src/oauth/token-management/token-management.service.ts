import { Injectable } from '@nestjs/common';
import type { RequestMeta } from '../../common/request-context';
import { OAuthError } from '../oauth.errors';
import { ClientAuthenticator } from '../token/client-authenticator';
import { singleValued } from '../token/token-endpoint.service';
import { IntrospectedToken, TokenAuthorities } from './token-authorities';

const MAX_TOKEN_CHARS = 8192;

/**
 * Token revocation (RFC 7009) and introspection (RFC 7662) beside the token endpoint, with the same
 * client authentication. Revocation answers 200 whether or not the token was known (RFC 7009 §2.2);
 * introspection requires a confidential client (a public one cannot protect an API).
 */
@Injectable()
export class TokenManagementService {
  constructor(
    private readonly authenticator: ClientAuthenticator,
    private readonly authorities: TokenAuthorities,
  ) {}

  async revoke(form: unknown, isForm: boolean, authorization: string | undefined, request: RequestMeta): Promise<void> {
    const { token, hint, client } = await this.read(form, isForm, authorization, { allowPublic: true });
    await this.authorities.revoke(token, hint, client, request);
  }

  async introspect(form: unknown, isForm: boolean, authorization: string | undefined): Promise<IntrospectedToken | { active: false }> {
    const { token, hint, client } = await this.read(form, isForm, authorization, { allowPublic: false });
    return this.authorities.introspect(token, hint, client);
  }

  private async read(form: unknown, isForm: boolean, authorization: string | undefined, opts: { allowPublic: boolean }) {
    if (!isForm) throw new OAuthError('invalid_request', 'the body must be application/x-www-form-urlencoded');
    const params = singleValued(form);
    const client = await this.authenticator.authenticate(authorization, params);
    if (client.method === 'none' && (!opts.allowPublic || !client.client.authMethods.includes('none'))) {
      throw new OAuthError('invalid_client', 'client authentication is required');
    }
    const token = params.token;
    if (!token) throw new OAuthError('invalid_request', 'token is required');
    // An oversized token is no token of ours: nothing to revoke, inactive to introspect.
    return { token: token.length > MAX_TOKEN_CHARS ? '' : token, hint: params.token_type_hint, client };
  }
}
