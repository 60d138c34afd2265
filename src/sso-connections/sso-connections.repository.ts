import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { isUniqueViolation } from '../common/db-errors';
import { entityColumns } from '../database/row-shape';
import { first, run, statement } from '../database/statement';
import type { Tx } from '../database/unit-of-work';
import { WorkspaceMember } from '../workspaces/entities/workspace-member.entity';
import { SsoAttempt } from './entities/sso-attempt.entity';
import { SsoBinding } from './entities/sso-binding.entity';
import { SsoConnectionDomain } from './entities/sso-connection-domain.entity';
import { SsoConnection } from './entities/sso-connection.entity';
import { SsoOidcFlow } from './entities/sso-oidc-flow.entity';

/**
 * Binds a subject to a person: the person's binding to another subject of the connection goes
 * (the newly verified subject wins, decision 0410), then the subject's row is made, or touched when
 * it already names this person. Answers the person the subject is bound to now: another person
 * means the subject was bound to someone else meanwhile.
 */
const UNBIND_OTHER_SUBJECTS = statement(
  'sso.unbind-other-subjects',
  `DELETE FROM sso_bindings WHERE workspace_id = $1 AND connection_id = $2 AND user_id = $3 AND (issuer, subject) <> ($4, $5)
    RETURNING subject`,
  entityColumns(SsoBinding, ['subject']),
);
const BIND = statement(
  'sso.bind',
  `INSERT INTO sso_bindings (workspace_id, connection_id, issuer, subject, user_id, created_at, last_sign_in_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6)
   ON CONFLICT (connection_id, issuer, subject) DO UPDATE SET last_sign_in_at = EXCLUDED.last_sign_in_at
     WHERE sso_bindings.user_id = EXCLUDED.user_id
   RETURNING user_id`,
  entityColumns(SsoBinding, ['userId']),
);

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

  async insert(tx: Tx, workspaceId: string, values: NewConnection): Promise<SsoConnection> {
    const repo = tx.getRepository(SsoConnection);
    const saved = await repo.save(repo.create({ workspaceId, ...values }));
    return (await repo.findOneBy({ id: saved.id }))!;
  }

  listForWorkspace(workspaceId: string): Promise<SsoConnection[]> {
    return this.dataSource.getRepository(SsoConnection).find({ where: { workspaceId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The connection, if the developer is a member of its workspace (404 otherwise, never 403 across tenants). */
  findVisibleTo(tx: Tx | null, developerId: string, id: string): Promise<SsoConnection | null> {
    return (tx ?? this.dataSource.manager)
      .createQueryBuilder(SsoConnection, 'c')
      .innerJoin(WorkspaceMember, 'm', 'm.workspaceId = c.workspaceId AND m.developerId = :developerId', { developerId })
      .where('c.id = :id', { id })
      .getOne();
  }

  /** A connection by id alone: the public sign-in routes carry only the id, and the connection names its workspace. */
  byId(id: string): Promise<SsoConnection | null> {
    return this.dataSource.getRepository(SsoConnection).findOneBy({ id });
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
  bindingFor(workspaceId: string, connectionId: string, issuer: string, subject: string): Promise<SsoBinding | null> {
    return this.dataSource.getRepository(SsoBinding).findOneBy({ workspaceId, connectionId, issuer, subject });
  }

  /** The person's binding on this connection, if any. */
  bindingOf(workspaceId: string, connectionId: string, userId: string): Promise<SsoBinding | null> {
    return this.dataSource.getRepository(SsoBinding).findOneBy({ workspaceId, connectionId, userId });
  }

  /**
   * Binds the subject to the person (see BIND); answers the person the subject is bound to after
   * the write and the subjects the person was bound to before (their bindings are gone).
   */
  async bind(
    tx: Tx,
    workspaceId: string,
    binding: { connectionId: string; issuer: string; subject: string; userId: string },
    now: Date,
  ): Promise<{ boundTo: string | null; unbound: string[] }> {
    const { connectionId, issuer, subject, userId } = binding;
    const unbound = await run(tx, UNBIND_OTHER_SUBJECTS, [workspaceId, connectionId, userId, issuer, subject]);
    const row = await first(tx, BIND, [workspaceId, connectionId, issuer, subject, userId, now]);
    return { boundTo: row?.userId ?? null, unbound: unbound.map((r) => r.subject) };
  }

  async recordAttempt(workspaceId: string, attempt: NewAttempt): Promise<void> {
    await this.dataSource.getRepository(SsoAttempt).insert({
      workspaceId,
      connectionId: attempt.connectionId,
      outcome: attempt.outcome,
      reason: attempt.reason ?? null,
      subject: attempt.subject?.slice(0, 512) ?? null,
      email: attempt.email?.slice(0, 320) ?? null,
      userId: attempt.userId ?? null,
      requestId: attempt.requestId ?? null,
    });
  }

  /** The connection's attempts, newest first. */
  attempts(workspaceId: string, connectionId: string, limit: number): Promise<SsoAttempt[]> {
    return this.dataSource
      .getRepository(SsoAttempt)
      .find({ where: { workspaceId, connectionId }, order: { at: 'DESC', id: 'DESC' }, take: limit });
  }

  /** An OIDC sign-in waiting for the provider's answer; expired ones of the connection go first. */
  async insertFlow(workspaceId: string, flow: Omit<SsoOidcFlow, 'workspaceId' | 'usedAt' | 'workspace' | 'connection'>): Promise<void> {
    const repo = this.dataSource.getRepository(SsoOidcFlow);
    await repo
      .createQueryBuilder()
      .delete()
      .where('workspace_id = :workspaceId AND connection_id = :connectionId AND expires_at < :now', {
        workspaceId,
        connectionId: flow.connectionId,
        now: flow.createdAt,
      })
      .execute();
    await repo.insert({ ...flow, workspaceId, usedAt: null });
  }

  /** The flow of a state (the callback carries only the state; the flow names its workspace). */
  flowByState(stateHash: string): Promise<SsoOidcFlow | null> {
    return this.dataSource.getRepository(SsoOidcFlow).findOneBy({ stateHash });
  }

  /** Marks the flow used; false when it already was (a replayed answer). One statement, so two answers cannot both spend it. */
  async spendFlow(workspaceId: string, stateHash: string, now: Date): Promise<boolean> {
    const result = await this.dataSource
      .getRepository(SsoOidcFlow)
      .createQueryBuilder()
      .update()
      .set({ usedAt: now })
      .where('workspace_id = :workspaceId AND state_hash = :stateHash AND used_at IS NULL', { workspaceId, stateHash })
      .execute();
    return (result.affected ?? 0) === 1;
  }
}
