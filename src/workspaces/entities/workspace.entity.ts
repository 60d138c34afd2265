import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A tenant. Deleting one cascades to every tenant table; a BEFORE DELETE trigger (migration
 * ManagedDatabases) first queues the deprovisioning of its managed databases.
 */
@Entity('workspaces')
export class Workspace {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('text') name: string;
  @Column('text', { default: '' }) description: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' }) updatedAt: Date;
}
