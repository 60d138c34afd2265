import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('developer_tokens')
export class DeveloperToken {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid', { name: 'developer_id' }) developerId: string;
  @Column('text') label: string;
  @Column('text', { name: 'token_hash', select: false }) tokenHash: string;
  @Column('timestamptz', { name: 'expires_at', nullable: true }) expiresAt: Date | null;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt: Date | null;
  @Column('timestamptz', { name: 'last_used_at', nullable: true }) lastUsedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
