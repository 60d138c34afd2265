import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock';
import { isUniqueViolation } from '../common/db-errors';
import { DomainError } from '../common/errors';
import type { RequestMeta } from '../common/request-context';
import { UnitOfWork } from '../database/unit-of-work';
import { EndUserRecord, EndUsersRepository } from '../end-user-directory/end-users.repository';
import { AuthorizationContinuationPort } from '../hosted-login/authorization-continuation';
import { BrowserSession, BrowserSessionsService } from '../hosted-login/browser-sessions.service';
import { SignInGate } from '../second-factor/sign-in-gate.service';
import { SessionsService } from '../sessions/sessions.service';
import { SignInService } from '../end-users/sign-in.service';
import { DomainEventBus } from '../events/domain-event-bus';
import type { EndUserSessionRecord } from '../events/domain-events';
import type { SsoConnection } from './entities/sso-connection.entity';
import { SsoConnectionsRepository } from './sso-connections.repository';
import { UPSTREAM_REFUSALS, UpstreamRefusal, type UpstreamRefusalReason } from './upstream-refusals';

/** What a protocol half verified about the person at the upstream (an ID token's claims, a SAML assertion's). */
export interface UpstreamIdentity {
  /** OIDC `iss`; SAML the IdP's entity id. */
  issuer: string;
  /** OIDC `sub`; SAML the persistent NameID or the configured immutable attribute. */
  subject: string;
  email?: string | null;
  /** OIDC `email_verified`; SAML: true for an email NameID or mapped attribute of a signed assertion. */
  emailVerified: boolean;
  firstName?: string | null;
  lastName?: string | null;
  groups?: string[];
  /** The upstream says the person used a second factor (OIDC amr/acr, SAML AuthnContextClassRef). */
  upstreamMfa: boolean;
}

/** The browser the sign-in runs in: its request, where it goes after, and its current hosted-login session. */
export interface BrowserContext {
  request: RequestMeta;
  /** A relative path already checked by the hosted login's rules for `next` (safeNext). */
  next: string;
  previous: BrowserSession | null;
}

/** Signed in: set the `esid` cookie to sessionToken and redirect to location. */
export interface UpstreamSignedIn {
  kind: 'signed-in';
  location: string;
  sessionToken: string;
  userId: string;
}

/** Refused: the hosted error page with this status and message (the reason in words). */
export interface UpstreamRefused {
  kind: 'refused';
  status: number;
  reason: UpstreamRefusalReason;
  message: string;
}

export type UpstreamSignInResult = UpstreamSignedIn | UpstreamRefused;

/** What the binding step decided; `bound`: the subject was already bound to this person. */
type Matched = { user: EndUserRecord; bound: boolean } | { refusal: UpstreamRefusal };

/**
 * The end of every upstream sign-in, whatever the protocol (docs/sso-connections.md, "The
 * upstream sign-in contract"): binds the upstream subject to a person of the workspace's directory
 * (decision 0410), applies the workspace's sign-in policy, and opens the hosted login's browser
 * session; or refuses with a typed reason, audited as login_failure and listed in the connection's
 * attempts.
 */
@Injectable()
export class UpstreamSignInService {
  private readonly log = new Logger('UpstreamSignIn');

  constructor(
    private readonly uow: UnitOfWork,
    private readonly connections: SsoConnectionsRepository,
    private readonly users: EndUsersRepository,
    private readonly signIn: SignInService,
    private readonly sessions: SessionsService,
    private readonly browser: BrowserSessionsService,
    private readonly gate: SignInGate,
    private readonly authorization: AuthorizationContinuationPort,
    private readonly events: DomainEventBus,
    private readonly clock: Clock,
  ) {}

  /**
   * Matching (decision 0410): the subject's binding wins; without one, the directory person whose
   * email equals the upstream's verified email is bound; without one, `jit` creates exactly one.
   * A deactivated person is refused. Then the sign-in policy (an upstream MFA claim counts only
   * where the connection trusts it) and the session (amr `fed`, plus `mfa` when trusted).
   */
  async completeUpstreamSignIn(
    connection: SsoConnection,
    identity: UpstreamIdentity,
    browser: BrowserContext,
    known?: { bound: EndUserRecord | null },
  ): Promise<UpstreamSignInResult> {
    const facts = { subject: identity.subject, email: identity.email ?? undefined };
    const matched = await this.match(connection, identity, known);
    if ('refusal' in matched) return this.refuse(connection, matched.refusal, browser.request);
    const { user, bound } = matched;
    if (!user.isActive) return this.refuse(connection, new UpstreamRefusal('user_deactivated', undefined, facts), browser.request, user);

    const mfa = connection.trustUpstreamMfa && identity.upstreamMfa;
    let policy: { action: 'challenge'; kinds: string[] } | undefined;
    try {
      policy = await this.gate.afterPasskey(user, browser.request);
    } catch (err) {
      if (!(err instanceof DomainError) || err.code !== 'sign_in_blocked') throw err;
      return this.refuse(connection, new UpstreamRefusal('sign_in_blocked', undefined, facts), browser.request, user);
    }
    if (policy && !mfa) {
      return this.refuse(connection, new UpstreamRefusal('mfa_required', policy.kinds.join(','), facts), browser.request, user);
    }

    let opened;
    try {
      const session = { amr: mfa ? ['fed', 'mfa'] : ['fed'], policy };
      const returning = bound && !browser.previous && !this.vouchesForEmail(user, identity);
      opened = returning ? await this.openReturningSession(connection, identity, user, session, browser) : null;
      opened ??= await this.openSession(connection, identity, user, session.amr, browser, policy);
    } catch (err) {
      if (err instanceof UpstreamRefusal) return this.refuse(connection, err, browser.request, user);
      throw err;
    }
    const answered = await this.authorization.after(browser.next, {
      sessionId: opened.session.id,
      userId: user.id,
      workspaceId: user.workspaceId,
      oauthClientId: user.oauthClientId,
      email: user.email,
      authenticatedAt: opened.session.createdAt,
      amr: opened.session.amr,
    });
    return { kind: 'signed-in', location: answered ?? browser.next, sessionToken: opened.token, userId: user.id };
  }

  /**
   * A refused upstream answer: audited as login_failure (metadata.reason, provider_id), listed in
   * the connection's attempts, and answered as the error page naming the reason in words.
   */
  async refuse(
    connection: SsoConnection,
    refusal: UpstreamRefusal,
    request: RequestMeta,
    user?: EndUserRecord | null,
  ): Promise<UpstreamRefused> {
    const { reason, detail, facts } = refusal;
    this.log.log({ msg: 'upstream sign-in refused', connection: connection.id, reason, detail, request_id: request.requestId });
    await this.events.publish('login_failure', {
      workspaceId: connection.workspaceId,
      actor: user
        ? { type: 'end_user', id: user.id, email: user.email }
        : { type: 'anonymous', id: null, ...(facts.email ? { email: facts.email.toLowerCase() } : {}) },
      target: user ? { type: 'EndUser', id: user.id } : { type: 'external_provider', id: connection.id },
      oauthClientId: null,
      request,
      metadata: { reason, provider_id: connection.id, ...(detail ? { detail: detail.slice(0, 500) } : {}) },
    });
    await this.connections.recordAttempt(connection.workspaceId, {
      connectionId: connection.id,
      outcome: 'failure',
      reason,
      subject: facts.subject ?? null,
      email: facts.email ?? null,
      userId: user?.id ?? null,
      requestId: request.requestId,
    });
    return { kind: 'refused', status: UPSTREAM_REFUSALS[reason].status, reason, message: UPSTREAM_REFUSALS[reason].words };
  }

  /** Who the identity is in the directory, or why nobody may be; `known` the bound person when the caller read it. */
  private async match(connection: SsoConnection, identity: UpstreamIdentity, known?: { bound: EndUserRecord | null }): Promise<Matched> {
    const facts = { subject: identity.subject, email: identity.email ?? undefined };
    // `known`: the caller read the bound person already, with a write of its own (decision 1022).
    const bound = known
      ? known.bound
      : await this.connections.boundPerson(connection.workspaceId, connection.id, identity.issuer, identity.subject);
    if (bound) return { user: bound, bound: true };
    const email = identity.email?.trim().toLowerCase();
    if (!email || !identity.emailVerified) return { refusal: new UpstreamRefusal('email_unverified', undefined, facts) };
    const user = await this.users.directoryAccount(connection.workspaceId, email);
    if (user) return { user, bound: false };
    if (!connection.jit) return { refusal: new UpstreamRefusal('user_not_provisioned', undefined, facts) };
    return { user: await this.createJustInTime(connection, identity, email), bound: false };
  }

  /** One account per email: a concurrent first sign-in that made it first wins, and this one uses it. */
  private async createJustInTime(connection: SsoConnection, identity: UpstreamIdentity, email: string): Promise<EndUserRecord> {
    try {
      return await this.uow.run((tx) =>
        this.users.insertDirectoryAccount(tx, connection.workspaceId, {
          email,
          firstName: (identity.firstName ?? '').slice(0, 200),
          lastName: (identity.lastName ?? '').slice(0, 200),
          now: this.clock.now(),
        }),
      );
    } catch (err) {
      const taken = (err instanceof DomainError && err.code === 'email_taken') || isUniqueViolation(err);
      const existing = taken ? await this.users.directoryAccount(connection.workspaceId, email) : null;
      if (!existing) throw err;
      return existing;
    }
  }

  /** The company's IdP vouches for the address it verified: the person's own email is then proven. */
  private vouchesForEmail(user: EndUserRecord, identity: UpstreamIdentity): boolean {
    return !user.emailVerified && identity.emailVerified && identity.email?.toLowerCase() === user.email.toLowerCase();
  }

  /**
   * A returning person (the subject already bound to them, nothing to verify, no previous session
   * to replace): the binding touched, the successful attempt, the browser session and its
   * login_success audit row in one statement (decision 1021) instead of BEGIN, the binding, the
   * session, the audit row and COMMIT. Null when the person's binding moved meanwhile (the subject
   * unbound and the person bound to another one): the transaction of openSession then rebinds.
   */
  private async openReturningSession(
    connection: SsoConnection,
    identity: UpstreamIdentity,
    user: EndUserRecord,
    session: { amr: string[]; policy: { action: 'challenge'; kinds: string[] } | undefined },
    browser: BrowserContext,
  ): Promise<{ session: EndUserSessionRecord; token: string } | null> {
    const cookie = this.browser.newToken();
    const now = this.clock.now();
    const draft = this.signIn.draftSession(
      user,
      { kind: 'browser', expiresAt: cookie.expiresAt, browserTokenHash: cookie.hash, ...session, metadata: { provider_id: connection.id } },
      browser.request,
      now,
    );
    const binding = { connectionId: connection.id, issuer: identity.issuer, subject: identity.subject, userId: user.id };
    const attempt = { email: identity.email ?? null, requestId: browser.request.requestId ?? null };
    let written: boolean;
    try {
      written = await this.uow.runAsOneStatement(
        draft.signedIn,
        (on, riders) => this.connections.signIn(on, connection.workspaceId, binding, draft.values, attempt, riders),
        (wrote) => wrote,
      );
    } catch (err) {
      if (isUniqueViolation(err, 'sso_bindings_user_key')) return null;
      throw err;
    }
    if (!written) {
      throw new UpstreamRefusal('identity_conflict', 'subject bound to another person meanwhile', {
        subject: identity.subject,
        email: identity.email ?? undefined,
      });
    }
    return { session: draft.record, token: cookie.token };
  }

  /**
   * The binding, the verified email, the browser session and the successful attempt, in one unit
   * of work: the session exists exactly when the subject is bound to its person. The browser's
   * previous session is replaced.
   */
  private async openSession(
    connection: SsoConnection,
    identity: UpstreamIdentity,
    user: EndUserRecord,
    amr: string[],
    browser: BrowserContext,
    policy: { action: 'challenge'; kinds: string[] } | undefined,
  ) {
    const cookie = this.browser.newToken();
    const now = this.clock.now();
    const work = () =>
      this.uow.run(async (tx, events) => {
        // The successful attempt is written by the same statement, and commits with the session it opens.
        const { boundTo } = await this.connections.bind(
          tx,
          connection.workspaceId,
          { connectionId: connection.id, issuer: identity.issuer, subject: identity.subject, userId: user.id },
          now,
          { email: identity.email ?? null, requestId: browser.request.requestId ?? null },
        );
        if (boundTo !== user.id) {
          throw new UpstreamRefusal('identity_conflict', 'subject bound to another person meanwhile', {
            subject: identity.subject,
            email: identity.email ?? undefined,
          });
        }
        if (this.vouchesForEmail(user, identity)) {
          await this.users.markVerified(tx, user.workspaceId, user.id, now);
        }
        if (browser.previous) {
          await this.sessions.revokeIn(tx, browser.previous.workspaceId, { sessionId: browser.previous.sessionId }, 'replaced', now);
        }
        return this.signIn.openSessionIn(
          tx,
          events,
          user,
          {
            kind: 'browser',
            expiresAt: cookie.expiresAt,
            browserTokenHash: cookie.hash,
            amr,
            policy,
            metadata: { provider_id: connection.id },
          },
          browser.request,
          undefined,
          now,
        );
      });
    let opened;
    try {
      opened = await work();
    } catch (err) {
      // Two first sign-ins of one subject at once: the one that committed second collided on the
      // person's binding (sso_bindings_user_key) while the other's was not visible yet. Run again:
      // the binding is there now and is only touched (never a 500 for a double click).
      if (!isUniqueViolation(err, 'sso_bindings_user_key')) throw err;
      opened = await work();
    }
    return { session: opened.session, token: cookie.token };
  }
}
