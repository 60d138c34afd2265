import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { generateToken, sha256Hex } from '../common/crypto/tokens';
import { DomainError } from '../common/errors';
import type { RequestMeta } from '../common/request-context';
import { type EmittedEvents, type Tx, UnitOfWork } from '../database/unit-of-work';
import { CodeMailer } from '../email-verification/code-mailer';
import { CodesRepository, RESEND_COOLDOWN_MS } from '../email-verification/codes.repository';
import type { EndUserRecord } from '../end-user-directory/end-users.repository';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { ChallengeReason } from './entities/mfa-challenge.entity';
import { FactorMethod, FactorVerifier } from './factor-verifier';
import { FactorSummary, MAX_ATTEMPTS, MfaRepository, NewChallenge } from './mfa.repository';
import { PasskeyCeremonies } from './passkeys/passkey-ceremonies';
import { PasskeysRepository } from './passkeys/passkeys.repository';
import { END_USER_ERRORS } from '../end-user-directory/end-users.errors';

const SIGN_IN_CODE = 'sign_in' as const;

export const MFA_TOKEN_TTL_MS = 5 * 60 * 1000;
export const MAX_MFA_ATTEMPTS = MAX_ATTEMPTS;

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
  /** A WebAuthn assertion (AuthenticationResponseJSON) for options from passkeyOptions. */
  passkey?: unknown;
}

/** A wrong answer: the challenge lives on, and a page redrawn for it offers exactly its methods. */
export class WrongSecondFactor extends DomainError {
  constructor(readonly methods: FactorMethod[]) {
    super(END_USER_ERRORS.wrong_second_factor, 'The code is not correct');
  }
}

/** Who passed the second step, and how (the session's amr). */
export interface PassedChallenge {
  userId: string;
  workspaceId: string;
  /** The account, read with the challenge. */
  user: EndUserRecord;
  method: FactorMethod;
  amr: string[];
  reason: ChallengeReason;
  anomalyKinds: string[];
}

const tokenInvalid = () =>
  new DomainError(END_USER_ERRORS.mfa_token_invalid, 'This sign-in has expired or was already used; sign in with your password again');

/** RFC 8176 values per method (decisions 0313, 0322); a passkey names its kind of key. */
export function amrFor(method: FactorMethod, key: 'hwk' | 'swk' = 'hwk'): string[] {
  switch (method) {
    case 'totp':
    case 'recovery_code':
      return ['pwd', 'otp', 'mfa'];
    case 'passkey':
      return ['pwd', key, 'mfa'];
    case 'email_code':
      // A mailed code proves the mailbox, not an enrolled factor: no 'mfa', so no MFA class in SAML (decision 0313).
      return ['pwd', 'otp'];
  }
}

/** What a failed attempt tried, for its audit row. */
function attemptedMethod(step: SecondStep): string {
  if (step.passkey !== undefined) return 'passkey';
  return step.code !== undefined ? 'totp' : 'recovery_code';
}

/** The methods an account can answer a second step with. */
export function methodsOf(factors: FactorSummary): FactorMethod[] {
  const methods: FactorMethod[] = [];
  if (factors.totp) methods.push('totp');
  if (factors.passkeys > 0) methods.push('passkey');
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
    private readonly codes: CodesRepository,
    private readonly codeMailer: CodeMailer,
    private readonly passkeys: PasskeyCeremonies,
    private readonly passkeyRows: PasskeysRepository,
  ) {}

  /**
   * WebAuthn request options for the second step of a live mfa_token whose methods include a
   * passkey: the account's credentials are allowed, the challenge is bound to the account.
   */
  async passkeyOptions(mfaToken: string, kind: 'api' | 'browser'): Promise<PublicKeyCredentialRequestOptionsJSON> {
    if (typeof mfaToken !== 'string' || !mfaToken.startsWith('mfa_') || mfaToken.length > 200) throw tokenInvalid();
    const challenge = await this.repo.liveChallenge(sha256Hex(mfaToken), this.clock.now());
    if (!challenge || challenge.kind !== kind) throw tokenInvalid();
    if (!challenge.methods.includes('passkey')) {
      throw new DomainError(END_USER_ERRORS.passkey_not_offered, 'This sign-in cannot be finished with a passkey');
    }
    const allowed = await this.passkeyRows.list(challenge.workspaceId, challenge.userId);
    return this.passkeys.authenticationOptions(
      { purpose: 'second_factor', workspaceId: challenge.workspaceId, userId: challenge.userId },
      allowed,
    );
  }

  factors(user: Pick<EndUserRecord, 'workspaceId' | 'id'>): Promise<FactorSummary> {
    return this.repo.factors(user.workspaceId, user.id);
  }

  async open(
    user: EndUserRecord,
    kind: 'api' | 'browser',
    methods: FactorMethod[],
    reason: ChallengeReason = 'second_factor',
  ): Promise<MfaRequired> {
    const token = generateToken('mfa_');
    const now = this.clock.now();
    // One row and no audit event (the password step is audited when it ends): a single statement.
    await this.repo.insertChallenge(null, user.workspaceId, this.challenge(user, token, kind, reason, methods, [], now));
    return { mfa_required: true, mfa_token: token, methods };
  }

  /**
   * A sign-in a policy challenged (step_up_required): the user's factors, or for a user without one
   * a 6-digit code by mail. The mail is sent at most once a minute per user; a challenge within that
   * minute is answered with the code already mailed (it belongs to the user, not to the challenge).
   */
  async stepUp(
    user: EndUserRecord,
    kind: 'api' | 'browser',
    factors: FactorMethod[],
    anomalyKinds: string[],
    request: RequestMeta,
  ): Promise<MfaRequired> {
    const methods: FactorMethod[] = factors.length ? factors : ['email_code'];
    const token = generateToken('mfa_');
    const now = this.clock.now();
    const facts = {
      workspaceId: user.workspaceId,
      actor: { type: 'end_user' as const, id: user.id, email: user.email },
      target: { type: 'EndUser', id: user.id },
      oauthClientId: user.oauthClientId,
      request,
    };
    await this.uow.run(async (tx, events) => {
      await this.repo.insertChallenge(tx, user.workspaceId, this.challenge(user, token, kind, 'step_up', methods, anomalyKinds, now));
      const metadata = { kinds: anomalyKinds, policy: 'challenge', methods };
      if (!methods.includes('email_code')) {
        events.emit('step_up_required', { ...facts, metadata });
        return;
      }
      await this.repo.lockUser(tx, user.workspaceId, user.id);
      const [existing] = await this.codes.lockCodes(tx, SIGN_IN_CODE, [user.id]);
      const fresh = existing && existing.sentAt.getTime() + RESEND_COOLDOWN_MS > now.getTime() && existing.expiresAt > now;
      if (fresh) {
        events.emit('step_up_required', { ...facts, metadata: { ...metadata, code_mailed: false } });
        return;
      }
      await this.codeMailer.send(tx, events, user, {
        purpose: SIGN_IN_CODE,
        template: 'sign_in_code',
        event: 'step_up_required',
        request,
        now,
        metadata: { ...metadata, code_mailed: true },
      });
    });
    return { mfa_required: true, mfa_token: token, methods };
  }

  private challenge(
    user: EndUserRecord,
    token: string,
    kind: 'api' | 'browser',
    reason: ChallengeReason,
    methods: FactorMethod[],
    anomalyKinds: string[],
    now: Date,
  ): NewChallenge {
    return {
      userId: user.id,
      tokenHash: sha256Hex(token),
      kind,
      reason,
      methods,
      anomalyKinds,
      now,
      expiresAt: new Date(now.getTime() + MFA_TOKEN_TTL_MS),
    };
  }

  /** The mailed sign-in code: checked in constant time, spent on success. */
  private async useEmailCode(tx: Tx, workspaceId: string, userId: string, code: string, now: Date): Promise<boolean> {
    const [row] = await this.codes.lockCodes(tx, SIGN_IN_CODE, [userId]);
    if (!row || row.workspaceId !== workspaceId || row.expiresAt <= now || !this.codes.matches(row, code)) return false;
    await this.codes.remove(tx, workspaceId, userId, SIGN_IN_CODE);
    return true;
  }

  /**
   * Check the second step. A wrong code counts against the token (the fifth voids it) and is
   * audited; the right one consumes the token, in one transaction with spending the code.
   */
  async pass<R = undefined>(
    step: SecondStep,
    kind: 'api' | 'browser',
    request: RequestMeta,
    /** Counts the attempt against the account's rate limit (throws rate_limited). */
    countAttempt?: (userId: string) => Promise<void>,
    /** Runs in the same transaction once the step passed (opens the session: the code is spent iff it opens). */
    onPass?: (tx: Tx, events: EmittedEvents, passed: PassedChallenge) => Promise<R>,
  ): Promise<PassedChallenge & { opened?: R }> {
    if (typeof step.mfa_token !== 'string' || !step.mfa_token.startsWith('mfa_') || step.mfa_token.length > 200) throw tokenInvalid();
    const tokenHash = sha256Hex(step.mfa_token);
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
      // Limits as for passwords: every attempt also counts against the account (rate_limited rolls back).
      if (countAttempt) await countAttempt(userId);
      let method: FactorMethod | null = null;
      let key: 'hwk' | 'swk' | undefined;
      // A TOTP code consumes the challenge in the statement that claims its step.
      let consumed = false;
      if (step.passkey !== undefined) {
        if (challenge.methods.includes('passkey')) {
          const scope = { purpose: 'second_factor' as const, workspaceId, userId };
          key = (await this.passkeys.verifyAssertion(tx, scope, step.passkey))?.key;
          if (key) method = 'passkey';
        }
      } else if (step.code !== undefined) {
        const sealed = challenge.methods.includes('totp') ? challenge.totpSecret : null;
        if (sealed && (await this.verifier.useTotpForChallenge(tx, challenge, sealed, step.code, now))) {
          method = 'totp';
          consumed = true;
        } else if (challenge.methods.includes('email_code') && (await this.useEmailCode(tx, workspaceId, userId, step.code, now))) {
          method = 'email_code';
        }
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
            method: attemptedMethod(step),
            attempts,
            token_voided: voided,
            reason: challenge.reason,
          },
        });
        return new WrongSecondFactor(challenge.methods as FactorMethod[]);
      }
      if (!consumed) await this.repo.consumeChallenge(tx, workspaceId, challenge.id, now);
      events.emit('mfa_challenge_success', { ...facts, metadata: { method, reason: challenge.reason } });
      const passed: PassedChallenge = {
        userId,
        workspaceId,
        user: challenge.user,
        method,
        amr: amrFor(method, key),
        reason: challenge.reason,
        anomalyKinds: challenge.anomalyKinds,
      };
      return { ...passed, opened: onPass ? await onPass(tx, events, passed) : undefined };
    });
    if (outcome instanceof DomainError) throw outcome;
    return outcome;
  }
}
