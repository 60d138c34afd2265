import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Counter, register } from 'prom-client';
import { DataSource, EntityManager } from 'typeorm';
import { isUuid } from '../common/ids';
import { RequestMeta } from '../common/request-context';
import { ActorType, AUDIT_EVENTS, AuditEventType, AuditSeverity } from '../events/audit-catalog';
import { sanitizeMetadata, sanitizeText } from './sanitize';
import { isUniqueViolation } from '../common/db-errors';

export interface AuditEntry {
  eventType: AuditEventType;
  workspaceId: string | null;
  actor: { type: ActorType; id: string | null; email?: string | null };
  target?: { type: string; id: string };
  oauthClientId?: string | null;
  request?: RequestMeta;
  message?: string;
  metadata?: Record<string, unknown>;
  /** Overrides the catalog severity (e.g. anomaly_detected follows the anomaly). */
  severity?: AuditSeverity;
  /** Only for seeding and tests; the database assigns the time otherwise. */
  createdAt?: Date;
}

const failures =
  (register.getSingleMetric('audit_write_failures_total') as Counter | undefined) ??
  new Counter({ name: 'audit_write_failures_total', help: 'Audit rows that could not be written', labelNames: ['mode'] });

const COLUMNS = `(workspace_id, event_type, severity, actor_type, actor_id, actor_email, target_type, target_id,
   oauth_client_id, ip_address, user_agent, request_id, message, metadata, created_at)`;
const INSERT = `INSERT INTO audit_events ${COLUMNS}
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`;
const CASTS = [
  'uuid',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'jsonb',
  'timestamptz',
];

/**
 * An entry's row as `INSERT INTO audit_events <columns> SELECT <select> FROM …` over bind
 * parameters from $first, for a hot path that writes its change and the audit row in one
 * statement (a CTE): both commit together in one round trip. The values are sanitised
 * exactly as record() does; unlike record(), a failure there fails the statement.
 */
export function auditRowSelect(entry: AuditEntry, first: number): { columns: string; select: string; params: unknown[] } {
  const params = toRow(entry);
  return { columns: COLUMNS, select: params.map((_, i) => `$${first + i}::${CASTS[i]}`).join(', '), params };
}

/**
 * The audit writer. record() runs inside the caller's transaction so a change and
 * its record commit together; a failed insert is rolled back to a savepoint,
 * logged and counted, and never fails the request. recordDetached() is for
 * events that change nothing (a failed login, a refused SSO).
 */
/** Collisions resolve as the other writer commits; the bound only guards against a pathological loop. */
const MAX_COLLISION_RETRIES = 20;

@Injectable()
export class AuditService {
  private readonly logger = new Logger('Audit');

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async record(manager: EntityManager, entry: AuditEntry): Promise<void> {
    const inTransaction = manager.queryRunner?.isTransactionActive ?? false;
    if (!inTransaction) return this.recordDetached(entry);
    const row = toRow(entry);
    for (let attempt = 1; ; attempt++) {
      await manager.query('SAVEPOINT audit_write');
      try {
        await manager.query(INSERT, row);
        await manager.query('RELEASE SAVEPOINT audit_write');
        return;
      } catch (err) {
        await manager.query('ROLLBACK TO SAVEPOINT audit_write').catch(() => undefined);
        // Two transactions stamped the same instant: the retry is a new statement with a new
        // snapshot, so the trigger sees the other row (committed by now) and bumps past it.
        if (isTimestampCollision(err) && attempt < MAX_COLLISION_RETRIES) continue;
        return this.fail('transactional', entry, err);
      }
    }
  }

  async recordDetached(entry: AuditEntry): Promise<void> {
    const row = toRow(entry);
    let failures = 0;
    for (let collisions = 0; ;) {
      try {
        await this.dataSource.query(INSERT, row);
        return;
      } catch (err) {
        if (isTimestampCollision(err) && ++collisions < MAX_COLLISION_RETRIES) continue;
        if (++failures === 3) return this.fail('detached', entry, err);
        await new Promise((resolve) => setTimeout(resolve, 50 * 4 ** failures));
      }
    }
  }

  private fail(mode: string, entry: AuditEntry, err: unknown): void {
    failures.inc({ mode });
    const request = entry.request?.requestId ? `, request ${entry.request.requestId}` : '';
    this.logger.error(
      `audit write failed for ${entry.eventType} (workspace ${entry.workspaceId ?? '-'}${request}): ${(err as Error).message}`,
    );
  }
}

function toRow(entry: AuditEntry): unknown[] {
  const catalog = AUDIT_EVENTS[entry.eventType];
  const workspaceId = entry.workspaceId && isUuid(entry.workspaceId) ? entry.workspaceId : null;
  return [
    workspaceId,
    entry.eventType,
    entry.severity ?? catalog?.severity ?? 'info',
    entry.actor.type,
    sanitizeText(entry.actor.id, 255),
    sanitizeText(entry.actor.email, 320),
    sanitizeText(entry.target?.type, 100),
    sanitizeText(entry.target?.id, 255),
    sanitizeText(entry.oauthClientId, 255),
    sanitizeText(entry.request?.ip, 100),
    sanitizeText(entry.request?.userAgent, 1000),
    sanitizeText(entry.request?.requestId, 128),
    sanitizeText(entry.message ?? catalog?.description ?? entry.eventType, 255) ?? '',
    sanitizeMetadata(entry.metadata),
    entry.createdAt ?? null,
  ];
}

/** The per-workspace unique created_at (the lossless cursor) rejected a concurrent insert. */
export function isTimestampCollision(err: unknown): boolean {
  return isUniqueViolation(err, 'audit_events_workspace_created_key');
}
