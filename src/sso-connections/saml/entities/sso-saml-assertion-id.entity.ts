import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/** An assertion ID a SAML connection accepted, kept until the assertion could no longer be presented. */
@Entity('sso_saml_assertion_ids')
@Index('sso_saml_assertion_ids_expiry_idx', ['expiresAt'])
export class SsoSamlAssertionId {
  @PrimaryColumn('uuid', { name: 'connection_id' }) connectionId!: string;
  @PrimaryColumn('text', { name: 'assertion_id' }) assertionId!: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId!: string;
  // Named by table: the workspaces entity belongs to the workspaces module.
  @ManyToOne('workspaces', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'sso_saml_assertion_ids_workspace_id_fkey' })
  workspace?: object;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt!: Date;
}
