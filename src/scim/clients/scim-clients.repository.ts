import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, IsNull, MoreThan } from 'typeorm';
import { notifyCredentialRevoked, type RevocationNotice } from '../../common/auth/credential-revocations.repository';
import { entityColumns } from '../../database/row-shape';
import { first, one, statement } from '../../database/statement';
import type { Tx } from '../../database/unit-of-work';
import { ScimOAuthClientSecret } from './entities/scim-oauth-client-secret.entity';
import { JwkSet, ScimOAuthClient } from './entities/scim-oauth-client.entity';
import { inCreationOrder } from '../../database/workspace-row';

export interface ClientKeys {
  jwks: JwkSet | null;
  jwksUri: string | null;
}

export interface ClientFederation {
  federationIssuer: string;
  federationJwksUri: string;
  federationSubject: string;
  federationAudience: string | null;
}

/**
 * On a cache miss of an access token: is its client still unrevoked and, when it was issued under
 * a secret, that secret too? One prepared statement on two primary keys.
 */
const GRANT_LIVE = statement(
  'scim-clients.grant-live',
  `SELECT c.workspace_id FROM scim_oauth_clients c
  WHERE c.id = $1 AND c.revoked_at IS NULL
    AND ($2::uuid IS NULL OR EXISTS (
      SELECT 1 FROM scim_oauth_client_secrets s WHERE s.id = $2::uuid AND s.client_id = c.id AND s.revoked_at IS NULL))`,
  entityColumns(ScimOAuthClient, ['workspaceId']),
);

const MARK_CLIENT_REVOKED = statement(
  'scim-clients.mark-client-revoked',
  `UPDATE scim_oauth_clients SET revoked_at = now() WHERE workspace_id = $1 AND id = $2 RETURNING revoked_at`,
  entityColumns(ScimOAuthClient, ['revokedAt']),
);

/** scim_oauth_clients and their secrets. Tenant methods take the workspace id first. */
@Injectable()
export class ScimClientsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insertClient(tx: Tx, workspaceId: string, c: { clientId: string; label: string; createdBy: string }): Promise<ScimOAuthClient> {
    const repository = tx.getRepository(ScimOAuthClient);
    return repository.save(
      repository.create({
        workspaceId,
        ...c,
        jwks: null,
        jwksUri: null,
        federationIssuer: null,
        federationJwksUri: null,
        federationSubject: null,
        federationAudience: null,
        revokedAt: null,
      }),
    );
  }

  async insertSecret(
    tx: Tx,
    workspaceId: string,
    clientRowId: string,
    s: { secretHash: string; expiresAt: Date },
  ): Promise<ScimOAuthClientSecret> {
    const repository = tx.getRepository(ScimOAuthClientSecret);
    return repository.save(repository.create({ workspaceId, clientId: clientRowId, ...s, revokedAt: null }));
  }

  /** Oldest first. */
  async listClients(workspaceId: string): Promise<ScimOAuthClient[]> {
    return inCreationOrder(this.dataSource.getRepository(ScimOAuthClient), workspaceId);
  }

  /** The secrets of these clients of the workspace, oldest first (hashes included only for authentication). */
  async listSecrets(tx: Tx | null, workspaceId: string, clientRowIds: string[]): Promise<ScimOAuthClientSecret[]> {
    if (clientRowIds.length === 0) return [];
    return (tx ?? this.dataSource.manager)
      .getRepository(ScimOAuthClientSecret)
      .find({ where: { workspaceId, clientId: In(clientRowIds) }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** By id alone (the caller then checks membership of its workspace); locked when in a transaction. */
  async findById(tx: Tx | null, id: string): Promise<ScimOAuthClient | null> {
    if (tx) return tx.getRepository(ScimOAuthClient).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
    return this.dataSource.getRepository(ScimOAuthClient).findOne({ where: { id } });
  }

  async markClientRevoked(tx: Tx, workspaceId: string, id: string): Promise<Date> {
    const { revokedAt } = await one(tx, MARK_CLIENT_REVOKED, [workspaceId, id]);
    if (!revokedAt) throw new Error('scim-clients.mark-client-revoked set no revoked_at');
    return revokedAt;
  }

  async findSecret(tx: Tx, workspaceId: string, clientRowId: string, secretId: string): Promise<ScimOAuthClientSecret | null> {
    return tx.getRepository(ScimOAuthClientSecret).findOne({ where: { workspaceId, clientId: clientRowId, id: secretId } });
  }

  async markSecretRevoked(tx: Tx, workspaceId: string, secretId: string): Promise<void> {
    await tx.getRepository(ScimOAuthClientSecret).update({ workspaceId, id: secretId, revokedAt: IsNull() }, { revokedAt: () => 'now()' });
  }

  async countLiveSecrets(tx: Tx, workspaceId: string, clientRowId: string, now: Date): Promise<number> {
    return tx
      .getRepository(ScimOAuthClientSecret)
      .count({ where: { workspaceId, clientId: clientRowId, revokedAt: IsNull(), expiresAt: MoreThan(now) } });
  }

  async setKeys(tx: Tx, workspaceId: string, id: string, keys: ClientKeys): Promise<void> {
    await tx.getRepository(ScimOAuthClient).update({ workspaceId, id }, keys);
  }

  async setFederation(tx: Tx, workspaceId: string, id: string, federation: ClientFederation): Promise<void> {
    await tx.getRepository(ScimOAuthClient).update({ workspaceId, id }, federation);
  }

  /** Tells every instance's credential cache to drop what carries this tag; delivered at commit. */
  async notifyRevoked(tx: Tx, tag: string): Promise<RevocationNotice> {
    return notifyCredentialRevoked(tx, tag);
  }

  /** An unrevoked client by its public client_id, with its live (unrevoked, unexpired) secrets. */
  async findForAuthentication(clientId: string, now: Date): Promise<{ client: ScimOAuthClient; secrets: ScimOAuthClientSecret[] } | null> {
    const client = await this.dataSource.getRepository(ScimOAuthClient).findOne({ where: { clientId, revokedAt: IsNull() } });
    if (!client) return null;
    const secrets = await this.dataSource.getRepository(ScimOAuthClientSecret).find({
      where: { workspaceId: client.workspaceId, clientId: client.id, revokedAt: IsNull(), expiresAt: MoreThan(now) },
    });
    return { client, secrets };
  }

  /** The workspace of the client when it and (if given) its secret are unrevoked; undefined otherwise. */
  async liveGrantWorkspace(clientRowId: string, secretId: string | null): Promise<string | undefined> {
    return (await first(this.dataSource, GRANT_LIVE, [clientRowId, secretId]))?.workspaceId;
  }
}
