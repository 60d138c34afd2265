import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AnomalyFinding } from './detectors/detector.types';
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

/** Anomaly rows. Every read is scoped by workspace and user: a caller only ever sees their own. */
@Injectable()
export class AnomaliesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  listForUser(workspaceId: string, userId: string, limit: number): Promise<SecurityAnomaly[]> {
    return this.dataSource.getRepository(SecurityAnomaly).find({
      where: { workspaceId, userId },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
    });
  }

  /** Sets acknowledged_at once; later calls keep the first time. Null when not the user's. */
  async acknowledge(workspaceId: string, userId: string, id: string): Promise<SecurityAnomaly | null> {
    const [rows] = (await this.dataSource.query(
      `UPDATE security_anomalies SET acknowledged_at = COALESCE(acknowledged_at, clock_timestamp())
        WHERE id = $1 AND workspace_id = $2 AND user_id = $3
        RETURNING id`,
      [id, workspaceId, userId],
    )) as [{ id: string }[], number];
    if (!rows.length) return null;
    return this.dataSource.getRepository(SecurityAnomaly).findOneBy({ id: rows[0].id, workspaceId, userId });
  }

  /**
   * Inserts the findings of one sign-in; a finding already recorded for the session (a redelivered
   * event) is skipped. Returns the rows actually inserted.
   */
  async insertMany(manager: EntityManager, anomalies: NewAnomaly[]): Promise<SecurityAnomaly[]> {
    const inserted: SecurityAnomaly[] = [];
    for (const a of anomalies) {
      const rows = (await manager.query(
        `INSERT INTO security_anomalies
           (workspace_id, user_id, oauth_client_id, session_id, kind, severity, ip_address, country, city,
            user_agent, message, metadata)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb)
         ON CONFLICT (session_id, kind) DO NOTHING
         RETURNING id`,
        [
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
        ],
      )) as { id: string }[];
      if (rows.length) {
        const row = await manager.getRepository(SecurityAnomaly).findOneByOrFail({ id: rows[0].id });
        inserted.push(row);
      }
    }
    return inserted;
  }

  async markNotified(manager: EntityManager, workspaceId: string, ids: string[]): Promise<Date> {
    const [row] = (await manager.query(
      `UPDATE security_anomalies SET notified_at = clock_timestamp()
        WHERE workspace_id = $1 AND id = ANY($2::uuid[]) RETURNING notified_at`,
      [workspaceId, ids],
    )) as [{ notified_at: Date }[], number];
    return row[0]?.notified_at ?? new Date();
  }
}
