import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { isUniqueViolation } from '../common/db-errors';
import { computed, entityColumns, NO_ROW } from '../database/row-shape';
import { first, one, run, statement } from '../database/statement';
import { runWithRiders } from '../database/statement-riders';
import type { Tx } from '../database/unit-of-work';
import { inCreationOrder, insertWorkspaceRow } from '../database/workspace-row';
import type { StatementRider } from '../events/domain-events';
import type { NewSession } from '../sessions/sessions.repository';
import { EndUser } from '../end-user-directory/entities/end-user.entity';
import type { EndUserRecord } from '../end-user-directory/end-users.repository';
import { findVisibleToMember } from '../workspaces/visible-to-member';
import { SsoAttempt } from './entities/sso-attempt.entity';
import { SsoBinding } from './entities/sso-binding.entity';
import { SsoConnectionDomain } from './entities/sso-connection-domain.entity';
import { SsoConnection } from './entities/sso-connection.entity';
import { SsoOidcFlow } from './entities/sso-oidc-flow.entity';

/**
 * Binds a subject to a person, in one statement (decision 0984): the person's binding to another
 * subject of the connection goes (the newly verified subject wins, decision 0410), then the
 * subject's row is made, or touched when it already names this person; with $9, the sign-in's
 * successful attempt is written when the subject is bound to this person. The insert reads the
 * delete's count, so the delete runs first and the person's old row no longer holds their place in
 * sso_bindings_user_key. Answers the person the subject is bound to now (another person, or none,
 * means it was bound to someone else meanwhile) and the subjects unbound.
 */
const BIND = statement(
  'sso.bind',
  `WITH unbound AS (
     DELETE FROM sso_bindings WHERE workspace_id = $1 AND connection_id = $2 AND user_id = $3 AND (issuer, subject) <> ($4, $5)
     RETURNING subject
   ), bound AS (
     INSERT INTO sso_bindings (workspace_id, connection_id, issuer, subject, user_id, created_at, last_sign_in_at)
     SELECT $1, $2, $4, $5, $3, $6::timestamptz, $6::timestamptz FROM (SELECT count(*) FROM unbound) AS unbound_first
     ON CONFLICT (connection_id, issuer, subject) DO UPDATE SET last_sign_in_at = EXCLUDED.last_sign_in_at
       WHERE sso_bindings.user_id = EXCLUDED.user_id
     RETURNING user_id
   ), attempt AS (
     INSERT INTO sso_attempts (workspace_id, connection_id, outcome, subject, email, user_id, request_id)
     SELECT $1, $2, 'success', left($5, 512), $7::text, user_id, $8::text FROM bound WHERE $9::boolean AND user_id = $3
   )
   SELECT (SELECT user_id FROM bound) AS bound_to, ARRAY(SELECT subject FROM unbound) AS unbound`,
  computed({ boundTo: ['bound_to', 'text?'], unbound: 'text[]' }),
);

/**
 * A returning person's upstream sign-in in one statement (decision 1021): the subject's binding to
 * this person touched, the successful attempt, and the browser session (the columns sessions.insert
 * writes) inserted from the touched binding; the unit of work's riders (the login_success audit
 * row) are columns of the final SELECT. Only for a subject already bound to this person: it unbinds
 * nothing (BIND does, in a transaction), so a subject bound to someone else meanwhile touches no
 * row and the statement writes nothing at all (no row answered), and a subject unbound meanwhile
 * while the person was bound to another one fails on sso_bindings_user_key, atomically.
 */
const SIGN_IN = statement(
  'sso.sign-in',
  `WITH bound AS (
     INSERT INTO sso_bindings (workspace_id, connection_id, issuer, subject, user_id, created_at, last_sign_in_at)
     VALUES ($1, $2, $4, $5, $3, $6::timestamptz, $6::timestamptz)
     ON CONFLICT (connection_id, issuer, subject) DO UPDATE SET last_sign_in_at = EXCLUDED.last_sign_in_at
       WHERE sso_bindings.user_id = EXCLUDED.user_id
     RETURNING user_id
   ), attempt AS (
     INSERT INTO sso_attempts (workspace_id, connection_id, outcome, subject, email, user_id, request_id)
     SELECT $1, $2, 'success', left($5, 512), $7::text, user_id, $8::text FROM bound
   ), session AS (
     INSERT INTO end_user_sessions (id, workspace_id, user_id, oauth_client_id, kind, ip_address, user_agent, browser_family,
       os_family, browser_token_hash, created_at, last_seen_at, expires_at, amr)
     SELECT $9::uuid, $1, user_id, $10::uuid, 'browser', $11::text, $12::text, $13::text, $14::text, $15::text, $6, $6, $16::timestamptz, $17::text[]
     FROM bound
     RETURNING id
   )
   SELECT session.id AS session_id /*riders*/ FROM session`,
  computed({ sessionId: ['session_id', 'text'] }),
);

/**
 * The sign-in routes' statements (decision 0984): prepared, one round trip each, where TypeORM's
 * query builder and entity hydration cost more CPU than the query on every upstream sign-in.
 */
const CONNECTION_PROPERTIES = [
  'id',
  'workspaceId',
  'name',
  'protocol',
  'jit',
  'trustUpstreamMfa',
  'mapping',
  'oidcIssuer',
  'oidcClientId',
  'oidcClientSecretEncrypted',
  'oidcTokenEndpointAuthMethod',
  'oidcPrivateKeyEncrypted',
  'oidcScopes',
  'samlIdpEntityId',
  'samlIdpSsoUrl',
  'samlIdpCertificates',
  'samlAllowUnsolicited',
  'createdAt',
  'updatedAt',
] as const;
const CONNECTION_BY_ID = statement(
  'sso.connection-by-id',
  `SELECT id, workspace_id, name, protocol, jit, trust_upstream_mfa, mapping, oidc_issuer, oidc_client_id,
     oidc_client_secret_encrypted, oidc_token_endpoint_auth_method, oidc_private_key_encrypted, oidc_scopes,
     saml_idp_entity_id, saml_idp_sso_url, saml_idp_certificates, saml_allow_unsolicited, created_at, updated_at
   FROM sso_connections WHERE id = $1`,
  entityColumns(SsoConnection, CONNECTION_PROPERTIES, {
    values: {
      protocol: ['oidc', 'saml'],
      oidcTokenEndpointAuthMethod: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    },
  }),
);
const BINDING_FOR = statement(
  'sso.binding-for',
  `SELECT user_id FROM sso_bindings WHERE workspace_id = $1 AND connection_id = $2 AND issuer = $3 AND subject = $4`,
  entityColumns(SsoBinding, ['userId']),
);
/** The person the subject is bound to, in the end-user record's shape (one round trip, not the binding then the person). */
const BOUND_PERSON = statement(
  'sso.bound-person',
  `SELECT u.id, u.workspace_id, u.oauth_client_id, u.email, u.first_name, u.last_name, u.is_active, u.email_verified,
     u.password_hash, u.created_at
   FROM sso_bindings b JOIN end_users u ON u.workspace_id = b.workspace_id AND u.id = b.user_id
   WHERE b.workspace_id = $1 AND b.connection_id = $2 AND b.issuer = $3 AND b.subject = $4`,
  entityColumns(EndUser, [
    'id',
    'workspaceId',
    'oauthClientId',
    'email',
    'firstName',
    'lastName',
    'isActive',
    'emailVerified',
    'passwordHash',
    'createdAt',
  ]),
);
const RECORD_ATTEMPT = statement(
  'sso.record-attempt',
  `INSERT INTO sso_attempts (workspace_id, connection_id, outcome, reason, subject, email, user_id, request_id)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
  NO_ROW,
);
/** A new OIDC flow, and the connection's expired ones gone, in one statement (they are other rows). */
const START_FLOW = statement(
  'sso.start-flow',
  `WITH expired AS (DELETE FROM sso_oidc_flows WHERE workspace_id = $1 AND connection_id = $2 AND expires_at < $7)
   INSERT INTO sso_oidc_flows (state_hash, workspace_id, connection_id, browser_hash, nonce, code_verifier_encrypted, next, created_at, expires_at)
   VALUES ($3, $1, $2, $4, $5, $6, $8, $7, $9)`,
  NO_ROW,
);
const FLOW_PROPERTIES = [
  'stateHash',
  'workspaceId',
  'connectionId',
  'browserHash',
  'nonce',
  'codeVerifierEncrypted',
  'next',
  'createdAt',
  'expiresAt',
  'usedAt',
] as const;
const FLOW_COLUMNS = `state_hash, workspace_id, connection_id, browser_hash, nonce, code_verifier_encrypted, next, created_at, expires_at, used_at`;
/**
 * Spends the flow of a state when it is this connection's, started in this browser, unspent and
 * unexpired: one statement, so two answers cannot both spend it.
 */
const SPEND_FLOW = statement(
  'sso.spend-flow',
  `UPDATE sso_oidc_flows SET used_at = $4
   WHERE state_hash = $1 AND connection_id = $2 AND browser_hash = $3 AND used_at IS NULL AND expires_at > $4
   RETURNING ${FLOW_COLUMNS}`,
  entityColumns(SsoOidcFlow, FLOW_PROPERTIES),
);
const FLOW_BY_STATE = statement(
  'sso.flow-by-state',
  `SELECT ${FLOW_COLUMNS} FROM sso_oidc_flows WHERE state_hash = $1`,
  entityColumns(SsoOidcFlow, FLOW_PROPERTIES),
);

/** An OIDC flow as the callback reads it. */
export type OidcFlow = Pick<SsoOidcFlow, (typeof FLOW_PROPERTIES)[number]>;

export interface NewConnection {
  name: string;
  protocol: SsoConnection['protocol'];
  jit: boolean;
  trustUpstreamMfa: boolean;
  mapping: SsoConnection['mapping'];
  oidcIssuer?: string | null;
  oidcClientId?: string | null;
  oidcClientSecretEncrypted?: string | null;
  oidcTokenEndpointAuthMethod?: SsoConnection['oidcTokenEndpointAuthMethod'];
  oidcPrivateKeyEncrypted?: string | null;
  oidcScopes?: string[];
  samlIdpEntityId?: string | null;
  samlIdpSsoUrl?: string | null;
  samlIdpCertificates?: string[];
  samlAllowUnsolicited?: boolean;
}

/** A field left undefined keeps its value. */
export type ConnectionChange = Partial<Omit<NewConnection, 'protocol'>>;

export interface NewAttempt {
  connectionId: string;
  outcome: SsoAttempt['outcome'];
  reason?: string | null;
  subject?: string | null;
  email?: string | null;
  userId?: string | null;
  requestId?: string | null;
}

/** A domain already served by another connection of the workspace. */
export class DomainTaken extends Error {}

/** sso_connections and their domains, bindings and attempts. Tenant methods take the workspace first. */
@Injectable()
export class SsoConnectionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  insert(tx: Tx, workspaceId: string, values: NewConnection): Promise<SsoConnection> {
    return insertWorkspaceRow(tx, SsoConnection, { workspaceId, ...values });
  }

  listForWorkspace(workspaceId: string): Promise<SsoConnection[]> {
    return inCreationOrder(this.dataSource.getRepository(SsoConnection), workspaceId);
  }

  /** The connection, if the developer is a member of its workspace (404 otherwise, never 403 across tenants). */
  findVisibleTo(tx: Tx | null, developerId: string, id: string): Promise<SsoConnection | null> {
    return findVisibleToMember(tx ?? this.dataSource.manager, SsoConnection, developerId, id);
  }

  /** A connection by id alone: the public sign-in routes carry only the id, and the connection names its workspace. */
  async byId(id: string): Promise<SsoConnection | null> {
    return (await first(this.dataSource, CONNECTION_BY_ID, [id])) ?? null;
  }

  async update(tx: Tx, workspaceId: string, id: string, change: ConnectionChange): Promise<SsoConnection> {
    const repo = tx.getRepository(SsoConnection);
    const defined = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined));
    await repo.update({ workspaceId, id }, { ...defined, updatedAt: () => 'now()' });
    return (await repo.findOneBy({ workspaceId, id }))!;
  }

  async delete(tx: Tx, workspaceId: string, id: string): Promise<void> {
    await tx.getRepository(SsoConnection).delete({ workspaceId, id });
  }

  /** The domains of these connections, in the order they were added. */
  domains(tx: Tx | null, workspaceId: string, connectionIds: string[]): Promise<SsoConnectionDomain[]> {
    if (connectionIds.length === 0) return Promise.resolve([]);
    return (tx ?? this.dataSource.manager)
      .getRepository(SsoConnectionDomain)
      .find({ where: { workspaceId, connectionId: In(connectionIds) }, order: { createdAt: 'ASC', domain: 'ASC' } });
  }

  /**
   * Makes the connection's domains exactly `domains`: new ones are added with their token, kept
   * ones keep their token and verification, the others go. DomainTaken when another connection
   * of the workspace serves one of them.
   */
  async setDomains(tx: Tx, workspaceId: string, connectionId: string, domains: string[], token: () => string): Promise<void> {
    const repo = tx.getRepository(SsoConnectionDomain);
    const existing = new Set((await repo.findBy({ workspaceId, connectionId })).map((d) => d.domain));
    const gone = [...existing].filter((d) => !domains.includes(d));
    if (gone.length) await repo.delete({ workspaceId, connectionId, domain: In(gone) });
    const added = domains.filter((d) => !existing.has(d));
    if (!added.length) return;
    try {
      await repo.insert(added.map((domain) => ({ workspaceId, connectionId, domain, verificationToken: token() })));
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainTaken();
      throw err;
    }
  }

  /** The person an upstream subject is bound to on this connection, if any. */
  async bindingFor(workspaceId: string, connectionId: string, issuer: string, subject: string): Promise<{ userId: string } | null> {
    return (await first(this.dataSource, BINDING_FOR, [workspaceId, connectionId, issuer, subject])) ?? null;
  }

  /** The directory person an upstream subject is bound to on this connection, if any. */
  async boundPerson(workspaceId: string, connectionId: string, issuer: string, subject: string): Promise<EndUserRecord | null> {
    return (await first(this.dataSource, BOUND_PERSON, [workspaceId, connectionId, issuer, subject])) ?? null;
  }

  /** The person's binding on this connection, if any. */
  bindingOf(workspaceId: string, connectionId: string, userId: string): Promise<SsoBinding | null> {
    return this.dataSource.getRepository(SsoBinding).findOneBy({ workspaceId, connectionId, userId });
  }

  /**
   * A returning person's sign-in: touches the subject's binding to the person and opens the browser
   * session in one statement with the unit of work's riders (SIGN_IN). True when written; false
   * when the subject is bound to another person now (nothing was written).
   */
  async signIn(
    on: Tx | null,
    workspaceId: string,
    binding: { connectionId: string; issuer: string; subject: string; userId: string },
    session: NewSession,
    attempt: { email: string | null; requestId: string | null },
    riders: readonly StatementRider[],
  ): Promise<boolean> {
    const { connectionId, issuer, subject, userId } = binding;
    const rows = await runWithRiders(
      on ?? this.dataSource,
      SIGN_IN,
      [
        workspaceId,
        connectionId,
        userId,
        issuer,
        subject,
        session.now,
        attempt.email?.slice(0, 320) ?? null,
        attempt.requestId,
        session.id,
        session.oauthClientId,
        session.ipAddress,
        session.userAgent,
        session.browserFamily,
        session.osFamily,
        session.browserTokenHash,
        session.expiresAt,
        session.amr,
      ],
      riders,
    );
    return rows.length === 1;
  }

  /**
   * Binds the subject to the person (see BIND); answers the person the subject is bound to after
   * the write and the subjects the person was bound to before (their bindings are gone). With
   * `success`, a sign-in's successful attempt is written by the same statement when it binds.
   */
  async bind(
    tx: Tx,
    workspaceId: string,
    binding: { connectionId: string; issuer: string; subject: string; userId: string },
    now: Date,
    success?: { email: string | null; requestId: string | null },
  ): Promise<{ boundTo: string | null; unbound: string[] }> {
    const { connectionId, issuer, subject, userId } = binding;
    const row = await one(tx, BIND, [
      workspaceId,
      connectionId,
      userId,
      issuer,
      subject,
      now,
      success?.email?.slice(0, 320) ?? null,
      success?.requestId ?? null,
      success !== undefined,
    ]);
    return { boundTo: row.boundTo, unbound: row.unbound };
  }

  /** On the pool, or in the caller's transaction (a sign-in's attempt commits with its session). */
  async recordAttempt(workspaceId: string, attempt: NewAttempt, tx?: Tx): Promise<void> {
    await run(tx ?? this.dataSource, RECORD_ATTEMPT, [
      workspaceId,
      attempt.connectionId,
      attempt.outcome,
      attempt.reason ?? null,
      attempt.subject?.slice(0, 512) ?? null,
      attempt.email?.slice(0, 320) ?? null,
      attempt.userId ?? null,
      attempt.requestId ?? null,
    ]);
  }

  /** The connection's attempts, newest first. */
  attempts(workspaceId: string, connectionId: string, limit: number): Promise<SsoAttempt[]> {
    return this.dataSource
      .getRepository(SsoAttempt)
      .find({ where: { workspaceId, connectionId }, order: { at: 'DESC', id: 'DESC' }, take: limit });
  }

  /** An OIDC sign-in waiting for the provider's answer; expired ones of the connection go with the same statement. */
  async insertFlow(workspaceId: string, flow: Omit<OidcFlow, 'workspaceId' | 'usedAt'>): Promise<void> {
    await run(this.dataSource, START_FLOW, [
      workspaceId,
      flow.connectionId,
      flow.stateHash,
      flow.browserHash,
      flow.nonce,
      flow.codeVerifierEncrypted,
      flow.createdAt,
      flow.next,
      flow.expiresAt,
    ]);
  }

  /**
   * Spends the flow of the state if it is the connection's, this browser's, unspent and unexpired
   * (see SPEND_FLOW); otherwise answers the flow as it stands (null when there is none), for the
   * caller to tell why.
   */
  async spendFlow(
    stateHash: string,
    connectionId: string,
    browserHash: string,
    now: Date,
  ): Promise<{ spent: OidcFlow } | { refused: OidcFlow | null }> {
    const spent = await first(this.dataSource, SPEND_FLOW, [stateHash, connectionId, browserHash, now]);
    if (spent) return { spent };
    return { refused: (await first(this.dataSource, FLOW_BY_STATE, [stateHash])) ?? null };
  }
}
