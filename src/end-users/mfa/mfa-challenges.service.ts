import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { generateToken, sha256Hex } from '../../common/crypto/tokens';
import { DomainError } from '../../common/errors';
import type { RequestMeta } from '../../common/request-context';
import { UnitOfWork } from '../../database/unit-of-work';
import type { EndUserRecord } from '../end-users.repository';
import type { ChallengeReason } from './entities/mfa-challenge.entity';
import { FactorMethod, FactorVerifier } from './factor-verifier';
import { FactorSummary } from './mfa.repository';
import { MfaRepository } from './mfa.repository';

export const MFA_TOKEN_TTL_MS = 5 * 60 * 1000;
export const MAX_MFA_ATTEMPTS = 5;

/** The answer of a password step that owes a second one (CONTRACT "Second factor"). */
export interface MfaRequired {
  mfa_required: true;
  mfa_token: string;
  methods: FactorMethod[];
}

export interface SecondStep {
  mfa_token: string;
  code?: string;
  recovery_code?: string;
}

/** Who passed the second step, and how (the session's amr). */
export interface PassedChallenge {
  userId: string;
  workspaceId: string;
  method: FactorMethod;
  amr: string[];
  reason: ChallengeReason;
  anomalyKinds: string[];
}

const tokenInvalid = () =>
  new DomainError('mfa_token_invalid', 'This sign-in has expired or was already used; sign in with your password again', { status: 401 });
const wrongCode = () => new DomainError('invalid_code', 'The code is not correct', { status: 401 });

/** RFC 8176 values per method (decision 0313). */
export function amrFor(method: FactorMethod): string[] {
  switch (method) {
    case 'totp':
    case 'recovery_code':
      return ['pwd', 'otp', 'mfa'];
    case 'passkey':
      return ['pwd', 'hwk', 'mfa'];
    case 'email_code':
      return ['pwd', 'otp', 'mfa'];
  }
}

/** The methods an account can answer a second step with. */
export function methodsOf(factors: FactorSummary): FactorMethod[] {
  const methods: FactorMethod[] = [];
  if (factors.totp) methods.push('totp');
  if (factors.recoveryCodesLeft > 0) methods.push('recovery_code');
  return methods;
}

/**
 * The second step of a sign-in: a password accepted for an account with a factor (or under a
 * step-up policy) becomes a challenge named by an opaque mfa_token (single use, 5 minutes, voided
 * by 5 wrong codes); the right code consumes it, and the caller opens the session.
 */
@Injectable()
export class MfaChallengesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: MfaRepository,
    private readonly verifier: FactorVerifier,
    private readonly clock: Clock,
  ) {}

  factors(user: Pick<EndUserRecord, 'workspaceId' | 'id'>): Promise<FactorSummary> {
    return this.repo.factors(user.workspaceId, user.id);
  }

  async open(
    user: EndUserRecord,
    kind: 'api' | 'browser',
    methods: FactorMethod[],
    reason: ChallengeReason = 'second_factor',
    anomalyKinds: string[] = [],
  ): Promise<MfaRequired> {
    const token = generateToken('mfa_');
    const now = this.clock.now();
    await this.uow.run(async (tx) => {
      await this.repo.insertChallenge(tx, user.workspaceId, {
        userId: user.id,
        tokenHash: sha256Hex(token),
        kind,
        reason,
        methods,
        anomalyKinds,
        now,
        expiresAt: new Date(now.getTime() + MFA_TOKEN_TTL_MS),
      });
    });
    return { mfa_required: true, mfa_token: token, methods };
  }

  /**
   * Check the second step. A wrong code counts against the token (the fifth voids it) and is
   * audited; the right one consumes the token, in one transaction with spending the code.
   */
  async pass(
    step: SecondStep,
    kind: 'api' | 'browser',
    request: RequestMeta,
    /** Counts the attempt against the account's rate limit (throws rate_limited). */
    countAttempt?: (userId: string) => Promise<void>,
  ): Promise<PassedChallenge> {
    if (typeof step.mfa_token !== 'string' || !step.mfa_token.startsWith('mfa_') || step.mfa_token.length > 200) throw tokenInvalid();
    const tokenHash = sha256Hex(step.mfa_token);
    if (countAttempt) {
      const owner = await this.repo.challengeOwner(tokenHash);
      if (owner) await countAttempt(owner);
    }
    const now = this.clock.now();
    const outcome = await this.uow.run(async (tx, events) => {
      const challenge = await this.repo.lockChallenge(tx, tokenHash);
      if (
        !challenge ||
        challenge.kind !== kind ||
        challenge.consumedAt ||
        challenge.expiresAt <= now ||
        challenge.attempts >= MAX_MFA_ATTEMPTS
      ) {
        return tokenInvalid();
      }
      const { workspaceId, userId } = challenge;
      let method: FactorMethod | null = null;
      if (step.code !== undefined && challenge.methods.includes('totp')) {
        if (await this.verifier.useTotp(tx, workspaceId, userId, step.code, now)) method = 'totp';
      } else if (step.recovery_code !== undefined && challenge.methods.includes('recovery_code')) {
        if (await this.verifier.useRecoveryCode(tx, workspaceId, userId, step.recovery_code, now)) method = 'recovery_code';
      }
      const facts = {
        workspaceId,
        actor: { type: 'end_user' as const, id: userId },
        target: { type: 'EndUser', id: userId },
        request,
      };
      if (!method) {
        const attempts = challenge.attempts + 1;
        const voided = attempts >= MAX_MFA_ATTEMPTS;
        await this.repo.countChallengeFailure(tx, workspaceId, challenge.id, attempts, now, voided);
        events.emit('mfa_challenge_failure', {
          ...facts,
          metadata: {
            method: step.code !== undefined ? 'totp' : 'recovery_code',
            attempts,
            token_voided: voided,
            reason: challenge.reason,
          },
        });
        return wrongCode();
      }
      await this.repo.consumeChallenge(tx, workspaceId, challenge.id, now);
      events.emit('mfa_challenge_success', { ...facts, metadata: { method, reason: challenge.reason } });
      return {
        userId,
        workspaceId,
        method,
        amr: amrFor(method),
        reason: challenge.reason,
        anomalyKinds: challenge.anomalyKinds,
      } satisfies PassedChallenge;
    });
    if (outcome instanceof DomainError) throw outcome;
    return outcome;
  }
}
