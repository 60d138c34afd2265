import type { SamlServiceProvider } from './entities/saml-service-provider.entity';

/** The API shape of a registered SP (snake_case, ISO 8601 UTC). */
export interface SamlSpView {
  id: string;
  workspace_id: string;
  name: string;
  sp_entity_id: string;
  acs_url: string;
  name_id_format: string;
  name_id_attribute: string;
  sign_assertions: boolean;
  attribute_mapping: Record<string, string>;
  sp_cert_pem: string | null;
  default_relay_state: string | null;
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

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
