import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, LessThanOrEqual } from 'typeorm';
import { NO_ROW } from '../../database/row-shape';
import { run, statement } from '../../database/statement';
import { SsoSamlAssertionId } from './entities/sso-saml-assertion-id.entity';

/** First use of an assertion ID by a connection: a row comes back; a replay inserts nothing. */
const CLAIM = statement(
  'sso-saml-assertion-ids.claim',
  `INSERT INTO sso_saml_assertion_ids (workspace_id, connection_id, assertion_id, expires_at)
  VALUES ($1, $2, $3, $4)
  ON CONFLICT (connection_id, assertion_id) DO NOTHING
  RETURNING 1 AS claimed`,
  NO_ROW,
);

/**
 * The assertion IDs each SAML connection accepted (the replay cache every instance shares). A
 * row outlives the assertion's own validity window, so by the time it is swept the verifier
 * refuses the assertion as expired anyway.
 */
@Injectable()
export class SamlAssertionIdsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** True on the first use of the assertion ID by this connection; false for a replay. */
  async claim(workspaceId: string, connectionId: string, assertionId: string, keepUntil: Date, now = new Date()): Promise<boolean> {
    const rows = await run(this.dataSource, CLAIM, [workspaceId, connectionId, assertionId, keepUntil]);
    // Opportunistic sweep keeps the table to the assertions still in their window, without a scheduler.
    if (Math.random() < 0.01) await this.sweep(now).catch(() => undefined);
    return rows.length === 1;
  }

  /** Whether the workspace's connection holds this assertion ID (the tenant contract's read). */
  async has(workspaceId: string, connectionId: string, assertionId: string): Promise<boolean> {
    return this.dataSource.getRepository(SsoSamlAssertionId).exists({ where: { workspaceId, connectionId, assertionId } });
  }

  async sweep(now: Date): Promise<void> {
    await this.dataSource.getRepository(SsoSamlAssertionId).delete({ expiresAt: LessThanOrEqual(now) });
  }
}
