import { Column, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The two columns a tenant table's rows start with: the row's uuid and the workspace it belongs to
 * (every query filters on it). Each entity declares its own relation to the workspace, whose
 * constraint carries the table's name (ForeignKey).
 */
export abstract class WorkspaceRow {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId!: string;
}
