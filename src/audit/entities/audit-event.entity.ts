import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One audit event (spec E). Append-only: triggers reject UPDATE, DELETE and TRUNCATE, and a
 * BEFORE INSERT trigger assigns created_at, unique per workspace to the microsecond without writers
 * waiting on each other: the lossless cursor and the order key (decision 0120). Rows are written by
 * the audit writer (src/audit/audit-writer.ts) only.
 */
@Entity('audit_events')
// (workspace_id, created_at DESC), unique: a descending key TypeORM cannot declare; the migration owns it.
@Index('audit_events_workspace_created_key', { synchronize: false })
// BRIN on created_at, for the sealer (decision 0710): a method TypeORM cannot declare; the migration owns it.
@Index('audit_events_created_brin', { synchronize: false })
@Check('audit_events_severity_check', `severity IN ('info', 'warn', 'error')`)
export class AuditEvent {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('uuid', { name: 'workspace_id', nullable: true }) workspaceId!: string | null;
  @Column('text', { name: 'event_type' }) eventType!: string;
  @Column('text') severity!: string;
  @Column('text', { name: 'actor_type' }) actorType!: string;
  @Column('text', { name: 'actor_id', nullable: true }) actorId!: string | null;
  @Column('text', { name: 'actor_email', nullable: true }) actorEmail!: string | null;
  @Column('text', { name: 'target_type', nullable: true }) targetType!: string | null;
  @Column('text', { name: 'target_id', nullable: true }) targetId!: string | null;
  @Column('text', { name: 'oauth_client_id', nullable: true }) oauthClientId!: string | null;
  @Column('text', { name: 'ip_address', nullable: true }) ipAddress!: string | null;
  @Column('text', { name: 'user_agent', nullable: true }) userAgent!: string | null;
  @Column('text', { name: 'request_id', nullable: true }) requestId!: string | null;
  @Column('text', { default: '' }) message!: string;
  @Column('jsonb', { default: {} }) metadata!: Record<string, unknown>;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}
