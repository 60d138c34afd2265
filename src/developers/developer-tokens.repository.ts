import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, IsNull, Repository } from 'typeorm';
import { computed, entityColumns } from '../database/row-shape';
import { first, statement } from '../database/statement';
import type { Tx } from '../database/unit-of-work';
import { DeveloperToken } from './entities/developer-token.entity';
import { Developer } from './entities/developer.entity';

export interface NewDeveloperToken {
  developerId: string;
  label: string;
  tokenHash: string;
  expiresAt: Date | null;
}

/** A usable token with the developer it stands for. */
export type TokenPrincipalRow = { tokenId: string } & Pick<DeveloperToken, 'expiresAt' | 'developerId'> & Pick<Developer, 'email'>;

// The hot read of every dat_ bearer call that misses the credential cache (decisions 0009, 0010):
// one prepared statement on the token_hash key.
const USABLE_TOKEN = statement(
  'developer-tokens.usable',
  `SELECT t.id AS token_id, t.expires_at, t.developer_id, d.email FROM developer_tokens t JOIN developers d ON d.id = t.developer_id
  WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > $2)`,
  computed({ tokenId: ['token_id', 'text'] })
    .and(entityColumns(DeveloperToken, ['expiresAt', 'developerId']))
    .and(entityColumns(Developer, ['email'])),
);

// One statement: the conditional revoke and the hash the credential caches must drop.
const REVOKE = statement(
  'developer-tokens.revoke',
  `UPDATE developer_tokens SET revoked_at = now()
  WHERE id = $1 AND developer_id = $2 AND revoked_at IS NULL RETURNING token_hash`,
  entityColumns(DeveloperToken, ['tokenHash']),
);

/** developer_tokens: dat_ access tokens, stored as their SHA-256 only. */
@Injectable()
export class DeveloperTokensRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(DeveloperToken) private readonly tokens: Repository<DeveloperToken>,
  ) {}

  /** The token of this hash, unrevoked and unexpired at `now`, with its developer; undefined when there is none. */
  async findUsable(tokenHash: string, now: Date): Promise<TokenPrincipalRow | undefined> {
    return first(this.dataSource, USABLE_TOKEN, [tokenHash, now]);
  }

  insert(tx: Tx, values: NewDeveloperToken): Promise<DeveloperToken> {
    const tokens = tx.getRepository(DeveloperToken);
    return tokens.save(tokens.create(values));
  }

  /** The developer's unrevoked tokens, oldest first (expired ones included). */
  listUnrevoked(developerId: string): Promise<DeveloperToken[]> {
    return this.tokens.find({ where: { developerId, revokedAt: IsNull() }, order: { createdAt: 'ASC' } });
  }

  /** Revokes the developer's token; its hash, or null when it is not theirs or already revoked. */
  async revoke(tx: Tx, developerId: string, tokenId: string): Promise<string | null> {
    return (await first(tx, REVOKE, [tokenId, developerId]))?.tokenHash ?? null;
  }
}
