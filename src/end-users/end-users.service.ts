import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock } from '../common/clock';
import { PasswordHasher } from '../common/crypto/password-hasher';
import { DomainError } from '../common/errors';
import type { RequestMeta } from '../common/request-context';
import { UnitOfWork } from '../database/unit-of-work';
import { EmailVerificationService } from '../email-verification/email-verification.service';
import { LoginDto, RegisterDto } from './dto/auth.dto';
import { EndUserRecord, EndUsersRepository } from '../end-user-directory/end-users.repository';
import { MfaChallengesService, MfaRequired, SecondStep } from '../second-factor/mfa-challenges.service';
import { SignInGate } from '../second-factor/sign-in-gate.service';
import { AuthRateLimiter } from '../common/rate-limit/auth-rate-limiter';
import { SessionsService, TokenPair } from '../sessions/sessions.service';
import { SessionOptions, SignInService } from './sign-in.service';
import { END_USER_ERRORS } from '../end-user-directory/end-users.errors';

export interface EndUserView {
  id: string;
  email: string;
  email_verified: boolean;
  first_name: string;
  last_name: string;
  created_at: string;
}

export const toEndUserView = (u: EndUserRecord): EndUserView => ({
  id: u.id,
  email: u.email,
  email_verified: u.emailVerified,
  first_name: u.firstName,
  last_name: u.lastName,
  created_at: u.createdAt.toISOString(),
});

/** Registration and API sign-in of end users (docs/end-users.md). */
@Injectable()
export class EndUsersService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: EndUsersRepository,
    private readonly signIn: SignInService,
    private readonly sessions: SessionsService,
    private readonly verification: EmailVerificationService,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
    private readonly mfa: MfaChallengesService,
    private readonly limiter: AuthRateLimiter,
    private readonly gate: SignInGate,
  ) {}

  /** Create the account and queue its verification code, in one transaction. */
  async register(dto: RegisterDto, request: RequestMeta): Promise<EndUserView> {
    const client = await this.users.clientByPublicId(dto.client_id);
    const passwordHash = await this.hasher.hash(dto.password);
    const now = this.clock.now();
    const user = await this.uow.run(async (tx, events) => {
      const created = await this.users.insert(tx, client.workspaceId, {
        oauthClientId: client.id,
        email: dto.email,
        firstName: dto.first_name ?? '',
        lastName: dto.last_name ?? '',
        passwordHash,
        now,
      });
      events.emit('register', {
        workspaceId: created.workspaceId,
        actor: { type: 'end_user', id: created.id, email: created.email },
        target: { type: 'EndUser', id: created.id },
        oauthClientId: client.id,
        request,
      });
      await this.verification.issue(tx, events, created, request, now);
      return created;
    });
    return toEndUserView(user);
  }

  /**
   * Sign in through an OAuth client: only that client's users are candidates. Hot path: one query
   * before the hash, one after it (the account's factors), one transaction for the session (session
   * and refresh token in one statement, plus audit). An account with a second factor gets an
   * mfa_token instead of tokens (POST /e/v1/auth/login/mfa/ finishes).
   */
  async login(dto: LoginDto, request: RequestMeta): Promise<TokenPair | MfaRequired> {
    const { client, users } = await this.users.clientAndCandidates(dto.client_id, dto.email);
    const scope = { workspaceId: client.workspaceId, oauthClientId: client.id };
    const user = await this.signIn.checkPassword(scope, dto.email, dto.password, request, users);
    const owed = await this.gate.afterPassword(user, 'api', request);
    return owed ?? this.openApiSession(user, ['pwd'], request);
  }

  /**
   * The second step of an API sign-in: a TOTP code, a recovery code or a mailed code against the
   * mfa_token. The session opens in the transaction that spends the code.
   */
  async loginSecondStep(dto: SecondStep, request: RequestMeta): Promise<TokenPair> {
    const now = this.clock.now();
    const passed = await this.mfa.pass(
      dto,
      'api',
      request,
      (userId) => this.limiter.hitAccount('mfa', `user:${userId}`),
      async (tx, events, p) => {
        if (!p.user.isActive) throw new DomainError(END_USER_ERRORS.mfa_token_invalid, 'This account can no longer sign in');
        const policy = p.reason === 'step_up' ? { action: 'challenge' as const, kinds: p.anomalyKinds } : undefined;
        const { pair, options } = await this.apiSession(p.user, p.amr, now, policy);
        await this.signIn.openSessionIn(tx, events, p.user, options, request, undefined, now);
        return pair;
      },
    );
    return passed.opened!;
  }

  private async openApiSession(user: EndUserRecord, amr: string[], request: RequestMeta): Promise<TokenPair> {
    const now = this.clock.now();
    const { pair, options } = await this.apiSession(user, amr, now);
    await this.signIn.startSession(user, options, request, undefined, now);
    return pair;
  }

  /** Tokens for a new API session, and the session's options. */
  private async apiSession(
    user: EndUserRecord,
    amr: string[],
    now: Date,
    policy?: { action: 'challenge'; kinds: string[] },
  ): Promise<{ pair: TokenPair; options: SessionOptions }> {
    const session = { id: randomUUID(), workspaceId: user.workspaceId, userId: user.id, oauthClientId: user.oauthClientId, amr };
    const { pair, refresh } = await this.sessions.mintTokens(session, now);
    return { pair, options: { kind: 'api', id: session.id, expiresAt: this.sessions.refreshExpiry(now), refresh, amr, policy } };
  }
}
