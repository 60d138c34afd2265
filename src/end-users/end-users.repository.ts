import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DomainError } from '../common/errors';
import { isUuid } from '../common/ids';
import { isUniqueViolation } from '../common/db-errors';

export interface EndUserRow {
  id: string;
  workspace_id: string;
  oauth_client_id: string | null;
  email: string;
  first_name: string;
  last_name: string;
  is_active: boolean;
  email_verified: boolean;
  password_hash: string | null;
  created_at: Date;
}

export interface OAuthClientRef {
  id: string;
  workspace_id: string;
  client_id: string;
  name: string;
}

/** Which accounts a sign-in may match: one OAuth client's users, or (SAML) a whole workspace's. */
export interface SignInScope {
  workspaceId: string;
  oauthClientId?: string;
}

const USER_COLUMNS = `id, workspace_id, oauth_client_id, email, first_name, last_name, is_active, email_verified, password_hash, created_at`;
/** Bound on accounts checked per sign-in (same email under several clients of one workspace). */
const MAX_CANDIDATES = 5;

export interface EndUserView {
  id: string;
  email: string;
  email_verified: boolean;
  first_name: string;
  last_name: string;
  created_at: string;
}

export const toEndUserView = (u: EndUserRow): EndUserView => ({
  id: u.id,
  email: u.email,
  email_verified: u.email_verified,
  first_name: u.first_name,
  last_name: u.last_name,
  created_at: new Date(u.created_at).toISOString(),
});

/** SQL for end users and the OAuth clients they belong to. Every user query is scoped by workspace. */
@Injectable()
export class EndUsersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The OAuth client named by its public client_id (unknown -> 400 invalid_client). */
  async clientByPublicId(clientId: string): Promise<OAuthClientRef> {
    const rows = (await this.dataSource.query(`SELECT id, workspace_id, client_id, name FROM oauth_clients WHERE client_id = $1`, [
      clientId,
    ])) as OAuthClientRef[];
    if (!rows[0]) throw new DomainError('invalid_client', 'Unknown client_id');
    return rows[0];
  }

  /** Pass the caller's transaction manager: the embedded database has a single connection. */
  async clientName(workspaceId: string, oauthClientId: string | null, manager: EntityManager = this.dataSource.manager): Promise<string> {
    const rows = (await manager.query(
      `SELECT COALESCE((SELECT name FROM oauth_clients WHERE id = $2 AND workspace_id = $1), w.name) AS name
         FROM workspaces w WHERE w.id = $1`,
      [workspaceId, oauthClientId],
    )) as { name: string }[];
    return rows[0]?.name ?? '';
  }

  /** The client and its users with this email in one round trip (the API sign-in hot path). */
  async clientAndCandidates(clientId: string, email: string): Promise<{ client: OAuthClientRef; users: EndUserRow[] }> {
    const rows = (await this.dataSource.query(
      `SELECT c.id AS c_id, c.workspace_id AS c_workspace_id, c.client_id AS c_client_id, c.name AS c_name, u.*
         FROM oauth_clients c
         LEFT JOIN LATERAL (
           SELECT ${USER_COLUMNS} FROM end_users
            WHERE workspace_id = c.workspace_id AND oauth_client_id = c.id AND lower(email) = $2
            ORDER BY created_at, id LIMIT ${MAX_CANDIDATES}) u ON true
        WHERE c.client_id = $1`,
      [clientId, email.toLowerCase()],
    )) as (EndUserRow & { c_id: string; c_workspace_id: string; c_client_id: string; c_name: string })[];
    if (!rows[0]) throw new DomainError('invalid_client', 'Unknown client_id');
    const { c_id, c_workspace_id, c_client_id, c_name } = rows[0];
    const users = rows
      .filter((r) => r.id)
      .map(({ c_id: _a, c_workspace_id: _b, c_client_id: _c, c_name: _d, ...user }) => user as EndUserRow);
    return { client: { id: c_id, workspace_id: c_workspace_id, client_id: c_client_id, name: c_name }, users };
  }

  async candidates(scope: SignInScope, email: string): Promise<EndUserRow[]> {
    const params: unknown[] = [scope.workspaceId, email.toLowerCase(), MAX_CANDIDATES];
    let clientFilter = '';
    if (scope.oauthClientId) {
      params.push(scope.oauthClientId);
      clientFilter = 'AND oauth_client_id = $4';
    }
    return (await this.dataSource.query(
      `SELECT ${USER_COLUMNS} FROM end_users
        WHERE workspace_id = $1 AND lower(email) = $2 ${clientFilter}
        ORDER BY created_at, id LIMIT $3`,
      params,
    )) as EndUserRow[];
  }

  /** The workspace's account without an OAuth client (SCIM-provisioned), if any. */
  async directoryAccount(workspaceId: string, email: string): Promise<EndUserRow | null> {
    if (!isUuid(workspaceId)) return null;
    const rows = (await this.dataSource.query(
      `SELECT ${USER_COLUMNS} FROM end_users WHERE workspace_id = $1 AND oauth_client_id IS NULL AND lower(email) = $2`,
      [workspaceId, email.toLowerCase()],
    )) as EndUserRow[];
    return rows[0] ?? null;
  }

  async byId(workspaceId: string, userId: string, manager: EntityManager = this.dataSource.manager): Promise<EndUserRow | null> {
    const rows = (await manager.query(`SELECT ${USER_COLUMNS} FROM end_users WHERE workspace_id = $1 AND id = $2`, [
      workspaceId,
      userId,
    ])) as EndUserRow[];
    return rows[0] ?? null;
  }

  /** Every account with this email across workspaces: the public verify endpoints carry only an email. */
  async allByEmail(manager: EntityManager, email: string, lock = false): Promise<EndUserRow[]> {
    return (await manager.query(
      `SELECT ${USER_COLUMNS} FROM end_users WHERE lower(email) = $1 ORDER BY created_at, id ${lock ? 'FOR UPDATE' : ''}`,
      [email.toLowerCase()],
    )) as EndUserRow[];
  }

  async insert(
    manager: EntityManager,
    user: {
      workspaceId: string;
      oauthClientId: string;
      email: string;
      firstName: string;
      lastName: string;
      passwordHash: string;
      now: Date;
    },
  ): Promise<EndUserRow> {
    try {
      const rows = (await manager.query(
        `INSERT INTO end_users (workspace_id, oauth_client_id, email, first_name, last_name, password_hash, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING ${USER_COLUMNS}`,
        [user.workspaceId, user.oauthClientId, user.email.toLowerCase(), user.firstName, user.lastName, user.passwordHash, user.now],
      )) as EndUserRow[];
      return rows[0];
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new DomainError('email_taken', 'An account with this email already exists for this application');
      }
      throw err;
    }
  }

  async setPassword(manager: EntityManager, workspaceId: string, userId: string, passwordHash: string, now: Date): Promise<void> {
    await manager.query(
      `UPDATE end_users SET password_hash = $3, password_changed_at = $4, updated_at = $4 WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, userId, passwordHash, now],
    );
  }

  async markVerified(manager: EntityManager, workspaceId: string, userId: string, now: Date): Promise<void> {
    await manager.query(
      `UPDATE end_users SET email_verified = true, updated_at = $3 WHERE workspace_id = $1 AND id = $2 AND NOT email_verified`,
      [workspaceId, userId, now],
    );
  }
}
