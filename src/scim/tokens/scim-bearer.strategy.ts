import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { ScimPrincipal } from '../../common/auth/principal';
import { ScimTokensService } from './scim-tokens.service';

/** Authorization: Bearer scim_… on /scim/v2; the global guard dispatches @Auth('scim') here. */
@Injectable()
export class ScimBearerStrategy extends PassportStrategy(Strategy, 'scim') {
  constructor(private readonly tokens: ScimTokensService) {
    super();
  }

  async validate(token: string): Promise<ScimPrincipal | false> {
    return (await this.tokens.authenticate(token)) ?? false;
  }
}
