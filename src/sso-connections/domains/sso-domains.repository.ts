import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, Not } from 'typeorm';
import { isUniqueViolation } from '../../common/db-errors';
import type { Tx } from '../../database/unit-of-work';
import { SsoConnectionDomain } from '../entities/sso-connection-domain.entity';

/** The domain is verified for another workspace (one workspace per verified domain, decision 0440). */
export class DomainClaimed extends Error {}

const VERIFIED_ONCE = 'sso_connection_domains_verified_key';

/**
 * The verification state of connections' email domains, and the hosted login's routing question
 * (which connection serves a verified domain). Tenant methods take the workspace first; the one
 * read across workspaces (claimedElsewhere) answers a yes or no and nothing of the other tenant.
 */
@Injectable()
export class SsoDomainsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  find(tx: Tx | null, workspaceId: string, connectionId: string, domain: string): Promise<SsoConnectionDomain | null> {
    return (tx ?? this.dataSource.manager).getRepository(SsoConnectionDomain).findOneBy({ workspaceId, connectionId, domain });
  }

  /**
   * Which of these domains another workspace has verified. Read in the caller's transaction where there is one:
   * a second connection while it holds one would wait forever on the zero-config database's pool of one.
   */
  async claimedElsewhere(tx: Tx | null, workspaceId: string, domains: string[]): Promise<string[]> {
    if (domains.length === 0) return [];
    const rows = await (tx ?? this.dataSource.manager)
      .getRepository(SsoConnectionDomain)
      .createQueryBuilder('d')
      .select('d.domain', 'domain')
      .where('d.domain IN (:...domains) AND d.verified_at IS NOT NULL AND d.workspace_id <> :workspaceId', { domains, workspaceId })
      .getRawMany<{ domain: string }>();
    return rows.map((r) => r.domain);
  }

  /** Records a lookup that did not find the record. */
  async markChecked(workspaceId: string, connectionId: string, domain: string, now: Date): Promise<void> {
    await this.dataSource.getRepository(SsoConnectionDomain).update({ workspaceId, connectionId, domain }, { checkedAt: now });
  }

  /**
   * Marks the domain verified (if it is not already); DomainClaimed when another workspace verified
   * it first. Answers whether this call verified it.
   */
  async markVerified(tx: Tx, workspaceId: string, connectionId: string, domain: string, now: Date): Promise<boolean> {
    try {
      const result = await tx
        .getRepository(SsoConnectionDomain)
        .update({ workspaceId, connectionId, domain, verifiedAt: IsNull() }, { verifiedAt: now, checkedAt: now });
      return (result.affected ?? 0) === 1;
    } catch (err) {
      if (isUniqueViolation(err, VERIFIED_ONCE)) throw new DomainClaimed();
      throw err;
    }
  }

  /** Whether the workspace has verified any domain. */
  async anyVerified(workspaceId: string): Promise<boolean> {
    return this.dataSource.getRepository(SsoConnectionDomain).exists({ where: { workspaceId, verifiedAt: Not(IsNull()) } });
  }

  /** The connection of the workspace that serves this verified domain, if any. */
  async verifiedConnection(workspaceId: string, domain: string): Promise<string | null> {
    const row = await this.dataSource
      .getRepository(SsoConnectionDomain)
      .findOne({ select: { connectionId: true }, where: { workspaceId, domain, verifiedAt: Not(IsNull()) } });
    return row?.connectionId ?? null;
  }
}
