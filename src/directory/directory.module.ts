import { Module } from '@nestjs/common';
import { EndUsersModule } from '../end-users/end-users.module';
import { ScimModule } from '../scim/scim.module';
import { DirectoryController } from './directory.controller';
import { DirectoryService } from './directory.service';

/**
 * The developer's directory of a workspace (docs/directory.md): people and groups, read through the
 * modules that own them. Above both: the arrows run directory → scim → end-users.
 */
@Module({
  imports: [EndUsersModule, ScimModule],
  controllers: [DirectoryController],
  providers: [DirectoryService],
})
export class DirectoryModule {}
