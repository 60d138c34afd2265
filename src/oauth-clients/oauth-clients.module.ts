import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OAuthClient } from './entities/oauth-client.entity';
import { OAuthClientsController } from './oauth-clients.controller';
import { OAuthClientsRepository } from './oauth-clients.repository';
import { OAuthClientsService } from './oauth-clients.service';

@Module({
  imports: [TypeOrmModule.forFeature([OAuthClient])],
  controllers: [OAuthClientsController],
  providers: [OAuthClientsService, OAuthClientsRepository],
  exports: [OAuthClientsService],
})
export class OAuthClientsModule {}
