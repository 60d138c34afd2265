import { Body, Delete, Param, Query } from '@nestjs/common';
import { Doc, NoContentRoute } from '../api-docs/decorators';
import { ActionRoute, DeveloperCreate, DeveloperList, noSuch, ReadRoute, ReplaceRoute } from '../api-docs/routes';
import { ApiBody } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { DeveloperApi } from '../common/auth/developer-api.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { CreateOAuthClientDto, UpdateOAuthClientDto } from './dto/oauth-client.dto';
import { type WorkspaceScope, WorkspaceInBody, WorkspaceInQuery } from '../workspaces/workspace-scoped';
import { OAuthClientsService } from './oauth-clients.service';
import { OAuthClientSchema, OAuthClientWithSecretSchema } from './oauth-clients.schemas';
import { WorkspaceQueryDto } from '../workspaces/dto/workspace.dto';

const NO_CLIENT = noSuch('OAuth client');

@DeveloperApi('developer/oauth/clients', 'oauth clients')
export class OAuthClientsController {
  constructor(private readonly clients: OAuthClientsService) {}

  @Doc(
    'Register an application (OAuth client)',
    'End users belong to an application: they register and sign in with its client_id. The client_secret is shown once and stored hashed; rotate it with POST …/secret/.',
  )
  @ApiBody({
    type: CreateOAuthClientDto,
    examples: {
      web: {
        summary: 'A web application (confidential: it keeps a secret)',
        value: {
          workspace_id: '3f1c2b7e-8a41-4d2e-9c55-0b6a7e1d9f20',
          name: 'Acme web app',
          redirect_uris: ['https://app.example.com/callback'],
        },
      },
      native: {
        summary: 'A native app (public, PKCE only): loopback and private-use scheme redirects (RFC 8252 §7.1, §7.3)',
        value: {
          workspace_id: '3f1c2b7e-8a41-4d2e-9c55-0b6a7e1d9f20',
          name: 'Acme for iOS',
          client_type: 'public',
          redirect_uris: ['com.example.app:/oauth2redirect', 'http://127.0.0.1/callback'],
        },
      },
    },
  })
  @DeveloperCreate(OAuthClientWithSecretSchema, 'The client and its secret, shown this once')
  create(@WorkspaceInBody() scope: WorkspaceScope, @Body() dto: CreateOAuthClientDto, @ReqMeta() meta: RequestMeta) {
    return this.clients.create(scope, dto, meta);
  }

  @Doc('List applications of a workspace', 'Without secrets.')
  @DeveloperList(OAuthClientSchema, 'The clients')
  async list(@WorkspaceInQuery() scope: WorkspaceScope, @Query() _query: WorkspaceQueryDto) {
    return { results: await this.clients.list(scope) };
  }

  @Doc('Show an application', 'Without its secret.')
  @ReadRoute(':id', OAuthClientSchema, 'The client', NO_CLIENT)
  get(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.clients.get(p, id);
  }

  @Doc('Update an application', 'Changes name and redirect URIs.')
  @ReplaceRoute(':id', OAuthClientSchema, 'The updated client', NO_CLIENT)
  update(
    @CurrentPrincipal() p: DeveloperPrincipal,
    @Param('id') id: string,
    @Body() dto: UpdateOAuthClientDto,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.clients.update(p, id, dto, meta);
  }

  @Doc('Delete an application', 'Its end users can no longer sign in through it.')
  @NoContentRoute(Delete(':id'), 'Deleted', NO_CLIENT)
  remove(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.clients.remove(p, id, meta);
  }

  @Doc('Rotate the client secret', 'Issues a new secret (shown once); the old one stops working at once.')
  @ActionRoute(':id/secret', 200, OAuthClientWithSecretSchema, 'The client with its new secret', NO_CLIENT)
  rotate(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.clients.rotateSecret(p, id, meta);
  }
}
