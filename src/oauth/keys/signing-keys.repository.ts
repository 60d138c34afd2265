import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, IsNull, MoreThan } from 'typeorm';
import { NO_ROW } from '../../database/row-shape';
import { run, statement } from '../../database/statement';
import type { Tx } from '../../database/unit-of-work';
import { OAuthSigningKey } from './entities/oauth-signing-key.entity';

/** Serialises key creation and rotation across instances (a transaction-level advisory lock on a fixed key). */
const LOCK_FOR_CREATION = statement(
  'signing-keys.lock-for-creation',
  `SELECT pg_advisory_xact_lock(hashtext('oauth_signing_keys'))`,
  NO_ROW,
);

/** oauth_signing_keys: the authorization server's keys, shared by every instance (not tenant data). */
@Injectable()
export class SigningKeysRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Every key still published (signing, next, or retired but with tokens possibly alive), oldest first. */
  async listPublished(retiredAfter: Date): Promise<OAuthSigningKey[]> {
    return this.dataSource
      .getRepository(OAuthSigningKey)
      .createQueryBuilder('k')
      .where('k.retired_at IS NULL OR k.retired_at > :retiredAfter', { retiredAfter })
      .orderBy('k.activates_at', 'ASC')
      .addOrderBy('k.created_at', 'ASC')
      .addOrderBy('k.kid', 'ASC')
      .getMany();
  }

  async lockForCreation(tx: Tx): Promise<void> {
    await run(tx, LOCK_FOR_CREATION, []);
  }

  /** The keys of an algorithm not retired at `now` (signing now, or next), newest activation first. */
  async findUnretired(tx: Tx, alg: string, now: Date): Promise<OAuthSigningKey[]> {
    return tx.getRepository(OAuthSigningKey).find({
      where: [
        { alg, retiredAt: IsNull() },
        { alg, retiredAt: MoreThan(now) },
      ],
      order: { activatesAt: 'DESC', createdAt: 'DESC' },
    });
  }

  async insert(tx: Tx, key: Pick<OAuthSigningKey, 'kid' | 'alg' | 'publicJwk' | 'privateKey' | 'activatesAt'>): Promise<void> {
    await tx.getRepository(OAuthSigningKey).insert({ ...key, retiredAt: null });
  }

  /** The keys stop signing at `at` (their successor's activation). */
  async retire(tx: Tx, kids: string[], at: Date): Promise<void> {
    if (kids.length) await tx.getRepository(OAuthSigningKey).update({ kid: In(kids) }, { retiredAt: at });
  }
}
