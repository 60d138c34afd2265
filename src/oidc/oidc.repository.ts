import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { preparedQuery } from '../database/prepared-query';
import { bool, date, dateOrNull, QueryRow, RowShapeError, text, textArray, textOrNull } from '../database/rows';
import type { Tx } from '../database/unit-of-work';
import type { JwkSet } from '../oauth/assertions/public-key-set';
import { OAuthAppSession } from './entities/oauth-app-session.entity';
import { OAuthAuthorizationCode } from './entities/oauth-authorization-code.entity';
import { OAuthConsent } from './entities/oauth-consent.entity';

/** An application (oauth_clients row) as the OpenID provider needs it. */
export interface AppClient {
  id: string;
  clientId: string;
  workspaceId: string;
  name: string;
  /** SHA-256 hex of its secret (a public client's is never accepted). */
  secretHash: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  clientType: 'confidential' | 'public';
  firstParty: boolean;
  subjectType: 'public' | 'pairwise';
  pairwiseSalt: string;
  idTokenAlg: 'RS256' | 'ES256';
  jwks: JwkSet | null;
}

export type NewAuthorizationCode = Omit<OAuthAuthorizationCode, 'usedAt' | 'sessionId' | 'createdAt' | 'workspace' | 'client' | 'user'>;
export type AuthorizationCodeRow = Omit<OAuthAuthorizationCode, 'workspace' | 'client' | 'user' | 'createdAt'>;
export type AppSessionRow = Omit<OAuthAppSession, 'session' | 'workspace' | 'client'>;

/** The person behind a session, as claims read them. */
export interface ClaimsUser {
  id: string;
  email: string;
  emailVerified: boolean;
  firstName: string;
  lastName: string;
  isActive: boolean;
}

const CLIENT_COLUMNS = `id, client_id, workspace_id, name, client_secret_hash, redirect_uris, post_logout_redirect_uris,
  client_type, first_party, subject_type, pairwise_salt, id_token_alg, jwks`;
const CLIENT_BY_PUBLIC_ID = `SELECT ${CLIENT_COLUMNS} FROM oauth_clients WHERE client_id = $1`;
const CLIENT_BY_ID = `SELECT ${CLIENT_COLUMNS} FROM oauth_clients WHERE workspace_id = $1 AND id = $2`;

const APP_SESSION_BY_REFRESH = `SELECT s.session_id, s.workspace_id, s.client_id, s.user_id, s.browser_session_id, s.scope, s.auth_time, s.created_at,
    r.used_at IS NULL AND r.expires_at > $2 AND e.revoked_at IS NULL AND e.expires_at > $2 AS live, r.expires_at AS token_expires_at, r.created_at AS token_created_at
  FROM end_user_refresh_tokens r
  JOIN oauth_app_sessions s ON s.session_id = r.session_id AND s.workspace_id = r.workspace_id
  JOIN end_user_sessions e ON e.id = r.session_id AND e.workspace_id = r.workspace_id
  WHERE r.token_hash = $1`;

const APP_SESSION = `SELECT session_id, workspace_id, client_id, user_id, browser_session_id, scope, auth_time, created_at
  FROM oauth_app_sessions WHERE workspace_id = $1 AND session_id = $2`;

const LOCK_CODE = `SELECT c.code_hash, c.workspace_id, c.client_id, c.user_id, c.browser_session_id, c.redirect_uri, c.scope, c.nonce,
    c.code_challenge, c.auth_time, c.amr, c.expires_at, c.used_at, c.session_id,
    u.email, u.email_verified, u.first_name, u.last_name, u.is_active
  FROM oauth_authorization_codes c JOIN end_users u ON u.id = c.user_id AND u.workspace_id = c.workspace_id
  WHERE c.code_hash = $1 FOR UPDATE OF c`;

// A data-modifying CTE runs whether or not the statement reads it: the code is spent and the session bound together.
const SPEND_CODE = `WITH spent AS (
    UPDATE oauth_authorization_codes SET used_at = $3, session_id = $4 WHERE workspace_id = $1 AND code_hash = $2
  )
  INSERT INTO oauth_app_sessions (session_id, workspace_id, client_id, user_id, browser_session_id, scope, auth_time)
  VALUES ($4, $1, $5, $6, $7, $8, $9)`;

const CLAIMS_USER = `SELECT id, email, email_verified, first_name, last_name, is_active FROM end_users WHERE workspace_id = $1 AND id = $2`;

function stringList(row: QueryRow, column: string): string[] {
  const value = row[column];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new RowShapeError(column, 'json string array', value);
  return value as string[];
}

function oneOf<T extends string>(row: QueryRow, column: string, values: readonly T[]): T {
  const value = text(row, column);
  if (!values.includes(value as T)) throw new RowShapeError(column, values.join(' | '), value);
  return value as T;
}

function toAppClient(row: QueryRow): AppClient {
  const jwks = row.jwks;
  return {
    id: text(row, 'id'),
    clientId: text(row, 'client_id'),
    workspaceId: text(row, 'workspace_id'),
    name: text(row, 'name'),
    secretHash: text(row, 'client_secret_hash'),
    redirectUris: stringList(row, 'redirect_uris'),
    postLogoutRedirectUris: stringList(row, 'post_logout_redirect_uris'),
    clientType: oneOf(row, 'client_type', ['confidential', 'public'] as const),
    firstParty: bool(row, 'first_party'),
    subjectType: oneOf(row, 'subject_type', ['public', 'pairwise'] as const),
    pairwiseSalt: text(row, 'pairwise_salt'),
    idTokenAlg: oneOf(row, 'id_token_alg', ['RS256', 'ES256'] as const),
    jwks: jwks && typeof jwks === 'object' && Array.isArray((jwks as { keys?: unknown }).keys) ? (jwks as AppClient['jwks']) : null,
  };
}

function toAppSession(row: QueryRow): AppSessionRow {
  return {
    sessionId: text(row, 'session_id'),
    workspaceId: text(row, 'workspace_id'),
    clientId: text(row, 'client_id'),
    userId: text(row, 'user_id'),
    browserSessionId: textOrNull(row, 'browser_session_id'),
    scope: text(row, 'scope'),
    authTime: date(row, 'auth_time'),
    createdAt: date(row, 'created_at'),
  };
}

function toCode(row: QueryRow): AuthorizationCodeRow {
  return {
    codeHash: text(row, 'code_hash'),
    workspaceId: text(row, 'workspace_id'),
    clientId: text(row, 'client_id'),
    userId: text(row, 'user_id'),
    browserSessionId: textOrNull(row, 'browser_session_id'),
    redirectUri: text(row, 'redirect_uri'),
    scope: text(row, 'scope'),
    nonce: textOrNull(row, 'nonce'),
    codeChallenge: text(row, 'code_challenge'),
    authTime: date(row, 'auth_time'),
    amr: textArray(row, 'amr'),
    expiresAt: date(row, 'expires_at'),
    usedAt: dateOrNull(row, 'used_at'),
    sessionId: textOrNull(row, 'session_id'),
  };
}

/**
 * The OpenID provider's tables (codes, application sessions, consents) and the reads of
 * oauth_clients and end_users its protocol needs. Tenant rows are read by workspace, except by a
 * credential's hash (code, refresh token), which names its own workspace.
 */
@Injectable()
export class OidcRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async clientByPublicId(clientId: string): Promise<AppClient | null> {
    const [row] = await preparedQuery(this.dataSource, CLIENT_BY_PUBLIC_ID, [clientId]);
    return row ? toAppClient(row) : null;
  }

  async clientById(workspaceId: string, id: string): Promise<AppClient | null> {
    const [row] = await preparedQuery(this.dataSource, CLIENT_BY_ID, [workspaceId, id]);
    return row ? toAppClient(row) : null;
  }

  async insertCode(code: NewAuthorizationCode): Promise<void> {
    await this.dataSource.getRepository(OAuthAuthorizationCode).insert({ ...code, usedAt: null, sessionId: null });
  }

  /**
   * The code row-locked (two concurrent exchanges cannot both spend it), with the person it was issued
   * for, in one round trip (the exchange is the hot path of a sign-in).
   */
  async lockCode(tx: Tx, codeHash: string): Promise<{ code: AuthorizationCodeRow; user: ClaimsUser } | null> {
    const [row] = await preparedQuery(tx, LOCK_CODE, [codeHash]);
    if (!row) return null;
    return {
      code: toCode(row),
      user: {
        id: text(row, 'user_id'),
        email: text(row, 'email'),
        emailVerified: bool(row, 'email_verified'),
        firstName: text(row, 'first_name'),
        lastName: text(row, 'last_name'),
        isActive: bool(row, 'is_active'),
      },
    };
  }

  /** Spends the code for the session its exchange opened and binds that session to the client, in one statement. */
  async spendCode(
    tx: Tx,
    code: AuthorizationCodeRow,
    session: Omit<AppSessionRow, 'createdAt' | 'browserSessionId' | 'scope' | 'authTime' | 'userId'>,
    now: Date,
  ): Promise<void> {
    await preparedQuery(tx, SPEND_CODE, [
      code.workspaceId,
      code.codeHash,
      now,
      session.sessionId,
      session.clientId,
      code.userId,
      code.browserSessionId,
      code.scope,
      code.authTime,
    ]);
  }

  async markCodeUsed(tx: Tx, workspaceId: string, codeHash: string, now: Date, sessionId: string | null): Promise<void> {
    await tx.getRepository(OAuthAuthorizationCode).update({ workspaceId, codeHash }, { usedAt: now, sessionId });
  }

  /** Codes expired for a while (a spent one is kept a little longer than it lives, to detect its reuse). */
  async purgeCodes(before: Date): Promise<void> {
    await this.dataSource.query(`DELETE FROM oauth_authorization_codes WHERE expires_at < $1`, [before]);
  }

  /** The application session a refresh token belongs to, and whether the token itself is still usable (unspent, unexpired, session live). */
  async appSessionByRefreshHash(
    tokenHash: string,
    now: Date,
  ): Promise<(AppSessionRow & { live: boolean; tokenIssuedAt: Date; tokenExpiresAt: Date }) | null> {
    const [row] = await preparedQuery(this.dataSource, APP_SESSION_BY_REFRESH, [tokenHash, now]);
    if (!row) return null;
    return {
      ...toAppSession(row),
      live: bool(row, 'live'),
      tokenIssuedAt: date(row, 'token_created_at'),
      tokenExpiresAt: date(row, 'token_expires_at'),
    };
  }

  async appSession(workspaceId: string, sessionId: string): Promise<AppSessionRow | null> {
    const [row] = await preparedQuery(this.dataSource, APP_SESSION, [workspaceId, sessionId]);
    return row ? toAppSession(row) : null;
  }

  /** The application sessions a browser session led to (RP-initiated logout ends them with it). */
  async appSessionsOfBrowser(tx: Tx, workspaceId: string, browserSessionId: string): Promise<string[]> {
    const rows = await tx.getRepository(OAuthAppSession).find({ select: { sessionId: true }, where: { workspaceId, browserSessionId } });
    return rows.map((r) => r.sessionId);
  }

  /** On `tx` inside a unit of work (an embedded database has one connection: the pool would wait for it forever). */
  async claimsUser(workspaceId: string, userId: string, tx: Tx | null = null): Promise<ClaimsUser | null> {
    const [row] = await preparedQuery(tx ?? this.dataSource, CLAIMS_USER, [workspaceId, userId]);
    if (!row) return null;
    return {
      id: text(row, 'id'),
      email: text(row, 'email'),
      emailVerified: bool(row, 'email_verified'),
      firstName: text(row, 'first_name'),
      lastName: text(row, 'last_name'),
      isActive: bool(row, 'is_active'),
    };
  }

  async consent(workspaceId: string, userId: string, clientId: string): Promise<{ scope: string; grantedAt: Date } | null> {
    const row = await this.dataSource.getRepository(OAuthConsent).findOne({ where: { workspaceId, userId, clientId } });
    return row ? { scope: row.scope, grantedAt: row.grantedAt } : null;
  }

  async saveConsent(tx: Tx, consent: Omit<OAuthConsent, 'user' | 'client' | 'workspace'>): Promise<void> {
    await tx.getRepository(OAuthConsent).upsert(consent, ['userId', 'clientId']);
  }

  /** The user's consents with the application names, newest first. */
  async listConsents(workspaceId: string, userId: string): Promise<{ clientId: string; name: string; scope: string; grantedAt: Date }[]> {
    const rows = (await this.dataSource.query(
      `SELECT c.client_id, o.name, c.scope, c.granted_at FROM oauth_consents c JOIN oauth_clients o ON o.id = c.client_id
        WHERE c.workspace_id = $1 AND c.user_id = $2 ORDER BY c.granted_at DESC, c.client_id`,
      [workspaceId, userId],
    )) as QueryRow[];
    return rows.map((r) => ({
      clientId: text(r, 'client_id'),
      name: text(r, 'name'),
      scope: text(r, 'scope'),
      grantedAt: date(r, 'granted_at'),
    }));
  }

  /** Deletes the consent; true when there was one. */
  async deleteConsent(tx: Tx, workspaceId: string, userId: string, clientId: string): Promise<boolean> {
    const result = await tx.getRepository(OAuthConsent).delete({ workspaceId, userId, clientId });
    return (result.affected ?? 0) > 0;
  }

  /** The application sessions of a user with a client (revoking a consent ends them). */
  async appSessionsOfClient(tx: Tx, workspaceId: string, userId: string, clientId: string): Promise<string[]> {
    const rows = await tx.getRepository(OAuthAppSession).find({ select: { sessionId: true }, where: { workspaceId, userId, clientId } });
    return rows.map((r) => r.sessionId);
  }
}
