import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('developer_sessions')
export class DeveloperSession {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid', { name: 'developer_id' }) developerId: string;
  @Column('text', { name: 'token_hash' }) tokenHash: string;
  @Column('text', { name: 'csrf_token' }) csrfToken: string;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt: Date;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
