import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DevelopersModule } from '../developers/developers.module';
import { WorkspaceMember } from './entities/workspace-member.entity';
import { Workspace } from './entities/workspace.entity';
import { WorkspaceMembersRepository } from './workspace-members.repository';
import { WorkspacesController } from './workspaces.controller';
import { WorkspacesRepository } from './workspaces.repository';
import { WorkspacesService } from './workspaces.service';

/** Global: every developer-facing module checks membership through WorkspacesService. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Workspace, WorkspaceMember]), DevelopersModule],
  controllers: [WorkspacesController],
  providers: [WorkspacesService, WorkspacesRepository, WorkspaceMembersRepository],
  exports: [WorkspacesService],
})
export class WorkspacesModule {}
