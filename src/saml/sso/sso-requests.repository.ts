import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { sha256Hex } from '../../common/crypto/tokens';
import { AuthnRequestInfo } from '../protocol/authn-request.parser';
import { SamlSpRow, SP_COLUMNS } from '../sps/saml-sp.row';
import { PROFILE_COLUMNS, PROFILE_JOIN, UserProfileRow } from './browser-user';

export type SpWithProfile = SamlSpRow & UserProfileRow;
const SP_SELECT = SP_COLUMNS.split(', ')
  .map((c) => `s.${c}`)
  .join(', ');
/** Matches no user: keeps one statement shape (and plan) whether or not someone is signed in. */
const NO_USER = '00000000-0000-0000-0000-000000000000';

/** An AuthnRequest parked while the browser signs in; the ticket lives in a cookie. */
export interface PendingRequest {
  id: string;
  workspaceId: string;
  serviceProviderId: string;
  request: AuthnRequestInfo;
  relayState: string | null;
  createdAt: Date;
}

/** Long enough to type a password (and read a verification email), short enough to be useless when stolen. */
export const PENDING_TTL_SECONDS = 15 * 60;

@Injectable()
export class SsoRequestsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Issuer lookup: an exact match on sp_entity_id (spec), across all workspaces,
   * with the signed-in user's profile when that user belongs to the SP's workspace.
   */
  async findSpByEntityId(entityId: string, userId: string | null): Promise<SpWithProfile | null> {
    const rows = (await this.dataSource.query(
      `SELECT ${SP_SELECT}, ${PROFILE_COLUMNS} FROM saml_service_providers s ${PROFILE_JOIN} WHERE s.sp_entity_id = $1`,
      [entityId, userId ?? NO_USER],
    )) as SpWithProfile[];
    return rows[0] ?? null;
  }

  async findSp(workspaceId: string, id: string, userId: string | null): Promise<SpWithProfile | null> {
    const rows = (await this.dataSource.query(
      `SELECT ${SP_SELECT}, ${PROFILE_COLUMNS} FROM saml_service_providers s ${PROFILE_JOIN} WHERE s.workspace_id = $3 AND s.id = $1`,
      [id, userId ?? NO_USER, workspaceId],
    )) as SpWithProfile[];
    return rows[0] ?? null;
  }

  /** Stores the request and returns the ticket (only its hash is kept). */
  async stash(sp: SamlSpRow, request: AuthnRequestInfo, relayState: string | null): Promise<string> {
    const ticket = randomBytes(32).toString('base64url');
    await this.dataSource.query(
      `INSERT INTO saml_pending_requests (workspace_id, service_provider_id, ticket_hash, request, relay_state, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
      [sp.workspace_id, sp.id, sha256Hex(ticket), JSON.stringify(request), relayState, PENDING_TTL_SECONDS],
    );
    // Opportunistic sweep keeps the table small without a scheduler.
    if (Math.random() < 0.01)
      await this.dataSource.query(`DELETE FROM saml_pending_requests WHERE expires_at < now()`).catch(() => undefined);
    return ticket;
  }

  async find(ticket: string): Promise<PendingRequest | null> {
    const rows = (await this.dataSource.query(
      `SELECT id, workspace_id, service_provider_id, request, relay_state, created_at FROM saml_pending_requests
        WHERE ticket_hash = $1 AND expires_at > now()`,
      [sha256Hex(ticket)],
    )) as {
      id: string;
      workspace_id: string;
      service_provider_id: string;
      request: AuthnRequestInfo;
      relay_state: string | null;
      created_at: Date;
    }[];
    const r = rows[0];
    return r
      ? {
          id: r.id,
          workspaceId: r.workspace_id,
          serviceProviderId: r.service_provider_id,
          request: r.request,
          relayState: r.relay_state,
          createdAt: new Date(r.created_at),
        }
      : null;
  }

  /** Single use: the first finish consumes it; a replayed ticket finds nothing. */
  async consume(id: string): Promise<boolean> {
    // TypeORM's postgres driver answers DELETE ... RETURNING with [rows, affectedCount].
    const [, affected] = (await this.dataSource.query(`DELETE FROM saml_pending_requests WHERE id = $1 RETURNING id`, [id])) as [
      unknown[],
      number,
    ];
    return affected > 0;
  }
}
