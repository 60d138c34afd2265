import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A SCIM Group of a workspace; its members are rows of scim_group_members. */
@Entity('scim_groups')
// (workspace_id, lower(display_name)), unique: an expression index TypeORM cannot declare; the migration owns it.
// It makes displayName unique per workspace case-insensitively and serves displayName eq filters.
@Index('scim_groups_name_key', { synchronize: false })
@Index('scim_groups_workspace_created_idx', ['workspaceId', 'createdAt', 'id'])
export class ScimGroup {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId!: string;
  @Column('text', { name: 'display_name' }) displayName!: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
