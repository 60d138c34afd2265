import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock } from '../common/clock';
import { PasswordHasher } from '../common/crypto/password-hasher';
import { DomainError } from '../common/errors';
import type { RequestMeta } from '../common/request-context';
import { reduceUserAgent } from '../common/user-agent';
import { type EmittedEvents, type Tx, UnitOfWork } from '../database/unit-of-work';
import { DomainEventBus } from '../events/domain-event-bus';
import { type EndUserSessionRecord, byEndUser } from '../events/domain-events';
import { EndUserRecord, EndUsersRepository, SignInScope } from '../end-user-directory/end-users.repository';
import type { NewRefreshToken, NewSession } from '../sessions/sessions.repository';
import { SessionsService } from '../sessions/sessions.service';
import { END_USER_ERRORS } from '../end-user-directory/end-users.errors';

export const INVALID_CREDENTIALS_MESSAGE = 'Email or password is incorrect';
const invalidCredentials = () => new DomainError(END_USER_ERRORS.invalid_credentials, INVALID_CREDENTIALS_MESSAGE);

export interface SessionOptions {
  kind: 'api' | 'browser';
  /** Chosen by the caller when a token must name the session before it is written. */
  id?: string;
  expiresAt: Date;
  browserTokenHash?: string;
  refresh?: NewRefreshToken;
  /** RFC 8176 methods; a password alone when not given. */
  amr?: string[];
  /** The sign-in policy that acted before this session (a passed step-up), for the anomaly record. */
  policy?: { action: 'challenge'; kinds: string[] };
  /** More facts for the login_success row (an enterprise SSO connection's provider_id). */
  metadata?: Record<string, unknown>;
}

/**
 * What opens a session: the account, the session's options, the request, whatever the caller
 * writes beside it in the same transaction (`extra`, e.g. tokens), and the time (now unless given).
 */
export type SessionStart<T> = [
  user: EndUserRecord,
  options: SessionOptions,
  request: RequestMeta,
  extra?: (tx: Tx, session: EndUserSessionRecord, now: Date) => Promise<T>,
  now?: Date,
];

/** The session written, and what `extra` answered (undefined without one). */
export interface OpenedSession<T> {
  session: EndUserSessionRecord;
  result: T | undefined;
}

/**
 * Password sign-in: finds the candidate accounts of the scope, lets the password decide, records a
 * session, and after commit announces `login_success`. An unknown email costs one dummy argon2
 * verify, so it answers like a wrong password in body and in time.
 */
@Injectable()
export class SignInService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: EndUsersRepository,
    private readonly sessions: SessionsService,
    private readonly hasher: PasswordHasher,
    private readonly events: DomainEventBus,
    private readonly clock: Clock,
  ) {}

  /** The account whose password matches, or invalid_credentials (audited as login_failure). */
  async checkPassword(
    scope: SignInScope,
    email: string,
    password: string,
    request: RequestMeta,
    found?: EndUserRecord[],
  ): Promise<EndUserRecord> {
    const candidates = (found ?? (await this.users.candidates(scope.workspaceId, email, scope.oauthClientId))).filter(
      (u) => u.passwordHash,
    );
    if (!candidates.length) {
      await this.hasher.verifyAgainstDummy(password);
      await this.recordFailure(scope, null, email, 'unknown_email', request);
      throw invalidCredentials();
    }
    let match: EndUserRecord | undefined;
    for (const user of candidates) {
      if (await this.hasher.verify(user.passwordHash!, password)) {
        match = user;
        break;
      }
    }
    if (!match || !match.isActive) {
      const target = match ?? candidates[0];
      await this.recordFailure(scope, target, email, match ? 'inactive' : 'wrong_password', request);
      throw invalidCredentials();
    }
    return match;
  }

  /**
   * Create the session row (plus whatever the caller adds in the same transaction, e.g. tokens),
   * audit login_success, commit, then emit the domain event carrying the committed session.
   */
  startSession<T>(...start: SessionStart<T>): Promise<OpenedSession<T>> {
    return this.uow.run((tx, events) => this.openSessionIn(tx, events, ...start));
  }

  /** startSession inside the caller's unit of work (the second step opens the session in the transaction that spends the code). */
  async openSessionIn<T>(
    tx: Tx,
    events: EmittedEvents,
    ...[user, options, request, extra, now = this.clock.now()]: SessionStart<T>
  ): Promise<OpenedSession<T>> {
    const created = await this.sessions.record(tx, user.workspaceId, this.newSession(user, options, request, now));
    const value = extra ? await extra(tx, created, now) : undefined;
    this.emitSignedIn(events, user, created, options, request);
    return { session: created, result: value };
  }

  /**
   * A browser session as openSessionIn would write it, and the row it becomes, for a caller that
   * writes it in its own one statement (an upstream sign-in's binding, decision 1021); `signedIn`
   * emits its login_success before that statement runs.
   */
  draftSession(
    user: EndUserRecord,
    options: SessionOptions,
    request: RequestMeta,
    now: Date,
  ): { values: NewSession; record: EndUserSessionRecord; signedIn: (events: EmittedEvents) => void } {
    const values = this.newSession(user, options, request, now);
    const record: EndUserSessionRecord = {
      id: values.id,
      workspaceId: user.workspaceId,
      userId: values.userId,
      oauthClientId: values.oauthClientId,
      kind: values.kind,
      ipAddress: values.ipAddress,
      userAgent: values.userAgent,
      browserFamily: values.browserFamily,
      osFamily: values.osFamily,
      country: null,
      city: null,
      latitude: null,
      longitude: null,
      createdAt: now,
      lastSeenAt: now,
      amr: values.amr,
    };
    return { values, record, signedIn: (events) => this.emitSignedIn(events, user, record, options, request) };
  }

  private newSession(user: EndUserRecord, options: SessionOptions, request: RequestMeta, now: Date): NewSession {
    const ua = request.userAgent ? request.userAgent.slice(0, 1000) : null;
    const families = reduceUserAgent(ua);
    return {
      id: options.id ?? randomUUID(),
      userId: user.id,
      oauthClientId: user.oauthClientId,
      kind: options.kind,
      ipAddress: request.ip || null,
      userAgent: ua,
      browserFamily: families.browserFamily,
      osFamily: families.osFamily,
      browserTokenHash: options.browserTokenHash ?? null,
      now,
      expiresAt: options.expiresAt,
      amr: options.amr ?? ['pwd'],
      refresh: options.refresh,
    };
  }

  private emitSignedIn(
    events: EmittedEvents,
    user: EndUserRecord,
    created: EndUserSessionRecord,
    options: SessionOptions,
    request: RequestMeta,
  ): void {
    events.emit('login_success', {
      ...byEndUser(user, request, { type: 'EndUserSession', id: created.id }),
      metadata: {
        session_id: created.id,
        session_kind: options.kind,
        browser_family: created.browserFamily,
        os_family: created.osFamily,
        amr: created.amr,
        ...(options.policy ? { policy: options.policy } : {}),
        ...options.metadata,
      },
      session: created,
      user: { id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName, oauthClientId: user.oauthClientId },
    });
  }

  private async recordFailure(
    scope: SignInScope,
    user: EndUserRecord | null,
    email: string,
    reason: string,
    request: RequestMeta,
  ): Promise<void> {
    // Spec E: a login attempt for a non-existent email is an anonymous event with a null actor id.
    await this.events.publish('login_failure', {
      workspaceId: scope.workspaceId,
      actor: user ? { type: 'end_user', id: user.id, email: user.email } : { type: 'anonymous', id: null, email: email.toLowerCase() },
      target: user ? { type: 'EndUser', id: user.id } : undefined,
      oauthClientId: user?.oauthClientId ?? scope.oauthClientId ?? null,
      request,
      metadata: { reason },
    });
  }
}
