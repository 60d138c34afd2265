import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { Developer } from './developer.entity';
import { ForeignKey } from '../../database/foreign-key';

/** A dashboard sign-in: the cookie's SHA-256 and the CSRF token that unsafe methods must echo. */
@Entity('developer_sessions')
@Unique('developer_sessions_token_hash_key', ['tokenHash'])
export class DeveloperSession {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid', { name: 'developer_id' }) developerId: string;
  @ForeignKey(() => Developer, 'developer_sessions', 'developer_id') developer?: Developer;
  @Column('text', { name: 'token_hash' }) tokenHash: string;
  @Column('text', { name: 'csrf_token' }) csrfToken: string;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt: Date;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
