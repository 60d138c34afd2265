import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { notifyCredentialRevoked, type RevocationNotice } from '../../common/auth/credential-revocations.repository';
import { entityColumns } from '../../database/row-shape';
import { first, one, statement } from '../../database/statement';
import type { Tx } from '../../database/unit-of-work';
import { ScimToken } from './entities/scim-token.entity';
import { inCreationOrder } from '../../database/workspace-row';

export interface NewScimToken {
  label: string;
  tokenHash: string;
  expiresAt: Date | null;
  /** The developer who minted it. */
  createdBy: string;
}

/** What a bearer token resolves to. */
export type ScimTokenGrant = Pick<ScimToken, 'id' | 'workspaceId' | 'expiresAt' | 'label'>;

/** Every request of an identity provider starts here (on a cache miss): a prepared statement on the token_hash unique index. */
const AUTHENTICATE = statement(
  'scim-tokens.authenticate',
  `SELECT id, workspace_id, expires_at, label FROM scim_tokens
          WHERE token_hash = $1 AND is_active AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)`,
  entityColumns(ScimToken, ['id', 'workspaceId', 'expiresAt', 'label']),
);

const MARK_REVOKED = statement(
  'scim-tokens.mark-revoked',
  `UPDATE scim_tokens SET is_active = false, revoked_at = now() WHERE workspace_id = $1 AND id = $2 RETURNING revoked_at`,
  entityColumns(ScimToken, ['revokedAt']),
);

/** scim_tokens. Methods take the workspace id first, except the two that find a token's workspace from the token itself. */
@Injectable()
export class ScimTokensRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(ScimToken) private readonly tokens: Repository<ScimToken>,
  ) {}

  async insert(tx: Tx, workspaceId: string, token: NewScimToken): Promise<ScimToken> {
    const repository = tx.getRepository(ScimToken);
    return repository.save(repository.create({ workspaceId, ...token, revokedAt: null }));
  }

  /** Oldest first. */
  async list(workspaceId: string): Promise<ScimToken[]> {
    return inCreationOrder(this.tokens, workspaceId);
  }

  /**
   * The token row, locked for the revocation that follows. By id alone: the token names its
   * workspace, whose membership the caller then checks.
   */
  async lockById(tx: Tx, id: string): Promise<ScimToken | null> {
    return tx.getRepository(ScimToken).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Deactivates the token; answers its revoked_at (the transaction's time, which only the database knows: RETURNING). */
  async markRevoked(tx: Tx, workspaceId: string, id: string): Promise<Date> {
    const { revokedAt } = await one(tx, MARK_REVOKED, [workspaceId, id]);
    if (!revokedAt) throw new Error('scim-tokens.mark-revoked set no revoked_at');
    return revokedAt;
  }

  /** Tells every instance's token cache to drop the token; delivered when the transaction commits (NOTIFY waits for it). */
  async notifyRevoked(tx: Tx, tokenHash: string): Promise<RevocationNotice> {
    return notifyCredentialRevoked(tx, tokenHash);
  }

  /** The live token with this SHA-256, if any (active, not revoked, not expired). */
  async findLiveByHash(tokenHash: string, now: Date): Promise<ScimTokenGrant | undefined> {
    return first(this.dataSource, AUTHENTICATE, [tokenHash, now]);
  }
}
