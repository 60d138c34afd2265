import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommonModule } from '../common/common.module';
import { DevelopersModule } from '../developers/developers.module';
import { WorkspaceMember } from './entities/workspace-member.entity';
import { Workspace } from './entities/workspace.entity';
import { WorkspaceMembersRepository } from './workspace-members.repository';
import { WorkspaceMembership } from './workspace-membership';
import { WorkspacesController } from './workspaces.controller';
import { WorkspacesRepository } from './workspaces.repository';
import { WorkspacesService } from './workspaces.service';

/**
 * Workspaces and their members, and the membership check (WorkspaceMembership) behind
 * WorkspaceMemberGuard, which the app registers globally after authentication.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Workspace, WorkspaceMember]), DevelopersModule, CommonModule],
  controllers: [WorkspacesController],
  providers: [WorkspacesService, WorkspacesRepository, WorkspaceMembersRepository, WorkspaceMembership],
  exports: [WorkspacesService, WorkspaceMembership],
})
export class WorkspacesModule {}
