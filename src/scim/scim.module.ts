import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommonModule } from '../common/common.module';
import { OAuthModule } from '../oauth/oauth.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { ScimOAuthClientSecret } from './clients/entities/scim-oauth-client-secret.entity';
import { ScimOAuthClient } from './clients/entities/scim-oauth-client.entity';
import { ScimAccessTokens } from './clients/scim-access-tokens';
import { ScimClientStore } from './clients/scim-client.store';
import { ScimClientsController } from './clients/scim-clients.controller';
import { ScimClientsRepository } from './clients/scim-clients.repository';
import { ScimClientsService } from './clients/scim-clients.service';
import { ScimDiscoveryController } from './discovery/scim-discovery.controller';
import { ScimGroupMember } from './groups/entities/scim-group-member.entity';
import { ScimGroup } from './groups/entities/scim-group.entity';
import { ScimGroupsController } from './groups/scim-groups.controller';
import { ScimGroupsRepository } from './groups/scim-groups.repository';
import { ScimGroupsService } from './groups/scim-groups.service';
import { ScimSearchController } from './search/scim-search.controller';
import { ScimSearchService } from './search/scim-search.service';
import { ScimToken } from './tokens/entities/scim-token.entity';
import { ScimBearerStrategy } from './tokens/scim-bearer.strategy';
import { ScimTokensController } from './tokens/scim-tokens.controller';
import { ScimTokensRepository } from './tokens/scim-tokens.repository';
import { ScimTokensService } from './tokens/scim-tokens.service';
import { ScimUsersController } from './users/scim-users.controller';
import { ScimUsersRepository } from './users/scim-users.repository';
import { SessionsModule } from '../sessions/sessions.module';
import { ScimUsersService } from './users/scim-users.service';

/** SCIM 2.0 server (spec area A): tokens, OAuth clients, Users, Groups, discovery. */
@Module({
  imports: [
    TypeOrmModule.forFeature([ScimToken, ScimGroup, ScimGroupMember, ScimOAuthClient, ScimOAuthClientSecret]),
    CommonModule,
    WorkspacesModule,
    OAuthModule,
    SessionsModule,
  ],
  controllers: [
    ScimTokensController,
    ScimClientsController,
    ScimUsersController,
    ScimGroupsController,
    ScimDiscoveryController,
    ScimSearchController,
  ],
  providers: [
    ScimTokensRepository,
    ScimTokensService,
    ScimBearerStrategy,
    ScimClientsRepository,
    ScimClientsService,
    ScimClientStore,
    ScimAccessTokens,
    ScimUsersRepository,
    ScimUsersService,
    ScimGroupsRepository,
    ScimGroupsService,
    ScimSearchService,
  ],
  exports: [ScimTokensService],
})
export class ScimModule {}
