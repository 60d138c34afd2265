import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { Developer } from './developer.entity';
import { ForeignKey } from '../../database/foreign-key';

/** A developer access token (dat_…), stored as its SHA-256 only. */
@Entity('developer_tokens')
@Unique('developer_tokens_token_hash_key', ['tokenHash'])
@Index('developer_tokens_developer_idx', ['developerId', 'createdAt'])
export class DeveloperToken {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid', { name: 'developer_id' }) developerId: string;
  @ForeignKey(() => Developer, 'developer_tokens', 'developer_id') developer?: Developer;
  @Column('text') label: string;
  @Column('text', { name: 'token_hash', select: false }) tokenHash: string;
  @Column('timestamptz', { name: 'expires_at', nullable: true }) expiresAt: Date | null;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt: Date | null;
  @Column('timestamptz', { name: 'last_used_at', nullable: true }) lastUsedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
