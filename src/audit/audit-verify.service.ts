import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/config';
import type { WorkspaceScope } from '../workspaces/workspace-scoped';
import { AuditChainRepository } from './audit-chain.repository';
import { ChainVerifier, checkpointsBySeq, CheckpointView, GENESIS_HASH, publicKeyMap, PublicKeyView, VerifyResult } from './chain/chain';
import { AuditSigningKeys } from './chain/signing-keys';
import { AuditCheckpointsQueryDto, AuditVerifyQueryDto } from './dto/audit-query.dto';

const PAGE = 1000;

/** Verification of a workspace's audit chain, its signed checkpoints and the public keys (docs/audit.md). */
@Injectable()
export class AuditVerifyService {
  constructor(
    private readonly chain: AuditChainRepository,
    private readonly keys: AuditSigningKeys,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Recomputes the chain over the links sealed in [from, to] from the events as they are now,
   * and checks every checkpoint in that span. Without `from` it starts at the genesis, so a
   * removed first link is found too.
   */
  async verify({ workspaceId }: WorkspaceScope, query: AuditVerifyQueryDto): Promise<VerifyResult> {
    const range = await this.chain.seqRange(workspaceId, query.from, query.to);
    if (!range) return { verified: 0, checkpoints: 0, first_break: null };
    const fromGenesis = query.from === undefined;
    const first = fromGenesis ? 1 : range.first;
    const checkpoints = await this.chain.checkpointsCovering(workspaceId, first, range.last);
    const verifier = new ChainVerifier(
      checkpointsBySeq(checkpoints),
      publicKeyMap(this.keys.publicKeys()),
      this.config.AUDIT_LATE_SEAL_TOLERANCE_MS,
      fromGenesis ? { prevHash: GENESIS_HASH, seq: 1 } : { prevHash: null, seq: first },
    );
    let after = first - 1;
    for (;;) {
      const links = await this.chain.links(null, workspaceId, after, range.last, PAGE);
      for (const link of links) if (!verifier.push(link)) return verifier.result();
      if (links.length < PAGE) return verifier.result();
      after = links[links.length - 1].seq;
    }
  }

  async checkpoints(
    { workspaceId }: WorkspaceScope,
    query: AuditCheckpointsQueryDto,
  ): Promise<{ results: CheckpointView[]; next_cursor: number | null }> {
    const limit = query.limit ?? 1000;
    const rows = await this.chain.checkpointsSigned(workspaceId, {
      from: query.from,
      to: query.to,
      // Exact: the DTO bounds the cursor to safe integers (decision 0042).
      afterSeq: query.cursor === undefined ? 0 : Number(query.cursor),
      limit,
    });
    const results = rows.slice(0, limit);
    return { results, next_cursor: rows.length > limit ? results[results.length - 1].seq : null };
  }

  publicKeys(): { keys: PublicKeyView[] } {
    return { keys: this.keys.publicKeys() };
  }
}
