import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { preparedQuery } from '../../database/prepared-query';

const CLAIM = `INSERT INTO oauth_assertion_jtis (issuer, jti, expires_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING jti`;
const PURGE = `DELETE FROM oauth_assertion_jtis WHERE expires_at < $1`;

/** oauth_assertion_jtis: one row per assertion used, until it expires (not tenant data). */
@Injectable()
export class AssertionJtisRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** True the first time (issuer, jti) is claimed; false for a replay. One statement, race-free across instances. */
  async claim(issuer: string, jti: string, expiresAt: Date): Promise<boolean> {
    const rows = await preparedQuery(this.dataSource, CLAIM, [issuer, jti, expiresAt]);
    return rows.length === 1;
  }

  async purgeExpired(now: Date): Promise<void> {
    await preparedQuery(this.dataSource, PURGE, [now]);
  }
}
