import { Injectable, OnModuleInit } from '@nestjs/common';
import { AccessTokensService } from '../tokens/access-tokens.service';
import { CLIENT_CREDENTIALS, GrantHandler, GrantRegistry, GrantRequest, IssuedTokens } from './grants';
import { grantedScope } from './scope';

/** RFC 6749 §4.4: an authenticated client gets an access token for itself. */
@Injectable()
export class ClientCredentialsGrant implements GrantHandler, OnModuleInit {
  readonly grantType = CLIENT_CREDENTIALS;
  readonly clientAuthentication = 'required';

  constructor(
    private readonly registry: GrantRegistry,
    private readonly tokens: AccessTokensService,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async handle({ params, client }: GrantRequest): Promise<IssuedTokens> {
    const scope = grantedScope(client.client, params.scope);
    const { token, claims } = await this.tokens.issue(client, scope);
    return { accessToken: token, claims };
  }
}
