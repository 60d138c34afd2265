import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, LessThanOrEqual } from 'typeorm';
import { NO_ROW } from '../../database/row-shape';
import { rewritten, runRaw, statement } from '../../database/statement';
import { settleRiders, withRiders } from '../../database/statement-riders';
import type { Tx } from '../../database/unit-of-work';
import type { StatementRider } from '../../events/domain-events';
import { SamlSeenRequest } from './entities/saml-seen-request.entity';

/**
 * First use of an AuthnRequest ID by an SP, in one statement: a new row, or a row whose time is
 * up (then taken over), returns a row; a live one returns none. Every instance shares the table,
 * so a replay to another instance is refused as well (decision 0208).
 */
const CLAIM = statement(
  'seen-requests.claim',
  `INSERT INTO saml_seen_requests (service_provider_id, request_id, workspace_id, expires_at)
  VALUES ($1, $2, $3, $4)
  ON CONFLICT (service_provider_id, request_id) DO UPDATE SET expires_at = EXCLUDED.expires_at
    WHERE saml_seen_requests.expires_at <= $5
  RETURNING 1 AS claimed`,
  NO_ROW,
);

/** The AuthnRequest IDs each SP has used, kept until a request carrying one would be stale anyway. */
@Injectable()
export class SeenRequestsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * True on the first use of this request ID by this SP (within `keepUntil`); false for a replay. With a one-statement
   * unit of work's `riders` (the assertion's audit row, decision 0988), they are written in the same statement, and
   * only when the ID is claimed; `on`, a transaction when some writer cannot ride.
   */
  async claim(
    sp: { id: string; workspaceId: string },
    requestId: string,
    now: Date,
    keepUntil: Date,
    ride: { on: Tx | null; riders: readonly StatementRider[] } = { on: null, riders: [] },
  ): Promise<boolean> {
    const { sql, params } = withRiders(CLAIM.text, [sp.id, requestId, sp.workspaceId, keepUntil, now], ride.riders);
    const rows = await runRaw(ride.on ?? this.dataSource, rewritten(CLAIM, sql), params);
    settleRiders(rows, ride.riders);
    // Opportunistic sweep keeps the table to a few minutes of sign-ins without a scheduler.
    if (Math.random() < 0.01) {
      await this.dataSource
        .getRepository(SamlSeenRequest)
        .delete({ expiresAt: LessThanOrEqual(now) })
        .catch(() => undefined);
    }
    return rows.length === 1;
  }
}
