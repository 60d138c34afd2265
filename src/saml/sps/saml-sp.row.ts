/** A row of saml_service_providers as read with SP_COLUMNS. */
export interface SamlSpRow {
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
  created_at: Date;
  updated_at: Date;
}

export const SP_COLUMNS =
  'id, workspace_id, name, sp_entity_id, acs_url, name_id_format, name_id_attribute, sign_assertions, attribute_mapping, sp_cert_pem, default_relay_state, is_active, created_at, updated_at';

export const toSpView = (r: SamlSpRow) => ({
  ...r,
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
});
