import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import type { EndUserPrincipal } from '../common/auth/principal';
import { SessionsService } from './sessions.service';

/** Authorization: Bearer <access token> for end-user routes: valid JWT, live session, jti not denylisted. */
@Injectable()
export class EndUserStrategy extends PassportStrategy(Strategy, 'end-user') {
  constructor(private readonly sessions: SessionsService) {
    super();
  }

  async validate(token: string): Promise<EndUserPrincipal | false> {
    return (await this.sessions.authenticate(token)) ?? false;
  }
}
