import { Body, Delete, HttpCode, Param, Query } from '@nestjs/common';
import { Doc, Errors, Returns } from '../../api-docs/decorators';
import { DeveloperCreate, DeveloperList, noSuch } from '../../api-docs/routes';
import { CurrentPrincipal } from '../../common/auth/auth.decorator';
import { DeveloperApi } from '../../common/auth/developer-api.decorator';
import type { DeveloperPrincipal } from '../../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import { CreateScimTokenDto } from './scim-token.dto';
import { type WorkspaceScope, WorkspaceInBody, WorkspaceInQuery } from '../../workspaces/workspace-scoped';
import { ScimTokensService } from './scim-tokens.service';
import { ScimTokenCreatedSchema, ScimTokenRevokedSchema, ScimTokenSchema } from './scim-tokens.schemas';
import { WorkspaceQueryDto } from '../../workspaces/dto/workspace.dto';

@DeveloperApi('developer/scim/tokens', 'scim tokens')
export class ScimTokensController {
  constructor(private readonly tokens: ScimTokensService) {}

  @Doc(
    'Mint a SCIM token',
    'Creates the bearer token (`scim_…`, opaque) an identity provider (Okta, Entra ID) uses for /scim/v2 of this workspace. Shown once, stored as a hash. Without expires_at it lasts until revoked.',
  )
  @DeveloperCreate(ScimTokenCreatedSchema, 'The token, shown this once')
  mint(@WorkspaceInBody() scope: WorkspaceScope, @Body() dto: CreateScimTokenDto, @ReqMeta() meta: RequestMeta) {
    return this.tokens.mint(scope, dto, meta);
  }

  @Doc('List SCIM tokens of a workspace', 'Active and revoked tokens, never their value.')
  @DeveloperList(ScimTokenSchema, 'The tokens')
  async list(@WorkspaceInQuery() scope: WorkspaceScope, @Query() _query: WorkspaceQueryDto) {
    return { results: await this.tokens.list(scope) };
  }

  @Doc(
    'Revoke a SCIM token',
    'Stops the token on every instance before answering. Idempotent: revoking again returns the first revoked_at.',
  )
  @Returns(200, ScimTokenRevokedSchema, 'Revoked')
  @Errors(noSuch('token'))
  @Delete(':id')
  @HttpCode(200)
  revoke(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.tokens.revoke(p, id, meta);
  }
}
