import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { entityColumns, NO_ROW } from '../../database/row-shape';
import { first, run, statement } from '../../database/statement';
import { EndUserSession } from '../../sessions/entities/end-user-session.entity';
import { OAuthClient } from '../../oauth-clients/entities/oauth-client.entity';
import { SessionFacts } from '../detectors/detector.types';
import { GeoInfo } from '../geo/geo.types';

/** Bounds the history read per sign-in; distinct (ip, device, country) combinations beyond this are rare. */
const MAX_DISTINCT_COMBINATIONS = 5000;

const COLUMNS = 'id, created_at, ip_address, browser_family, os_family, country, city, latitude, longitude';

const STORE_GEO = statement(
  'session-history.store-geo',
  `UPDATE end_user_sessions SET country = $3, city = $4, latitude = $5, longitude = $6
        WHERE workspace_id = $1 AND id = $2`,
  NO_ROW,
);

const PRIOR_SESSIONS = statement(
  'session-history.prior-sessions',
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
  entityColumns(EndUserSession, ['id', 'createdAt', 'ipAddress', 'browserFamily', 'osFamily', 'country', 'city', 'latitude', 'longitude']),
);

const OAUTH_CLIENT_NAME = statement(
  'session-history.oauth-client-name',
  'SELECT name FROM oauth_clients WHERE workspace_id = $1 AND id = $2',
  entityColumns(OAuthClient, ['name']),
);

/**
 * Reads the end-users module's session table (end_user_sessions) for the detectors, and stores the
 * geolocation of a session on its row (spec D: "stored on the session record"). SQL text: those
 * tables' entities belong to the end-users module, and the history read is a DISTINCT ON union.
 */
@Injectable()
export class SessionHistoryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async storeGeo(workspaceId: string, sessionId: string, geo: GeoInfo): Promise<void> {
    await run(this.dataSource, STORE_GEO, [workspaceId, sessionId, geo.country, geo.city, geo.latitude, geo.longitude]);
  }

  /**
   * The user's sessions created before `current`, reduced to what the detectors can tell apart:
   * one row per distinct (ip, browser family, OS family, country), plus the most recent session
   * with coordinates in the last 24 hours (impossible_travel's reference). Bounded per user however
   * long their history is.
   */
  async priorSessions(workspaceId: string, userId: string, current: { id: string; createdAt: Date }): Promise<SessionFacts[]> {
    return run(this.dataSource, PRIOR_SESSIONS, [workspaceId, userId, current.createdAt, current.id]);
  }

  async oauthClientName(workspaceId: string, oauthClientId: string | null): Promise<string | null> {
    if (!oauthClientId) return null;
    return (await first(this.dataSource, OAUTH_CLIENT_NAME, [workspaceId, oauthClientId]))?.name ?? null;
  }
}
