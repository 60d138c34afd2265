import type { SamlServiceProvider } from './entities/saml-service-provider.entity';
import { allRequiredSchema, id, str, time, type ViewOf } from '../../api-docs/response-schema';

export const SamlServiceProviderSchema = allRequiredSchema('SamlServiceProvider', {
  type: 'object',
  properties: {
    id,
    workspace_id: id,
    name: str('Acme wiki'),
    sp_entity_id: str('https://wiki.example.com/saml/metadata'),
    acs_url: str('https://wiki.example.com/saml/acs', { format: 'uri' }),
    name_id_format: str('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'),
    name_id_attribute: str('email'),
    sign_assertions: { type: 'boolean', example: true },
    attribute_mapping: { type: 'object', additionalProperties: { type: 'string' }, example: { email: 'email', firstName: 'first_name' } },
    sp_cert_pem: { type: 'string', nullable: true, example: null },
    default_relay_state: { type: 'string', nullable: true, example: null },
    is_active: { type: 'boolean', example: true },
    created_at: time,
    updated_at: time,
  },
});

/** The API shape of a registered SP (snake_case, ISO 8601 UTC). */
export type SamlSpView = ViewOf<typeof SamlServiceProviderSchema>;

export const toSpView = (sp: SamlServiceProvider): SamlSpView => ({
  id: sp.id,
  workspace_id: sp.workspaceId,
  name: sp.name,
  sp_entity_id: sp.spEntityId,
  acs_url: sp.acsUrl,
  name_id_format: sp.nameIdFormat,
  name_id_attribute: sp.nameIdAttribute,
  sign_assertions: sp.signAssertions,
  attribute_mapping: sp.attributeMapping,
  sp_cert_pem: sp.spCertPem,
  default_relay_state: sp.defaultRelayState,
  is_active: sp.isActive,
  created_at: sp.createdAt.toISOString(),
  updated_at: sp.updatedAt.toISOString(),
});
