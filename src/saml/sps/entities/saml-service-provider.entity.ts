import { Column, Entity, Index } from 'typeorm';
import { ForeignKey } from '../../../database/foreign-key';
import { WorkspaceRow } from '../../../database/workspace-row';

/**
 * A service provider registered in a workspace (spec B). The entity id is unique across the
 * service: an AuthnRequest's Issuer names its SP without naming a workspace.
 */
@Entity('saml_service_providers')
@Index('saml_service_providers_entity_id_key', ['spEntityId'], { unique: true })
@Index('saml_service_providers_workspace_idx', ['workspaceId', 'createdAt'])
export class SamlServiceProvider extends WorkspaceRow {
  // Named by table: the workspaces entity belongs to the workspaces module.
  @ForeignKey('workspaces', 'saml_service_providers', 'workspace_id', { onDelete: 'CASCADE' }) workspace?: object;
  @Column('text') name!: string;
  @Column('text', { name: 'sp_entity_id' }) spEntityId!: string;
  @Column('text', { name: 'acs_url' }) acsUrl!: string;
  @Column('text', { name: 'name_id_format' }) nameIdFormat!: string;
  @Column('text', { name: 'name_id_attribute', default: 'email' }) nameIdAttribute!: string;
  @Column('boolean', { name: 'sign_assertions', default: true }) signAssertions!: boolean;
  @Column('jsonb', { name: 'attribute_mapping', default: {} }) attributeMapping!: Record<string, string>;
  @Column('text', { name: 'sp_cert_pem', nullable: true }) spCertPem!: string | null;
  @Column('text', { name: 'default_relay_state', nullable: true }) defaultRelayState!: string | null;
  @Column('boolean', { name: 'is_active', default: true }) isActive!: boolean;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' }) updatedAt!: Date;
}
