import { Column, Entity, Unique } from 'typeorm';
import { Workspace } from '../../workspaces/entities/workspace.entity';
import { ForeignKey } from '../../database/foreign-key';
import { WorkspaceRow } from '../../database/workspace-row';

/** A workspace's own copy of a mail template; without one, the catalog default applies. */
@Entity('email_templates')
@Unique('email_templates_workspace_id_name_key', ['workspaceId', 'name'])
export class EmailTemplate extends WorkspaceRow {
  @ForeignKey(() => Workspace, 'email_templates', 'workspace_id') workspace?: Workspace;
  @Column('text') name: string;
  @Column('text') subject: string;
  @Column('text', { name: 'from_name' }) fromName: string;
  @Column('text') body: string;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' }) updatedAt: Date;
}
