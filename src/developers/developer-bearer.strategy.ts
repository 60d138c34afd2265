import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { DeveloperPrincipal } from '../common/auth/principal';
import { DevelopersService } from './developers.service';

/** Authorization: Bearer dat_… for the dashboard API. */
@Injectable()
export class DeveloperBearerStrategy extends PassportStrategy(Strategy, 'developer-bearer') {
  constructor(private readonly developers: DevelopersService) {
    super();
  }

  async validate(token: string): Promise<DeveloperPrincipal | false> {
    return (await this.developers.authenticateToken(token)) ?? false;
  }
}
