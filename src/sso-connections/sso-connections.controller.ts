import { Param, Query } from '@nestjs/common';
import { Doc, type ErrorSpec } from '../api-docs/decorators';
import { ActionRoute, BAD_QUERY, ListRoute, noSuch } from '../api-docs/routes';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { DeveloperApi } from '../common/auth/developer-api.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { AttemptsQueryDto, CreateSsoConnectionDto, UpdateSsoConnectionDto } from './dto/sso-connection.dto';
import { SsoAttemptSchema, SsoConnectionSchema } from './sso-connection-views';
import { SsoConnectionsService } from './sso-connections.service';
import { DomainVerificationService } from './domains/domain-verification.service';
import { WorkspaceResourceRoutes } from '../workspaces/workspace-resource-routes';

const NOT_FOUND = noSuch('connection');
const DOMAIN_TAKEN: ErrorSpec = [409, 'domain_taken', 'Another connection of this workspace already serves one of the domains'];

/** Enterprise SSO connections ("external providers") of a workspace (docs/sso-connections.md). */
@DeveloperApi('developer/external-providers', 'sso-connections')
export class SsoConnectionsController extends WorkspaceResourceRoutes({
  noun: 'connection',
  schema: SsoConnectionSchema,
  create: {
    doc: [
      'Create an SSO connection',
      "Connects a workspace to its company's identity provider: OpenID Connect (we are the relying party: issuer, client_id, client_secret or private_key_jwt) or SAML 2.0 (we are the service provider). The answer carries the values to paste into the provider (redirect_uri, or sp_entity_id, acs_url and sp_metadata_url) and, per email domain, the DNS TXT record that verifies it. The client secret is stored encrypted and never shown. Audited as external_provider_create. Members of the workspace only.",
    ],
    body: CreateSsoConnectionDto,
    answer: 'The connection',
    errors: [
      [
        400,
        'validation_failed',
        "A field is missing or breaks its rule, or the other protocol's settings were sent (details names the field)",
      ],
      DOMAIN_TAKEN,
      [409, 'domain_claimed', 'Another workspace has verified one of the domains'],
    ],
  },
  list: {
    doc: ['List SSO connections', 'The connections of one workspace, oldest first, without secrets. Members of the workspace only.'],
    answer: 'The connections',
  },
  get: {
    doc: ['Show an SSO connection', 'Without secrets. Visible to members of its workspace only (404 to anyone else).'],
    answer: 'The connection',
  },
  update: {
    verb: 'PATCH',
    doc: [
      'Update an SSO connection',
      'Fields not sent are kept; the protocol cannot change. Sending domains replaces the list: kept domains keep their verification, new ones start unverified. A new client_secret replaces the stored one. Audited as external_provider_update.',
    ],
    body: UpdateSsoConnectionDto,
    answer: 'The updated connection',
    errors: [
      [400, 'validation_failed', "A field breaks its rule, or the other protocol's settings were sent (details names the field)"],
      DOMAIN_TAKEN,
      [409, 'domain_claimed', 'Another workspace has verified one of the new domains'],
    ],
  },
  remove: {
    doc: [
      'Delete an SSO connection',
      'The connection, its domains, bindings and attempts are removed; the people it signed in stay in the directory (with their sessions). Audited as external_provider_delete.',
    ],
  },
}) {
  constructor(
    protected readonly resources: SsoConnectionsService,
    private readonly domains: DomainVerificationService,
  ) {
    super();
  }

  @Doc(
    'Verify an email domain of an SSO connection',
    "Looks up the domain's DNS TXT record (`txt_record_name` in the connection's `domain_verifications`, holding `txt_record_value`) and, when it is published, marks the domain verified: the hosted login then sends people whose email is at this domain to the connection instead of asking for a password. A domain stays verified until it is removed from the connection; a verified domain answers at once, without a lookup. A domain is verified for one workspace at most. Audited as external_provider_update (metadata.domain_verified). Members of the workspace only.",
  )
  @ActionRoute(
    ':id/domains/:domain/verify',
    200,
    SsoConnectionSchema,
    'The connection, with the domain verified',
    [404, 'not_found', 'No such connection in a workspace of the caller, or the domain is not one of its domains'],
    [409, 'domain_claimed', 'Another workspace has verified this domain'],
    [422, 'txt_record_not_found', 'The TXT record is not published (yet); details shows the expected record and the values found'],
    [503, 'dns_lookup_failed', 'The DNS did not answer the lookup (timeout, server failure); try again'],
  )
  verifyDomain(
    @CurrentPrincipal() p: DeveloperPrincipal,
    @Param('id') id: string,
    @Param('domain') domain: string,
    @ReqMeta() meta: RequestMeta,
  ) {
    return this.domains.verify(p, id, domain, meta);
  }

  @Doc(
    'List sign-in attempts of an SSO connection',
    'The latest upstream answers to the connection, newest first (limit, default 50, up to 100): accepted, or refused with its reason (docs/sso-connections.md lists the reasons), with the upstream subject and email when the answer named them.',
  )
  @ListRoute(':id/attempts', SsoAttemptSchema, 'The attempts', BAD_QUERY, NOT_FOUND)
  async attempts(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @Query() query: AttemptsQueryDto) {
    return { results: await this.resources.attempts(p, id, query.limit ?? 50) };
  }
}
