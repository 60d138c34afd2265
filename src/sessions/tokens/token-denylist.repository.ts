import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, MoreThan, Repository } from 'typeorm';
import { NO_ROW } from '../../database/row-shape';
import { run, statement } from '../../database/statement';
import type { Tx } from '../../database/unit-of-work';
import type { RevocationNotice } from '../../common/auth/credential-revocations.repository';
import { TokenDenylistEntry } from '../entities/token-denylist-entry.entity';

export interface DeniedToken {
  jti: string;
  expiresAt: Date;
  /** The session it was issued for: its cached views die with it (decision 0961). */
  sessionId: string;
  /**
   * Set by `TokenDenylistService.deny` in the revoking transaction: the notice that evicts the session's cached
   * views on every instance, which `mirror` waits on after commit. It travels with the token, not in the service.
   */
  notice?: RevocationNotice;
}

// Set-based, idempotent: a token id already denied keeps its row.
const DENY = statement(
  'token-denylist.deny',
  `INSERT INTO token_denylist (jti, workspace_id, expires_at)
  SELECT unnest($2::text[]), $1, unnest($3::timestamptz[]) ON CONFLICT (jti) DO NOTHING`,
  NO_ROW,
);

/**
 * token_denylist, the Postgres record of refused token ids. (The per-request check reads it inside
 * the session query, SessionsRepository.isLive, so that stays one round trip.)
 */
@Injectable()
export class TokenDenylistRepository {
  constructor(@InjectRepository(TokenDenylistEntry) private readonly entries: Repository<TokenDenylistEntry>) {}

  /** In the revoking transaction. */
  async deny(tx: Tx, workspaceId: string, tokens: DeniedToken[]): Promise<void> {
    if (!tokens.length) return;
    await run(tx, DENY, [workspaceId, tokens.map((t) => t.jti), tokens.map((t) => t.expiresAt)]);
  }

  async isDenied(jti: string, now: Date): Promise<boolean> {
    return this.entries.existsBy({ jti, expiresAt: MoreThan(now) });
  }

  /** Drops entries whose tokens have expired on their own; answers how many. */
  async prune(now: Date): Promise<number> {
    const result = await this.entries.delete({ expiresAt: LessThan(now) });
    return result.affected ?? 0;
  }
}
