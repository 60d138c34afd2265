import { Column, CreateDateColumn, Entity, Index, UpdateDateColumn } from 'typeorm';
import { Workspace } from '../../../workspaces/entities/workspace.entity';
import { ForeignKey } from '../../../database/foreign-key';
import { WorkspaceRow } from '../../../database/workspace-row';

/** A SCIM Group of a workspace; its members are rows of scim_group_members. */
@Entity('scim_groups')
// (workspace_id, lower(display_name)), unique: an expression index TypeORM cannot declare; the migration owns it.
// It makes displayName unique per workspace case-insensitively and serves displayName eq filters.
@Index('scim_groups_name_key', { synchronize: false })
@Index('scim_groups_workspace_created_idx', ['workspaceId', 'createdAt', 'id'])
// externalId eq filters (RFC 7643 §3.1); not unique: the client issues it.
@Index('scim_groups_external_id_idx', ['workspaceId', 'externalId'])
export class ScimGroup extends WorkspaceRow {
  @ForeignKey(() => Workspace, 'scim_groups', 'workspace_id') workspace?: Workspace;
  @Column('text', { name: 'display_name' }) displayName!: string;
  /** The identity provider's own id for the group, as sent (case-exact); null when none was sent. */
  @Column('text', { name: 'external_id', nullable: true }) externalId!: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
