import { Module } from '@nestjs/common';
import { OAuthClientsController } from './oauth-clients.controller';
import { OAuthClientsService } from './oauth-clients.service';

@Module({ controllers: [OAuthClientsController], providers: [OAuthClientsService], exports: [OAuthClientsService] })
export class OAuthClientsModule {}
