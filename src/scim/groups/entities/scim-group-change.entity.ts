import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ScimGroup } from './scim-group.entity';
import { ForeignKey } from '../../../database/foreign-key';

/**
 * When a group's membership last changed, as written by one database backend: a group's
 * meta.lastModified is the latest of its updated_at and these. A backend runs one transaction at
 * a time, so its upsert of its own row never waits on a concurrent change of the group (decision 0121).
 */
@Entity('scim_group_changes')
export class ScimGroupChange {
  @PrimaryColumn('uuid', { name: 'group_id' }) groupId!: string;
  @ForeignKey(() => ScimGroup, 'scim_group_changes', 'group_id', { onDelete: 'CASCADE' }) group?: ScimGroup;
  @PrimaryColumn('integer', { name: 'backend_pid' }) backendPid!: number;
  @Column('timestamptz', { name: 'changed_at' }) changedAt!: Date;
}
