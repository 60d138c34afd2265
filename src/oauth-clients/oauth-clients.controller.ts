import { Param } from '@nestjs/common';
import { Doc } from '../api-docs/decorators';
import { ActionRoute, noSuch } from '../api-docs/routes';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { DeveloperApi } from '../common/auth/developer-api.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { CreateOAuthClientDto, UpdateOAuthClientDto } from './dto/oauth-client.dto';
import { OAuthClientsService } from './oauth-clients.service';
import { OAuthClientSchema, OAuthClientWithSecretSchema } from './oauth-clients.schemas';
import { WorkspaceResourceRoutes } from '../workspaces/workspace-resource-routes';

@DeveloperApi('developer/oauth/clients', 'oauth clients')
export class OAuthClientsController extends WorkspaceResourceRoutes({
  noun: 'OAuth client',
  schema: OAuthClientSchema,
  create: {
    doc: [
      'Register an application (OAuth client)',
      'End users belong to an application: they register and sign in with its client_id. The client_secret is shown once and stored hashed; rotate it with POST …/secret/.',
    ],
    body: CreateOAuthClientDto,
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
    created: OAuthClientWithSecretSchema,
    answer: 'The client and its secret, shown this once',
  },
  list: { doc: ['List applications of a workspace', 'Without secrets.'], answer: 'The clients' },
  get: { doc: ['Show an application', 'Without its secret.'], answer: 'The client' },
  update: {
    verb: 'PUT',
    doc: ['Update an application', 'Changes name and redirect URIs.'],
    body: UpdateOAuthClientDto,
    answer: 'The updated client',
  },
  remove: { doc: ['Delete an application', 'Its end users can no longer sign in through it.'] },
}) {
  constructor(protected readonly resources: OAuthClientsService) {
    super();
  }

  @Doc('Rotate the client secret', 'Issues a new secret (shown once); the old one stops working at once.')
  @ActionRoute(':id/secret', 200, OAuthClientWithSecretSchema, 'The client with its new secret', noSuch('OAuth client'))
  rotate(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.resources.rotateSecret(p, id, meta);
  }
}
