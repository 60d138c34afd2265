import { Body, Delete, Get, Param } from '@nestjs/common';
import { Doc, type ErrorSpec, Returns, NoContentRoute } from '../api-docs/decorators';
import { CreateRoute, ListRoute, NOT_A_MEMBER, ReadRoute, UpdateRoute } from '../api-docs/routes';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { DeveloperApi } from '../common/auth/developer-api.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { AddMemberDto, CreateWorkspaceDto, UpdateWorkspaceDto } from './dto/workspace.dto';
import { type WorkspaceScope, WorkspaceScoped } from './workspace-scoped';
import { WorkspacesService } from './workspaces.service';
import { WorkspaceMemberSchema, WorkspaceSchema } from './workspaces.schemas';

const NOT_OWNER: ErrorSpec = [403, 'forbidden', 'The caller is a member but not an owner'];
const ALREADY_A_MEMBER: ErrorSpec = [409, 'conflict', 'This developer is already a member'];

@DeveloperApi('e/v1/developer/workspaces', 'workspaces')
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
  @CreateRoute('', WorkspaceSchema, 'The new workspace')
  create(@CurrentPrincipal() p: DeveloperPrincipal, @Body() dto: CreateWorkspaceDto, @ReqMeta() meta: RequestMeta) {
    return this.workspaces.create(p, dto, meta);
  }

  @Doc('Show a workspace', 'Visible to its members only; anyone else gets 404.')
  @ReadRoute(':id', WorkspaceSchema, 'The workspace', NOT_A_MEMBER)
  get(@WorkspaceScoped('param', 'id') scope: WorkspaceScope) {
    return this.workspaces.get(scope);
  }

  @Doc('Rename or describe a workspace', 'Any member may change name and description; fields not sent are kept.')
  @UpdateRoute(':id', WorkspaceSchema, 'The updated workspace', NOT_A_MEMBER)
  update(@WorkspaceScoped('param', 'id') scope: WorkspaceScope, @Body() dto: UpdateWorkspaceDto, @ReqMeta() meta: RequestMeta) {
    return this.workspaces.update(scope, dto, meta);
  }

  @Doc('Delete a workspace', 'Owners only. Deletes the workspace and everything in it.')
  @NoContentRoute(Delete(':id'), 'Deleted', NOT_OWNER, NOT_A_MEMBER)
  remove(@WorkspaceScoped('param', 'id') scope: WorkspaceScope, @ReqMeta() meta: RequestMeta) {
    return this.workspaces.remove(scope, meta);
  }

  @Doc('List workspace members', 'Developers of the workspace with their role.')
  @ListRoute(':id/members', WorkspaceMemberSchema, 'The members', NOT_A_MEMBER)
  async members(@WorkspaceScoped('param', 'id') scope: WorkspaceScope) {
    return { results: await this.workspaces.listMembers(scope) };
  }

  @Doc('Add a member', 'Owners only. The developer must already have signed up (400 otherwise). Role owner or member.')
  @CreateRoute(':id/members', WorkspaceMemberSchema, 'The new member', NOT_OWNER, NOT_A_MEMBER, ALREADY_A_MEMBER)
  addMember(@WorkspaceScoped('param', 'id') scope: WorkspaceScope, @Body() dto: AddMemberDto, @ReqMeta() meta: RequestMeta) {
    return this.workspaces.addMember(scope, dto, meta);
  }

  @Doc('Remove a member', 'Owners only. The last owner cannot be removed.')
  @NoContentRoute(
    Delete(':id/members/:developerId'),
    'Removed',
    NOT_OWNER,
    NOT_A_MEMBER,
    [404, 'not_found', 'The developer is not a member'],
    [409, 'conflict', 'The last owner of a workspace cannot be removed'],
  )
  removeMember(
    @WorkspaceScoped('param', 'id') scope: WorkspaceScope,
    @Param('developerId') developerId: string,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.workspaces.removeMember(scope, developerId, meta);
  }
}
