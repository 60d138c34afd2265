import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { computed, entityColumns, nested, NO_ROW } from '../database/row-shape';
import { RowShapeError } from '../database/rows';
import { first, run, statement } from '../database/statement';
import { RIDER_COLUMNS, runWithRiders } from '../database/statement-riders';
import type { Tx } from '../database/unit-of-work';
import { EndUser } from '../end-user-directory/entities/end-user.entity';
import type { ApplicationSessionRow } from '../sessions/sessions.service';
import type { StatementRider } from '../events/domain-events';
import type { JwkSet } from '../oauth/assertions/public-key-set';
import { OAuthClient } from '../oauth-clients/entities/oauth-client.entity';
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
  /** Authorization requests must carry PKCE (always for a public client, decision 0930). */
  requirePkce: boolean;
}

export type NewAuthorizationCode = Omit<OAuthAuthorizationCode, 'usedAt' | 'sessionId' | 'createdAt' | 'workspace' | 'client' | 'user'>;
export type AuthorizationCodeRow = Omit<OAuthAuthorizationCode, 'workspace' | 'client' | 'user' | 'createdAt'>;
export type AppSessionRow = Omit<OAuthAppSession, 'session' | 'workspace' | 'client'>;

/**
 * A refresh token read with its application session for the refresh grant (decision 0960): whose it
 * is, what it grants, whether it was spent and whether it can still be used.
 */
export interface RefreshGrant extends Pick<AppSessionRow, 'sessionId' | 'workspaceId' | 'clientId' | 'userId' | 'scope' | 'authTime'> {
  tokenHash: string;
  usedAt: Date | null;
  /** Unspent, unexpired, its session live and its person active (at the time of the read). */
  live: boolean;
  /** The session's authentication methods (decision 0313). */
  amr: string[];
  sessionClientId: string | null;
  user: ClaimsUser | null;
}

/** An authorization code and the person it was issued for. */
export interface CodeWithUser {
  code: AuthorizationCodeRow;
  user: ClaimsUser;
}

/** The person behind a session, as claims read them. */
export type ClaimsUser = Pick<EndUser, 'id' | 'email' | 'emailVerified' | 'firstName' | 'lastName' | 'isActive'>;

/** The application session a code exchange opens, written with the spend in one statement (decision 0917). */
export type ApplicationSessionDraft = ApplicationSessionRow;

function stringList(value: unknown, column: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new RowShapeError(column, 'json string array', value);
  return value as string[];
}

/** A registered JWK Set, or null for anything that is not one (the column is validated on write; a stray value is not a key set). */
function jwkSetOrNull(value: unknown): JwkSet | null {
  return typeof value === 'object' && value !== null && Array.isArray((value as { keys?: unknown }).keys) ? (value as JwkSet) : null;
}

const APP_CLIENT = entityColumns(
  OAuthClient,
  [
    'id',
    'clientId',
    'workspaceId',
    'name',
    'clientSecretHash',
    'redirectUris',
    'postLogoutRedirectUris',
    'clientType',
    'firstParty',
    'subjectType',
    'pairwiseSalt',
    'idTokenAlg',
    'jwks',
    'requirePkce',
  ],
  {
    values: { clientType: ['confidential', 'public'], subjectType: ['public', 'pairwise'], idTokenAlg: ['RS256', 'ES256'] },
    refine: { redirectUris: stringList, postLogoutRedirectUris: stringList, jwks: jwkSetOrNull },
  },
);
const CLIENT_COLUMNS = `id, client_id, workspace_id, name, client_secret_hash, redirect_uris, post_logout_redirect_uris,
  client_type, first_party, subject_type, pairwise_salt, id_token_alg, jwks, require_pkce`;
const CLIENT_BY_PUBLIC_ID = statement(
  'oidc.client-by-public-id',
  `SELECT ${CLIENT_COLUMNS} FROM oauth_clients WHERE client_id = $1`,
  APP_CLIENT,
);
const CLIENT_BY_ID = statement(
  'oidc.client-by-id',
  `SELECT ${CLIENT_COLUMNS} FROM oauth_clients WHERE workspace_id = $1 AND id = $2`,
  APP_CLIENT,
);

const CODE_PROPERTIES = [
  'codeHash',
  'workspaceId',
  'clientId',
  'userId',
  'browserSessionId',
  'redirectUri',
  'scope',
  'nonce',
  'codeChallenge',
  'authTime',
  'amr',
  'expiresAt',
  'usedAt',
  'sessionId',
] as const;
/** The columns APP_CLIENT reads (alias o), in the statements that read the client with something else. */
const APP_CLIENT_COLUMNS = `o.id, o.client_id, o.workspace_id, o.name, o.client_secret_hash, o.redirect_uris, o.post_logout_redirect_uris,
    o.client_type, o.first_party, o.subject_type, o.pairwise_salt, o.id_token_alg, o.jwks, o.require_pkce`;
/** The person of a code (alias u), as CODE_WITH_USER reads them. */
const CODE_USER_COLUMNS = `u.email AS u_email, u.email_verified AS u_email_verified, u.first_name AS u_first_name, u.last_name AS u_last_name,
    u.is_active AS u_is_active`;
const CODE_WITH_USER = entityColumns(OAuthAuthorizationCode, CODE_PROPERTIES).and(
  entityColumns(EndUser, ['email', 'emailVerified', 'firstName', 'lastName', 'isActive'], { prefix: 'u_' }),
);
const codeWithUser = (lock: string) => `SELECT c.code_hash, c.workspace_id, c.client_id, c.user_id, c.browser_session_id, c.redirect_uri,
    c.scope, c.nonce, c.code_challenge, c.auth_time, c.amr, c.expires_at, c.used_at, c.session_id,
    ${CODE_USER_COLUMNS}
  FROM oauth_authorization_codes c JOIN end_users u ON u.id = c.user_id AND u.workspace_id = c.workspace_id
  WHERE c.code_hash = $1${lock}`;
const CODE = statement('oidc.code', codeWithUser(''), CODE_WITH_USER);

/**
 * The client and, when it was issued to that client, the code with its person: the token endpoint's
 * client lookup and the exchange's read in one round trip (decision 0917). Another client's code
 * reads as none.
 */
const CLIENT_WITH_CODE = statement(
  'oidc.client-with-code',
  `SELECT ${APP_CLIENT_COLUMNS},
    c.code_hash AS c_code_hash, c.workspace_id AS c_workspace_id, c.client_id AS c_client_id, c.user_id AS c_user_id,
    c.browser_session_id AS c_browser_session_id, c.redirect_uri AS c_redirect_uri, c.scope AS c_scope, c.nonce AS c_nonce,
    c.code_challenge AS c_code_challenge, c.auth_time AS c_auth_time, c.amr AS c_amr, c.expires_at AS c_expires_at,
    c.used_at AS c_used_at, c.session_id AS c_session_id,
    ${CODE_USER_COLUMNS}
  FROM oauth_clients o
  LEFT JOIN oauth_authorization_codes c ON c.code_hash = $2 AND c.client_id = o.id AND c.workspace_id = o.workspace_id
  LEFT JOIN end_users u ON u.id = c.user_id AND u.workspace_id = c.workspace_id
  WHERE o.client_id = $1`,
  APP_CLIENT.and(
    nested(
      'code',
      entityColumns(OAuthAuthorizationCode, CODE_PROPERTIES, { prefix: 'c_' }).and(
        entityColumns(EndUser, ['email', 'emailVerified', 'firstName', 'lastName', 'isActive'], { prefix: 'u_' }),
      ),
      'c_code_hash',
    ),
  ),
);
/**
 * The client and, when it was issued to that client, the refresh token with its application session,
 * session and person: the token endpoint's client lookup and the refresh grant's read in one round
 * trip (decision 0960). Another client's refresh token reads as none. `live`: unspent, unexpired, its
 * session neither revoked nor expired, its person active.
 */
const REFRESH_GRANT_COLUMNS = `r.token_hash AS r_token_hash, r.used_at AS r_used_at,
    r.used_at IS NULL AND r.expires_at > $3 AND e.revoked_at IS NULL AND e.expires_at > $3 AND u.is_active AS r_live,
    s.session_id AS s_session_id, s.workspace_id AS s_workspace_id, s.client_id AS s_client_id, s.user_id AS s_user_id,
    s.scope AS s_scope, s.auth_time AS s_auth_time, e.amr AS e_amr, e.oauth_client_id AS e_oauth_client_id,
    u.id AS u_id, u.email AS u_email, u.email_verified AS u_email_verified, u.first_name AS u_first_name,
    u.last_name AS u_last_name, u.is_active AS u_is_active`;
const REFRESH_GRANT_JOINS = `end_user_refresh_tokens r
    JOIN oauth_app_sessions s ON s.session_id = r.session_id AND s.workspace_id = r.workspace_id
    JOIN end_user_sessions e ON e.id = r.session_id AND e.workspace_id = r.workspace_id
    JOIN end_users u ON u.id = s.user_id AND u.workspace_id = s.workspace_id`;
const REFRESH_GRANT = entityColumns(OAuthAppSession, ['sessionId', 'workspaceId', 'clientId', 'userId', 'scope', 'authTime'], {
  prefix: 's_',
})
  .and(
    computed({
      tokenHash: ['r_token_hash', 'text'],
      usedAt: ['r_used_at', 'timestamp?'],
      live: ['r_live', 'boolean'],
      amr: ['e_amr', 'text[]'],
      sessionClientId: ['e_oauth_client_id', 'text?'],
    }),
  )
  .and(
    nested('user', entityColumns(EndUser, ['id', 'email', 'emailVerified', 'firstName', 'lastName', 'isActive'], { prefix: 'u_' }), 'u_id'),
  );
const CLIENT_WITH_REFRESH = statement(
  'oidc.client-with-refresh-token',
  `SELECT ${APP_CLIENT_COLUMNS}, ${REFRESH_GRANT_COLUMNS}
  FROM oauth_clients o
  LEFT JOIN (${REFRESH_GRANT_JOINS}) ON r.token_hash = $2 AND s.client_id = o.id AND s.workspace_id = o.workspace_id
  WHERE o.client_id = $1`,
  APP_CLIENT.and(nested('refresh', REFRESH_GRANT, 'r_token_hash')),
);
/** The same read for a client already known by its row id (a grant whose client was not read with the token). */
const REFRESH_GRANT_OF_CLIENT = statement(
  'oidc.refresh-grant',
  `SELECT ${REFRESH_GRANT_COLUMNS} FROM ${REFRESH_GRANT_JOINS} WHERE r.token_hash = $2 AND s.client_id = $1`,
  REFRESH_GRANT,
);

const LOCK_CODE = statement('oidc.lock-code', codeWithUser(' FOR UPDATE OF c'), CODE_WITH_USER);

/**
 * The code exchange's one write (decision 0917): the code is spent only if it is still unspent and
 * unexpired and its person still active (a concurrent exchange waits for the row and then finds it
 * spent); the spend opens the end-user session (kind api), its first refresh token, and the row
 * that binds it to the client. The final SELECT answers one row when the code was spent, none
 * otherwise, and carries the unit of work's riders (the oauth_token_issue audit row).
 */
const EXCHANGE_CODE = statement(
  'oidc.exchange-code',
  `WITH spent AS (
    UPDATE oauth_authorization_codes c SET used_at = $3::timestamptz, session_id = $4::uuid
     WHERE c.workspace_id = $1 AND c.code_hash = $2 AND c.used_at IS NULL AND c.expires_at > $3::timestamptz
       AND EXISTS (SELECT 1 FROM end_users u WHERE u.workspace_id = c.workspace_id AND u.id = c.user_id AND u.is_active)
    RETURNING c.workspace_id, c.client_id, c.user_id, c.browser_session_id, c.scope, c.auth_time, c.amr),
  session AS (
    INSERT INTO end_user_sessions (id, workspace_id, user_id, oauth_client_id, kind, ip_address, user_agent, browser_family,
      os_family, browser_token_hash, created_at, last_seen_at, expires_at, amr)
    SELECT $4::uuid, workspace_id, user_id, client_id, 'api', $5::text, $6::text, $7::text, $8::text, NULL, $3::timestamptz,
      $3::timestamptz, $9::timestamptz, amr FROM spent
    RETURNING workspace_id, id),
  refresh AS (
    INSERT INTO end_user_refresh_tokens (workspace_id, session_id, token_hash, access_jti, access_expires_at, expires_at, created_at)
    SELECT workspace_id, id, $10::text, $11::uuid, $12::timestamptz, $13::timestamptz, $3::timestamptz FROM session),
  bound AS (
    INSERT INTO oauth_app_sessions (session_id, workspace_id, client_id, user_id, browser_session_id, scope, auth_time)
    SELECT $4::uuid, workspace_id, client_id, user_id, browser_session_id, scope, auth_time FROM spent)
  SELECT true AS spent ${RIDER_COLUMNS} FROM spent`,
  computed({ spent: 'boolean' }),
);

const INSERT_CODE = statement(
  'oidc.insert-code',
  `INSERT INTO oauth_authorization_codes (code_hash, workspace_id, client_id, user_id, browser_session_id, redirect_uri, scope,
    nonce, code_challenge, auth_time, amr, expires_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
  NO_ROW,
);

const MARK_CODE_USED = statement(
  'oidc.mark-code-used',
  `UPDATE oauth_authorization_codes SET used_at = $3 WHERE workspace_id = $1 AND code_hash = $2 AND used_at IS NULL`,
  NO_ROW,
);

/** Whether any application registers a redirect URI starting with one of the prefixes (an origin followed by `/`, `?` or `:`). */
const REDIRECT_ORIGIN = statement(
  'oidc.redirect-origin',
  `SELECT EXISTS (SELECT 1 FROM oauth_clients c, jsonb_array_elements_text(c.redirect_uris) AS r(uri) WHERE r.uri ^@ ANY($1::text[]))
    AS registered`,
  computed({ registered: 'boolean' }),
);

const PURGE_CODES = statement('oidc.purge-codes', `DELETE FROM oauth_authorization_codes WHERE expires_at < $1`, NO_ROW);

const APP_SESSION_PROPERTIES = [
  'sessionId',
  'workspaceId',
  'clientId',
  'userId',
  'browserSessionId',
  'scope',
  'authTime',
  'createdAt',
] as const;

const APP_SESSION_BY_REFRESH = statement(
  'oidc.app-session-by-refresh-token',
  `SELECT s.session_id, s.workspace_id, s.client_id, s.user_id, s.browser_session_id, s.scope, s.auth_time, s.created_at,
    r.used_at IS NULL AND r.expires_at > $2 AND e.revoked_at IS NULL AND e.expires_at > $2 AS live,
    r.expires_at AS token_expires_at, r.created_at AS token_created_at
  FROM end_user_refresh_tokens r
  JOIN oauth_app_sessions s ON s.session_id = r.session_id AND s.workspace_id = r.workspace_id
  JOIN end_user_sessions e ON e.id = r.session_id AND e.workspace_id = r.workspace_id
  WHERE r.token_hash = $1`,
  entityColumns(OAuthAppSession, APP_SESSION_PROPERTIES).and(
    computed({ live: 'boolean', tokenExpiresAt: ['token_expires_at', 'timestamp'], tokenIssuedAt: ['token_created_at', 'timestamp'] }),
  ),
);

/**
 * What an application's access token grants, for UserInfo and introspection (decision 0961): its application
 * session with the client and the person, in one read (the token's liveness is the sessions module's check).
 */
const ACCESS_GRANT = statement(
  'oidc.access-grant',
  `SELECT ${APP_CLIENT_COLUMNS},
    s.session_id AS s_session_id, s.workspace_id AS s_workspace_id, s.client_id AS s_client_id, s.user_id AS s_user_id,
    s.browser_session_id AS s_browser_session_id, s.scope AS s_scope, s.auth_time AS s_auth_time, s.created_at AS s_created_at,
    u.id AS u_id, u.email AS u_email, u.email_verified AS u_email_verified, u.first_name AS u_first_name,
    u.last_name AS u_last_name, u.is_active AS u_is_active
  FROM oauth_app_sessions s
  JOIN oauth_clients o ON o.id = s.client_id AND o.workspace_id = s.workspace_id
  JOIN end_users u ON u.id = s.user_id AND u.workspace_id = s.workspace_id
  WHERE s.workspace_id = $1 AND s.session_id = $2`,
  APP_CLIENT.and(nested('grant', entityColumns(OAuthAppSession, APP_SESSION_PROPERTIES, { prefix: 's_' }), 's_session_id')).and(
    nested('user', entityColumns(EndUser, ['id', 'email', 'emailVerified', 'firstName', 'lastName', 'isActive'], { prefix: 'u_' }), 'u_id'),
  ),
);

const CLAIMS_USER = statement(
  'oidc.claims-user',
  `SELECT id, email, email_verified, first_name, last_name, is_active FROM end_users WHERE workspace_id = $1 AND id = $2`,
  entityColumns(EndUser, ['id', 'email', 'emailVerified', 'firstName', 'lastName', 'isActive']),
);

const CONSENTS = statement(
  'oidc.consents',
  `SELECT c.client_id, o.name, c.scope, c.granted_at FROM oauth_consents c JOIN oauth_clients o ON o.id = c.client_id
    WHERE c.workspace_id = $1 AND c.user_id = $2 ORDER BY c.granted_at DESC, c.client_id`,
  entityColumns(OAuthConsent, ['clientId', 'scope', 'grantedAt']).and(entityColumns(OAuthClient, ['name'])),
);

type AppClientRow = Omit<AppClient, 'secretHash'> & { clientSecretHash: string };

function toAppClient({ clientSecretHash, ...rest }: AppClientRow): AppClient {
  return { ...rest, secretHash: clientSecretHash };
}

function toCode(
  row: AuthorizationCodeRow & { email: string; emailVerified: boolean; firstName: string; lastName: string; isActive: boolean },
) {
  const { email, emailVerified, firstName, lastName, isActive, ...code } = row;
  return { code, user: { id: code.userId, email, emailVerified, firstName, lastName, isActive } };
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
    const row = await first(this.dataSource, CLIENT_BY_PUBLIC_ID, [clientId]);
    return row ? toAppClient(row) : null;
  }

  /** Whether some application's redirect URI starts with one of `prefixes` (decision 0932's CORS origins). */
  async redirectUriWithPrefix(prefixes: string[]): Promise<boolean> {
    const row = await first(this.dataSource, REDIRECT_ORIGIN, [prefixes]);
    return row?.registered === true;
  }

  async clientById(workspaceId: string, id: string): Promise<AppClient | null> {
    const row = await first(this.dataSource, CLIENT_BY_ID, [workspaceId, id]);
    return row ? toAppClient(row) : null;
  }

  /** The client, and the code (with its person) if that client was issued it: decision 0917's one read. */
  async clientWithCode(clientId: string, codeHash: string): Promise<{ app: AppClient; code: CodeWithUser | null } | null> {
    const row = await first(this.dataSource, CLIENT_WITH_CODE, [clientId, codeHash]);
    if (!row) return null;
    const { code, ...client } = row;
    return { app: toAppClient(client), code: code ? toCode(code) : null };
  }

  /** The client, and the refresh token's grant if it was issued to that client: decision 0960's one read. */
  async clientWithRefreshToken(
    clientId: string,
    tokenHash: string,
    now: Date,
  ): Promise<{ app: AppClient; refresh: RefreshGrant | null } | null> {
    const row = await first(this.dataSource, CLIENT_WITH_REFRESH, [clientId, tokenHash, now]);
    if (!row) return null;
    const { refresh, ...client } = row;
    return { app: toAppClient(client), refresh };
  }

  /** The refresh token's grant when it was issued to the client with row id `clientRowId`. */
  async refreshGrant(clientRowId: string, tokenHash: string, now: Date): Promise<RefreshGrant | null> {
    return (await first(this.dataSource, REFRESH_GRANT_OF_CLIENT, [clientRowId, tokenHash, now])) ?? null;
  }

  /** One prepared statement: the authorization endpoint issues a code on every sign-in through the flow. */
  async insertCode(code: NewAuthorizationCode): Promise<void> {
    await run(this.dataSource, INSERT_CODE, [
      code.codeHash,
      code.workspaceId,
      code.clientId,
      code.userId,
      code.browserSessionId,
      code.redirectUri,
      code.scope,
      code.nonce,
      code.codeChallenge,
      code.authTime,
      code.amr,
      code.expiresAt,
    ]);
  }

  /** The code with the person it was issued for, as it stands (the exchange's write re-checks what can change). */
  async code(codeHash: string): Promise<CodeWithUser | null> {
    const row = await first(this.dataSource, CODE, [codeHash]);
    return row ? toCode(row) : null;
  }

  /** The code row-locked, with its person (a code presented again: what its first exchange opened is revoked under the lock). */
  async lockCode(tx: Tx, codeHash: string): Promise<CodeWithUser | null> {
    const row = await first(tx, LOCK_CODE, [codeHash]);
    return row ? toCode(row) : null;
  }

  /**
   * Spends the code and opens its application session in one statement, with the unit of work's
   * riders (the audit row) on it; on `tx` without riders when the unit of work had to open a
   * transaction. True when the code was spent; false when it no longer could be (spent meanwhile,
   * expired, its person deactivated): nothing was written.
   */
  async exchangeCode(
    on: Tx | null,
    code: Pick<AuthorizationCodeRow, 'workspaceId' | 'codeHash'>,
    session: ApplicationSessionDraft,
    now: Date,
    riders: readonly StatementRider[],
  ): Promise<boolean> {
    const { refresh } = session;
    const values = [
      code.workspaceId,
      code.codeHash,
      now,
      session.sessionId,
      session.ipAddress,
      session.userAgent,
      session.browserFamily,
      session.osFamily,
      session.expiresAt,
      refresh.tokenHash,
      refresh.accessJti,
      refresh.accessExpiresAt,
      refresh.expiresAt,
    ];
    return (await runWithRiders(on ?? this.dataSource, EXCHANGE_CODE, values, riders)).length === 1;
  }

  /** Spends a code without an exchange (its person was deactivated: it must not work later either). */
  async markCodeUsed(tx: Tx | null, workspaceId: string, codeHash: string, now: Date): Promise<void> {
    await run(tx ?? this.dataSource, MARK_CODE_USED, [workspaceId, codeHash, now]);
  }

  /** Codes expired for a while (a spent one is kept a little longer than it lives, to detect its reuse). */
  async purgeCodes(before: Date): Promise<void> {
    await run(this.dataSource, PURGE_CODES, [before]);
  }

  /** The application session a refresh token belongs to, and whether the token itself is still usable (unspent, unexpired, session live). */
  async appSessionByRefreshHash(
    tokenHash: string,
    now: Date,
  ): Promise<(AppSessionRow & { live: boolean; tokenIssuedAt: Date; tokenExpiresAt: Date }) | null> {
    return (await first(this.dataSource, APP_SESSION_BY_REFRESH, [tokenHash, now])) ?? null;
  }

  /** The application session `sessionId` with its client and person (decision 0961's one read), or null. */
  async accessGrant(workspaceId: string, sessionId: string): Promise<{ grant: AppSessionRow; app: AppClient; user: ClaimsUser } | null> {
    const row = await first(this.dataSource, ACCESS_GRANT, [workspaceId, sessionId]);
    if (!row?.grant || !row.user) return null;
    const { grant, user, ...client } = row;
    return { grant, app: toAppClient(client), user };
  }

  /** The application sessions a browser session led to (RP-initiated logout ends them with it). */
  async appSessionsOfBrowser(tx: Tx, workspaceId: string, browserSessionId: string): Promise<string[]> {
    const rows = await tx.getRepository(OAuthAppSession).find({ select: { sessionId: true }, where: { workspaceId, browserSessionId } });
    return rows.map((r) => r.sessionId);
  }

  /** On `tx` inside a unit of work (an embedded database has one connection: the pool would wait for it forever). */
  async claimsUser(workspaceId: string, userId: string, tx: Tx | null = null): Promise<ClaimsUser | null> {
    return (await first(tx ?? this.dataSource, CLAIMS_USER, [workspaceId, userId])) ?? null;
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
    return run(this.dataSource, CONSENTS, [workspaceId, userId]);
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
