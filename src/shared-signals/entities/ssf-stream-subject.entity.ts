import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SsfStream } from './ssf-stream.entity';
import { ForeignKey } from '../../database/foreign-key';

/**
 * A subject (RFC 9493 identifier) added to a stream, or removed from an ALL stream (`excluded`).
 * `key` is its canonical form (`email:ada@example.com`, `iss_sub:<iss> <sub>`, `opaque:<id>`),
 * which is what a person's events are matched on.
 */
@Entity('ssf_stream_subjects')
export class SsfStreamSubject {
  @PrimaryColumn('uuid', { name: 'stream_id', primaryKeyConstraintName: 'ssf_stream_subjects_pkey' }) streamId!: string;
  @ForeignKey(() => SsfStream, 'ssf_stream_subjects', 'stream_id') stream?: SsfStream;
  @PrimaryColumn('text', { primaryKeyConstraintName: 'ssf_stream_subjects_pkey' }) key!: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId!: string;
  @ForeignKey('workspaces', 'ssf_stream_subjects', 'workspace_id') workspace?: object;
  @Column('jsonb') subject!: Record<string, string>;
  @Column('boolean', { default: false }) excluded!: boolean;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
}
