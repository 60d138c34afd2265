import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { Doc, Errors, Returns, NoContentRoute } from '../api-docs/decorators';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal } from '../common/auth/auth.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { AddMemberDto, CreateWorkspaceDto, UpdateWorkspaceDto } from './dto/workspace.dto';
import { type WorkspaceScope, WorkspaceScoped } from './workspace-scoped';
import { WorkspacesService } from './workspaces.service';
import { WorkspaceMemberSchema, WorkspaceSchema } from './workspaces.schemas';

@ApiTags('workspaces')
@Controller('e/v1/developer/workspaces')
@Auth('developer')
export class WorkspacesController {
  constructor(private readonly workspaces: WorkspacesService) {}

  @Doc('List my workspaces', 'Every workspace the caller is a member of (a bare array).')
  @Returns(200, WorkspaceSchema, 'The workspaces', { array: true })
  @Get()
  list(@CurrentPrincipal() p: DeveloperPrincipal) {
    return this.workspaces.list(p.developerId);
  }

  @Doc(
    'Create a workspace',
    'A workspace holds end users, SCIM tokens, OAuth clients, SAML apps and databases. The caller becomes its owner.',
  )
  @Returns(201, WorkspaceSchema, 'The new workspace')
  @Post()
  create(@CurrentPrincipal() p: DeveloperPrincipal, @Body() dto: CreateWorkspaceDto, @ReqMeta() meta: RequestMeta) {
    return this.workspaces.create(p, dto, meta);
  }

  @Doc('Show a workspace', 'Visible to its members only; anyone else gets 404.')
  @Returns(200, WorkspaceSchema, 'The workspace')
  @Errors([404, 'not_found', 'No such workspace, or the caller is not a member of it'])
  @Get(':id')
  get(@WorkspaceScoped('param', 'id') scope: WorkspaceScope) {
    return this.workspaces.get(scope);
  }

  @Doc('Rename or describe a workspace', 'Any member may change name and description; fields not sent are kept.')
  @Returns(200, WorkspaceSchema, 'The updated workspace')
  @Errors([404, 'not_found', 'No such workspace, or the caller is not a member of it'])
  @Patch(':id')
  update(
    @CurrentPrincipal() p: DeveloperPrincipal,
    @WorkspaceScoped('param', 'id') scope: WorkspaceScope,
    @Body() dto: UpdateWorkspaceDto,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.workspaces.update(p, scope, dto, meta);
  }

  @Doc('Delete a workspace', 'Owners only. Deletes the workspace and everything in it.')
  @NoContentRoute(
    Delete(':id'),
    'Deleted',
    [403, 'forbidden', 'The caller is a member but not an owner'],
    [404, 'not_found', 'No such workspace, or the caller is not a member of it'],
  )
  remove(@CurrentPrincipal() p: DeveloperPrincipal, @WorkspaceScoped('param', 'id') scope: WorkspaceScope, @ReqMeta() meta: RequestMeta) {
    return this.workspaces.remove(p, scope, meta);
  }

  @Doc('List workspace members', 'Developers of the workspace with their role.')
  @Returns(200, WorkspaceMemberSchema, 'The members', { list: true })
  @Errors([404, 'not_found', 'No such workspace, or the caller is not a member of it'])
  @Get(':id/members')
  async members(@WorkspaceScoped('param', 'id') scope: WorkspaceScope) {
    return { results: await this.workspaces.listMembers(scope) };
  }

  @Doc('Add a member', 'Owners only. The developer must already have signed up (400 otherwise). Role owner or member.')
  @Returns(201, WorkspaceMemberSchema, 'The new member')
  @Errors(
    [403, 'forbidden', 'The caller is a member but not an owner'],
    [404, 'not_found', 'No such workspace, or the caller is not a member of it'],
    [409, 'conflict', 'This developer is already a member'],
  )
  @Post(':id/members')
  addMember(
    @CurrentPrincipal() p: DeveloperPrincipal,
    @WorkspaceScoped('param', 'id') scope: WorkspaceScope,
    @Body() dto: AddMemberDto,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.workspaces.addMember(p, scope, dto, meta);
  }

  @Doc('Remove a member', 'Owners only. The last owner cannot be removed.')
  @NoContentRoute(
    Delete(':id/members/:developerId'),
    'Removed',
    [403, 'forbidden', 'The caller is a member but not an owner'],
    [404, 'not_found', 'No such workspace, or the caller is not a member of it'],
    [404, 'not_found', 'The developer is not a member'],
    [409, 'conflict', 'The last owner of a workspace cannot be removed'],
  )
  removeMember(
    @CurrentPrincipal() p: DeveloperPrincipal,
    @WorkspaceScoped('param', 'id') scope: WorkspaceScope,
    @Param('developerId') developerId: string,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.workspaces.removeMember(p, scope, developerId, meta);
  }
}
