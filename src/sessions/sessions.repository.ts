import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, IsNull, MoreThan, Repository } from 'typeorm';
import { computed, entityColumns, nested, NO_ROW } from '../database/row-shape';
import { first, one, run, statement } from '../database/statement';
import { RIDER_COLUMNS, runWithRiders } from '../database/statement-riders';
import type { Tx } from '../database/unit-of-work';
import type { EndUserSessionRecord, StatementRider } from '../events/domain-events';
import { EndUserRefreshToken } from './entities/end-user-refresh-token.entity';
import { EndUserSession } from './entities/end-user-session.entity';
import { EndUser } from '../end-user-directory/entities/end-user.entity';
import type { DeniedToken } from './tokens/token-denylist.repository';

export interface NewRefreshToken {
  tokenHash: string;
  accessJti: string;
  accessExpiresAt: Date;
  expiresAt: Date;
}

/** A session to record: the sign-in as EndUserSessionRecord names it (amr: decision 0313), and its own credentials. */
export interface NewSession extends Pick<
  EndUserSessionRecord,
  'id' | 'userId' | 'oauthClientId' | 'kind' | 'ipAddress' | 'userAgent' | 'browserFamily' | 'osFamily' | 'amr'
> {
  browserTokenHash: string | null;
  now: Date;
  expiresAt: Date;
  /** Written in the same statement (API sign-ins). */
  refresh?: NewRefreshToken;
}

/** A refresh token with what rotation needs to know of its session and user. */
export type LockedRefreshToken = Pick<EndUserRefreshToken, 'id' | 'workspaceId' | 'sessionId' | 'usedAt' | 'expiresAt'> &
  Pick<EndUserSession, 'userId' | 'oauthClientId' | 'amr'> & { sessionRevokedAt: Date | null; sessionExpiresAt: Date; userActive: boolean };

/** The live browser session behind an esid cookie, with its user's email. */
export type BrowserSessionRow = Pick<EndUserSession, 'id' | 'workspaceId' | 'userId' | 'oauthClientId' | 'createdAt' | 'amr'> &
  Pick<EndUser, 'email' | 'firstName' | 'lastName' | 'emailVerified'>;

export type SessionFilter = { sessionId?: string; userId?: string; exceptSessionId?: string };

const SESSION_COLUMNS = `id, workspace_id, user_id, oauth_client_id, kind, ip_address, user_agent, browser_family, os_family,
  country, city, latitude, longitude, created_at, last_seen_at, amr`;

/** An end_user_sessions row selected with SESSION_COLUMNS. */
const SESSION_RECORD = entityColumns(
  EndUserSession,
  [
    'id',
    'workspaceId',
    'userId',
    'oauthClientId',
    'kind',
    'ipAddress',
    'userAgent',
    'browserFamily',
    'osFamily',
    'country',
    'city',
    'latitude',
    'longitude',
    'createdAt',
    'lastSeenAt',
    'amr',
  ],
  { values: { kind: ['api', 'browser'] } },
);

function fromEntity(s: EndUserSession): EndUserSessionRecord & { expiresAt: Date } {
  return {
    id: s.id,
    workspaceId: s.workspaceId,
    userId: s.userId,
    oauthClientId: s.oauthClientId,
    kind: s.kind,
    ipAddress: s.ipAddress,
    userAgent: s.userAgent,
    browserFamily: s.browserFamily,
    osFamily: s.osFamily,
    country: s.country,
    city: s.city,
    latitude: s.latitude,
    longitude: s.longitude,
    createdAt: s.createdAt,
    lastSeenAt: s.lastSeenAt,
    amr: s.amr,
    expiresAt: s.expiresAt,
  };
}

// Sign-in hot path: the session row and, for API sign-ins, its first refresh token in one statement.
const INSERT_SESSION = statement(
  'sessions.insert',
  `WITH session AS (
    INSERT INTO end_user_sessions (id, workspace_id, user_id, oauth_client_id, kind, ip_address, user_agent, browser_family,
      os_family, browser_token_hash, created_at, last_seen_at, expires_at, amr)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12, $17) RETURNING ${SESSION_COLUMNS}),
  refresh AS (
    INSERT INTO end_user_refresh_tokens (workspace_id, session_id, token_hash, access_jti, access_expires_at, expires_at, created_at)
    SELECT workspace_id, id, $13, $14, $15, $16, $11 FROM session WHERE $13::text IS NOT NULL)
  SELECT * FROM session`,
  SESSION_RECORD,
);

// Refresh: the token and its session row-locked, so two concurrent refreshes cannot both win.
const LOCK_REFRESH_TOKEN = statement(
  'sessions.lock-refresh-token',
  `SELECT rt.id, rt.workspace_id, rt.session_id, rt.used_at, rt.expires_at,
         s.revoked_at AS session_revoked_at, s.expires_at AS session_expires_at, s.user_id, s.oauth_client_id,
         u.is_active AS user_active, s.amr
    FROM end_user_refresh_tokens rt
    JOIN end_user_sessions s ON s.id = rt.session_id AND s.workspace_id = rt.workspace_id
    JOIN end_users u ON u.id = s.user_id AND u.workspace_id = s.workspace_id
   WHERE rt.token_hash = $1
   FOR UPDATE OF rt, s`,
  entityColumns(EndUserRefreshToken, ['id', 'workspaceId', 'sessionId', 'usedAt', 'expiresAt'])
    .and(entityColumns(EndUserSession, ['userId', 'oauthClientId', 'amr']))
    .and(
      computed({
        sessionRevokedAt: ['session_revoked_at', 'timestamp?'],
        sessionExpiresAt: ['session_expires_at', 'timestamp'],
        userActive: ['user_active', 'boolean'],
      }),
    ),
);

// Refresh rotation in one statement (decision 0960): the presented token is spent only if it is still
// unspent and unexpired; its session is extended only if still live and its person active; the new token
// is written only for a session so extended. A concurrent rotation of the same token waits for the
// token's row lock and then finds it spent (no row). Locks the token, then the session, as
// LOCK_REFRESH_TOKEN does. The final SELECT answers one row when the new token was written, none
// otherwise, and carries the unit of work's riders (the oauth_token_issue audit row).
const ROTATE_REFRESH_TOKEN = statement(
  'sessions.rotate-refresh-token',
  `WITH spent AS (
    UPDATE end_user_refresh_tokens r SET used_at = $3::timestamptz
     WHERE r.workspace_id = $1 AND r.token_hash = $2 AND r.session_id = $4::uuid AND r.used_at IS NULL AND r.expires_at > $3::timestamptz
    RETURNING r.workspace_id, r.session_id),
  extended AS (
    UPDATE end_user_sessions e SET last_seen_at = $3::timestamptz, expires_at = GREATEST(e.expires_at, $5::timestamptz)
      FROM spent
     WHERE e.workspace_id = spent.workspace_id AND e.id = spent.session_id AND e.revoked_at IS NULL AND e.expires_at > $3::timestamptz
       AND EXISTS (SELECT 1 FROM end_users u WHERE u.workspace_id = e.workspace_id AND u.id = e.user_id AND u.is_active)
    RETURNING e.workspace_id, e.id),
  fresh AS (
    INSERT INTO end_user_refresh_tokens (workspace_id, session_id, token_hash, access_jti, access_expires_at, expires_at, created_at)
    SELECT workspace_id, id, $6::text, $7::uuid, $8::timestamptz, $9::timestamptz, $3::timestamptz FROM extended)
  SELECT true AS rotated ${RIDER_COLUMNS} FROM extended`,
  computed({ rotated: 'boolean' }),
);

// Revocation, set-based: the sessions revoked and, in the same round trip, every token id of
// theirs that could still be presented (the refresh tokens and the access tokens issued with them).
// The outer SELECT reads end_user_refresh_tokens, which the UPDATE does not touch.
const REVOKE = statement(
  'sessions.revoke',
  `WITH revoked AS (
    UPDATE end_user_sessions SET revoked_at = $2, revoke_reason = $3
     WHERE workspace_id = $1 AND revoked_at IS NULL
       AND ($4::uuid IS NULL OR id = $4) AND ($5::uuid IS NULL OR user_id = $5) AND ($6::uuid IS NULL OR id <> $6)
     RETURNING id)
  SELECT r.id AS session_id, t.id AS refresh_id, t.expires_at AS refresh_expires_at, t.access_jti AS refresh_access_jti,
         t.access_expires_at AS refresh_access_expires_at
    FROM revoked r
    LEFT JOIN end_user_refresh_tokens t
      ON t.workspace_id = $1 AND t.session_id = r.id AND (t.expires_at > $2 OR t.access_expires_at > $2)`,
  computed({ sessionId: ['session_id', 'text'] }).and(
    nested(
      'refresh',
      entityColumns(EndUserRefreshToken, ['id', 'expiresAt', 'accessJti', 'accessExpiresAt'], { prefix: 'refresh_' }),
      'refresh_id',
    ),
  ),
);

// Every authenticated request: one round trip (decision 0300).
const SESSION_LIVE = statement(
  'sessions.live',
  `WITH live AS (
    SELECT s.id FROM end_user_sessions s JOIN end_users u ON u.id = s.user_id AND u.workspace_id = s.workspace_id
     WHERE s.workspace_id = $1 AND s.id = $2 AND s.user_id = $3 AND s.revoked_at IS NULL AND s.expires_at > $5
       AND u.is_active
       AND NOT EXISTS (SELECT 1 FROM token_denylist d WHERE d.jti = $4 AND d.expires_at > $5)),
  touched AS (
    UPDATE end_user_sessions SET last_seen_at = $5
     WHERE id IN (SELECT id FROM live) AND last_seen_at < $5 - interval '60 seconds' RETURNING id)
  SELECT id FROM live`,
  NO_ROW,
);

// Hosted pages and SAML SSO: the cookie's session, its last_seen_at bumped at most once a minute as on the API
// (SESSION_LIVE): a signed-in browser's SSO reads its session and writes no row for it. The user's profile comes
// with it: what an assertion says about the user, without a query of its own.
const BROWSER_SESSION = statement(
  'sessions.browser-session',
  `WITH live AS (
    SELECT s.id, s.workspace_id, s.user_id, s.oauth_client_id, s.created_at, u.email, u.first_name, u.last_name, u.email_verified,
           s.amr, s.last_seen_at
      FROM end_user_sessions s JOIN end_users u ON u.id = s.user_id AND u.workspace_id = s.workspace_id AND u.is_active
     WHERE s.browser_token_hash = $1 AND s.kind = 'browser' AND s.revoked_at IS NULL AND s.expires_at > $2),
  touched AS (
    UPDATE end_user_sessions SET last_seen_at = $2
     WHERE id IN (SELECT id FROM live WHERE last_seen_at < $2::timestamptz - interval '60 seconds') RETURNING id)
  SELECT id, workspace_id, user_id, oauth_client_id, created_at, email, first_name, last_name, email_verified, amr FROM live`,
  entityColumns(EndUserSession, ['id', 'workspaceId', 'userId', 'oauthClientId', 'createdAt', 'amr']).and(
    entityColumns(EndUser, ['email', 'firstName', 'lastName', 'emailVerified']),
  ),
);

/**
 * end_user_sessions and end_user_refresh_tokens. Methods take the workspace first, except the
 * lookups by a presented secret (refresh token, browser cookie), which learn it from the row.
 * SQL text for the hot statements (sign-in insert, per-request check, refresh lock) and the
 * set-based revocation; the rest through TypeORM.
 */
@Injectable()
export class SessionsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(EndUserSession) private readonly sessions: Repository<EndUserSession>,
  ) {}

  /** One statement for the session row and, for API sign-ins, its first refresh token. */
  async insert(tx: Tx, workspaceId: string, s: NewSession): Promise<EndUserSessionRecord> {
    const r = s.refresh;
    return one(tx, INSERT_SESSION, [
      s.id,
      workspaceId,
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
      s.amr,
    ]);
  }

  async insertRefreshToken(tx: Tx, workspaceId: string, sessionId: string, token: NewRefreshToken, now: Date): Promise<void> {
    await tx
      .getRepository(EndUserRefreshToken)
      .createQueryBuilder()
      .insert()
      .values({ workspaceId, sessionId, ...token, createdAt: now })
      .updateEntity(false) // no RETURNING: nothing generated is read back
      .execute();
  }

  /** The refresh token and its session, row-locked so two concurrent refreshes cannot both win. */
  async lockRefreshToken(tx: Tx, tokenHash: string): Promise<LockedRefreshToken | null> {
    return (await first(tx, LOCK_REFRESH_TOKEN, [tokenHash])) ?? null;
  }

  /**
   * Spends the presented refresh token, extends its session and writes the next token in one
   * statement, with the unit of work's riders on it (on `tx` without riders when the unit of work had to
   * open a transaction). True when rotated; false when the token could no longer be (spent meanwhile,
   * expired, its session revoked or expired, its person deactivated): then no new token was written.
   */
  async rotateRefreshToken(
    on: Tx | null,
    spend: { workspaceId: string; tokenHash: string; sessionId: string },
    sessionExpiresAt: Date,
    next: NewRefreshToken,
    now: Date,
    riders: readonly StatementRider[],
  ): Promise<boolean> {
    const values = [
      spend.workspaceId,
      spend.tokenHash,
      now,
      spend.sessionId,
      sessionExpiresAt,
      next.tokenHash,
      next.accessJti,
      next.accessExpiresAt,
      next.expiresAt,
    ];
    return (await runWithRiders(on ?? this.dataSource, ROTATE_REFRESH_TOKEN, values, riders)).length === 1;
  }

  async markRefreshUsed(tx: Tx, workspaceId: string, id: string, now: Date): Promise<void> {
    await tx.getRepository(EndUserRefreshToken).update({ workspaceId, id }, { usedAt: now });
  }

  /** The session was used now; it lives at least until expiresAt (never shortened). */
  async extend(tx: Tx, workspaceId: string, sessionId: string, now: Date, expiresAt: Date): Promise<void> {
    await tx
      .getRepository(EndUserSession)
      .createQueryBuilder()
      .update()
      .set({ lastSeenAt: now, expiresAt: () => 'GREATEST(expires_at, :expiresAt)' })
      .where('workspace_id = :workspaceId AND id = :sessionId', { workspaceId, sessionId })
      .setParameter('expiresAt', expiresAt)
      .execute();
  }

  /**
   * Revoke sessions and return every token id that could still be presented (refresh token ids and
   * the access token ids issued with them), for the denylist.
   */
  async revoke(
    tx: Tx,
    workspaceId: string,
    filter: SessionFilter,
    reason: string,
    now: Date,
  ): Promise<{ sessionIds: string[]; tokens: DeniedToken[] }> {
    const rows = await run(tx, REVOKE, [
      workspaceId,
      now,
      reason,
      filter.sessionId ?? null,
      filter.userId ?? null,
      filter.exceptSessionId ?? null,
    ]);
    return { sessionIds: [...new Set(rows.map((r) => r.sessionId))], tokens: rows.flatMap(deniedTokens) };
  }

  /**
   * One round trip per authenticated request: the session is live, the user active, and the token
   * id not on the denylist. Also bumps last_seen_at at most once a minute.
   */
  async isLive(workspaceId: string, claims: { sessionId: string; userId: string; jti: string }, now: Date): Promise<boolean> {
    const rows = await run(this.dataSource, SESSION_LIVE, [workspaceId, claims.sessionId, claims.userId, claims.jti, now]);
    return rows.length > 0;
  }

  async listLive(workspaceId: string, userId: string, now: Date): Promise<(EndUserSessionRecord & { expiresAt: Date })[]> {
    const rows = await this.sessions.find({
      where: { workspaceId, userId, revokedAt: IsNull(), expiresAt: MoreThan(now) },
      order: { lastSeenAt: 'DESC', createdAt: 'DESC' },
      take: 200,
    });
    return rows.map(fromEntity);
  }

  async sessionOfUser(tx: Tx, workspaceId: string, userId: string, sessionId: string): Promise<boolean> {
    return tx.getRepository(EndUserSession).existsBy({ workspaceId, userId, id: sessionId, revokedAt: IsNull() });
  }

  /** The live browser session behind an esid cookie hash (its last_seen_at bumped when a minute old). */
  async browserSession(tokenHash: string, now: Date): Promise<BrowserSessionRow | null> {
    return (await first(this.dataSource, BROWSER_SESSION, [tokenHash, now])) ?? null;
  }
}

/** A revoked session's refresh token still worth denying, and the access token issued with it (none when the row has no token). */
function deniedTokens(row: {
  sessionId: string;
  refresh: Pick<EndUserRefreshToken, 'id' | 'expiresAt' | 'accessJti' | 'accessExpiresAt'> | null;
}): DeniedToken[] {
  const t = row.refresh;
  return t
    ? [
        { jti: t.id, expiresAt: t.expiresAt, sessionId: row.sessionId },
        { jti: t.accessJti, expiresAt: t.accessExpiresAt, sessionId: row.sessionId },
      ]
    : [];
}
