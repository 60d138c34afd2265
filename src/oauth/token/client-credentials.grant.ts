import { Injectable } from '@nestjs/common';
import { AccessTokensService } from '../tokens/access-tokens.service';
import { CLIENT_CREDENTIALS, GrantHandler, GrantRequest, IssuedTokens, TokenGrant } from './grants';
import { grantedScope } from './scope';

/** RFC 6749 §4.4: an authenticated client gets an access token for itself. */
@Injectable()
@GrantHandler(CLIENT_CREDENTIALS)
export class ClientCredentialsGrant implements TokenGrant {
  constructor(private readonly tokens: AccessTokensService) {}

  async handle({ params, client }: GrantRequest): Promise<IssuedTokens> {
    const scope = grantedScope(client.client, params.scope);
    const { token, claims } = await this.tokens.issue(client, scope);
    return { accessToken: token, claims };
  }
}
