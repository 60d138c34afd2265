import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { DomainError } from '../common/errors';
import type { RequestMeta } from '../common/request-context';
import { type EmittedEvents, type Tx, UnitOfWork } from '../database/unit-of-work';
import { EndUserRecord, EndUsersRepository } from '../end-user-directory/end-users.repository';
import { CodeMailer } from './code-mailer';
import { CodesRepository, MAX_CODE_ATTEMPTS, RESEND_COOLDOWN_MS } from './codes.repository';
import { EndUserCode } from './entities/end-user-code.entity';
import { isWellFormedCode } from './one-time-code';
import { COMMON_ERRORS } from '../common/common.errors';
import { EMAIL_VERIFICATION_ERRORS } from './email-verification.errors';
import { byEndUser } from '../events/domain-events';

export interface VerificationResult {
  success: true;
  message: string;
}

const PURPOSE = 'email_verification';
const expired = (row: EndUserCode, now: Date) => row.expiresAt.getTime() <= now.getTime();

/**
 * Email verification (spec area C): a 6-digit code mailed at registration, confirmed through the
 * public endpoints, at most 5 wrong tries per code and one resend per minute per account.
 */
@Injectable()
export class EmailVerificationService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: EndUsersRepository,
    private readonly codes: CodesRepository,
    private readonly clock: Clock,
    private readonly codeMailer: CodeMailer,
  ) {}

  /** Issue a code and queue its mail in the caller's unit of work (the mail worker wakes when it commits). */
  async issue(tx: Tx, events: EmittedEvents, user: EndUserRecord, request: RequestMeta | undefined, now: Date): Promise<void> {
    await this.codeMailer.send(tx, events, user, {
      purpose: PURPOSE,
      template: 'registration_confirmation',
      event: 'email_verify_send',
      request,
      now,
    });
  }

  async verify(email: string, code: string, request: RequestMeta): Promise<VerificationResult> {
    await this.verifyAccount(email, code, request);
    return { success: true, message: 'Your email address is verified' };
  }

  /** Checks the code and marks the account it belongs to verified; answers that account (the hosted login continues its sign-in). */
  async verifyAccount(email: string, code: string, request: RequestMeta): Promise<EndUserRecord> {
    const pending = await this.unverifiedAccounts(email);
    const now = this.clock.now();
    const outcome = await this.uow.run(async (tx, events) => {
      const rows = await this.codes.lockCodes(
        tx,
        PURPOSE,
        pending.map((u) => u.id),
      );
      const usable = rows.filter((r) => r.attempts < MAX_CODE_ATTEMPTS);
      if (rows.length && !usable.length) {
        return new DomainError(
          EMAIL_VERIFICATION_ERRORS.too_many_attempts,
          'Too many wrong codes: this code no longer works. Request a new one.',
        );
      }
      if (!usable.length) {
        return new DomainError(EMAIL_VERIFICATION_ERRORS.invalid_code, 'No code is pending for this email. Request a new one.');
      }
      if (!isWellFormedCode(code)) return new DomainError(EMAIL_VERIFICATION_ERRORS.invalid_code, 'The code must be 6 digits');
      // Compare against every pending code (constant time each) before deciding.
      const matches = usable.map((r) => this.codes.matches(r, code));
      const match = usable.find((_, i) => matches[i]);
      if (match && expired(match, now)) {
        return new DomainError(EMAIL_VERIFICATION_ERRORS.code_expired, 'This code has expired. Request a new one.');
      }
      if (!match) {
        const live = usable.filter((r) => !expired(r, now));
        if (!live.length) return new DomainError(EMAIL_VERIFICATION_ERRORS.code_expired, 'This code has expired. Request a new one.');
        await this.codes.countFailure(
          tx,
          live.map((r) => r.id),
        );
        return new DomainError(EMAIL_VERIFICATION_ERRORS.invalid_code, 'The code is not correct');
      }
      const user = pending.find((u) => u.id === match.userId)!;
      await this.confirm(tx, events, user, request, now);
      return user;
    });
    if (outcome instanceof DomainError) throw outcome;
    return outcome;
  }

  async resend(email: string, request: RequestMeta): Promise<VerificationResult> {
    const pending = await this.unverifiedAccounts(email);
    const now = this.clock.now();
    await this.uow.run(async (tx, events) => {
      const rows = await this.codes.lockCodes(
        tx,
        PURPOSE,
        pending.map((u) => u.id),
      );
      const waitMs = Math.max(0, ...rows.map((r) => r.sentAt.getTime() + RESEND_COOLDOWN_MS - now.getTime()));
      if (waitMs > 0) {
        throw new DomainError(COMMON_ERRORS.rate_limited, 'A code was sent less than a minute ago; wait before asking again', {
          retryAfterSeconds: Math.ceil(waitMs / 1000),
        });
      }
      for (const user of pending) await this.issue(tx, events, user, request, now);
    });
    return { success: true, message: 'A new verification code has been sent' };
  }

  /**
   * Mark an account verified without a code (e.g. SCIM-provisioned users, spec A rule 1) and void any
   * pending code. Pass the caller's transaction to make it part of a larger change.
   */
  async markVerified(workspaceId: string, userId: string, tx?: Tx): Promise<void> {
    const mark = async (on: Tx) => {
      await this.users.markVerified(on, workspaceId, userId, this.clock.now());
      await this.codes.remove(on, workspaceId, userId, PURPOSE);
    };
    await (tx ? mark(tx) : this.uow.run(mark));
  }

  private async confirm(tx: Tx, events: EmittedEvents, user: EndUserRecord, request: RequestMeta, now: Date): Promise<void> {
    await this.users.markVerified(tx, user.workspaceId, user.id, now);
    await this.codes.remove(tx, user.workspaceId, user.id, PURPOSE);
    events.emit('email_verify_confirm', byEndUser(user, request));
  }

  /** Accounts with this email still to verify; user_not_found / already_verified otherwise. */
  private async unverifiedAccounts(email: string): Promise<EndUserRecord[]> {
    const accounts = await this.users.allByEmail(email);
    if (!accounts.length) throw new DomainError(EMAIL_VERIFICATION_ERRORS.user_not_found, 'No account is registered with this email');
    const pending = accounts.filter((u) => !u.emailVerified && u.isActive);
    if (!pending.length) throw new DomainError(EMAIL_VERIFICATION_ERRORS.already_verified, 'This email address is already verified');
    return pending;
  }
}
