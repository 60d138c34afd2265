import { Body, Delete, HttpCode, Param } from '@nestjs/common';
import { Doc, Errors, Returns } from '../../api-docs/decorators';
import { DeveloperCreate, noSuch } from '../../api-docs/routes';
import { CurrentPrincipal } from '../../common/auth/auth.decorator';
import { DeveloperApi } from '../../common/auth/developer-api.decorator';
import type { DeveloperPrincipal } from '../../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import { CreateScimTokenDto } from './scim-token.dto';
import { WorkspaceResourceRoutes } from '../../workspaces/workspace-resource-routes';
import { type WorkspaceScope, WorkspaceInBody } from '../../workspaces/workspace-scoped';
import { ScimTokensService } from './scim-tokens.service';
import { ScimTokenCreatedSchema, ScimTokenRevokedSchema, ScimTokenSchema } from './scim-tokens.schemas';

@DeveloperApi('developer/scim/tokens', 'scim tokens')
export class ScimTokensController extends WorkspaceResourceRoutes({
  noun: 'token',
  schema: ScimTokenSchema,
  list: { doc: ['List SCIM tokens of a workspace', 'Active and revoked tokens, never their value.'], answer: 'The tokens' },
}) {
  constructor(protected readonly resources: ScimTokensService) {
    super();
  }

  @Doc(
    'Mint a SCIM token',
    'Creates the bearer token (`scim_…`, opaque) an identity provider (Okta, Entra ID) uses for /scim/v2 of this workspace. Shown once, stored as a hash. Without expires_at it lasts until revoked.',
  )
  @DeveloperCreate(ScimTokenCreatedSchema, 'The token, shown this once')
  mint(@WorkspaceInBody() scope: WorkspaceScope, @Body() dto: CreateScimTokenDto, @ReqMeta() meta: RequestMeta) {
    return this.resources.mint(scope, dto, meta);
  }

  /** Unlike the other resources' DELETE, it answers 200 with the revoked token. */
  @Doc(
    'Revoke a SCIM token',
    'Stops the token on every instance before answering. Idempotent: revoking again returns the first revoked_at.',
  )
  @Returns(200, ScimTokenRevokedSchema, 'Revoked')
  @Errors(noSuch('token'))
  @Delete(':id')
  @HttpCode(200)
  revoke(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.resources.revoke(p, id, meta);
  }
}
