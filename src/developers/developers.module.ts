import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommonModule } from '../common/common.module';
import { DEVELOPER_SESSION_AUTHENTICATOR } from '../common/auth/principal';
import { DeveloperAuthController } from './developer-auth.controller';
import { DeveloperBearerStrategy } from './developer-bearer.strategy';
import { DeveloperTokensController } from './developer-tokens.controller';
import { DeveloperSessionsRepository } from './developer-sessions.repository';
import { DeveloperTokensRepository } from './developer-tokens.repository';
import { DevelopersRepository } from './developers.repository';
import { DevelopersService } from './developers.service';
import { Developer } from './entities/developer.entity';
import { DeveloperSession } from './entities/developer-session.entity';
import { DeveloperToken } from './entities/developer-token.entity';

@Module({
  imports: [PassportModule, CommonModule, TypeOrmModule.forFeature([Developer, DeveloperSession, DeveloperToken])],
  controllers: [DeveloperAuthController, DeveloperTokensController],
  providers: [
    DevelopersService,
    DevelopersRepository,
    DeveloperSessionsRepository,
    DeveloperTokensRepository,
    DeveloperBearerStrategy,
    { provide: DEVELOPER_SESSION_AUTHENTICATOR, useExisting: DevelopersService },
  ],
  // The app's authentication guard takes the dashboard cookie to DEVELOPER_SESSION_AUTHENTICATOR.
  exports: [DevelopersService, DevelopersRepository, DEVELOPER_SESSION_AUTHENTICATOR],
})
export class DevelopersModule {}
