import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '../database/unit-of-work';
import { findVisibleToMember } from '../workspaces/visible-to-member';
import { OAuthClient } from './entities/oauth-client.entity';
import { inCreationOrder } from '../database/workspace-row';

/** What an application says about itself as an OpenID client (decisions 0913, 0930). */
export type OpenIdClientSettings = Pick<
  OAuthClient,
  'firstParty' | 'subjectType' | 'idTokenAlg' | 'jwks' | 'postLogoutRedirectUris' | 'allowSignup' | 'requirePkce'
>;

export interface NewOAuthClient extends OpenIdClientSettings {
  clientId: string;
  clientSecretHash: string;
  name: string;
  redirectUris: string[];
  clientType: OAuthClient['clientType'];
}

/** A field left undefined keeps its value (the DTOs refuse null: decision 0041). */
export interface OAuthClientChange extends Partial<OpenIdClientSettings> {
  name?: string | null;
  redirectUris?: string[] | null;
}

/** oauth_clients: the applications of a workspace. The secret's hash is never read back. */
@Injectable()
export class OAuthClientsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(tx: Tx, workspaceId: string, values: NewOAuthClient): Promise<OAuthClient> {
    const clients = tx.getRepository(OAuthClient);
    // The key of its pairwise subject identifiers (OpenID Connect Core §8.1): random, never shown.
    return clients.save(clients.create({ workspaceId, ...values, pairwiseSalt: randomBytes(32).toString('hex') }));
  }

  /** The workspace's clients, oldest first. */
  listForWorkspace(workspaceId: string): Promise<OAuthClient[]> {
    return inCreationOrder(this.dataSource.getRepository(OAuthClient), workspaceId);
  }

  /**
   * The client, if the developer is a member of its workspace (on `tx`, or on the pool: null).
   * The caller knows only the client's id: its tenancy is the developer's membership, checked
   * in the same query; the methods that change it then take the workspace it belongs to.
   */
  findVisibleTo(tx: Tx | null, developerId: string, id: string): Promise<OAuthClient | null> {
    return findVisibleToMember(tx ?? this.dataSource.manager, OAuthClient, developerId, id);
  }

  async update(tx: Tx, workspaceId: string, id: string, change: OAuthClientChange): Promise<void> {
    await tx.getRepository(OAuthClient).update(
      { workspaceId, id },
      {
        ...(change.name != null && { name: change.name }),
        ...(change.redirectUris != null && { redirectUris: change.redirectUris }),
        ...(change.postLogoutRedirectUris !== undefined && { postLogoutRedirectUris: change.postLogoutRedirectUris }),
        ...(change.firstParty !== undefined && { firstParty: change.firstParty }),
        ...(change.subjectType !== undefined && { subjectType: change.subjectType }),
        ...(change.idTokenAlg !== undefined && { idTokenAlg: change.idTokenAlg }),
        ...(change.jwks !== undefined && { jwks: change.jwks }),
        ...(change.allowSignup !== undefined && { allowSignup: change.allowSignup }),
        ...(change.requirePkce !== undefined && { requirePkce: change.requirePkce }),
        updatedAt: () => 'now()',
      },
    );
  }

  async replaceSecret(tx: Tx, workspaceId: string, id: string, clientSecretHash: string): Promise<void> {
    await tx.getRepository(OAuthClient).update({ workspaceId, id }, { clientSecretHash, updatedAt: () => 'now()' });
  }

  async delete(tx: Tx, workspaceId: string, id: string): Promise<void> {
    await tx.getRepository(OAuthClient).delete({ workspaceId, id });
  }
}
