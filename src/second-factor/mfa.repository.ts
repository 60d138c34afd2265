import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import { computed, entityColumns, nested, NO_ROW } from '../database/row-shape';
import { first, one, run, statement } from '../database/statement';
import type { Tx } from '../database/unit-of-work';
import { EndUser } from '../end-user-directory/entities/end-user.entity';
import type { EndUserRecord } from '../end-user-directory/end-users.repository';
import { EndUserRecoveryCode } from './entities/end-user-recovery-code.entity';
import { EndUserTotp } from './entities/end-user-totp.entity';
import { ChallengeReason, EndUserMfaChallenge } from './entities/mfa-challenge.entity';

/** What a sign-in needs to know of a user's factors: one indexed round trip. */
export interface FactorSummary {
  totp: boolean;
  passkeys: number;
  recoveryCodesLeft: number;
}

export interface NewChallenge {
  userId: string;
  tokenHash: string;
  kind: 'api' | 'browser';
  reason: ChallengeReason;
  methods: string[];
  anomalyKinds: string[];
  now: Date;
  expiresAt: Date;
}

/** Wrong answers that void an mfa_token (decision 0312). */
export const MAX_ATTEMPTS = 5;

const FACTORS = statement(
  'mfa.factors',
  `SELECT EXISTS (SELECT 1 FROM end_user_totp t WHERE t.workspace_id = $1 AND t.user_id = $2 AND t.confirmed_at IS NOT NULL) AS totp,
         (SELECT count(*)::int FROM end_user_passkeys p WHERE p.workspace_id = $1 AND p.user_id = $2) AS passkeys,
         (SELECT count(*)::int FROM end_user_recovery_codes r WHERE r.workspace_id = $1 AND r.user_id = $2 AND r.used_at IS NULL) AS recovery_left`,
  computed({ totp: 'boolean', passkeys: 'number', recoveryCodesLeft: ['recovery_left', 'number'] }),
);

const ISSUER = statement(
  'mfa.issuer',
  `SELECT COALESCE(c.name, w.name) AS issuer
    FROM end_users u JOIN workspaces w ON w.id = u.workspace_id LEFT JOIN oauth_clients c ON c.id = u.oauth_client_id
   WHERE u.workspace_id = $1 AND u.id = $2`,
  computed({ issuer: 'text' }),
);

// Accept a TOTP step once: the update wins only for a step later than the last accepted one.
const USE_STEP = statement(
  'mfa.use-totp-step',
  `UPDATE end_user_totp SET last_used_step = $3
   WHERE workspace_id = $1 AND user_id = $2 AND confirmed_at IS NOT NULL AND last_used_step < $3 RETURNING user_id`,
  NO_ROW,
);

// A recovery code works once: of concurrent requests presenting it, exactly one update returns the row.
const USE_RECOVERY = statement(
  'mfa.use-recovery-code',
  `UPDATE end_user_recovery_codes SET used_at = $3
   WHERE workspace_id = $1 AND id = $2 AND used_at IS NULL RETURNING id`,
  NO_ROW,
);

// A sign-in's challenge: one row, no audit (the password step is audited when it ends).
const INSERT_CHALLENGE = statement(
  'mfa.insert-challenge',
  `INSERT INTO end_user_mfa_challenges
     (workspace_id, user_id, token_hash, kind, reason, methods, anomaly_kinds, attempts, created_at, expires_at, consumed_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, $9, NULL)`,
  NO_ROW,
);

// The second step passed with a TOTP code: the step is claimed (once per step, as USE_STEP) and the
// challenge consumed in one statement; the challenge is consumed only if the claim won.
const USE_STEP_AND_CONSUME = statement(
  'mfa.use-totp-step-and-consume',
  `WITH claimed AS (
     UPDATE end_user_totp SET last_used_step = $3
      WHERE workspace_id = $1 AND user_id = $2 AND confirmed_at IS NOT NULL AND last_used_step < $3 RETURNING user_id)
   UPDATE end_user_mfa_challenges SET consumed_at = $5
    WHERE workspace_id = $1 AND id = $4 AND EXISTS (SELECT 1 FROM claimed) RETURNING id`,
  NO_ROW,
);

const COUNT_FAILURE = statement(
  'mfa.count-challenge-failure',
  `UPDATE end_user_mfa_challenges SET attempts = $3, consumed_at = CASE WHEN $4::boolean THEN $5::timestamptz ELSE consumed_at END
    WHERE workspace_id = $1 AND id = $2`,
  NO_ROW,
);

const CONSUME_CHALLENGE = statement(
  'mfa.consume-challenge',
  `UPDATE end_user_mfa_challenges SET consumed_at = $3 WHERE workspace_id = $1 AND id = $2`,
  NO_ROW,
);

const CHALLENGE_KIND = { kind: ['api', 'browser'], reason: ['second_factor', 'step_up'] } as const;

// The second step's one read: the challenge (locked), its user, and the user's TOTP secret.
const LOCK_CHALLENGE = statement(
  'mfa.lock-challenge',
  `SELECT c.id, c.workspace_id, c.user_id, c.kind, c.reason, c.methods, c.anomaly_kinds, c.attempts,
         c.expires_at, c.consumed_at,
         u.id AS u_id, u.workspace_id AS u_workspace_id,
         u.oauth_client_id AS u_oauth_client_id, u.email AS u_email, u.first_name AS u_first_name, u.last_name AS u_last_name,
         u.is_active AS u_is_active, u.email_verified AS u_email_verified, u.created_at AS u_created_at,
         t.secret_encrypted AS totp_secret, (t.confirmed_at IS NOT NULL) AS totp_confirmed
    FROM end_user_mfa_challenges c
    JOIN end_users u ON u.id = c.user_id AND u.workspace_id = c.workspace_id
    LEFT JOIN end_user_totp t ON t.user_id = c.user_id AND t.workspace_id = c.workspace_id
   WHERE c.token_hash = $1
     FOR UPDATE OF c`,
  entityColumns(
    EndUserMfaChallenge,
    ['id', 'workspaceId', 'userId', 'kind', 'reason', 'methods', 'anomalyKinds', 'attempts', 'expiresAt', 'consumedAt'],
    { values: CHALLENGE_KIND },
  )
    .and(
      nested(
        'user',
        entityColumns(
          EndUser,
          ['id', 'workspaceId', 'oauthClientId', 'email', 'firstName', 'lastName', 'isActive', 'emailVerified', 'createdAt'],
          { prefix: 'u_' },
        ),
        'u_id',
      ),
    )
    .and(computed({ totpSecret: ['totp_secret', 'text?'], totpConfirmed: ['totp_confirmed', 'boolean'] })),
);

// A live challenge of a presented mfa_token (the passkey options of its second step).
const LIVE_CHALLENGE = statement(
  'mfa.live-challenge',
  `SELECT workspace_id, user_id, kind, methods FROM end_user_mfa_challenges
    WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > $2 AND attempts < $3`,
  entityColumns(EndUserMfaChallenge, ['workspaceId', 'userId', 'kind', 'methods'], { values: CHALLENGE_KIND }),
);

const LOCK_USER = statement('mfa.lock-user', `SELECT id FROM end_users WHERE workspace_id = $1 AND id = $2 FOR UPDATE`, NO_ROW);

const PRUNE_CHALLENGES = statement('mfa.prune-challenges', `DELETE FROM end_user_mfa_challenges WHERE expires_at < $1`, NO_ROW);

/** A challenge as the second step reads it. */
export interface LockedChallenge extends Pick<
  EndUserMfaChallenge,
  'id' | 'workspaceId' | 'userId' | 'kind' | 'reason' | 'methods' | 'anomalyKinds' | 'attempts' | 'expiresAt' | 'consumedAt'
> {
  user: EndUserRecord;
  /** The sealed secret of a confirmed authenticator, else null. */
  totpSecret: string | null;
}

/** An enrolled factor (recovery codes only exist beside one). */
export const hasFactor = (f: FactorSummary): boolean => f.totp || f.passkeys > 0;

/**
 * The second-factor tables: TOTP secrets, recovery codes and sign-in challenges. Every method
 * takes the workspace first, except the challenge lookup by a presented token, which learns it
 * from the row.
 */
@Injectable()
export class MfaRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async factors(workspaceId: string, userId: string, on: Tx | DataSource = this.dataSource): Promise<FactorSummary> {
    return one(on, FACTORS, [workspaceId, userId]);
  }

  /** The name an authenticator app shows for the account: the application's, else the workspace's. */
  async issuerName(workspaceId: string, userId: string): Promise<string> {
    return (await first(this.dataSource, ISSUER, [workspaceId, userId]))?.issuer ?? 'Identity';
  }

  lockTotp(tx: Tx, workspaceId: string, userId: string): Promise<EndUserTotp | null> {
    return tx.getRepository(EndUserTotp).findOne({ where: { workspaceId, userId }, lock: { mode: 'pessimistic_write' } });
  }

  totp(workspaceId: string, userId: string): Promise<EndUserTotp | null> {
    return this.dataSource.getRepository(EndUserTotp).findOne({ where: { workspaceId, userId } });
  }

  /** A new pending secret, replacing a pending one (never a confirmed one: the caller checked). */
  async savePendingTotp(tx: Tx, workspaceId: string, userId: string, secretEncrypted: string, now: Date): Promise<void> {
    await tx
      .getRepository(EndUserTotp)
      .createQueryBuilder()
      .insert()
      .values({ workspaceId, userId, secretEncrypted, confirmedAt: null, lastUsedStep: '0', createdAt: now })
      .orUpdate(['secret_encrypted', 'confirmed_at', 'last_used_step', 'created_at'], ['user_id'])
      .updateEntity(false)
      .execute();
  }

  async confirmTotp(tx: Tx, workspaceId: string, userId: string, step: number, now: Date): Promise<void> {
    await tx.getRepository(EndUserTotp).update({ workspaceId, userId }, { confirmedAt: now, lastUsedStep: String(step) });
  }

  /** True when this step is later than the last accepted one (and is now the last accepted one). */
  async useTotpStep(tx: Tx, workspaceId: string, userId: string, step: number): Promise<boolean> {
    return (await run(tx, USE_STEP, [workspaceId, userId, step])).length === 1;
  }

  async deleteTotp(tx: Tx, workspaceId: string, userId: string): Promise<void> {
    await tx.getRepository(EndUserTotp).delete({ workspaceId, userId });
  }

  /** The old set dies with the new one. */
  async replaceRecoveryCodes(tx: Tx, workspaceId: string, userId: string, hashes: string[], now: Date): Promise<void> {
    const repo = tx.getRepository(EndUserRecoveryCode);
    await repo.delete({ workspaceId, userId });
    if (!hashes.length) return;
    await repo
      .createQueryBuilder()
      .insert()
      .values(hashes.map((codeHash) => ({ workspaceId, userId, codeHash, usedAt: null, createdAt: now })))
      .updateEntity(false)
      .execute();
  }

  unusedRecoveryCodes(tx: Tx, workspaceId: string, userId: string): Promise<EndUserRecoveryCode[]> {
    return tx.getRepository(EndUserRecoveryCode).find({ where: { workspaceId, userId, usedAt: IsNull() }, take: 50 });
  }

  async useRecoveryCode(tx: Tx, workspaceId: string, id: string, now: Date): Promise<boolean> {
    return (await run(tx, USE_RECOVERY, [workspaceId, id, now])).length === 1;
  }

  /** In the caller's transaction, or (tx null) as one statement of its own. */
  async insertChallenge(tx: Tx | null, workspaceId: string, c: NewChallenge): Promise<void> {
    await run(tx ?? this.dataSource, INSERT_CHALLENGE, [
      workspaceId,
      c.userId,
      c.tokenHash,
      c.kind,
      c.reason,
      c.methods,
      c.anomalyKinds,
      c.now,
      c.expiresAt,
    ]);
  }

  /**
   * The challenge of a presented mfa_token, row-locked so its attempts and its single use are
   * serialised, with its account and sealed TOTP secret read in the same round trip.
   */
  async lockChallenge(tx: Tx, tokenHash: string): Promise<LockedChallenge | null> {
    const row = await first(tx, LOCK_CHALLENGE, [tokenHash]);
    if (!row?.user) return null;
    const { totpConfirmed, totpSecret, user, ...challenge } = row;
    return { ...challenge, user: { ...user, passwordHash: null }, totpSecret: totpConfirmed ? totpSecret : null };
  }

  /** A live challenge of a presented mfa_token, unlocked (the passkey options of its second step). */
  async liveChallenge(
    tokenHash: string,
    now: Date,
  ): Promise<Pick<EndUserMfaChallenge, 'workspaceId' | 'userId' | 'kind' | 'methods'> | null> {
    return (await first(this.dataSource, LIVE_CHALLENGE, [tokenHash, now, MAX_ATTEMPTS])) ?? null;
  }

  /**
   * Serialise the step-ups of one user (row lock on the account): two concurrent challenges must not
   * both find no recent code and mail two.
   */
  async lockUser(tx: Tx, workspaceId: string, userId: string): Promise<void> {
    await run(tx, LOCK_USER, [workspaceId, userId]);
  }

  async countChallengeFailure(tx: Tx, workspaceId: string, id: string, attempts: number, now: Date, voided: boolean): Promise<void> {
    await run(tx, COUNT_FAILURE, [workspaceId, id, attempts, voided, now]);
  }

  async consumeChallenge(tx: Tx, workspaceId: string, id: string, now: Date): Promise<void> {
    await run(tx, CONSUME_CHALLENGE, [workspaceId, id, now]);
  }

  /**
   * Claim a TOTP step and consume the challenge it answers, in one round trip: false (nothing
   * written) when the step was already used, so a replayed code never consumes the challenge.
   */
  async useTotpStepAndConsume(tx: Tx, workspaceId: string, userId: string, step: number, challengeId: string, now: Date): Promise<boolean> {
    return (await run(tx, USE_STEP_AND_CONSUME, [workspaceId, userId, step, challengeId, now])).length === 1;
  }

  /** Spent and expired challenges are worth nothing; called now and then from sign-ins. */
  async pruneChallenges(before: Date): Promise<void> {
    await run(this.dataSource, PRUNE_CHALLENGES, [before]);
  }
}
