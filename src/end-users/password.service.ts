import { Injectable } from '@nestjs/common';
import type { EndUserPrincipal } from '../common/auth/principal';
import { Clock } from '../common/clock';
import { PasswordHasher } from '../common/crypto/password-hasher';
import { DomainError } from '../common/errors';
import type { RequestMeta } from '../common/request-context';
import { UnitOfWork } from '../database/unit-of-work';
import { CodeMailer } from '../email-verification/code-mailer';
import { CodesRepository, MAX_CODE_ATTEMPTS, RESEND_COOLDOWN_MS } from '../email-verification/codes.repository';
import { isWellFormedCode } from '../email-verification/one-time-code';
import { PasswordChangeDto, PasswordResetConfirmDto, PasswordResetRequestDto } from './dto/auth.dto';
import { EndUserRecord, EndUsersRepository } from '../end-user-directory/end-users.repository';
import { SessionsService } from '../sessions/sessions.service';
import { COMMON_ERRORS } from '../common/common.errors';
import { END_USER_ERRORS } from '../end-user-directory/end-users.errors';
import { byEndUser } from '../events/domain-events';

const PURPOSE = 'password_reset';
const invalidCode = () => new DomainError(END_USER_ERRORS.invalid_code, 'The code is not correct');

/** Password reset by emailed code, and change while signed in. Both end every other session. */
@Injectable()
export class PasswordService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: EndUsersRepository,
    private readonly codes: CodesRepository,
    private readonly sessions: SessionsService,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
    private readonly codeMailer: CodeMailer,
  ) {}

  /** Always { success: true }: the answer never tells whether the account exists. */
  async requestReset(dto: PasswordResetRequestDto, request: RequestMeta): Promise<{ success: true }> {
    const user = await this.account(dto, dto.email);
    if (!user || !user.isActive) return { success: true };
    const now = this.clock.now();
    await this.uow.run(async (tx, events) => {
      const [existing] = await this.codes.lockCodes(tx, PURPOSE, [user.id]);
      // Quietly skip within the cooldown: a loop on this endpoint must not mail-bomb the user.
      if (existing && existing.sentAt.getTime() + RESEND_COOLDOWN_MS > now.getTime()) return false;
      await this.codeMailer.send(tx, events, user, {
        purpose: PURPOSE,
        template: 'password_reset',
        event: 'password_reset_request',
        request,
        now,
      });
      return true;
    });
    return { success: true };
  }

  async confirmReset(dto: PasswordResetConfirmDto, request: RequestMeta): Promise<{ success: true }> {
    const user = await this.account(dto, dto.email);
    if (!user || !user.isActive) throw invalidCode();
    const now = this.clock.now();
    // Hash before taking row locks: argon2 is the slow part.
    const passwordHash = isWellFormedCode(dto.code) ? await this.hasher.hash(dto.new_password) : null;
    const outcome = await this.uow.run(async (tx, events) => {
      const [row] = await this.codes.lockCodes(tx, PURPOSE, [user.id]);
      if (!row) return invalidCode();
      if (row.attempts >= MAX_CODE_ATTEMPTS) {
        return new DomainError(END_USER_ERRORS.too_many_attempts, 'Too many wrong codes: request a new one');
      }
      if (row.expiresAt.getTime() <= now.getTime()) {
        return new DomainError(END_USER_ERRORS.code_expired, 'This code has expired. Request a new one.');
      }
      if (!passwordHash || !this.codes.matches(row, dto.code)) {
        await this.codes.countFailure(tx, [row.id]);
        return invalidCode();
      }
      await this.users.setPassword(tx, user.workspaceId, user.id, passwordHash, now);
      await this.codes.remove(tx, user.workspaceId, user.id, PURPOSE);
      // The code reached the mailbox, which proves the address as well as a verification code would.
      await this.users.markVerified(tx, user.workspaceId, user.id, now);
      const denied = await this.sessions.revokeIn(tx, user.workspaceId, { userId: user.id }, 'password_reset', now);
      events.emit('password_reset_confirm', byEndUser(user, request));
      return denied;
    });
    if (outcome instanceof DomainError) throw outcome;
    await this.sessions.mirrorDenied(outcome);
    return { success: true };
  }

  /** Change while signed in: needs the current password; other sessions are signed out. */
  async change(principal: EndUserPrincipal, dto: PasswordChangeDto, request: RequestMeta): Promise<{ success: true }> {
    const user = await this.users.byId(principal.workspaceId, principal.userId);
    const ok = user?.passwordHash
      ? await this.hasher.verify(user.passwordHash, dto.current_password)
      : await this.hasher.verifyAgainstDummy(dto.current_password);
    if (!user || !ok) throw new DomainError(END_USER_ERRORS.invalid_password, 'The current password is not correct');
    const passwordHash = await this.hasher.hash(dto.new_password);
    const now = this.clock.now();
    const denied = await this.uow.run(async (tx, events) => {
      await this.users.setPassword(tx, user.workspaceId, user.id, passwordHash, now);
      const tokens = await this.sessions.revokeIn(
        tx,
        user.workspaceId,
        { userId: user.id, exceptSessionId: principal.sessionId },
        'password_change',
        now,
      );
      events.emit('password_update', byEndUser(user, request));
      return tokens;
    });
    await this.sessions.mirrorDenied(denied);
    return { success: true };
  }

  /** The account a reset targets: one client's account, or the workspace's directory (SCIM) account. */
  private async account(target: { client_id?: string; workspace_id?: string }, email: string): Promise<EndUserRecord | null> {
    if (target.client_id) {
      const client = await this.users.clientByPublicId(target.client_id);
      const [user] = await this.users.candidates(client.workspaceId, email, client.id);
      return user ?? null;
    }
    if (!target.workspace_id) {
      throw new DomainError(COMMON_ERRORS.validation_failed, 'Give client_id or workspace_id', {
        details: { client_id: ['client_id or workspace_id is required'] },
      });
    }
    return this.users.directoryAccount(target.workspace_id, email);
  }
}
