import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { SsfStream } from './ssf-stream.entity';

/**
 * A subject (RFC 9493 identifier) added to a stream, or removed from an ALL stream (`excluded`).
 * `key` is its canonical form (`email:ada@example.com`, `iss_sub:<iss> <sub>`, `opaque:<id>`),
 * which is what a person's events are matched on.
 */
@Entity('ssf_stream_subjects')
export class SsfStreamSubject {
  @PrimaryColumn('uuid', { name: 'stream_id', primaryKeyConstraintName: 'ssf_stream_subjects_pkey' }) streamId!: string;
  @ManyToOne(() => SsfStream, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'stream_id', foreignKeyConstraintName: 'ssf_stream_subjects_stream_id_fkey' })
  stream?: SsfStream;
  @PrimaryColumn('text', { primaryKeyConstraintName: 'ssf_stream_subjects_pkey' }) key!: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId!: string;
  @ManyToOne('workspaces', { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'ssf_stream_subjects_workspace_id_fkey' })
  workspace?: object;
  @Column('jsonb') subject!: Record<string, string>;
  @Column('boolean', { default: false }) excluded!: boolean;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
}
