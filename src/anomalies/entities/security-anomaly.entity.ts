import { Check, Column, Entity, Index } from 'typeorm';
import type { AnomalyKind, AnomalySeverity } from '../detectors/detector.types';
import { ForeignKey } from '../../database/foreign-key';
import { WorkspaceRow } from '../../database/workspace-row';

/** One finding of a detector about one session (spec D, "Security anomaly"). */
@Entity('security_anomalies')
// A redelivered login_success must not record the same finding twice.
@Index('security_anomalies_session_kind_key', ['sessionId', 'kind'], { unique: true })
// (workspace_id, user_id, created_at DESC, id DESC): descending keys TypeORM cannot declare; the migration owns it.
@Index('security_anomalies_user_created_idx', { synchronize: false })
@Check('security_anomalies_kind_check', `kind IN ('new_device', 'new_ip', 'new_country', 'impossible_travel')`)
@Check('security_anomalies_severity_check', `severity IN ('info', 'warn', 'critical')`)
export class SecurityAnomaly extends WorkspaceRow {
  // Named by table: the workspaces and end_users entities belong to their own modules.
  @ForeignKey('workspaces', 'security_anomalies', 'workspace_id', { onDelete: 'CASCADE' }) workspace?: object;
  @Column('uuid', { name: 'user_id' }) userId: string;
  @ForeignKey('end_users', 'security_anomalies', 'user_id', { onDelete: 'CASCADE' }) user?: object;
  @Column('uuid', { name: 'oauth_client_id', nullable: true }) oauthClientId: string | null;
  // No foreign key: anomalies are kept indefinitely, even if session rows are pruned.
  @Column('uuid', { name: 'session_id' }) sessionId: string;
  @Column('text') kind: AnomalyKind;
  @Column('text') severity: AnomalySeverity;
  @Column('text', { name: 'ip_address', nullable: true }) ipAddress: string | null;
  @Column('text', { nullable: true }) country: string | null;
  @Column('text', { nullable: true }) city: string | null;
  @Column('text', { name: 'user_agent', nullable: true }) userAgent: string | null;
  @Column('text') message: string;
  @Column('jsonb', { default: {} }) metadata: Record<string, unknown>;
  @Column('timestamptz', { name: 'notified_at', nullable: true }) notifiedAt: Date | null;
  @Column('timestamptz', { name: 'acknowledged_at', nullable: true }) acknowledgedAt: Date | null;
  @Column('timestamptz', { name: 'created_at', default: () => 'clock_timestamp()' }) createdAt: Date;
}

/** The API shape of an anomaly record (spec D fields, snake_case, ISO 8601 UTC). */
export interface AnomalyView {
  id: string;
  kind: AnomalyKind;
  severity: AnomalySeverity;
  ip_address: string | null;
  country: string | null;
  city: string | null;
  user_agent: string | null;
  message: string;
  metadata: Record<string, unknown>;
  session_id: string;
  notified_at: string | null;
  acknowledged_at: string | null;
  created_at: string;
}

export function toAnomalyView(a: SecurityAnomaly): AnomalyView {
  return {
    id: a.id,
    kind: a.kind,
    severity: a.severity,
    ip_address: a.ipAddress,
    country: a.country,
    city: a.city,
    user_agent: a.userAgent,
    message: a.message,
    metadata: a.metadata,
    session_id: a.sessionId,
    notified_at: a.notifiedAt?.toISOString() ?? null,
    acknowledged_at: a.acknowledgedAt?.toISOString() ?? null,
    created_at: a.createdAt.toISOString(),
  };
}
