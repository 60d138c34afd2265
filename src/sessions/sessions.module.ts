import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommonModule } from '../common/common.module';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { EndUserStrategy } from './end-user.strategy';
import { EndUserRefreshToken } from './entities/end-user-refresh-token.entity';
import { EndUserSession } from './entities/end-user-session.entity';
import { TokenDenylistEntry } from './entities/token-denylist-entry.entity';
import { SessionsController } from './sessions.controller';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import { AccessTokenCodec } from './tokens/access-token.codec';
import { TokenDenylistRepository } from './tokens/token-denylist.repository';
import { TokenDenylistService } from './tokens/token-denylist.service';

/**
 * End users' sessions and tokens: the session rows, the access and refresh tokens minted on them,
 * the denylist of revoked access tokens, and the passport strategy that turns a bearer token into
 * an end-user principal. Below the sign-in (EndUsersModule) and the hosted login, which open
 * sessions through SessionsService.
 */
@Module({
  imports: [PassportModule, CommonModule, TypeOrmModule.forFeature([EndUserSession, EndUserRefreshToken, TokenDenylistEntry])],
  controllers: [SessionsController],
  providers: [
    SessionsRepository,
    SessionsService,
    TokenDenylistRepository,
    TokenDenylistService,
    EndUserStrategy,
    {
      provide: AccessTokenCodec,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new AccessTokenCodec(config.AUTH_JWT_SECRET ?? '', config.ACCESS_TOKEN_TTL_SECONDS),
    },
  ],
  exports: [SessionsService],
})
export class SessionsModule {}
