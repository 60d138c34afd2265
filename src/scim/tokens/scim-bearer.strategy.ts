import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { ScimPrincipal } from '../../common/auth/principal';
import { ScimAccessTokens } from '../clients/scim-access-tokens';
import { ScimTokensService } from './scim-tokens.service';

/**
 * Authorization: Bearer on /scim/v2; the global guard dispatches @Auth('scim') here. A `scim_…`
 * token is a static SCIM token; anything else is tried as an access token of a SCIM OAuth client.
 */
@Injectable()
export class ScimBearerStrategy extends PassportStrategy(Strategy, 'scim') {
  constructor(
    private readonly tokens: ScimTokensService,
    private readonly accessTokens: ScimAccessTokens,
  ) {
    super();
  }

  async validate(token: string): Promise<ScimPrincipal | false> {
    const principal = token.startsWith('scim_') ? await this.tokens.authenticate(token) : await this.accessTokens.authenticate(token);
    return principal ?? false;
  }
}
