import { Module } from '@nestjs/common';
import { ScimDiscoveryController } from './discovery/scim-discovery.controller';
import { ScimGroupsController } from './groups/scim-groups.controller';
import { ScimGroupsRepository } from './groups/scim-groups.repository';
import { ScimGroupsService } from './groups/scim-groups.service';
import { ScimBearerStrategy } from './tokens/scim-bearer.strategy';
import { ScimTokensController } from './tokens/scim-tokens.controller';
import { ScimTokensService } from './tokens/scim-tokens.service';
import { ScimUsersController } from './users/scim-users.controller';
import { ScimUsersRepository } from './users/scim-users.repository';
import { ScimUsersService } from './users/scim-users.service';

/** SCIM 2.0 server (spec area A): tokens, Users, Groups, discovery. */
@Module({
  controllers: [ScimTokensController, ScimUsersController, ScimGroupsController, ScimDiscoveryController],
  providers: [ScimTokensService, ScimBearerStrategy, ScimUsersRepository, ScimUsersService, ScimGroupsRepository, ScimGroupsService],
  exports: [ScimTokensService],
})
export class ScimModule {}
