import { Check, Column, Entity, Index, Unique } from 'typeorm';
import { ForeignKey } from '../../database/foreign-key';
import { WorkspaceRow } from '../../database/workspace-row';

export type DefaultSubjects = 'ALL' | 'NONE';

/**
 * A Shared Signals receiver of a workspace (decision 0520): an OAuth client of the authorization
 * server (client_credentials, scope `ssf`) that manages its stream. The secret is shown once and
 * stored as SHA-256. `default_subjects`: whether its stream carries every person of the workspace
 * (ALL, minus the subjects it removed) or only the subjects it added (NONE).
 */
@Entity('ssf_receivers')
@Unique('ssf_receivers_client_id_key', ['clientId'])
@Index('ssf_receivers_workspace_idx', ['workspaceId', 'createdAt'])
@Check('ssf_receivers_default_subjects_check', `default_subjects IN ('ALL', 'NONE')`)
export class SsfReceiver extends WorkspaceRow {
  // Named by table: the workspaces and developers entities belong to their own modules.
  @ForeignKey('workspaces', 'ssf_receivers', 'workspace_id') workspace?: object;
  @Column('text') name!: string;
  @Column('text', { name: 'client_id' }) clientId!: string;
  @Column('text', { name: 'secret_hash' }) secretHash!: string;
  @Column('text', { name: 'default_subjects', default: 'NONE' }) defaultSubjects!: DefaultSubjects;
  @Column('uuid', { name: 'created_by', nullable: true }) createdBy!: string | null;
  @ForeignKey('developers', 'ssf_receivers', 'created_by', { onDelete: 'SET NULL' }) creator?: object | null;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
}
