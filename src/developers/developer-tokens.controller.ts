import { Body, Delete, Param } from '@nestjs/common';
import { Doc, NoContentRoute } from '../api-docs/decorators';
import { CreateRoute, ListRoute } from '../api-docs/routes';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { DeveloperApi } from '../common/auth/developer-api.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { DevelopersService } from './developers.service';
import { CreateDeveloperTokenDto } from './dto/developer-auth.dto';
import { DeveloperTokenCreatedSchema, DeveloperTokenSchema } from './developers.schemas';

@DeveloperApi('developer/tokens', 'developer tokens')
export class DeveloperTokensController {
  constructor(private readonly developers: DevelopersService) {}

  @Doc(
    'Mint a developer access token',
    'Creates a bearer token (`dat_…`, opaque) for scripts and CI: send it as `Authorization: Bearer dat_…` to any dashboard route, no CSRF header needed. The token is shown once and stored only as a hash. Without expires_at it lasts until revoked.',
  )
  @CreateRoute('', DeveloperTokenCreatedSchema, 'The token, shown this once')
  create(@CurrentPrincipal() principal: DeveloperPrincipal, @Body() dto: CreateDeveloperTokenDto, @ReqMeta() meta: RequestMeta) {
    return this.developers.createToken(principal, dto, meta);
  }

  @Doc('List developer access tokens', "The caller's tokens that are not revoked, without their secret value.")
  @ListRoute('', DeveloperTokenSchema, 'Unrevoked tokens')
  async list(@CurrentPrincipal() principal: DeveloperPrincipal) {
    return { results: await this.developers.listTokens(principal.developerId) };
  }

  @Doc('Revoke a developer access token', 'The token stops working at once on every instance.')
  @NoContentRoute(Delete(':id'), 'Revoked', [404, 'not_found', "No such token among the caller's"])
  revoke(@CurrentPrincipal() principal: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.developers.revokeToken(principal, id, meta);
  }
}
