import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal } from '../common/auth/auth.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { AddMemberDto, CreateWorkspaceDto, UpdateWorkspaceDto } from './dto/workspace.dto';
import { WorkspacesService } from './workspaces.service';

@ApiTags('workspaces')
@Controller('e/v1/developer/workspaces')
@Auth('developer')
export class WorkspacesController {
  constructor(private readonly workspaces: WorkspacesService) {}

  @Get()
  list(@CurrentPrincipal() p: DeveloperPrincipal) {
    return this.workspaces.list(p.developerId);
  }

  @Post()
  create(@CurrentPrincipal() p: DeveloperPrincipal, @Body() dto: CreateWorkspaceDto, @ReqMeta() meta: RequestMeta) {
    return this.workspaces.create(p, dto, meta);
  }

  @Get(':id')
  get(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.workspaces.get(p.developerId, id);
  }

  @Patch(':id')
  update(
    @CurrentPrincipal() p: DeveloperPrincipal,
    @Param('id') id: string,
    @Body() dto: UpdateWorkspaceDto,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.workspaces.update(p, id, dto, meta);
  }

  @Delete(':id')
  @HttpCode(204)
  remove(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.workspaces.remove(p, id, meta);
  }

  @Get(':id/members')
  async members(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return { results: await this.workspaces.listMembers(p.developerId, id) };
  }

  @Post(':id/members')
  addMember(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @Body() dto: AddMemberDto, @ReqMeta() meta: RequestMeta) {
    return this.workspaces.addMember(p, id, dto, meta);
  }

  @Delete(':id/members/:developerId')
  @HttpCode(204)
  removeMember(
    @CurrentPrincipal() p: DeveloperPrincipal,
    @Param('id') id: string,
    @Param('developerId') developerId: string,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.workspaces.removeMember(p, id, developerId, meta);
  }
}
