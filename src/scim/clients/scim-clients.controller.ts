import { Body, Delete, Param } from '@nestjs/common';
import { Doc, type ErrorSpec, NoContentRoute } from '../../api-docs/decorators';
import { CreateRoute, noSuch, ReplaceRoute } from '../../api-docs/routes';
import { CurrentPrincipal } from '../../common/auth/auth.decorator';
import { DeveloperApi } from '../../common/auth/developer-api.decorator';
import type { DeveloperPrincipal } from '../../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import { CreateScimClientDto, CreateScimClientSecretDto, ScimClientFederationDto, ScimClientKeysDto } from './scim-client.dto';
import { WorkspaceResourceRoutes } from '../../workspaces/workspace-resource-routes';
import { ScimClientsService } from './scim-clients.service';
import { ScimClientCreatedSchema, ScimClientSchema, ScimClientSecretCreatedSchema } from './scim-client.views';

const NO_CLIENT = noSuch('SCIM client');
const REVOKED: ErrorSpec = [409, 'client_revoked', 'The client is revoked'];
const TOO_MANY: ErrorSpec = [409, 'too_many_secrets', 'The client already has 5 live secrets'];

@DeveloperApi('developer/scim/clients', 'scim clients')
export class ScimClientsController extends WorkspaceResourceRoutes({
  noun: 'SCIM client',
  schema: ScimClientSchema,
  create: {
    doc: [
      'Create a SCIM OAuth client',
      'An identity provider that authenticates to /scim/v2 with OAuth 2.0 instead of a static `scim_` token: it gets short-lived access tokens from POST /oauth/token (client credentials, private_key_jwt, or the JWT-bearer grant). Answers the client_id and a first secret (`value`, shown once, stored hashed; expires_at default one year).',
    ],
    body: CreateScimClientDto,
    created: ScimClientCreatedSchema,
    answer: 'The client and its first secret, shown this once',
  },
  list: {
    doc: ['List SCIM OAuth clients of a workspace', "Live and revoked clients with their secrets' ids and expiries, never a secret value."],
    answer: 'The clients',
  },
  get: {
    doc: ['Show a SCIM OAuth client', 'With its secrets (ids, expiries, revocations), keys and trusted issuer.'],
    answer: 'The client',
  },
}) {
  constructor(protected readonly resources: ScimClientsService) {
    super();
  }

  @Doc(
    'Revoke a SCIM OAuth client',
    'The client can no longer get tokens, and every access token it holds is refused on its next use, on every instance. Idempotent.',
  )
  @NoContentRoute(Delete(':id'), 'Revoked', NO_CLIENT)
  revoke(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.resources.revoke(p, id, meta);
  }

  @Doc(
    'Add a client secret',
    'Another live secret (rotation without downtime: configure the new one, then revoke the old). Shown once; expires_at default one year, at most five. At most 5 live secrets.',
  )
  @CreateRoute(':id/secrets', ScimClientSecretCreatedSchema, 'The secret, shown this once', NO_CLIENT, REVOKED, TOO_MANY)
  createSecret(
    @CurrentPrincipal() p: DeveloperPrincipal,
    @Param('id') id: string,
    @Body() dto: CreateScimClientSecretDto,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.resources.createSecret(p, id, dto, meta);
  }

  @Doc(
    'Revoke a client secret',
    'It can no longer get tokens, and the access tokens issued under it are refused on their next use. Idempotent.',
  )
  @NoContentRoute(Delete(':id/secrets/:secretId'), 'Revoked', [
    404,
    'not_found',
    'No such client in a workspace of the caller, or no such secret of it',
  ])
  revokeSecret(
    @CurrentPrincipal() p: DeveloperPrincipal,
    @Param('id') id: string,
    @Param('secretId') secretId: string,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.resources.revokeSecret(p, id, secretId, meta);
  }

  @Doc(
    'Register keys for private_key_jwt',
    'Either `jwks_uri` (fetched over https, cached) or `jwks` (a JWK Set of 1 to 10 public keys). The client then authenticates with a JWT it signs (RFC 7523 §2.2). Replaces earlier keys.',
  )
  @ReplaceRoute(':id/keys', ScimClientSchema, 'The client', NO_CLIENT, REVOKED)
  setKeys(
    @CurrentPrincipal() p: DeveloperPrincipal,
    @Param('id') id: string,
    @Body() dto: ScimClientKeysDto,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.resources.setKeys(p, id, dto, meta);
  }

  @Doc(
    'Trust an external issuer (JWT-bearer grant)',
    "The client may exchange a JWT of this issuer (signed by a key of `jwks_uri`, `sub` = `subject`, `aud` = `audience` or this server's issuer or token endpoint) for an access token (RFC 7523 §2.1): Entra ID workload identity federation, with no secret at all. Replaces an earlier trust.",
  )
  @ReplaceRoute(':id/federation', ScimClientSchema, 'The client', NO_CLIENT, REVOKED)
  setFederation(
    @CurrentPrincipal() p: DeveloperPrincipal,
    @Param('id') id: string,
    @Body() dto: ScimClientFederationDto,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.resources.setFederation(p, id, dto, meta);
  }
}
