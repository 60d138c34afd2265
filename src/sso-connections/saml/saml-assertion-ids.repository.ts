import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, LessThanOrEqual } from 'typeorm';
import { computed } from '../../database/row-shape';
import { run, statement } from '../../database/statement';
import type { EndUserRecord } from '../../end-user-directory/end-users.repository';
import { SsoSamlAssertionId } from './entities/sso-saml-assertion-id.entity';

/**
 * The first use of an assertion ID, and the person its subject is bound to, in one round trip
 * (decision 1022): a row comes back only when the ID was claimed (a replay claims nothing and reads
 * nothing), its person columns null when the subject is bound to nobody. The claim commits on its
 * own as before, ahead of every other check of the sign-in.
 */
const CLAIM_AND_FIND_BOUND = statement(
  'sso-saml-assertion-ids.claim-and-find-bound',
  `WITH claimed AS (
     INSERT INTO sso_saml_assertion_ids (workspace_id, connection_id, assertion_id, expires_at)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (connection_id, assertion_id) DO NOTHING
     RETURNING 1
   )
   SELECT u.id, u.workspace_id, u.oauth_client_id, u.email, u.first_name, u.last_name, u.is_active, u.email_verified,
     u.password_hash, u.created_at
   FROM claimed
   LEFT JOIN sso_bindings b ON b.workspace_id = $1 AND b.connection_id = $2 AND b.issuer = $5 AND b.subject = $6
   LEFT JOIN end_users u ON u.workspace_id = b.workspace_id AND u.id = b.user_id`,
  computed({
    id: 'text?',
    workspaceId: ['workspace_id', 'text?'],
    oauthClientId: ['oauth_client_id', 'text?'],
    email: 'text?',
    firstName: ['first_name', 'text?'],
    lastName: ['last_name', 'text?'],
    isActive: ['is_active', 'boolean?'],
    emailVerified: ['email_verified', 'boolean?'],
    passwordHash: ['password_hash', 'text?'],
    createdAt: ['created_at', 'timestamp?'],
  }),
);

/**
 * The assertion IDs each SAML connection accepted (the replay cache every instance shares). A
 * row outlives the assertion's own validity window, so by the time it is swept the verifier
 * refuses the assertion as expired anyway.
 */
@Injectable()
export class SamlAssertionIdsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Spends the assertion ID (its first use by this connection), and reads the person the assertion's
   * subject is bound to (what the sign-in reads next): null for a replay, else `bound` is that person
   * or null. The row outlives the assertion's own validity (`keepUntil`).
   */
  async claimAndFindBound(
    claim: { workspaceId: string; connectionId: string; assertionId: string; keepUntil: Date; now: Date },
    subject: { issuer: string; subject: string },
  ): Promise<{ bound: EndUserRecord | null } | null> {
    const { workspaceId, connectionId, assertionId, keepUntil, now } = claim;
    const rows = await run(this.dataSource, CLAIM_AND_FIND_BOUND, [
      workspaceId,
      connectionId,
      assertionId,
      keepUntil,
      subject.issuer,
      subject.subject,
    ]);
    if (Math.random() < 0.01) await this.sweep(now).catch(() => undefined);
    if (rows.length === 0) return null;
    const r = rows[0];
    if (r.id === null) return { bound: null };
    return {
      bound: {
        id: r.id,
        workspaceId: r.workspaceId!,
        oauthClientId: r.oauthClientId,
        email: r.email!,
        firstName: r.firstName!,
        lastName: r.lastName!,
        isActive: r.isActive!,
        emailVerified: r.emailVerified!,
        passwordHash: r.passwordHash,
        createdAt: r.createdAt!,
      },
    };
  }

  /** Whether the workspace's connection holds this assertion ID (the tenant contract's read). */
  async has(workspaceId: string, connectionId: string, assertionId: string): Promise<boolean> {
    return this.dataSource.getRepository(SsoSamlAssertionId).exists({ where: { workspaceId, connectionId, assertionId } });
  }

  async sweep(now: Date): Promise<void> {
    await this.dataSource.getRepository(SsoSamlAssertionId).delete({ expiresAt: LessThanOrEqual(now) });
  }
}
