import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { EndUserSessionRecord } from '../events/domain-events';
import { DeniedToken } from './tokens/token-denylist.service';

interface SessionRow {
  id: string;
  workspace_id: string;
  user_id: string;
  oauth_client_id: string | null;
  kind: 'api' | 'browser';
  ip_address: string | null;
  user_agent: string | null;
  browser_family: string;
  os_family: string;
  country: string | null;
  city: string | null;
  latitude: number | null;
  longitude: number | null;
  created_at: Date;
  last_seen_at: Date;
}

export interface NewRefreshToken {
  tokenHash: string;
  accessJti: string;
  accessExpiresAt: Date;
  expiresAt: Date;
}

export interface NewSession {
  id: string;
  workspaceId: string;
  userId: string;
  oauthClientId: string | null;
  kind: 'api' | 'browser';
  ipAddress: string | null;
  userAgent: string | null;
  browserFamily: string;
  osFamily: string;
  browserTokenHash: string | null;
  now: Date;
  expiresAt: Date;
  /** Written in the same statement (API sign-ins). */
  refresh?: NewRefreshToken;
}

export interface RefreshTokenRow {
  id: string;
  workspace_id: string;
  session_id: string;
  used_at: Date | null;
  expires_at: Date;
  session_revoked_at: Date | null;
  session_expires_at: Date;
  user_id: string;
  oauth_client_id: string | null;
  user_active: boolean;
}

const SESSION_COLUMNS = `id, workspace_id, user_id, oauth_client_id, kind, ip_address, user_agent, browser_family, os_family,
  country, city, latitude, longitude, created_at, last_seen_at`;

export const toSessionRecord = (r: SessionRow): EndUserSessionRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  userId: r.user_id,
  oauthClientId: r.oauth_client_id,
  kind: r.kind,
  ipAddress: r.ip_address,
  userAgent: r.user_agent,
  browserFamily: r.browser_family,
  osFamily: r.os_family,
  country: r.country,
  city: r.city,
  latitude: r.latitude,
  longitude: r.longitude,
  createdAt: new Date(r.created_at),
  lastSeenAt: new Date(r.last_seen_at),
});

/** SQL for end-user sessions and refresh tokens. Methods take the workspace first. */
@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** One statement for the session row and, for API sign-ins, its first refresh token. */
  async insert(manager: EntityManager, s: NewSession): Promise<EndUserSessionRecord> {
    const r = s.refresh;
    const rows = (await manager.query(
      `WITH session AS (
         INSERT INTO end_user_sessions (id, workspace_id, user_id, oauth_client_id, kind, ip_address, user_agent, browser_family,
           os_family, browser_token_hash, created_at, last_seen_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12) RETURNING ${SESSION_COLUMNS}),
       refresh AS (
         INSERT INTO end_user_refresh_tokens (workspace_id, session_id, token_hash, access_jti, access_expires_at, expires_at, created_at)
         SELECT workspace_id, id, $13, $14, $15, $16, $11 FROM session WHERE $13::text IS NOT NULL)
       SELECT * FROM session`,
      [
        s.id,
        s.workspaceId,
        s.userId,
        s.oauthClientId,
        s.kind,
        s.ipAddress,
        s.userAgent,
        s.browserFamily,
        s.osFamily,
        s.browserTokenHash,
        s.now,
        s.expiresAt,
        r?.tokenHash ?? null,
        r?.accessJti ?? null,
        r?.accessExpiresAt ?? null,
        r?.expiresAt ?? null,
      ],
    )) as SessionRow[];
    return toSessionRecord(rows[0]);
  }

  async insertRefreshToken(
    manager: EntityManager,
    t: { workspaceId: string; sessionId: string; tokenHash: string; accessJti: string; accessExpiresAt: Date; expiresAt: Date; now: Date },
  ): Promise<void> {
    await manager.query(
      `INSERT INTO end_user_refresh_tokens (workspace_id, session_id, token_hash, access_jti, access_expires_at, expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [t.workspaceId, t.sessionId, t.tokenHash, t.accessJti, t.accessExpiresAt, t.expiresAt, t.now],
    );
  }

  /** The refresh token and its session, row-locked so two concurrent refreshes cannot both win. */
  async lockRefreshToken(manager: EntityManager, tokenHash: string): Promise<RefreshTokenRow | null> {
    const rows = (await manager.query(
      `SELECT rt.id, rt.workspace_id, rt.session_id, rt.used_at, rt.expires_at,
              s.revoked_at AS session_revoked_at, s.expires_at AS session_expires_at, s.user_id, s.oauth_client_id,
              u.is_active AS user_active
         FROM end_user_refresh_tokens rt
         JOIN end_user_sessions s ON s.id = rt.session_id AND s.workspace_id = rt.workspace_id
         JOIN end_users u ON u.id = s.user_id AND u.workspace_id = s.workspace_id
        WHERE rt.token_hash = $1
        FOR UPDATE OF rt, s`,
      [tokenHash],
    )) as RefreshTokenRow[];
    return rows[0] ?? null;
  }

  async markRefreshUsed(manager: EntityManager, workspaceId: string, id: string, now: Date): Promise<void> {
    await manager.query(`UPDATE end_user_refresh_tokens SET used_at = $3 WHERE workspace_id = $1 AND id = $2`, [workspaceId, id, now]);
  }

  async extend(manager: EntityManager, workspaceId: string, sessionId: string, now: Date, expiresAt: Date): Promise<void> {
    await manager.query(
      `UPDATE end_user_sessions SET last_seen_at = $3, expires_at = GREATEST(expires_at, $4) WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, sessionId, now, expiresAt],
    );
  }

  /**
   * Revoke sessions and return every token id that could still be presented (refresh token ids and
   * the access token ids issued with them), for the denylist.
   */
  async revoke(
    manager: EntityManager,
    workspaceId: string,
    filter: { sessionId?: string; userId?: string; exceptSessionId?: string },
    reason: string,
    now: Date,
  ): Promise<{ sessionIds: string[]; tokens: DeniedToken[] }> {
    const revoked = (await manager.query(
      `UPDATE end_user_sessions SET revoked_at = $2, revoke_reason = $3
        WHERE workspace_id = $1 AND revoked_at IS NULL
          AND ($4::uuid IS NULL OR id = $4) AND ($5::uuid IS NULL OR user_id = $5) AND ($6::uuid IS NULL OR id <> $6)
        RETURNING id`,
      [workspaceId, now, reason, filter.sessionId ?? null, filter.userId ?? null, filter.exceptSessionId ?? null],
    )) as [{ id: string }[], number];
    const sessionIds = revoked[0].map((r) => r.id);
    if (!sessionIds.length) return { sessionIds, tokens: [] };
    const rows = (await manager.query(
      `SELECT id, expires_at, access_jti, access_expires_at FROM end_user_refresh_tokens
        WHERE workspace_id = $1 AND session_id = ANY($2::uuid[]) AND (expires_at > $3 OR access_expires_at > $3)`,
      [workspaceId, sessionIds, now],
    )) as { id: string; expires_at: Date; access_jti: string; access_expires_at: Date }[];
    const tokens = rows.flatMap((r) => [
      { jti: r.id, expiresAt: new Date(r.expires_at) },
      { jti: r.access_jti, expiresAt: new Date(r.access_expires_at) },
    ]);
    return { sessionIds, tokens };
  }

  /**
   * One round trip per authenticated request: the session is live, the user active, and the token
   * id not on the denylist. Also bumps last_seen_at at most once a minute.
   */
  async isLive(claims: { workspaceId: string; sessionId: string; userId: string; jti: string }, now: Date): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `WITH live AS (
         SELECT s.id FROM end_user_sessions s JOIN end_users u ON u.id = s.user_id AND u.workspace_id = s.workspace_id
          WHERE s.workspace_id = $1 AND s.id = $2 AND s.user_id = $3 AND s.revoked_at IS NULL AND s.expires_at > $5
            AND u.is_active
            AND NOT EXISTS (SELECT 1 FROM token_denylist d WHERE d.jti = $4 AND d.expires_at > $5)),
       touched AS (
         UPDATE end_user_sessions SET last_seen_at = $5
          WHERE id IN (SELECT id FROM live) AND last_seen_at < $5 - interval '60 seconds' RETURNING id)
       SELECT id FROM live`,
      [claims.workspaceId, claims.sessionId, claims.userId, claims.jti, now],
    )) as unknown[];
    return rows.length > 0;
  }

  async listLive(workspaceId: string, userId: string, now: Date): Promise<(EndUserSessionRecord & { expiresAt: Date })[]> {
    const rows = (await this.dataSource.query(
      `SELECT ${SESSION_COLUMNS}, expires_at FROM end_user_sessions
        WHERE workspace_id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > $3
        ORDER BY last_seen_at DESC, created_at DESC LIMIT 200`,
      [workspaceId, userId, now],
    )) as (SessionRow & { expires_at: Date })[];
    return rows.map((r) => ({ ...toSessionRecord(r), expiresAt: new Date(r.expires_at) }));
  }

  async sessionOfUser(manager: EntityManager, workspaceId: string, userId: string, sessionId: string): Promise<boolean> {
    const rows = (await manager.query(
      `SELECT 1 FROM end_user_sessions WHERE workspace_id = $1 AND user_id = $2 AND id = $3 AND revoked_at IS NULL`,
      [workspaceId, userId, sessionId],
    )) as unknown[];
    return rows.length > 0;
  }

  /** The live browser session behind an esid cookie hash. */
  async browserSession(tokenHash: string, now: Date) {
    type Row = { id: string; workspace_id: string; user_id: string; oauth_client_id: string | null; created_at: Date; email: string };
    const [rows] = (await this.dataSource.query(
      `UPDATE end_user_sessions s SET last_seen_at = $2
         FROM end_users u
        WHERE s.browser_token_hash = $1 AND s.kind = 'browser' AND s.revoked_at IS NULL AND s.expires_at > $2
          AND u.id = s.user_id AND u.workspace_id = s.workspace_id AND u.is_active
        RETURNING s.id, s.workspace_id, s.user_id, s.oauth_client_id, s.created_at, u.email`,
      [tokenHash, now],
    )) as [Row[], number]; // an UPDATE through TypeORM answers [rows, count]
    return rows[0] ?? null;
  }
}
