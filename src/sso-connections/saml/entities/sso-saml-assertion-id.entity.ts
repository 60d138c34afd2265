import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../../database/foreign-key';

/** An assertion ID a SAML connection accepted, kept until the assertion could no longer be presented. */
@Entity('sso_saml_assertion_ids')
@Index('sso_saml_assertion_ids_expiry_idx', ['expiresAt'])
export class SsoSamlAssertionId {
  @PrimaryColumn('uuid', { name: 'connection_id' }) connectionId!: string;
  @PrimaryColumn('text', { name: 'assertion_id' }) assertionId!: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId!: string;
  // Named by table: the workspaces entity belongs to the workspaces module.
  @ForeignKey('workspaces', 'sso_saml_assertion_ids', 'workspace_id', { onDelete: 'CASCADE' }) workspace?: object;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt!: Date;
}
