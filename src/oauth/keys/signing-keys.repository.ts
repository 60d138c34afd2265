import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import type { Tx } from '../../database/unit-of-work';
import { OAuthSigningKey } from './entities/oauth-signing-key.entity';

/** oauth_signing_keys: the authorization server's keys, shared by every instance (not tenant data). */
@Injectable()
export class SigningKeysRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Every key still published (active, or retired but with tokens possibly alive), oldest first. */
  async listPublished(retiredAfter: Date): Promise<OAuthSigningKey[]> {
    return this.dataSource
      .getRepository(OAuthSigningKey)
      .createQueryBuilder('k')
      .where('k.retired_at IS NULL OR k.retired_at > :retiredAfter', { retiredAfter })
      .orderBy('k.created_at', 'ASC')
      .addOrderBy('k.kid', 'ASC')
      .getMany();
  }

  /** Serialises key creation across instances (a transaction-level advisory lock on a fixed key). */
  async lockForCreation(tx: Tx): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('oauth_signing_keys'))`);
  }

  /** The unretired keys of an algorithm, newest first. */
  async findActive(tx: Tx, alg: string): Promise<OAuthSigningKey[]> {
    return tx.getRepository(OAuthSigningKey).find({ where: { alg, retiredAt: IsNull() }, order: { createdAt: 'DESC' } });
  }

  async insert(tx: Tx, key: Pick<OAuthSigningKey, 'kid' | 'alg' | 'publicJwk' | 'privateKey'>): Promise<void> {
    await tx.getRepository(OAuthSigningKey).insert({ ...key, retiredAt: null });
  }
}
