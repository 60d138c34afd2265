import { Doc, Errors, Returns, NoContentRoute } from '../../api-docs/decorators';
import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal } from '../../common/auth/auth.decorator';
import type { DeveloperPrincipal } from '../../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import { CreateSamlSpDto, SamlSpListQueryDto, UpdateSamlSpDto } from './dto/saml-sp.dto';
import { type WorkspaceScope, WorkspaceScoped } from '../../workspaces/workspace-scoped';
import { SamlSpsService } from './saml-sps.service';
import { SamlServiceProviderSchema } from './saml-sp.view';

@ApiTags('saml')
@Controller('developer/saml/sps')
@Auth('developer')
export class SamlSpsController {
  constructor(private readonly sps: SamlSpsService) {}

  @Doc(
    'Register a SAML service provider',
    'Adds an application that signs users in through this identity provider (SP-initiated SSO). Give sp_entity_id and acs_url, or the SP metadata XML to read them from. The entity id is unique across the service.',
  )
  @Returns(201, SamlServiceProviderSchema, 'The registered SP')
  @Errors(
    [404, 'not_found', 'No such workspace, or the caller is not a member of it'],
    [409, 'sp_entity_id_taken', 'Another SP already uses this entity id'],
  )
  @Post()
  create(
    @CurrentPrincipal() p: DeveloperPrincipal,
    @WorkspaceScoped('body', 'workspace_id') scope: WorkspaceScope,
    @Body() dto: CreateSamlSpDto,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.sps.create(p, scope, dto, meta);
  }

  @Doc('List SAML service providers', 'The SAML apps of one workspace.')
  @Returns(200, SamlServiceProviderSchema, 'The SPs', { list: true })
  @Errors(
    [400, 'validation_failed', 'A query parameter breaks its rule (details names it)'],
    [404, 'not_found', 'No such workspace, or the caller is not a member of it'],
  )
  @Get()
  async list(@WorkspaceScoped('query', 'workspace_id') scope: WorkspaceScope, @Query() _query: SamlSpListQueryDto) {
    return { results: await this.sps.list(scope) };
  }

  @Doc('Show a SAML service provider', 'Visible to members of its workspace only.')
  @Returns(200, SamlServiceProviderSchema, 'The SP')
  @Errors([404, 'not_found', 'No such SAML app in a workspace of the caller'])
  @Get(':id')
  get(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.sps.get(p, id);
  }

  @Doc('Update a SAML service provider', 'Fields not sent are kept. Set is_active=false to refuse its sign-ins without deleting it.')
  @Returns(200, SamlServiceProviderSchema, 'The updated SP')
  @Errors(
    [404, 'not_found', 'No such SAML app in a workspace of the caller'],
    [409, 'sp_entity_id_taken', 'Another SP already uses this entity id'],
  )
  @Put(':id')
  update(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @Body() dto: UpdateSamlSpDto, @ReqMeta() meta: RequestMeta) {
    return this.sps.update(p, id, dto, meta);
  }

  @Doc('Delete a SAML service provider', 'Its sign-in requests are refused from now on.')
  @NoContentRoute(Delete(':id'), 'Deleted', [404, 'not_found', 'No such SAML app in a workspace of the caller'])
  remove(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.sps.remove(p, id, meta);
  }
}
