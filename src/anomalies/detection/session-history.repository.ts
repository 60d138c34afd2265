import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { preparedQuery } from '../../database/prepared-query';
import { date, numOrNull, QueryRow, text, textOrNull } from '../../database/rows';
import { SessionFacts } from '../detectors/detector.types';
import { GeoInfo } from '../geo/geo.types';

/** Bounds the history read per sign-in; distinct (ip, device, country) combinations beyond this are rare. */
const MAX_DISTINCT_COMBINATIONS = 5000;

/** A session row selected with COLUMNS. */
const toFacts = (r: QueryRow): SessionFacts => ({
  id: text(r, 'id'),
  createdAt: date(r, 'created_at'),
  ipAddress: textOrNull(r, 'ip_address'),
  browserFamily: text(r, 'browser_family'),
  osFamily: text(r, 'os_family'),
  country: textOrNull(r, 'country'),
  city: textOrNull(r, 'city'),
  latitude: numOrNull(r, 'latitude'),
  longitude: numOrNull(r, 'longitude'),
});

const COLUMNS = 'id, created_at, ip_address, browser_family, os_family, country, city, latitude, longitude';

/**
 * Reads the end-users module's session table (end_user_sessions) for the detectors, and stores the
 * geolocation of a session on its row (spec D: "stored on the session record"). SQL text: those
 * tables' entities belong to the end-users module, and the history read is a DISTINCT ON union.
 */
@Injectable()
export class SessionHistoryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async storeGeo(workspaceId: string, sessionId: string, geo: GeoInfo): Promise<void> {
    await preparedQuery(
      this.dataSource,
      `UPDATE end_user_sessions SET country = $3, city = $4, latitude = $5, longitude = $6
        WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, sessionId, geo.country, geo.city, geo.latitude, geo.longitude],
    );
  }

  /**
   * The user's sessions created before `current`, reduced to what the detectors can tell apart:
   * one row per distinct (ip, browser family, OS family, country), plus the most recent session
   * with coordinates in the last 24 hours (impossible_travel's reference). Bounded per user however
   * long their history is.
   */
  async priorSessions(workspaceId: string, userId: string, current: { id: string; createdAt: Date }): Promise<SessionFacts[]> {
    const rows = await preparedQuery(
      this.dataSource,
      `(SELECT DISTINCT ON (ip_address, browser_family, os_family, country) ${COLUMNS}
          FROM end_user_sessions
         WHERE workspace_id = $1 AND user_id = $2 AND id <> $4 AND (created_at, id) < ($3, $4)
         ORDER BY ip_address, browser_family, os_family, country, created_at DESC
         LIMIT ${MAX_DISTINCT_COMBINATIONS})
       UNION
       (SELECT ${COLUMNS}
          FROM end_user_sessions
         WHERE workspace_id = $1 AND user_id = $2 AND id <> $4 AND (created_at, id) < ($3, $4)
           AND created_at >= $3::timestamptz - interval '24 hours'
           AND latitude IS NOT NULL AND longitude IS NOT NULL
         ORDER BY created_at DESC
         LIMIT 1)`,
      [workspaceId, userId, current.createdAt, current.id],
    );
    return rows.map(toFacts);
  }

  async oauthClientName(workspaceId: string, oauthClientId: string | null): Promise<string | null> {
    if (!oauthClientId) return null;
    const [row] = await preparedQuery(this.dataSource, 'SELECT name FROM oauth_clients WHERE workspace_id = $1 AND id = $2', [
      workspaceId,
      oauthClientId,
    ]);
    return row ? text(row, 'name') : null;
  }
}
