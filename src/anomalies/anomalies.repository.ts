import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { entityColumns } from '../database/row-shape';
import type { QueryRow } from '../database/rows';
import { first, statement } from '../database/statement';
import type { Tx } from '../database/unit-of-work';
import { ANOMALY_KINDS, AnomalyFinding, AnomalySeverity } from './detectors/detector.types';
import { SecurityAnomaly } from './entities/security-anomaly.entity';

export interface NewAnomaly extends AnomalyFinding {
  workspaceId: string;
  userId: string;
  oauthClientId: string | null;
  sessionId: string;
  ipAddress: string | null;
  country: string | null;
  city: string | null;
  userAgent: string | null;
}

const SEVERITIES: readonly AnomalySeverity[] = ['info', 'warn', 'critical'];

/** A whole security_anomalies row (RETURNING *). */
const ANOMALY = entityColumns(
  SecurityAnomaly,
  [
    'id',
    'workspaceId',
    'userId',
    'oauthClientId',
    'sessionId',
    'kind',
    'severity',
    'ipAddress',
    'country',
    'city',
    'userAgent',
    'message',
    'metadata',
    'notifiedAt',
    'acknowledgedAt',
    'createdAt',
  ],
  { values: { kind: ANOMALY_KINDS, severity: SEVERITIES } },
);

const INSERT_UNLESS_RECORDED = statement(
  'anomalies.insert-unless-recorded',
  `INSERT INTO security_anomalies
    (workspace_id, user_id, oauth_client_id, session_id, kind, severity, ip_address, country, city, user_agent, message, metadata)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb)
  ON CONFLICT (session_id, kind) DO NOTHING
  RETURNING *`,
  ANOMALY,
);

/** Anomaly rows. Every read is scoped by workspace and user: a caller only ever sees their own. */
@Injectable()
export class AnomaliesRepository {
  constructor(@InjectRepository(SecurityAnomaly) private readonly anomalies: Repository<SecurityAnomaly>) {}

  listForUser(workspaceId: string, userId: string, limit: number): Promise<SecurityAnomaly[]> {
    return this.anomalies.find({
      where: { workspaceId, userId },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
    });
  }

  /** Sets acknowledged_at once; later calls keep the first time. Null when not the user's. */
  async acknowledge(workspaceId: string, userId: string, id: string): Promise<SecurityAnomaly | null> {
    const result = await this.anomalies
      .createQueryBuilder()
      .update()
      .set({ acknowledgedAt: () => 'COALESCE(acknowledged_at, clock_timestamp())' })
      .where('id = :id AND workspace_id = :workspaceId AND user_id = :userId', { id, workspaceId, userId })
      .returning('*')
      .execute();
    const [row] = returnedRows(result.raw);
    return row ? ANOMALY.reader(this.anomalies.manager.dataSource)(row) : null;
  }

  /**
   * Inserts the findings of one sign-in; a finding already recorded for the session (a redelivered
   * event) is skipped. Returns the rows actually inserted.
   */
  async insertMany(tx: Tx, anomalies: NewAnomaly[]): Promise<SecurityAnomaly[]> {
    const inserted: SecurityAnomaly[] = [];
    for (const a of anomalies) {
      const row = await first(tx, INSERT_UNLESS_RECORDED, [
        a.workspaceId,
        a.userId,
        a.oauthClientId,
        a.sessionId,
        a.kind,
        a.severity,
        a.ipAddress,
        a.country,
        a.city,
        a.userAgent?.slice(0, 1000) ?? null,
        a.message,
        JSON.stringify(a.metadata),
      ]);
      if (row) inserted.push(row);
    }
    return inserted;
  }

  async markNotified(tx: Tx, workspaceId: string, ids: string[]): Promise<void> {
    await tx.getRepository(SecurityAnomaly).update({ workspaceId, id: In(ids) }, { notifiedAt: () => 'clock_timestamp()' });
  }
}

/** The rows of an UPDATE ... RETURNING, as node-postgres parsed them. */
function returnedRows(raw: unknown): QueryRow[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter((row): row is QueryRow => typeof row === 'object' && row !== null);
}
