import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, FindOptionsSelect, Repository } from 'typeorm';
import { isUniqueViolation } from '../common/db-errors';
import { DomainError } from '../common/errors';
import { isUuid } from '../common/ids';
import { computed, entityColumns, nested } from '../database/row-shape';
import { first, run, statement } from '../database/statement';
import type { Tx } from '../database/unit-of-work';
import { OAuthClient } from '../oauth-clients/entities/oauth-client.entity';
import { Workspace } from '../workspaces/entities/workspace.entity';
import { EndUser } from './entities/end-user.entity';
import { END_USER_ERRORS } from './end-users.errors';

/** What the end-user flows read of an account. */
export type EndUserRecord = Pick<
  EndUser,
  'id' | 'workspaceId' | 'oauthClientId' | 'email' | 'firstName' | 'lastName' | 'isActive' | 'emailVerified' | 'passwordHash' | 'createdAt'
>;

export type OAuthClientRef = Pick<OAuthClient, 'id' | 'workspaceId' | 'clientId' | 'name'>;

/** Which accounts a sign-in may match: one OAuth client's users, or (SAML) a whole workspace's. */
export interface SignInScope {
  workspaceId: string;
  oauthClientId?: string;
}

export interface NewEndUser {
  oauthClientId: string;
  email: string;
  firstName: string;
  lastName: string;
  passwordHash: string;
  now: Date;
}

/** A new account of any kind: an application's (with its password) or a directory account (no application, no password). */
export interface NewAccountRow {
  oauthClientId: string | null;
  email: string;
  firstName: string;
  lastName: string;
  passwordHash: string | null;
  emailVerified: boolean;
  now: Date;
}

/** The end_users row of a new account, not yet inserted: active, its email kept lower-case, stamped `now`. */
export function newAccountRow(tx: Tx, workspaceId: string, account: NewAccountRow): EndUser {
  return tx.getRepository(EndUser).create({
    workspaceId,
    oauthClientId: account.oauthClientId,
    email: account.email.toLowerCase(),
    firstName: account.firstName,
    lastName: account.lastName,
    passwordHash: account.passwordHash,
    isActive: true,
    emailVerified: account.emailVerified,
    createdAt: account.now,
    updatedAt: account.now,
  });
}

/** Bound on accounts checked per sign-in (same email under several clients of one workspace). */
const MAX_CANDIDATES = 5;

const USER_COLUMNS = `id, workspace_id, oauth_client_id, email, first_name, last_name, is_active, email_verified, password_hash, created_at`;
/** The record's columns, for TypeORM reads. */
const RECORD_SELECT = {
  id: true,
  workspaceId: true,
  oauthClientId: true,
  email: true,
  firstName: true,
  lastName: true,
  isActive: true,
  emailVerified: true,
  passwordHash: true,
  createdAt: true,
} as const satisfies FindOptionsSelect<EndUser>;
const RECORD_PATHS = Object.keys(RECORD_SELECT).map((p) => `u.${p}`);

const RECORD_PROPERTIES = Object.keys(RECORD_SELECT) as (keyof typeof RECORD_SELECT)[];
/** An end_users row selected with USER_COLUMNS (under a prefix when the statement aliases them). */
const userRecord = (prefix?: string) => entityColumns(EndUser, RECORD_PROPERTIES, { prefix });
const clientRef = (prefix?: string) => entityColumns(OAuthClient, ['id', 'workspaceId', 'clientId', 'name'], { prefix });

const unknownClient = () => new DomainError(END_USER_ERRORS.invalid_client, 'Unknown client_id');

// The API sign-in hot path: the client and its users with this email, one prepared round trip.
const CLIENT_AND_CANDIDATES = statement(
  'end-users.client-and-candidates',
  `SELECT c.id AS c_id, c.workspace_id AS c_workspace_id, c.client_id AS c_client_id, c.name AS c_name,
    u.id AS u_id, u.workspace_id AS u_workspace_id, u.oauth_client_id AS u_oauth_client_id, u.email AS u_email,
    u.first_name AS u_first_name, u.last_name AS u_last_name, u.is_active AS u_is_active, u.email_verified AS u_email_verified,
    u.password_hash AS u_password_hash, u.created_at AS u_created_at
  FROM oauth_clients c
  LEFT JOIN LATERAL (
    SELECT ${USER_COLUMNS} FROM end_users
     WHERE workspace_id = c.workspace_id AND oauth_client_id = c.id AND lower(email) = $2
     ORDER BY created_at, id LIMIT ${MAX_CANDIDATES}) u ON true
  WHERE c.client_id = $1`,
  clientRef('c_').and(nested('user', userRecord('u_'), 'u_id')),
);

// The hosted sign-in: one client's users ($3 set) or the whole workspace's (SAML), on end_users_workspace_email_idx.
const CANDIDATES = statement(
  'end-users.candidates',
  `SELECT ${USER_COLUMNS} FROM end_users
  WHERE workspace_id = $1 AND lower(email) = $2 AND ($3::uuid IS NULL OR oauth_client_id = $3)
  ORDER BY created_at, id LIMIT ${MAX_CANDIDATES}`,
  userRecord(),
);

// An account by id (an upstream sign-in's bound person, among others): prepared, without the query builder.
const BY_ID = statement('end-users.by-id', `SELECT ${USER_COLUMNS} FROM end_users WHERE workspace_id = $1 AND id = $2`, userRecord());

const CLIENT_BY_PUBLIC_ID = statement(
  'end-users.client-by-public-id',
  `SELECT id, workspace_id, client_id, name, allow_signup FROM oauth_clients WHERE client_id = $1`,
  entityColumns(OAuthClient, ['id', 'workspaceId', 'clientId', 'name', 'allowSignup']),
);

const WORKSPACE_NAME = statement(
  'end-users.workspace-name',
  `SELECT name FROM workspaces WHERE id = $1`,
  entityColumns(Workspace, ['name']),
);

const CLIENT_NAME = statement(
  'end-users.client-name',
  `SELECT COALESCE((SELECT name FROM oauth_clients WHERE id = $2 AND workspace_id = $1), w.name) AS name
         FROM workspaces w WHERE w.id = $1`,
  computed({ name: 'text' }),
);

/**
 * end_users, and the OAuth clients and workspaces their flows name. Every user query is scoped by
 * workspace, except the public verify endpoints' lookup by email alone (allByEmail).
 */
@Injectable()
export class EndUsersRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(EndUser) private readonly users: Repository<EndUser>,
  ) {}

  /** The OAuth client named by its public client_id (unknown -> 400 invalid_client). */
  async clientByPublicId(clientId: string): Promise<OAuthClientRef & Pick<OAuthClient, 'allowSignup'>> {
    const client = await first(this.dataSource, CLIENT_BY_PUBLIC_ID, [clientId]);
    if (!client) throw unknownClient();
    return client;
  }

  /** The workspace's name, or null when there is no such workspace. */
  async workspaceName(workspaceId: string): Promise<string | null> {
    return (await first(this.dataSource, WORKSPACE_NAME, [workspaceId]))?.name ?? null;
  }

  /** The name the hosted pages of a signed-in person show: their application's, else their workspace's. */
  async brandName(workspaceId: string, oauthClientId: string | null): Promise<string | null> {
    return (await first(this.dataSource, CLIENT_NAME, [workspaceId, oauthClientId]))?.name ?? null;
  }

  /** The name mails sign with: the OAuth client's, else the workspace's. On the caller's transaction. */
  async clientName(tx: Tx, workspaceId: string, oauthClientId: string | null): Promise<string> {
    return (await first(tx, CLIENT_NAME, [workspaceId, oauthClientId]))?.name ?? '';
  }

  /** The client and its users with this email in one round trip (the API sign-in hot path). */
  async clientAndCandidates(clientId: string, email: string): Promise<{ client: OAuthClientRef; users: EndUserRecord[] }> {
    const rows = await run(this.dataSource, CLIENT_AND_CANDIDATES, [clientId, email.toLowerCase()]);
    if (!rows[0]) throw unknownClient();
    const { id, workspaceId, clientId: publicId, name } = rows[0];
    return { client: { id, workspaceId, clientId: publicId, name }, users: rows.flatMap((r) => (r.user ? [r.user] : [])) };
  }

  /** The accounts a sign-in in this scope may match: one client's (oauthClientId given) or the whole workspace's. */
  async candidates(workspaceId: string, email: string, oauthClientId?: string): Promise<EndUserRecord[]> {
    return run(this.dataSource, CANDIDATES, [workspaceId, email.toLowerCase(), oauthClientId ?? null]);
  }

  /** The workspace's account without an OAuth client (SCIM-provisioned), if any. */
  async directoryAccount(workspaceId: string, email: string): Promise<EndUserRecord | null> {
    if (!isUuid(workspaceId)) return null;
    return this.users
      .createQueryBuilder('u')
      .select(RECORD_PATHS)
      .where('u.workspaceId = :workspaceId AND u.oauthClientId IS NULL AND lower(u.email) = :email', {
        workspaceId,
        email: email.toLowerCase(),
      })
      .getOne();
  }

  async byId(workspaceId: string, userId: string): Promise<EndUserRecord | null> {
    return (await first(this.dataSource, BY_ID, [workspaceId, userId])) ?? null;
  }

  /** Every account with this email across workspaces: the public verify endpoints carry only an email. */
  async allByEmail(email: string): Promise<EndUserRecord[]> {
    return this.users
      .createQueryBuilder('u')
      .select(RECORD_PATHS)
      .where('lower(u.email) = :email', { email: email.toLowerCase() })
      .orderBy('u.createdAt')
      .addOrderBy('u.id')
      .getMany();
  }

  /** A new account of an OAuth client; email_taken when the client already has one with this email. */
  async insert(tx: Tx, workspaceId: string, user: NewEndUser): Promise<EndUserRecord> {
    const row = newAccountRow(tx, workspaceId, { ...user, emailVerified: false });
    return this.insertUnlessTaken(tx, row, 'An account with this email already exists for this application');
  }

  /**
   * A directory account (no OAuth client, no password) made on a first sign-in through an
   * enterprise SSO connection with just-in-time creation; its email was verified upstream.
   * email_taken when the workspace's directory already has it.
   */
  async insertDirectoryAccount(
    tx: Tx,
    workspaceId: string,
    user: { email: string; firstName: string; lastName: string; now: Date },
  ): Promise<EndUserRecord> {
    const row = newAccountRow(tx, workspaceId, { ...user, oauthClientId: null, passwordHash: null, emailVerified: true });
    return this.insertUnlessTaken(tx, row, 'An account with this email already exists in the directory');
  }

  /** Inserts the new account's row; email_taken (with `taken` as the message) when its email is. */
  private async insertUnlessTaken(tx: Tx, row: EndUser, taken: string): Promise<EndUser> {
    try {
      // insert (unlike save) is one INSERT ... RETURNING id; the generated id lands on the entity.
      await tx.getRepository(EndUser).insert(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainError(END_USER_ERRORS.email_taken, taken);
      throw err;
    }
    return row;
  }

  async setPassword(tx: Tx, workspaceId: string, userId: string, passwordHash: string, now: Date): Promise<void> {
    await tx.getRepository(EndUser).update({ workspaceId, id: userId }, { passwordHash, passwordChangedAt: now, updatedAt: now });
  }

  async markVerified(tx: Tx, workspaceId: string, userId: string, now: Date): Promise<void> {
    await tx.getRepository(EndUser).update({ workspaceId, id: userId, emailVerified: false }, { emailVerified: true, updatedAt: now });
  }
}
