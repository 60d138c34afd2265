import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { entityColumns, NO_ROW } from '../../database/row-shape';
import { run, statement } from '../../database/statement';
import { OAuthAssertionJti } from './entities/oauth-assertion-jti.entity';

const CLAIM = statement(
  'assertion-jtis.claim',
  `INSERT INTO oauth_assertion_jtis (issuer, jti, expires_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING jti`,
  entityColumns(OAuthAssertionJti, ['jti']),
);
const PURGE = statement('assertion-jtis.purge', `DELETE FROM oauth_assertion_jtis WHERE expires_at < $1`, NO_ROW);

/** oauth_assertion_jtis: one row per assertion used, until it expires (not tenant data). */
@Injectable()
export class AssertionJtisRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** True the first time (issuer, jti) is claimed; false for a replay. One statement, race-free across instances. */
  async claim(issuer: string, jti: string, expiresAt: Date): Promise<boolean> {
    const rows = await run(this.dataSource, CLAIM, [issuer, jti, expiresAt]);
    return rows.length === 1;
  }

  async purgeExpired(now: Date): Promise<void> {
    await run(this.dataSource, PURGE, [now]);
  }
}
