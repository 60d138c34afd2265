import { Doc, type ErrorSpec, NoContentRoute } from '../../api-docs/decorators';
import { DeveloperCreate, DeveloperList, noSuch, ReadRoute, ReplaceRoute } from '../../api-docs/routes';
import { Body, Delete, Param, Query } from '@nestjs/common';
import { CurrentPrincipal } from '../../common/auth/auth.decorator';
import { DeveloperApi } from '../../common/auth/developer-api.decorator';
import type { DeveloperPrincipal } from '../../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import { CreateSamlSpDto, UpdateSamlSpDto } from './dto/saml-sp.dto';
import { type WorkspaceScope, WorkspaceInBody, WorkspaceInQuery } from '../../workspaces/workspace-scoped';
import { SamlSpsService } from './saml-sps.service';
import { SamlServiceProviderSchema } from './saml-sp.view';
import { WorkspaceQueryDto } from '../../workspaces/dto/workspace.dto';

const NO_SP = noSuch('SAML app');
const ENTITY_ID_TAKEN: ErrorSpec = [409, 'sp_entity_id_taken', 'Another SP already uses this entity id'];

@DeveloperApi('developer/saml/sps', 'saml')
export class SamlSpsController {
  constructor(private readonly sps: SamlSpsService) {}

  @Doc(
    'Register a SAML service provider',
    'Adds an application that signs users in through this identity provider (SP-initiated SSO). Give sp_entity_id and acs_url, or the SP metadata XML to read them from. The entity id is unique across the service.',
  )
  @DeveloperCreate(SamlServiceProviderSchema, 'The registered SP', ENTITY_ID_TAKEN)
  create(@WorkspaceInBody() scope: WorkspaceScope, @Body() dto: CreateSamlSpDto, @ReqMeta() meta: RequestMeta) {
    return this.sps.create(scope, dto, meta);
  }

  @Doc('List SAML service providers', 'The SAML apps of one workspace.')
  @DeveloperList(SamlServiceProviderSchema, 'The SPs')
  async list(@WorkspaceInQuery() scope: WorkspaceScope, @Query() _query: WorkspaceQueryDto) {
    return { results: await this.sps.list(scope) };
  }

  @Doc('Show a SAML service provider', 'Visible to members of its workspace only.')
  @ReadRoute(':id', SamlServiceProviderSchema, 'The SP', NO_SP)
  get(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.sps.get(p, id);
  }

  @Doc('Update a SAML service provider', 'Fields not sent are kept. Set is_active=false to refuse its sign-ins without deleting it.')
  @ReplaceRoute(':id', SamlServiceProviderSchema, 'The updated SP', NO_SP, ENTITY_ID_TAKEN)
  update(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @Body() dto: UpdateSamlSpDto, @ReqMeta() meta: RequestMeta) {
    return this.sps.update(p, id, dto, meta);
  }

  @Doc('Delete a SAML service provider', 'Its sign-in requests are refused from now on.')
  @NoContentRoute(Delete(':id'), 'Deleted', NO_SP)
  remove(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.sps.remove(p, id, meta);
  }
}
